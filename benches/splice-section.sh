#!/usr/bin/env bash
# Splices a section into a Markdown report: replaces the section whose heading starts with
# HEADING (up to the next `## ` heading) by the contents of FILE, or appends FILE if the
# report has no such section. Used by benches/minizinc.sh and benches/challenge.sh:
#   benches/splice-section.sh REPORT '## MiniZinc suite' benches/minizinc.md
set -euo pipefail
report="$1" heading="$2" file="$3"
awk -v file="$file" -v heading="$heading" '
    index($0, heading) == 1 { skipping = 1; while ((getline line < file) > 0) print line; print ""; next }
    skipping && /^## / { skipping = 0 }
    !skipping { print }
' "$report" >"$report.new"
if ! grep -qF -- "$heading" "$report"; then
    { echo; cat "$file"; } >>"$report.new"
fi
mv "$report.new" "$report"
