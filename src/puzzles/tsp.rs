//! Travelling salesman instances: random cities on a grid (seeded), or a TSPLIB file
//! (`EUC_2D`, `CEIL_2D`, `ATT` coordinates, or an `EXPLICIT` matrix: `FULL_MATRIX`,
//! `UPPER_ROW`, `LOWER_ROW`, `UPPER_DIAG_ROW`, `LOWER_DIAG_ROW`), and the brute force the
//! tests check the example against. The model itself is in `examples/tsp/model.rs`.

use std::io::BufRead;

use super::split_mix::SplitMix;
use crate::input::{InputError, Lines};

/// The most cities an instance may have: the model keeps `n²` distances and table rows
/// (beyond a few hundred cities even the first tour is slow to come).
pub const MAX_CITIES: usize = 1000;

/// The longest line of a TSPLIB file read.
const MAX_LINE: usize = 64 * 1024;

/// The largest distance accepted: a tour of [`MAX_CITIES`] legs stays far from `i64`'s
/// ends.
pub const MAX_DISTANCE: i64 = 1 << 40;

/// A symmetric or asymmetric instance: `dist[i][j]` is the length of the leg from city
/// `i` to city `j` (cities numbered from 0; a file numbers them from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Its name: the file's `NAME`, or `random-<n>-<seed>`.
    pub name: String,
    /// The distances, `n × n`, each at least 0 and at most [`MAX_DISTANCE`].
    pub dist: Vec<Vec<i64>>,
}

impl Instance {
    /// The number of cities.
    pub fn cities(&self) -> usize {
        self.dist.len()
    }

    /// The length of the tour given by successors (`succ[i]`: the city after city `i`).
    pub fn length(&self, succ: &[usize]) -> i64 {
        succ.iter().enumerate().map(|(i, &j)| self.dist[i][j]).sum()
    }
}

/// `n` cities at random points of a 1000 × 1000 grid (the same `seed`, the same cities),
/// at Euclidean distances rounded to the nearest integer (TSPLIB's `EUC_2D`).
pub fn random(n: usize, seed: u64) -> Instance {
    let mut rng = SplitMix(seed);
    let points: Vec<(f64, f64)> = (0..n)
        .map(|_| ((rng.next() % 1000) as f64, (rng.next() % 1000) as f64))
        .collect();
    Instance {
        name: format!("random-{n}-{seed}"),
        dist: matrix(&points, Metric::Euclidean),
    }
}

/// How a file's coordinates give distances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Metric {
    /// `EUC_2D`: rounded to the nearest integer.
    Euclidean,
    /// `CEIL_2D`: rounded up.
    Ceiling,
    /// `ATT`: pseudo-Euclidean.
    Att,
}

fn distance(a: (f64, f64), b: (f64, f64), metric: Metric) -> f64 {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    match metric {
        Metric::Euclidean => (dx * dx + dy * dy).sqrt().round(),
        Metric::Ceiling => (dx * dx + dy * dy).sqrt().ceil(),
        Metric::Att => {
            let r = ((dx * dx + dy * dy) / 10.0).sqrt();
            let t = r.round();
            if t < r { t + 1.0 } else { t }
        }
    }
}

fn matrix(points: &[(f64, f64)], metric: Metric) -> Vec<Vec<i64>> {
    points
        .iter()
        .map(|&a| {
            points
                .iter()
                .map(|&b| distance(a, b, metric) as i64)
                .collect()
        })
        .collect()
}

/// The shortest tour's length, by trying every order of the cities after the first (the
/// brute force the example is checked against; `(n - 1)!` orders: keep `n` small).
/// `None` for fewer than two cities (no tour).
pub fn shortest_by_brute_force(dist: &[Vec<i64>]) -> Option<i64> {
    let n = dist.len();
    if n < 2 {
        return None;
    }
    let mut rest: Vec<usize> = (1..n).collect();
    let mut best = i64::MAX;
    permutations(&mut rest, 0, &mut |order| {
        let mut length = dist[0][order[0]] + dist[order[n - 2]][0];
        for w in order.windows(2) {
            length += dist[w[0]][w[1]];
        }
        best = best.min(length);
    });
    Some(best)
}

/// Calls `visit` with every order of `items[k..]` (after `items[..k]`).
fn permutations(items: &mut [usize], k: usize, visit: &mut impl FnMut(&[usize])) {
    if k == items.len() {
        visit(items);
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items, k + 1, visit);
        items.swap(k, i);
    }
}

/// What the header of a TSPLIB file said.
#[derive(Debug, Default)]
struct Header {
    name: Option<String>,
    dimension: Option<usize>,
    weight_type: Option<String>,
    weight_format: Option<String>,
}

/// Reads a TSPLIB file: a header of `KEY : value` lines (`NAME`, `TYPE` = `TSP` or `ATSP`,
/// `DIMENSION`, `EDGE_WEIGHT_TYPE`, `EDGE_WEIGHT_FORMAT`; `COMMENT` and the like are
/// skipped), then a `NODE_COORD_SECTION` (one `number x y` line per city) or an
/// `EDGE_WEIGHT_SECTION` (the weights, as many per line as wanted), up to `EOF` or the
/// end of the text.
///
/// # Errors
/// The first thing wrong, with its line: an unknown or unsupported type, a missing
/// dimension, a city out of range or given twice, a missing coordinate or weight, a
/// negative or too large distance, more than [`MAX_CITIES`] cities.
pub fn parse_tsplib(reader: impl BufRead) -> Result<Instance, InputError> {
    let mut lines = Lines::new(reader, MAX_LINE);
    let mut header = Header::default();
    let invalid = |line: usize, message: String| InputError::Invalid { line, message };
    let mut last_line = 0;
    while let Some(next) = lines.next_line() {
        let (number, text) = next?;
        last_line = number;
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let (key, value) = match text.split_once(':') {
            Some((key, value)) => (key.trim().to_ascii_uppercase(), value.trim().to_string()),
            None => (text.to_ascii_uppercase(), String::new()),
        };
        match key.as_str() {
            "NAME" => header.name = Some(value),
            "TYPE" => match value.to_ascii_uppercase().as_str() {
                "TSP" | "ATSP" => {}
                other => {
                    return Err(invalid(
                        number,
                        format!("TYPE {other}: only TSP and ATSP are read"),
                    ));
                }
            },
            "COMMENT" | "CAPACITY" | "DISPLAY_DATA_TYPE" | "NODE_COORD_TYPE" => {}
            "DIMENSION" => {
                let n: usize = value
                    .parse()
                    .map_err(|_| invalid(number, format!("DIMENSION {value:?}: not a number")))?;
                if !(2..=MAX_CITIES).contains(&n) {
                    return Err(invalid(
                        number,
                        format!("DIMENSION {n}: from 2 to {MAX_CITIES} cities are read"),
                    ));
                }
                header.dimension = Some(n);
            }
            "EDGE_WEIGHT_TYPE" => header.weight_type = Some(value.to_ascii_uppercase()),
            "EDGE_WEIGHT_FORMAT" => header.weight_format = Some(value.to_ascii_uppercase()),
            "NODE_COORD_SECTION" | "EDGE_WEIGHT_SECTION" => {
                let coordinates = key == "NODE_COORD_SECTION";
                let dist = section(&mut lines, &header, coordinates, number)?;
                return Ok(Instance {
                    name: header.name.unwrap_or_else(|| "unnamed".to_string()),
                    dist,
                });
            }
            "EOF" => break,
            other => {
                return Err(invalid(
                    number,
                    format!("{other}: not a TSPLIB keyword read here"),
                ));
            }
        }
    }
    Err(invalid(
        last_line.max(1),
        "no NODE_COORD_SECTION or EDGE_WEIGHT_SECTION".to_string(),
    ))
}

/// Reads the section that follows line `at`, as the header says.
fn section(
    lines: &mut Lines<impl BufRead>,
    header: &Header,
    coordinates: bool,
    at: usize,
) -> Result<Vec<Vec<i64>>, InputError> {
    let invalid = |line: usize, message: String| InputError::Invalid { line, message };
    let n = header
        .dimension
        .ok_or_else(|| invalid(at, "DIMENSION must come before the section".to_string()))?;
    let kind = header.weight_type.as_deref().unwrap_or("");
    let metric = match kind {
        "EUC_2D" => Some(Metric::Euclidean),
        "CEIL_2D" => Some(Metric::Ceiling),
        "ATT" => Some(Metric::Att),
        "EXPLICIT" => None,
        other => {
            return Err(invalid(
                at,
                format!("EDGE_WEIGHT_TYPE {other:?}: EUC_2D, CEIL_2D, ATT and EXPLICIT are read"),
            ));
        }
    };
    // Every number of the section, with its line, up to EOF.
    let mut numbers: Vec<(usize, f64)> = Vec::new();
    let mut last = at;
    while let Some(next) = lines.next_line() {
        let (number, text) = next?;
        last = number;
        let text = text.trim();
        if text.eq_ignore_ascii_case("EOF") {
            break;
        }
        for word in text.split_whitespace() {
            let value: f64 = word
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| invalid(number, format!("{word:?}: not a number")))?;
            numbers.push((number, value));
        }
    }
    match (metric, coordinates) {
        (Some(metric), true) => points(n, &numbers, metric, last),
        (None, false) => weights(n, header.weight_format.as_deref(), &numbers, at, last),
        (Some(_), false) => Err(invalid(
            at,
            format!("EDGE_WEIGHT_TYPE {kind} needs a NODE_COORD_SECTION"),
        )),
        (None, true) => Err(invalid(
            at,
            "EDGE_WEIGHT_TYPE EXPLICIT needs an EDGE_WEIGHT_SECTION".to_string(),
        )),
    }
}

/// `n` cities from `number x y` triples, at distances by `metric`.
fn points(
    n: usize,
    numbers: &[(usize, f64)],
    metric: Metric,
    last: usize,
) -> Result<Vec<Vec<i64>>, InputError> {
    let invalid = |line: usize, message: String| InputError::Invalid { line, message };
    let mut points: Vec<Option<(f64, f64)>> = vec![None; n];
    for triple in numbers.chunks(3) {
        let line = triple[0].0;
        let &[(_, city), (_, x), (_, y)] = triple else {
            return Err(invalid(
                line,
                "a city needs a number and two coordinates".into(),
            ));
        };
        if city.fract() != 0.0 || !(1.0..=n as f64).contains(&city) {
            return Err(invalid(line, format!("city {city}: not one of 1 to {n}")));
        }
        let slot = &mut points[city as usize - 1];
        if slot.is_some() {
            return Err(invalid(line, format!("city {city} is given twice")));
        }
        *slot = Some((x, y));
    }
    let Some(points) = points.iter().copied().collect::<Option<Vec<_>>>() else {
        let missing = points.iter().position(Option::is_none).unwrap_or(0) + 1;
        return Err(invalid(last, format!("city {missing} has no coordinates")));
    };
    let dist = matrix(&points, metric);
    if dist.iter().flatten().any(|&d| d > MAX_DISTANCE) {
        return Err(invalid(
            last,
            format!("a distance is larger than {MAX_DISTANCE}"),
        ));
    }
    Ok(dist)
}

/// An `n × n` matrix from explicit weights in `format` (`FULL_MATRIX` if not given).
fn weights(
    n: usize,
    format: Option<&str>,
    numbers: &[(usize, f64)],
    at: usize,
    last: usize,
) -> Result<Vec<Vec<i64>>, InputError> {
    let invalid = |line: usize, message: String| InputError::Invalid { line, message };
    let format = format.unwrap_or("FULL_MATRIX");
    // The cells the weights fill, in order.
    let cells: Vec<(usize, usize)> = match format {
        "FULL_MATRIX" => (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).collect(),
        "UPPER_ROW" => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
        "LOWER_ROW" => (0..n).flat_map(|i| (0..i).map(move |j| (i, j))).collect(),
        "UPPER_DIAG_ROW" => (0..n).flat_map(|i| (i..n).map(move |j| (i, j))).collect(),
        "LOWER_DIAG_ROW" => (0..n).flat_map(|i| (0..=i).map(move |j| (i, j))).collect(),
        other => {
            return Err(invalid(
                at,
                format!(
                    "EDGE_WEIGHT_FORMAT {other}: FULL_MATRIX, UPPER_ROW, LOWER_ROW, \
                     UPPER_DIAG_ROW and LOWER_DIAG_ROW are read"
                ),
            ));
        }
    };
    if numbers.len() != cells.len() {
        let line = numbers.get(cells.len()).map_or(last, |&(line, _)| line);
        return Err(invalid(
            line,
            format!(
                "{format} of {n} cities needs {} weights, not {}",
                cells.len(),
                numbers.len()
            ),
        ));
    }
    let mut dist = vec![vec![0i64; n]; n];
    for (&(i, j), &(line, w)) in cells.iter().zip(numbers) {
        if w.fract() != 0.0 || !(0.0..=MAX_DISTANCE as f64).contains(&w) {
            return Err(invalid(
                line,
                format!("weight {w}: not a whole number from 0 to {MAX_DISTANCE}"),
            ));
        }
        dist[i][j] = w as i64;
        if format != "FULL_MATRIX" {
            dist[j][i] = w as i64;
        }
    }
    Ok(dist)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_matrix_and_coordinates_are_read() {
        let text = "NAME: four\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EXPLICIT\n\
                    EDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1 2 3\n1 0 4 5\n\
                    2 4 0 6\n3 5 6 0\nEOF\n";
        let instance = parse_tsplib(text.as_bytes()).unwrap();
        assert_eq!(instance.name, "four");
        assert_eq!(instance.dist[1][3], 5);
        assert_eq!(shortest_by_brute_force(&instance.dist), Some(1 + 5 + 6 + 2));
        let text = "NAME : square\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EUC_2D\n\
                    NODE_COORD_SECTION\n1 0 0\n2 0 3\n3 4 3\n4 4 0\nEOF\n";
        let instance = parse_tsplib(text.as_bytes()).unwrap();
        assert_eq!(instance.dist[0][2], 5);
        assert_eq!(shortest_by_brute_force(&instance.dist), Some(14));
    }

    #[test]
    fn a_triangle_of_weights_fills_both_halves() {
        let text = "DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\n\
                    EDGE_WEIGHT_SECTION\n7 8\n9\n";
        let instance = parse_tsplib(text.as_bytes()).unwrap();
        assert_eq!(instance.dist, [vec![0, 7, 8], vec![7, 0, 9], vec![8, 9, 0]]);
    }

    #[test]
    fn bad_files_name_their_line() {
        let cases = [
            ("DIMENSION: x\n", "line 1"),
            ("DIMENSION: 1\n", "from 2"),
            ("TYPE: HCP\n", "TYPE HCP"),
            (
                "DIMENSION: 2\nEDGE_WEIGHT_TYPE: GEO\nNODE_COORD_SECTION\n1 0 0\n",
                "GEO",
            ),
            (
                "DIMENSION: 2\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n",
                "city 2",
            ),
            (
                "DIMENSION: 2\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n1 0 0\n",
                "twice",
            ),
            (
                "DIMENSION: 2\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_SECTION\n0 1 -1 0\n",
                "weight -1",
            ),
            (
                "DIMENSION: 2\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_SECTION\n0 1 1\n",
                "not 3",
            ),
            ("NAME: x\n", "no NODE_COORD_SECTION"),
            ("", "no NODE_COORD_SECTION"),
            ("FOO: 1\n", "FOO"),
        ];
        for (text, wanted) in cases {
            let error = parse_tsplib(text.as_bytes()).unwrap_err().to_string();
            assert!(error.contains(wanted), "{text:?}: {error}");
        }
    }

    #[test]
    fn random_instances_are_fixed_by_their_seed() {
        assert_eq!(random(6, 3), random(6, 3));
        assert_ne!(random(6, 3).dist, random(6, 4).dist);
        let instance = random(5, 1);
        assert!((0..5).all(|i| instance.dist[i][i] == 0));
        assert!((0..5).all(|i| (0..5).all(|j| instance.dist[i][j] == instance.dist[j][i])));
    }
}
