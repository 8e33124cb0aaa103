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
            Printed::Var(var) => solution.int_value(var),
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
        name: std::sync::Arc<str>,
        /// Its value.
        value: Printed,
        /// Whether it prints as `true` / `false`.
        is_bool: bool,
    },
    /// `name = arrayNd(ranges, [values]);`
    Array {
        /// The FlatZinc name.
        name: std::sync::Arc<str>,
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

#[cfg(test)]
mod tests {
    use crate::{FznModel, SolveOptions, solve};

    #[test]
    fn every_output_item_prints_in_the_flatzinc_format() {
        // Fixed values, so that the one solution shows every kind of item.
        let text = "\
array [1..2] of int: c = [5, 6];
var 1..9: x :: output_var = 3;
var bool: b :: output_var = true;
var -5..5: hidden = -2;
var 0..1: i = 1;
var bool: f = false;
array [1..3] of var int: a :: output_array([1..3]) = [x, 0, hidden];
array [1..4] of var int: grid :: output_array([0..1, 1..2]) = [x, x, i, hidden];
array [1..2] of var bool: flags :: output_array([1..2]) = [b, f];
array [1..0] of var int: none :: output_array([1..0]) = [];
solve satisfy;
";
        let model = FznModel::from_str(text).unwrap_or_else(|e| panic!("{e}"));
        let mut out = Vec::new();
        solve(&model, &SolveOptions::default(), &mut out, |_| {}).expect("solved");
        insta::assert_snapshot!(String::from_utf8(out).expect("UTF-8"));
    }

    #[test]
    fn output_array_must_cover_its_array() {
        let text = "var 1..2: x;\narray [1..2] of var int: a :: output_array([1..3]) = [x, x];\nsolve satisfy;\n";
        let error = FznModel::from_str(text).expect_err("3 indices for 2 elements");
        assert_eq!(
            error.to_string(),
            "line 2: `output_array` of `a` gives 3 elements for an array of 2"
        );
    }
}
