//! An animated n-queens board: a self-contained HTML page (no external files) that replays
//! the events of a search step by step — each queen tried, failures in red, solutions in
//! green, backtracks taking queens off — with play, pause, step and speed controls.

use std::fmt::Write as _;

use ambsolve::Event;

use crate::svg::escape;

/// The page for an `n`×`n` board replaying `events` (the trail engine's or the replay
/// engine's, on the model of `puzzles::queens`: variable `i` is row `i`).
pub fn board_page(n: usize, title: &str, events: &[Event], dropped: u64) -> String {
    let steps = steps_json(events);
    let more = if dropped > 0 {
        format!(
            " (the first {} steps; {dropped} more not shown)",
            events.len()
        )
    } else {
        String::new()
    };
    let mut page = String::new();
    let _ = write!(
        page,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
td {{ width: 44px; height: 44px; text-align: center; font-size: 30px; }}
td.light {{ background: #f0d9b5; }} td.dark {{ background: #b58863; }}
td.fail {{ color: #c62828; }} td.solved {{ color: #2e7d32; }}
#log {{ font-family: monospace; min-height: 1.4em; }}
</style></head><body>
<h1>{title}</h1>
<p>{count} steps{more}. A queen placed by a choice is black, red when its branch fails,
green when the board is a solution.</p>
<div><button id="play">play</button> <button id="step">step</button>
<button id="reset">reset</button> speed <input id="speed" type="range" min="1" max="60" value="8">
<span id="at"></span></div>
<table id="board"></table>
<div id="log"></div>
<script>
const N = {n};
const STEPS = {steps};
const board = document.getElementById("board");
const cells = [];
for (let r = 0; r < N; r++) {{
  const row = board.insertRow();
  cells.push([]);
  for (let c = 0; c < N; c++) {{
    const cell = row.insertCell();
    cell.className = (r + c) % 2 === 0 ? "light" : "dark";
    cells[r].push(cell);
  }}
}}
let at = 0, queens = [], state = "", timer = null, solutions = 0;
function draw() {{
  for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) {{
    cells[r][c].textContent = "";
    cells[r][c].classList.remove("fail", "solved");
  }}
  queens.forEach(([r, c], k) => {{
    cells[r][c].textContent = "\u265B";
    if (state === "solution") cells[r][c].classList.add("solved");
    if (state === "fail" && k === queens.length - 1) cells[r][c].classList.add("fail");
  }});
  document.getElementById("at").textContent = `step ${{at}} of ${{STEPS.length}}, solutions ${{solutions}}`;
}}
function apply(step) {{
  const log = document.getElementById("log");
  state = step[0];
  if (step[0] === "try") {{
    queens = queens.slice(0, step[1] - 1);
    queens.push([step[2], step[3]]);
    log.textContent = `row ${{step[2] + 1}}: try column ${{step[3] + 1}}`;
  }} else if (step[0] === "fail") {{
    queens = queens.slice(0, Math.max(step[1], 0));
    log.textContent = "fail";
  }} else if (step[0] === "solution") {{
    solutions += 1;
    log.textContent = `solution ${{solutions}}`;
  }} else if (step[0] === "back") {{
    queens = queens.slice(0, step[1]);
    log.textContent = `back to depth ${{step[1]}}`;
  }} else if (step[0] === "run") {{
    log.textContent = `run ${{step[1]}}: replay ${{step[2]}} choices`;
  }}
}}
function forward() {{
  if (at >= STEPS.length) {{ pause(); return; }}
  apply(STEPS[at]);
  at += 1;
  draw();
}}
function pause() {{ clearInterval(timer); timer = null; document.getElementById("play").textContent = "play"; }}
function play() {{
  if (timer) {{ pause(); return; }}
  const speed = Number(document.getElementById("speed").value);
  timer = setInterval(forward, 1000 / speed);
  document.getElementById("play").textContent = "pause";
}}
document.getElementById("play").onclick = play;
document.getElementById("step").onclick = () => {{ pause(); forward(); }};
document.getElementById("reset").onclick = () => {{ pause(); at = 0; queens = []; state = ""; solutions = 0; draw(); }};
draw();
</script></body></html>
"#,
        title = escape(title),
        count = events.len(),
    );
    page
}

/// The steps the page replays, as a JavaScript array: `["try", depth, row, column]`,
/// `["fail", depth]`, `["solution", depth]`, `["back", depth]`, `["run", run, replayed]`.
fn steps_json(events: &[Event]) -> String {
    let mut steps = String::from("[");
    for event in events {
        let step = match *event {
            Event::Try {
                depth,
                var: Some(var),
                value,
                ..
            } => format!("[\"try\",{depth},{},{value}]", var.index()),
            Event::Fail { depth } => format!("[\"fail\",{depth}]"),
            Event::Solution { depth } => format!("[\"solution\",{depth}]"),
            Event::Backtrack { depth } => format!("[\"back\",{depth}]"),
            Event::Restart => "[\"back\",0]".to_string(),
            Event::Run { run, replayed } => format!("[\"run\",{run},{replayed}]"),
            _ => continue,
        };
        if steps.len() > 1 {
            steps.push(',');
        }
        steps.push_str(&step);
    }
    steps.push(']');
    steps
}
