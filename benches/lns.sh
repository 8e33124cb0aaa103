#!/usr/bin/env bash
# Large neighbourhood search on the optimisation instances of the Challenge-style suite
# (benches/challenge/, 23 instances that others wrote): the objective each solver reaches
# within T seconds, free search, one thread, side by side in one run: ambsolve with its
# defaults (large neighbourhood search is on where the search is free), ambsolve with
# `--no-lns`, Gecode 6.2, Chuffed 0.13.3 and Pumpkin 0.5.0. Writes the
# section to benches/lns.md (raw rows: benches/lns-results.tsv), splices it into
# BENCHMARKS.md (its "Large neighbourhood search" section) and prints it.
#
# Needs the peers (benches/challenge/setup-peers.sh, once). About 10 minutes on 2 cores:
#   benches/lns.sh            # -T 20 -W 2
#   benches/lns.sh 10 2       # 10 s each, 2 runs at a time
#   COMMIT=abc1234 benches/lns.sh --from benches/lns-results.tsv   # the section again
#                             # from finished rows, made at commit abc1234
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
from=""
if [ "${1:-}" = "--from" ]; then
    from="${2:?--from needs the rows lns.sh wrote}"
    shift 2
fi
limit="${1:-20}"
workers="${2:-2}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
if [ -n "$from" ]; then
    cp "$from" "$out/rows.tsv"
    seconds=""
    commit="${COMMIT:-(the commit the rows were made at)}"
else
    commit="$(git -C "$root" rev-parse --short HEAD)"
    # shellcheck source=benches/peers.sh
    . "$root/benches/peers.sh"
    # The optimisation instances.
    instances=$(awk -F'\t' 'NR > 1 && $3 != "sat" { print $1 }' "$root/benches/challenge/manifest.tsv" | paste -sd, -)
    # ambsolve with --no-lns: a checkout-like folder whose solver configuration runs
    # fzn-ambsolve --no-lns (run.py finds a solver by its checkout).
    plain="$out/no-lns-checkout"
    mkdir -p "$plain/ambsolve-fzn" "$plain/target/release"
    printf '#!/bin/sh\nexec "%s" --no-lns "$@"\n' "$root/target/release/fzn-ambsolve" >"$plain/target/release/fzn-ambsolve"
    chmod +x "$plain/target/release/fzn-ambsolve"
    sed -e "s|\"mznlib\": \"mznlib\"|\"mznlib\": \"$root/ambsolve-fzn/mznlib\"|" \
        -e "s|\"executable\": \"fzn-ambsolve\"|\"executable\": \"$plain/target/release/fzn-ambsolve\"|" \
        "$root/ambsolve-fzn/ambsolve.msc" >"$plain/ambsolve-fzn/ambsolve.msc"
    start=$(date +%s)
    python3 "$root/benches/challenge/run.py" "$out/all" -W "$workers" -T "$limit" \
        --instances "$instances" --checkout "$root" >&2
    python3 "$root/benches/challenge/run.py" "$out/no-lns" -W "$workers" -T "$limit" \
        --instances "$instances" --solvers ambsolve --checkout "$plain" >&2
    seconds=$(($(date +%s) - start))
    {
        head -n 1 "$out/all/results.tsv"
        tail -n +2 "$out/all/results.tsv"
        tail -n +2 "$out/no-lns/results.tsv" | awk -F'\t' -v OFS='\t' '{ $4 = "ambsolve-no-lns"; print }'
    } >"$out/rows.tsv"
fi
if [ -z "$from" ]; then
    cp "$out/rows.tsv" "$root/benches/lns-results.tsv"
fi
{
    echo "## Large neighbourhood search: the objective at the time limit"
    echo
    echo "Regenerate with \`benches/lns.sh\` (needs the peers: \`benches/challenge/setup-peers.sh\`)."
    echo "The 23 optimisation instances of the Challenge-style suite, each solver through"
    echo "\`minizinc --solver ID -f\` (free search), one thread, ${limit} s, ${workers} runs at a time"
    echo "on $(nproc) cores; ambsolve at $commit with its defaults (LNS on: the"
    echo "search is free) and with \`--no-lns\`. Each cell: the verdict (OPT: proved optimal) and"
    echo "the last objective found (\`*\`: the best of the five), then the seconds to the proof,"
    echo "else to the last solution. One run${seconds:+ (${seconds} s)}: times compare only within it. Raw rows:"
    echo "\`benches/lns-results.tsv\`."
    echo
    echo '```text'
    python3 "$root/benches/lns/table.py" "$out/rows.tsv"
    echo '```'
} >"$root/benches/lns.md"
"$root/benches/splice-section.sh" "$root/BENCHMARKS.md" '## Large neighbourhood search' "$root/benches/lns.md"
cat "$root/benches/lns.md"
