// Classic backtracking n-queens, as JavaScript tutorials write it: one queen per row,
// each column checked against the queens above.
function count(n) {
  const cols = new Array(n);
  let solutions = 0;
  function safe(row, col) {
    for (let r = 0; r < row; r++) {
      if (cols[r] === col || Math.abs(cols[r] - col) === row - r) return false;
    }
    return true;
  }
  function place(row) {
    if (row === n) { solutions++; return; }
    for (let col = 0; col < n; col++) {
      if (safe(row, col)) { cols[row] = col; place(row + 1); }
    }
  }
  place(0);
  return solutions;
}
const n = Number(process.argv[2]);
const t = process.hrtime.bigint();
const c = count(n);
console.log(`n=${n} solutions ${c} ${(Number(process.hrtime.bigint() - t) / 1e9).toFixed(3)} s`);
