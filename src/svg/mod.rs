//! Pictures as SVG: boards (a grid of small chess boards in one file) and search trees
//! ([`tree`], [`tree_with`]: what an [`ambsolve::SearchTree`] stored).

mod tree;

use std::fmt::Write as _;

pub use self::tree::{tree, tree_with};

/// How many boards one picture shows at most; longer lists are cut with a note.
pub const MAX_BOARDS: usize = 240;

/// Boards per row of the picture at most.
const PER_ROW: usize = 12;

/// An SVG picture of `boards` (each a list of 0-based columns, one per row), under
/// `title`. Only the first [`MAX_BOARDS`] are drawn; `total` is how many there are in
/// all, and a note says when the picture shows fewer.
pub fn boards(title: &str, boards: &[Vec<usize>], total: u64) -> String {
    let n = boards.first().map_or(0, Vec::len).max(1);
    let shown = &boards[..boards.len().min(MAX_BOARDS)];
    let cell = (160 / n).clamp(3, 24);
    let side = cell * n;
    let gap = cell.max(12);
    let columns = shown.len().clamp(1, PER_ROW);
    let rows = shown.len().div_ceil(columns).max(1);
    let header = 56;
    let width = (columns * (side + gap) + gap).max(360);
    let height = header + rows * (side + gap + 14) + gap;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"##
    );
    let _ = writeln!(
        svg,
        r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        svg,
        r##"<text x="{gap}" y="26" font-size="18" fill="#222222">{}</text>"##,
        escape(title)
    );
    if (shown.len() as u64) < total {
        let note = format!("showing the first {} of {total}", shown.len());
        let _ = writeln!(
            svg,
            r##"<text x="{gap}" y="46" font-size="12" fill="#aa3311">{note}</text>"##
        );
    }
    for (k, queens) in shown.iter().enumerate() {
        let x0 = gap + (k % columns) * (side + gap);
        let y0 = header + (k / columns) * (side + gap + 14);
        let _ = writeln!(svg, r##"<g transform="translate({x0},{y0})">"##);
        let _ = writeln!(
            svg,
            r##"<rect width="{side}" height="{side}" fill="#f0d9b5"/>"##
        );
        for r in 0..n {
            for c in 0..n {
                if (r + c) % 2 == 1 {
                    let _ = writeln!(
                        svg,
                        r##"<rect x="{}" y="{}" width="{cell}" height="{cell}" fill="#b58863"/>"##,
                        c * cell,
                        r * cell
                    );
                }
            }
        }
        for (r, &c) in queens.iter().enumerate() {
            let radius = cell as f64 * 0.35;
            let (cx, cy) = (c * cell + cell / 2, r * cell + cell / 2);
            let _ = writeln!(
                svg,
                r##"<circle cx="{cx}" cy="{cy}" r="{radius:.1}" fill="#1b1b1b"/>"##
            );
        }
        let _ = writeln!(
            svg,
            r##"<rect width="{side}" height="{side}" fill="none" stroke="#444444"/>"##
        );
        let _ = writeln!(
            svg,
            r##"<text x="0" y="{}" font-size="10" fill="#555555">#{}</text>"##,
            side + 11,
            k + 1
        );
        let _ = writeln!(svg, "</g>");
    }
    svg.push_str("</svg>\n");
    svg
}

/// `text` with the characters XML and HTML give a meaning escaped (quotes too, so that it
/// may stand in an attribute).
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lists_are_cut_with_a_note() {
        let many = vec![vec![0usize]; MAX_BOARDS + 10];
        let svg = boards("one queen", &many, 1000);
        assert_eq!(svg.matches("<circle").count(), MAX_BOARDS);
        assert!(svg.contains(&format!("showing the first {MAX_BOARDS} of 1000")));
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & 'c'"), "a&lt;b &amp; &apos;c&apos;");
    }

    #[test]
    fn titles_are_escaped() {
        assert!(boards("a < b & c", &[vec![0]], 1).contains("a &lt; b &amp; c"));
    }
}
