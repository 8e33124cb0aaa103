#!/usr/bin/env bash
# Runs every instance that ambsolve supports (an empty row of blocked.tsv) through
# `minizinc --solver ambsolve`, from the .mzn and .dzn files, and compares the verdict and
# objective with Gecode's (expected.tsv). Tests the .msc, the mznlib and fzn-ambsolve as
# MiniZinc runs them. Needs `minizinc` (apt-get install minizinc). Run from anywhere:
#   ambsolve-fzn/tests/minizinc/run-minizinc.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cargo build --release --quiet -p ambsolve-fzn --manifest-path "$root/Cargo.toml"
target="$(cargo metadata --format-version 1 --no-deps --manifest-path "$root/Cargo.toml" \
    | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
export PATH="$target/release:$PATH"
export MZN_SOLVER_PATH="$(cd "$here/../.." && pwd)"
cd "$here"
failed=0
passed=0
while IFS= read -r row; do
    # Fields by cut: `read` would merge the empty objective of a SAT row with its tabs.
    model="$(cut -f1 <<<"$row")"
    data="$(cut -f2 <<<"$row")"
    verdict="$(cut -f3 <<<"$row")"
    objective="$(cut -f4 <<<"$row")"
    fzn="${data%.dzn}.fzn"
    blocked="$(awk -F'\t' -v f="$fzn" '$1 == f { print $2 }' blocked.tsv)"
    if [ -n "$blocked" ]; then
        echo "skip  $fzn (unsupported: $blocked)"
        continue
    fi
    out="$(minizinc --solver ambsolve --output-objective --output-mode dzn -t 60000 \
        "$model" "$data" 2>&1)" || true
    got=UNKNOWN
    if grep -q '^=====UNSATISFIABLE=====' <<<"$out"; then
        got=UNSAT
    elif grep -q '^==========' <<<"$out" && [ -n "$objective" ]; then
        got=OPTIMAL
    elif grep -q '^----------' <<<"$out"; then
        got=SAT
    fi
    value="$(sed -n 's/^_objective = \(-\{0,1\}[0-9]*\);$/\1/p' <<<"$out" | tail -n 1)"
    if [ "$got" = "$verdict" ] && [ "$value" = "$objective" ]; then
        echo "ok    $fzn $got $value"
        passed=$((passed + 1))
    else
        echo "FAIL  $fzn: expected $verdict $objective, got $got $value"
        echo "$out" | tail -n 5
        failed=$((failed + 1))
    fi
done < <(tail -n +2 expected.tsv)
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
