//! Pass: the parameters (`int: n = 3;`, `array [1..2] of int: c = [1, 2];`, sets, booleans)
//! become constants that later passes read by name.

use flatzinc::{ParDeclItem, SetLiteral};

use super::context::{Context, Symbol, int, int_set};
use super::int_set::IntSet;
use crate::ast::Located;
use crate::error::FznError;

/// Defines a parameter, as it is read.
///
/// # Errors
/// An integer that does not fit in an `i64`, a name declared twice.
pub(crate) fn one(ctx: &mut Context, located: &Located<ParDeclItem>) -> Result<(), FznError> {
    let line = located.line;
    let (name, symbol) = match &located.item {
        ParDeclItem::Int { id, int: value } => (id, Symbol::Int(int(line, *value)?)),
        ParDeclItem::Bool { id, bool } => (id, Symbol::Bool(*bool)),
        ParDeclItem::SetOfInt { id, set_literal } => {
            (id, Symbol::Set(set_values(line, set_literal)?))
        }
        ParDeclItem::ArrayOfInt { id, v, .. } => {
            let values = v.iter().map(|&x| int(line, x)).collect::<Result<_, _>>()?;
            (id, Symbol::IntArray(values))
        }
        ParDeclItem::ArrayOfBool { id, v, .. } => {
            ctx.bool_arrays.insert(id.clone());
            (
                id,
                Symbol::IntArray(v.iter().map(|&b| i64::from(b)).collect()),
            )
        }
        ParDeclItem::ArrayOfSet { id, v, .. } => {
            for set in v {
                set_values(line, set)?;
            }
            (id, Symbol::SetArray)
        }
        ParDeclItem::Float { .. } | ParDeclItem::ArrayOfFloat { .. } => {
            return Err(FznError::Float { line });
        }
    };
    ctx.define(line, name.as_str(), symbol)
}

/// The values of a set parameter, of any width.
fn set_values(line: usize, set: &SetLiteral) -> Result<IntSet, FznError> {
    match set {
        SetLiteral::IntRange(low, high) => Ok(IntSet::range(int(line, *low)?, int(line, *high)?)),
        SetLiteral::SetInts(items) => int_set(line, items),
        SetLiteral::BoundedFloat(..) | SetLiteral::SetFloats(_) => Err(FznError::Float { line }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::parse_str;

    fn symbols(text: &str) -> Result<Vec<(String, String)>, FznError> {
        let ast = parse_str(text).expect("valid FlatZinc");
        let mut ctx = Context::new();
        for located in &ast.parameters {
            one(&mut ctx, located)?;
        }
        let mut all: Vec<(String, String)> = ctx
            .symbols
            .iter()
            .map(|(k, v)| (k.to_string(), format!("{v:?}")))
            .collect();
        all.sort();
        Ok(all)
    }

    #[test]
    fn parameters_of_every_kind_become_constants() {
        let all = symbols(
            "int: n = -3;\n\
             bool: b = true;\n\
             set of int: s = {5, 1, 3, 1};\n\
             set of int: r = 2..4;\n\
             array [1..3] of int: c = [1, -1, 7];\n\
             array [1..2] of bool: bs = [true, false];\n\
             array [1..2] of set of int: ss = [1..2, {4}];\n\
             solve satisfy;\n",
        )
        .expect("parameters");
        let text: Vec<String> = all.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        assert_eq!(
            text,
            [
                "b: Bool(true)",
                "bs: IntArray([1, 0])",
                "c: IntArray([1, -1, 7])",
                "n: Int(-3)",
                "r: Set({2..4})",
                "s: Set({1, 3, 5})",
                "ss: SetArray",
            ]
        );
    }

    #[test]
    fn a_parameter_beyond_i64_or_declared_twice_is_an_error_on_its_line() {
        let error = symbols("int: n = 1;\nint: n = 2;\nsolve satisfy;\n").expect_err("twice");
        assert_eq!(error.to_string(), "line 2: `n` is declared twice");
        let error =
            symbols("int: big = 99999999999999999999;\nsolve satisfy;\n").expect_err("too big");
        assert_eq!(error.line(), Some(1));
        assert!(
            error.to_string().contains("does not fit in an i64"),
            "{error}"
        );
    }
}
