# Reading the output of `minizinc --output-mode dzn --output-objective` (one run): sourced
# by run-minizinc.sh and benches/minizinc.sh.

# The verdict of a run: UNSAT, OPTIMAL (the search space was exhausted after solutions:
# `==========`), SAT (solutions, no proof) or UNKNOWN.
verdict_of() {
    if grep -q '^=====UNSATISFIABLE=====' <<<"$1"; then
        echo UNSAT
    elif grep -q '^==========' <<<"$1"; then
        echo OPTIMAL
    elif grep -q '^----------' <<<"$1"; then
        echo SAT
    else
        echo UNKNOWN
    fi
}

# The objective of the last solution printed (empty for a satisfaction problem).
objective_of() {
    sed -n 's/^_objective = \(-\{0,1\}[0-9]*\);$/\1/p' <<<"$1" | tail -n 1
}

# The last solution printed, as data for the model (the objective left out).
last_solution() {
    awk '/^----------$/ { last = block; block = ""; next }
         /^(=====|_objective)/ { next }
         { block = block $0 "\n" }
         END { printf "%s", last }' <<<"$1"
}

# Whether MiniZinc accepts the last solution in a run's output $3 for model $1 and data $2:
# given as data, MiniZinc itself evaluates the constraints on the values, with its own
# meaning of every operator, and Gecode must extend them to a whole solution (the
# variables the output leaves out). Prints what the check printed when it refuses.
accepted() {
    local solution check
    solution="$(mktemp --suffix .dzn)"
    last_solution "$3" >"$solution"
    check="$(minizinc --solver gecode -G std -t 60000 "$1" "$2" "$solution" 2>&1)" || true
    rm -f "$solution"
    if grep -q '^----------' <<<"$check"; then
        return 0
    fi
    tail -n 5 <<<"$check"
    return 1
}
