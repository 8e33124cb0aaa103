//! What a solution prints, in the FlatZinc output format: `x = 3;` for each `output_var`,
//! `a = array2d(1..2, 1..3, [..]);` for each `output_array`, in the order of the file.

use std::fmt::Write as _;

use ambsolve::{Assignment, Var};

/// One printed value: a model variable or a constant.
#[derive(Clone, Debug)]
pub(crate) enum Printed {
    /// A variable of the model.
    Var(Var<i64>),
    /// A constant.
    Const(i64),
}

impl Printed {
    fn value(&self, solution: &Assignment) -> i64 {
        match self {
            Printed::Var(var) => *solution.value(var),
            Printed::Const(value) => *value,
        }
    }
}

/// An item of the output.
#[derive(Clone, Debug)]
pub(crate) enum OutputItem {
    /// `name = value;`
    Single {
        /// The FlatZinc name.
        name: String,
        /// Its value.
        value: Printed,
        /// Whether it prints as `true` / `false`.
        is_bool: bool,
    },
    /// `name = arrayNd(ranges, [values]);`
    Array {
        /// The FlatZinc name.
        name: String,
        /// The index sets `output_array` gives, one per dimension.
        dims: Vec<(i64, i64)>,
        /// The values, row by row.
        values: Vec<Printed>,
        /// Whether they print as `true` / `false`.
        is_bool: bool,
    },
}

/// What every solution prints.
#[derive(Clone, Debug, Default)]
pub(crate) struct Output {
    pub(crate) items: Vec<OutputItem>,
}

impl Output {
    /// The solution's lines, each ending in a newline (without the `----------` line).
    pub(crate) fn render(&self, solution: &Assignment) -> String {
        let mut text = String::new();
        for item in &self.items {
            match item {
                OutputItem::Single {
                    name,
                    value,
                    is_bool,
                } => {
                    let _ = writeln!(text, "{name} = {};", shown(value.value(solution), *is_bool));
                }
                OutputItem::Array {
                    name,
                    dims,
                    values,
                    is_bool,
                } => {
                    let ranges: Vec<String> = dims
                        .iter()
                        .map(|(low, high)| format!("{low}..{high}"))
                        .collect();
                    let values: Vec<String> = values
                        .iter()
                        .map(|v| shown(v.value(solution), *is_bool))
                        .collect();
                    let _ = writeln!(
                        text,
                        "{name} = array{}d({}, [{}]);",
                        dims.len(),
                        ranges.join(", "),
                        values.join(", ")
                    );
                }
            }
        }
        text
    }
}

/// A value as FlatZinc prints it.
fn shown(value: i64, is_bool: bool) -> String {
    match (is_bool, value) {
        (true, 0) => "false".to_string(),
        (true, _) => "true".to_string(),
        (false, value) => value.to_string(),
    }
}
