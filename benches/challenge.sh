#!/usr/bin/env bash
# The Challenge-style suite side by side: ambsolve (this checkout's release fzn-ambsolve,
# its defaults: learning where the search is free), Gecode 6.2, Chuffed 0.13.3 and Pumpkin
# 0.5.0 on the 36 instances of benches/challenge/ (MiniZinc benchmarks others wrote; see
# benches/challenge/SOURCE.md), free search, one thread, T seconds each, scored as the
# MiniZinc Challenge scores (Borda). Writes the section to benches/challenge.md (and the
# raw rows to benches/challenge-results.tsv), splices it into BENCHMARKS.md (replacing its
# "Challenge-style suite" section) and prints it.
#
# Needs the peers, installed once (as root or with sudo; Gecode, Chuffed from its source
# in benches/challenge/peers, Pumpkin from crates.io; a few minutes):
#   benches/challenge/setup-peers.sh
# Then (about 12 minutes on 2 cores):
#   benches/challenge.sh            # -T 20 -W 2
#   benches/challenge.sh 30 4       # 30 s each, 4 runs at a time (keep W <= free cores)
#   benches/challenge.sh --from DIR  # the section from a finished `run.py DIR -T 20 -W 2`
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
from=""
if [ "${1:-}" = "--from" ]; then
    from="${2:?--from needs the folder run.py wrote}"
    shift 2
fi
limit="${1:-20}"
workers="${2:-2}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
if [ -n "$from" ]; then
    cp -r "$from" "$out/run"
    seconds=""
else
    # shellcheck source=benches/peers.sh
    . "$root/benches/peers.sh"
    start=$(date +%s)
    python3 "$root/benches/challenge/run.py" "$out/run" -W "$workers" -T "$limit" --checkout "$root" >&2
    seconds=$(($(date +%s) - start))
fi
python3 "$root/benches/challenge/score.py" "$out/run/results.tsv" >"$out/score.txt"
cp "$out/run/results.tsv" "$root/benches/challenge-results.tsv"

{
    echo "## Challenge-style suite: ambsolve, Gecode, Chuffed and Pumpkin"
    echo
    echo "Regenerate with \`benches/challenge.sh\` (needs the peers: \`benches/challenge/setup-peers.sh\`)."
    echo "36 instances of 35 MiniZinc benchmark problems (23 optimisation, 13 satisfaction;"
    echo "\`benches/challenge/manifest.tsv\`), each solver through \`minizinc --solver ID -f\`"
    echo "(free search), one thread, ${limit} s, ${workers} runs at a time on $(nproc) cores;"
    echo "ambsolve at $(git -C "$root" rev-parse --short HEAD) with its defaults (the search is free: it"
    echo "learns, and optimising it runs LNS). Scored as the MiniZinc Challenge scores: on each instance every pair of"
    echo "solvers shares a point (a proof beats no proof, a better objective beats a worse one,"
    echo "ties by time), so at most 3 points an instance and 108 in all. One run${seconds:+ ($seconds s)}:"
    echo "times compare only within it. Raw rows: \`benches/challenge-results.tsv\`."
    echo
    echo '```text'
    cat "$out/score.txt"
    echo '```'
} >"$root/benches/challenge.md"

# Splice the section into BENCHMARKS.md: replace it if there, else append it.
"$root/benches/splice-section.sh" "$root/BENCHMARKS.md" '## Challenge-style suite' "$root/benches/challenge.md"
cat "$root/benches/challenge.md"
