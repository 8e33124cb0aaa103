//! Pass: every argument of a builtin has the kind FlatZinc gives it: an integer where
//! the builtin takes an integer, a boolean where it takes a boolean. Both are 0/1
//! numbers inside the compiler, so without this pass `int_eq(x, true)` would read as
//! `x = 1`; FlatZinc calls it a type error.

use flatzinc::{BoolExpr, ConstraintItem, Expr, IntExpr};

use super::context::{Context, Symbol};
use crate::ast::Located;
use crate::error::FznError;

/// The kind of value an argument holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Bool,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Int => "an integer",
            Kind::Bool => "a boolean",
        }
    }
}

/// Checks the arguments of every builtin of the FlatZinc specification's integer and
/// boolean families (`int_*`, `array_int_*`, `array_var_int_*`, `bool_*`,
/// `array_bool_*`, `array_var_bool_*`, `bool2int`, `set_in*`); globals are checked by
/// their handlers as they read them.
///
/// # Errors
/// [`FznError::Invalid`] naming the line, the builtin, the argument and what it got.
pub(crate) fn run(ctx: &Context, constraints: &[Located<ConstraintItem>]) -> Result<(), FznError> {
    for located in constraints {
        let call = &located.item;
        if super::post_constraints::handler(&call.id).is_none() {
            // Unsupported: said when the constraints are posted, all of them together.
            continue;
        }
        let count = call.exprs.len();
        for (at, expr) in call.exprs.iter().enumerate() {
            let Some(want) = expected(&call.id, at, count) else {
                continue;
            };
            if let Some((got, what)) = wrong(ctx, expr, want) {
                return Err(FznError::invalid(
                    located.line,
                    format!(
                        "`{}` takes {} as argument {}, not {} (`{what}`)",
                        call.id,
                        want.name(),
                        at + 1,
                        got.name()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The kind argument `at` of `count` of builtin `name` takes (of an array argument: its
/// elements'), if the builtin is one of the families checked.
fn expected(name: &str, at: usize, count: usize) -> Option<Kind> {
    let last = at + 1 == count;
    let reified = name.ends_with("_reif") || name.ends_with("_imp");
    match name {
        "bool2int" => return Some(if at == 0 { Kind::Bool } else { Kind::Int }),
        "bool_lin_eq" | "bool_lin_le" => {
            return Some(if at == 1 { Kind::Bool } else { Kind::Int });
        }
        "array_bool_element" | "array_var_bool_element" => {
            return Some(if at == 0 { Kind::Int } else { Kind::Bool });
        }
        _ => {}
    }
    if name.starts_with("set_in") {
        return match at {
            0 => Some(Kind::Int),
            _ if last && reified => Some(Kind::Bool),
            _ => None,
        };
    }
    let family = |prefixes: &[&str]| prefixes.iter().any(|p| name.starts_with(p));
    if family(&["bool_", "array_bool_", "array_var_bool_"]) {
        Some(Kind::Bool)
    } else if family(&["int_", "array_int_", "array_var_int_"]) {
        Some(if last && reified {
            Kind::Bool
        } else {
            Kind::Int
        })
    } else {
        None
    }
}

/// The first value of `expr` (a scalar, or an element of an array) whose kind is not
/// `want`, with its text.
fn wrong(ctx: &Context, expr: &Expr, want: Kind) -> Option<(Kind, String)> {
    let ident = |name: &str| {
        ctx.kind_of(name)
            .filter(|&k| k != want)
            .map(|k| (k, name.to_string()))
    };
    let literal = |kind: Kind, text: String| (kind != want).then_some((kind, text));
    match expr {
        Expr::Bool(value) => literal(Kind::Bool, value.to_string()),
        Expr::Int(value) => literal(Kind::Int, value.to_string()),
        Expr::VarParIdentifier(name) => ident(name),
        Expr::ArrayOfBool(items) => items.iter().find_map(|item| match item {
            BoolExpr::Bool(value) => literal(Kind::Bool, value.to_string()),
            BoolExpr::VarParIdentifier(name) => ident(name),
        }),
        Expr::ArrayOfInt(items) => items.iter().find_map(|item| match item {
            IntExpr::Int(value) => literal(Kind::Int, value.to_string()),
            IntExpr::VarParIdentifier(name) => ident(name),
        }),
        _ => None,
    }
}

impl Context {
    /// The kind of what `name` names (of an array: its elements'), if it is an integer
    /// or a boolean.
    fn kind_of(&self, name: &str) -> Option<Kind> {
        let boolean = |yes: bool| if yes { Kind::Bool } else { Kind::Int };
        match self.symbols.get(name)? {
            Symbol::Int(_) => Some(Kind::Int),
            Symbol::Bool(_) => Some(Kind::Bool),
            Symbol::Var(decl) => Some(boolean(self.decls[*decl].is_bool)),
            Symbol::VarArray(_) | Symbol::IntArray(_) => {
                Some(boolean(self.bool_arrays.contains(name)))
            }
            Symbol::Set(_) | Symbol::SetArray => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::FznModel;

    fn error(text: &str) -> String {
        FznModel::from_str(text)
            .expect_err("a type error")
            .to_string()
    }

    #[test]
    fn a_boolean_where_an_integer_is_due_is_an_error_naming_the_line() {
        let head = "var 0..3: x;\nvar bool: b;\nbool: t = true;\narray [1..2] of bool: bs = [true, false];\n";
        for (constraint, message) in [
            (
                "int_eq(x, true)",
                "`int_eq` takes an integer as argument 2, not a boolean (`true`)",
            ),
            (
                "int_eq(x, b)",
                "`int_eq` takes an integer as argument 2, not a boolean (`b`)",
            ),
            (
                "int_le(t, x)",
                "`int_le` takes an integer as argument 1, not a boolean (`t`)",
            ),
            (
                "int_lin_le(bs, [x, x], 3)",
                "`int_lin_le` takes an integer as argument 1, not a boolean (`bs`)",
            ),
            (
                "int_lin_le([1, 2], [x, b], 3)",
                "argument 2, not a boolean (`b`)",
            ),
            (
                "bool_eq(b, 1)",
                "`bool_eq` takes a boolean as argument 2, not an integer (`1`)",
            ),
            (
                "bool_clause([b], [x])",
                "`bool_clause` takes a boolean as argument 2, not an integer (`x`)",
            ),
            (
                "int_le_reif(x, 2, x)",
                "`int_le_reif` takes a boolean as argument 3, not an integer (`x`)",
            ),
            (
                "bool2int(x, x)",
                "`bool2int` takes a boolean as argument 1, not an integer (`x`)",
            ),
        ] {
            let text = format!("{head}constraint {constraint};\nsolve satisfy;\n");
            let error = error(&text);
            assert!(error.starts_with("line 5: "), "{constraint}: {error}");
            assert!(error.contains(message), "{constraint}: {error}");
        }
        // The right kinds pass.
        for constraint in [
            "int_le_reif(x, 2, b)",
            "bool2int(b, x)",
            "bool_lin_le([1, 2], [b, true], 2)",
            "array_bool_element(x, bs, b)",
            "int_eq(x, 2)",
            "bool_eq(b, t)",
        ] {
            let text = format!("{head}constraint {constraint};\nsolve satisfy;\n");
            assert!(FznModel::from_str(&text).is_ok(), "{constraint}");
        }
    }
}
