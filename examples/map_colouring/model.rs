//! Colour the seven regions of Australia with three colours, neighbours different.

use ambsolve::{Puzzle, constraints};

/// The regions, in the order of a solution.
pub const REGIONS: [&str; 7] = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];

/// The puzzle; a solution is the colour of each region of [`REGIONS`].
pub fn australia() -> Puzzle<'static, [&'static str; 7]> {
    let colours = ["red", "green", "blue"];
    constraints! {
        let wa = amb(colours);
        let nt = amb(colours);
        let sa = amb(colours);
        let q = amb(colours);
        let nsw = amb(colours);
        let v = amb(colours);
        let t = amb(colours);
        require wa != nt && wa != sa && nt != sa && nt != q;
        require sa != q && sa != nsw && sa != v && q != nsw && nsw != v;
    }
    .map(|s| [s.wa, s.nt, s.sa, s.q, s.nsw, s.v, s.t])
}
