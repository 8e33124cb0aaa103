#!/usr/bin/env bash
# The MiniZinc suite side by side: ambsolve (`minizinc --solver ambsolve`, release build of
# fzn-ambsolve) and Gecode (`minizinc --solver gecode -G std`), one thread each, 20 s each
# instance: verdict, objective and wall time of each (the whole `minizinc` run, flattening
# included, for both), the number solved within 20 s, and the geometric mean of the
# ambsolve / Gecode time ratios over the instances both solve. Writes the section to
# benches/minizinc.md and into BENCHMARKS.md (replacing its "MiniZinc suite" section), and
# prints it, with a scale table (a chain of 100,000 and 1.5 million variables, time and
# peak memory). Needs `minizinc` (apt-get install minizinc). About three minutes:
#   benches/minizinc.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
suite="$root/ambsolve-fzn/tests/minizinc"
limit=20
cargo build --release --quiet -p ambsolve-fzn --manifest-path "$root/Cargo.toml"
target="$(cargo metadata --format-version 1 --no-deps --manifest-path "$root/Cargo.toml" \
    | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
export PATH="$target/release:$PATH"
export MZN_SOLVER_PATH="$root/ambsolve-fzn"
# shellcheck source=../ambsolve-fzn/tests/minizinc/answers.sh
. "$suite/answers.sh"

# One run: prints "verdict<TAB>objective<TAB>seconds<TAB>solved".
run() {
    local solver=("$@")
    local start end out verdict value solved secs
    start=$(date +%s%N)
    out="$(timeout $((limit + 30)) minizinc "${solver[@]}" -p 1 -t $((limit * 1000)) \
        --output-objective --output-mode dzn "$model" "$data" 2>&1)" || true
    end=$(date +%s%N)
    secs=$(awk -v ns=$((end - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
    value="$(objective_of "$out")"
    verdict="$(verdict_of "$out")"
    # Solved: a proof (optimum, unsatisfiable) or, for a satisfaction, a solution, in time.
    solved=no
    if awk -v s="$secs" -v l="$limit" 'BEGIN { exit !(s <= l) }'; then
        case "$verdict" in
            OPTIMAL | UNSAT) solved=yes ;;
            SAT) [ -z "$value" ] && solved=yes ;;
        esac
    fi
    [ "$verdict" = SAT ] && [ -n "$value" ] && verdict="SAT (no proof)"
    # An answer MiniZinc refuses for the model is no solve (see `accepted`).
    if [[ "$verdict" == SAT* || "$verdict" == OPTIMAL ]] \
        && ! accepted "$model" "$data" "$out" >/dev/null; then
        verdict=REJECTED
        solved=no
    fi
    printf '%s\t%s\t%s\t%s\n' "$verdict" "$value" "$secs" "$solved"
}

# One wall time of a command, in seconds.
wall() {
    local start end
    start=$(date +%s%N)
    timeout $((limit + 30)) "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    awk -v ns=$((end - start)) 'BEGIN { printf "%.4f", ns / 1e9 }'
}

# Each solver alone on its own FlatZinc (flattening left out, process start-up kept):
# ambsolve on "$name.fzn", Gecode on "$gecode_fzn", in turn five times (so that a change in
# the machine's load falls on both), and the median wall time of each, in seconds:
# "ours<TAB>gecode".
alone() {
    local ours=() gecode=()
    for _ in 1 2 3 4 5; do
        ours+=("$(wall fzn-ambsolve -p 1 -t $((limit * 1000)) "$name.fzn")")
        gecode+=("$(wall fzn-gecode -p 1 -time $((limit * 1000)) "$gecode_fzn")")
    done
    printf '%s\t%s\n' "$(printf '%s\n' "${ours[@]}" | sort -g | sed -n 3p)" \
        "$(printf '%s\n' "${gecode[@]}" | sort -g | sed -n 3p)"
}

gecode_fzn="$(mktemp --suffix .fzn)"
trap 'rm -f "$gecode_fzn"' EXIT
rows=""
cd "$suite"
while IFS= read -r row; do
    model="$(cut -f1 <<<"$row")"
    data="$(cut -f2 <<<"$row")"
    name="${data%.dzn}"
    echo "$name" >&2
    ours="$(run --solver ambsolve)"
    gecode="$(run --solver gecode -G std)"
    minizinc -c --solver gecode -G std --no-output-ozn "$model" "$data" --fzn "$gecode_fzn"
    rows+="$name	$ours	$gecode	$(alone)"$'\n'
done < <(tail -n +2 expected.tsv)

# Scale: a chain x0 <= x1 <= .. over 0..3, no search annotation, each solver alone on the
# same FlatZinc: wall time and peak memory (GNU time), the median of three runs for
# 100,000 variables, one run for 1.5 million (an 85 MB file).
chain="$(mktemp --suffix .fzn)"
trap 'rm -f "$gecode_fzn" "$chain"' EXIT
measure() { # prints "seconds<TAB>peak MB" of one run of "$@"
    /usr/bin/time -f '%e\t%M' "$@" 2>&1 >/dev/null | tail -1 \
        | awk -F'\t' '{ printf "%.2f\t%.0f\n", $1, $2 / 1024 }'
}
scale=""
if [ -x /usr/bin/time ]; then
    for n in 100000 1500000; do
        echo "chain $n" >&2
        awk -v n="$n" 'BEGIN {
            for (i = 0; i < n; i++) printf "var 0..3: x%d :: output_var;\n", i
            for (i = 0; i + 1 < n; i++) printf "constraint int_le(x%d, x%d);\n", i, i + 1
            print "solve satisfy;"
        }' >"$chain"
        runs=3
        [ "$n" -gt 100000 ] && runs=1
        ours=() gecode=()
        for _ in $(seq $runs); do
            ours+=("$(measure fzn-ambsolve "$chain")")
            gecode+=("$(measure fzn-gecode "$chain")")
        done
        middle=$(((runs + 1) / 2))
        o="$(printf '%s\n' "${ours[@]}" | sort -g | sed -n "${middle}p")"
        g="$(printf '%s\n' "${gecode[@]}" | sort -g | sed -n "${middle}p")"
        scale+="$n	$o	$g"$'\n'
    done
fi

section="$(awk -F'\t' -v limit="$limit" '
    NF < 11 { next }
    {
        n++
        printf "| %s | %s | %s | %s s | %s | %s | %s s |", $1, $2, $3, $4, $6, $7, $8
        if ($5 == "yes") ours++
        if ($9 == "yes") gecode++
        if ($5 == "yes" && $9 == "yes") {
            ratio = $4 / $8; both++; logsum += log(ratio)
            alone = $10 / $11; logalone += log(alone)
            printf " %.2f | %.3f s | %.3f s | %.2f |\n", ratio, $10, $11, alone
        } else {
            printf " — | %.3f s | %.3f s | — |\n", $10, $11
        }
    }
    END {
        printf "\nSolved within %d s: ambsolve %d of %d, Gecode %d of %d. ", limit, ours, n, gecode, n
        printf "Geometric mean of the ambsolve / Gecode time ratios over the %d instances both solve: %.2f for the whole runs, %.2f for the solvers alone.\n", both, exp(logsum / both), exp(logalone / both)
    }' <<<"$rows")"

{
    echo "## MiniZinc suite: ambsolve and Gecode side by side"
    echo
    echo "Regenerate with \`benches/minizinc.sh\` (about two minutes; needs \`minizinc\`)."
    echo "The 31 instances of \`ambsolve-fzn/tests/minizinc/\` through \`minizinc --solver ambsolve\`"
    echo "(release build) and \`minizinc --solver gecode -G std\` (Debian's MiniZinc 2.6.4, Gecode"
    echo "6.2.0), one thread each (\`-p 1\`), \`-t ${limit}000\`. Times are wall times of the whole"
    echo "\`minizinc\` run, flattening included for both, one run each on a shared machine: compare"
    echo "ratios, not digits. \"SAT (no proof)\": an optimisation stopped by the time limit."
    echo "Every answer is checked: its last solution, given to the model as data, must be"
    echo "accepted by MiniZinc and extended by Gecode (as \`run-minizinc.sh\` checks ambsolve's);"
    echo "\"REJECTED\": an answer the model refuses, which does not count as solved."
    echo "\"Alone\": each solver on its own FlatZinc (\`fzn-ambsolve\` on the committed \`.fzn\`,"
    echo "\`fzn-gecode\` on MiniZinc's \`-G std\` compilation of the same instance), flattening left"
    echo "out and process start-up kept, the median of five runs, the two solvers in turn."
    echo
    echo "| instance | ambsolve | objective | time | Gecode | objective | time | ratio | ambsolve alone | Gecode alone | ratio alone |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    echo "$section"
    echo
    echo "### Scale: a chain of n variables"
    echo
    echo "\`x0 <= x1 <= ..\` over 0..3 (\`int_le\`, every variable an \`output_var\`, no search"
    echo "annotation), \`fzn-ambsolve\` and \`fzn-gecode\` alone on the same FlatZinc: wall time"
    echo "(reading included) and peak memory (GNU time's maximum resident set), the median of"
    echo "three runs at 100,000 variables, one run at 1.5 million (an 85 MB file). Targets: within"
    echo "3× Gecode's time at 100,000; less memory than Gecode at 1.5 million."
    echo
    if [ -n "$scale" ]; then
        echo "| variables | ambsolve | peak | Gecode | peak | time ratio | memory ratio | target |"
        echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
        awk -F'\t' 'NF == 5 {
            t = $2 / $4; m = $3 / $5
            if ($1 <= 100000) { target = "time within 3×"; ok = (t <= 3) }
            else { target = "less memory"; ok = (m < 1) }
            printf "| %d | %.2f s | %d MB | %.2f s | %d MB | %.2f | %.2f | %s — %s |\n",
                $1, $2, $3, $4, $5, t, m, target, ok ? "met" : "**not met**"
        }' <<<"$scale"
    else
        echo "Not measured: GNU time (\`/usr/bin/time\`) is not installed."
    fi
    # The reading of the table, kept by hand (it does not change with a rerun's digits).
    if [ -f "$root/benches/minizinc-notes.md" ]; then
        echo
        cat "$root/benches/minizinc-notes.md"
    fi
} >"$root/benches/minizinc.md"

# Splice the section into BENCHMARKS.md: replace it if there, else append it.
"$root/benches/splice-section.sh" "$root/BENCHMARKS.md" '## MiniZinc suite' "$root/benches/minizinc.md"
cat "$root/benches/minizinc.md"
