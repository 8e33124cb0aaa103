#!/usr/bin/env bash
# Compiles every instance of expected.tsv to FlatZinc with ambsolve's own solver library
# (../../mznlib, through ../../ambsolve.msc), writing DIR/DATA.fzn beside each data file. Needs `minizinc` (Debian's
# 2.6.4 is the reference: `apt-get install minizinc`). Run from anywhere:
#   ambsolve-fzn/tests/minizinc/compile.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# The directory holding ambsolve.msc: `--solver ambsolve` then finds the .msc and its mznlib.
export MZN_SOLVER_PATH="$(cd "$here/../.." && pwd)"
cd "$here"
tail -n +2 expected.tsv | while IFS=$'\t' read -r model data _; do
    out="${data%.dzn}.fzn"
    echo "$model $data -> $out"
    # ambsolve's mznlib first, the standard library for what it does not define. No .ozn:
    # the tests read the output annotations of the .fzn.
    minizinc -c --solver ambsolve --no-output-ozn "$model" "$data" --fzn "$out" \
        || { echo "failed: $model $data" >&2; exit 1; }
done
