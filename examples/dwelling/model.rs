//! SICP's multiple-dwelling puzzle: five people on the five floors of a building.

use ambsolve::{Puzzle, constraints};

/// Whether two floors are next to each other.
fn adjacent(a: i32, b: i32) -> bool {
    (a - b).abs() == 1
}

/// The puzzle: Baker, Cooper, Fletcher, Miller and Smith live on different floors of a
/// five-floor building. A solution is each name with its floor.
pub fn dwelling() -> Puzzle<'static, [(&'static str, i32); 5]> {
    constraints! {
        let baker = amb(1..=5);
        let cooper = amb(1..=5);
        let fletcher = amb(1..=5);
        let miller = amb(1..=5);
        let smith = amb(1..=5);
        require all_different(baker, cooper, fletcher, miller, smith);
        require baker != 5;                        // Baker does not live on the top floor
        require cooper != 1;                       // Cooper does not live on the bottom floor
        require fletcher != 5 && fletcher != 1;    // Fletcher lives on neither
        require miller > cooper;                   // Miller lives higher than Cooper
        require !adjacent(smith, fletcher);        // Smith and Fletcher are not neighbours
        require !adjacent(fletcher, cooper);       // nor are Fletcher and Cooper
    }
    .map(|s| {
        [
            ("Baker", s.baker),
            ("Cooper", s.cooper),
            ("Fletcher", s.fletcher),
            ("Miller", s.miller),
            ("Smith", s.smith),
        ]
    })
}
