//! n-queens: the model of the example, `examples/nqueens/model.rs`, included here for the
//! tests and benches, and what the example prints and checks boards with: an attack check
//! that knows nothing of the model, a checksum, columns and a drawn board.

#[path = "../../examples/nqueens/model.rs"]
mod model;

pub use model::*;

/// The first two rows whose queens attack each other (or a queen off the board), if any:
/// a check of a board that knows nothing of the model, in O(N) time and 5 N bits.
pub fn attack(queens: &[usize]) -> Option<(usize, usize)> {
    let n = queens.len();
    // The lines of a queen: its column, its diagonal, its anti-diagonal.
    let lines = |row: usize, col: usize| [col, n + col + row, 3 * n + col + n - row];
    let mut taken = vec![0u64; (5 * n).div_ceil(64) + 1];
    for (row, &col) in queens.iter().enumerate() {
        if col >= n {
            return Some((row, row));
        }
        for line in lines(row, col) {
            let (word, bit) = (line / 64, 1u64 << (line % 64));
            if taken[word] & bit != 0 {
                // Which row took it first: look again, only now.
                let first = (0..row)
                    .find(|&r| lines(r, queens[r]).contains(&line))
                    .expect("a line taken by an earlier row");
                return Some((first, row));
            }
            taken[word] |= bit;
        }
    }
    None
}

/// The FNV-1a hash (64 bits) of the 0-based columns, each as 8 little-endian bytes: one
/// line that tells two big boards apart.
pub fn checksum(queens: &[usize]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &col in queens {
        for byte in (col as u64).to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// A solution as the sources print it: 1-based columns, `[2, 4, 1, 3]`.
pub fn columns(queens: &[usize]) -> String {
    let cols: Vec<String> = queens.iter().map(|c| (c + 1).to_string()).collect();
    format!("[{}]", cols.join(", "))
}

/// A solution drawn as a board, one row per line.
pub fn board(queens: &[usize]) -> String {
    let n = queens.len();
    let rows: Vec<String> = queens
        .iter()
        .map(|&col| {
            (0..n)
                .map(|c| if c == col { "Q" } else { "." })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    rows.join("\n")
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use ambsolve::VarId;

    use super::*;

    #[test]
    fn board_symmetries_are_bijections_and_a_group() {
        let n = 5;
        let rows: Vec<VarId> = (0..n).map(VarId::from_index).collect();
        let symmetries = board_symmetries(&rows);
        assert_eq!(symmetries.len(), 7);
        let cells: Vec<(VarId, u32)> = rows
            .iter()
            .flat_map(|&r| (0..n as u32).map(move |c| (r, c)))
            .collect();
        let as_table = |f: &dyn Fn(VarId, u32) -> (VarId, u32)| {
            cells.iter().map(|&(v, x)| f(v, x)).collect::<Vec<_>>()
        };
        // Each is a bijection on the cells: every image is a cell, no two cells share one.
        let on_cells: BTreeSet<(VarId, u32)> = cells.iter().copied().collect();
        for s in &symmetries {
            let images = as_table(&|v, x| s.apply(v, x));
            let distinct: BTreeSet<(VarId, u32)> = images.iter().copied().collect();
            assert_eq!(
                distinct,
                on_cells,
                "{} is not a bijection on the cells",
                s.name()
            );
        }
        let mut known: Vec<Vec<(VarId, u32)>> = symmetries
            .iter()
            .map(|s| as_table(&|v, x| s.apply(v, x)))
            .collect();
        known.push(cells.clone());
        // The identity and the seven are eight different maps.
        assert_eq!(known.iter().collect::<BTreeSet<_>>().len(), 8);
        // Composing any two gives the identity or one of the seven.
        for a in &symmetries {
            for b in &symmetries {
                let composed = as_table(&|v, x| {
                    let (v, x) = b.apply(v, x);
                    a.apply(v, x)
                });
                assert!(known.contains(&composed), "{} after {}", a.name(), b.name());
            }
        }
    }

    #[test]
    fn attacks_are_found_on_lines_and_diagonals() {
        assert_eq!(attack(&[1, 3, 0, 2]), None);
        assert_eq!(attack(&[0, 0]), Some((0, 1)));
        assert_eq!(attack(&[0, 1]), Some((0, 1)));
        assert_eq!(attack(&[2, 0, 1]), Some((1, 2)));
        assert_eq!(attack(&[0, 2, 5]), Some((2, 2)));
        assert_eq!(attack(&[]), None);
    }

    #[test]
    fn checksums_tell_boards_apart() {
        assert_ne!(checksum(&[1, 3, 0, 2]), checksum(&[2, 0, 3, 1]));
        assert_eq!(checksum(&[]), 0xcbf2_9ce4_8422_2325);
    }

    #[test]
    fn board_symmetries_leave_other_variables_alone() {
        let rows: Vec<VarId> = (0..4).map(VarId::from_index).collect();
        let other = VarId::from_index(4);
        for s in board_symmetries(&rows) {
            assert_eq!(s.apply(other, 3), (other, 3), "{}", s.name());
        }
    }
}
