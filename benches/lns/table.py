#!/usr/bin/env python3
"""The table of benches/lns.sh: per optimisation instance, each solver's verdict, last
objective (the best marked) and seconds (to the proof, else to the last solution); then, over the instances no solver proved, how often each
solver has the best objective (ties count for each).

Usage: python3 table.py RESULTS.tsv   (rows of benches/challenge/run.py, solver names as
given: ambsolve, ambsolve-no-lns, gecode, chuffed, pumpkin)
"""
import csv, sys

ORDER = ['ambsolve', 'ambsolve-no-lns', 'gecode', 'chuffed', 'pumpkin']
SHORT = {'OPTIMAL': 'OPT', 'SAT': 'SAT', 'UNSAT': 'UNS', 'UNKNOWN': 'UNK', 'ERROR': 'ERR'}


def main(path):
    with open(path) as f:
        rows = list(csv.DictReader(f, delimiter='\t'))
    solvers = [s for s in ORDER if any(r['solver'] == s for r in rows)]
    by = {}
    kinds = {}
    for r in rows:
        by[(r['instance'], r['solver'])] = r
        kinds[r['instance']] = r['kind']
    instances = sorted(kinds)
    width = max(len(i) for i in instances)
    print(f"{'instance':<{width}} kind " + ''.join(f'{s:>21}' for s in solvers))
    open_best = {s: 0 for s in solvers}
    unproved = 0
    for inst in instances:
        kind = kinds[inst]
        got = {}
        for s in solvers:
            r = by.get((inst, s))
            if r and r['objective'] not in ('', None):
                got[s] = int(r['objective'])
        best = None
        if got:
            best = min(got.values()) if kind == 'min' else max(got.values())
        cells = []
        for s in solvers:
            r = by.get((inst, s))
            verdict = SHORT.get(r['verdict'], r['verdict']) if r else '-'
            value = f"{got[s]}{'*' if got[s] == best else ''}" if s in got else ''
            # A proof's time, else the time of the last solution.
            seconds = (r['wall'] if r and r['verdict'] == 'OPTIMAL' else r['t_last_sol']) if r else ''
            when = f' {float(seconds):.1f}' if seconds not in ('', None) else ''
            cells.append(f'{verdict + " " + value + when:>21}')
        print(f'{inst:<{width}} {kind:<4} ' + ''.join(cells))
        if not any(by.get((inst, s), {}).get('verdict') == 'OPTIMAL' for s in solvers):
            unproved += 1
            for s in solvers:
                if s in got and got[s] == best:
                    open_best[s] += 1
    print()
    print(f'{unproved} instances no solver proved; best objective among them (ties count for each):')
    for s in solvers:
        print(f'  {s:<14} {open_best[s]}')


if __name__ == '__main__':
    main(sys.argv[1])
