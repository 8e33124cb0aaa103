//! The state the compiler's passes share: the model being built, what each identifier
//! stands for, the variables' domains and equivalences, and what is left to print.

use std::collections::HashMap;

use ambsolve::{IntArg, Lit, Model, Strategy, Var};
use flatzinc::{BoolExpr, Expr, IntExpr, SetLiteralExpr};

use super::int_set::IntSet;
use crate::error::FznError;
use crate::output::Output;

/// A value an array element or an argument stands for: a variable (its declaration, see
/// [`Context::root`] for the one it was merged into) or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Elem {
    /// The declaration at this position of [`Context::decls`].
    Var(usize),
    /// A constant (booleans are 0 and 1).
    Const(i64),
}

/// A variable declaration: a FlatZinc `var`, or an element of an array of variables
/// declared without a value.
#[derive(Clone, Debug)]
pub(crate) struct Decl {
    /// Its FlatZinc name (shared with the model's variable and the output).
    pub(crate) name: std::sync::Arc<str>,
    /// The line it was declared on.
    pub(crate) line: usize,
    /// The values it may take (booleans: 0 and 1). For a variable merged into another,
    /// the root's domain is what counts.
    pub(crate) domain: IntSet,
    /// Whether it is a `var bool`.
    pub(crate) is_bool: bool,
    /// Whether it has no domain of its own (`var int: x;`, or the alias `var int: x = y;`):
    /// then `domain` is empty and means nothing. A class still unbounded once merged is
    /// declared over [`UNBOUNDED`] by `prepare_variables`, which clears this.
    pub(crate) unbounded: bool,
    /// Whether it is annotated `is_defined_var`: a function of other variables, never a
    /// decision.
    pub(crate) defined: bool,
}

/// What an identifier stands for.
#[derive(Clone, Debug)]
pub(crate) enum Symbol {
    /// A single variable: its declaration.
    Var(usize),
    /// An array of variables (and constants).
    VarArray(Vec<Elem>),
    /// An integer parameter.
    Int(i64),
    /// A boolean parameter.
    Bool(bool),
    /// A set-of-int parameter.
    Set(IntSet),
    /// An array of integer (or boolean, as 0/1) parameters.
    IntArray(Vec<i64>),
    /// An array of sets of int (no supported builtin reads one yet).
    SetArray,
}

/// The shared state of the passes.
pub(crate) struct Context {
    /// The model being built.
    pub(crate) model: Model<'static>,
    /// Identifiers: parameters, variables, arrays.
    pub(crate) symbols: HashMap<std::sync::Arc<str>, Symbol>,
    /// Variable declarations, in the order of the file.
    pub(crate) decls: Vec<Decl>,
    /// Union-find over `decls`: the declaration each one was merged with (itself for a
    /// root).
    pub(crate) parent: Vec<usize>,
    /// The model variable of each root declaration (after `prepare_variables`).
    pub(crate) vars: Vec<Option<Var<i64>>>,
    /// One-value variables standing for constants where a constraint needs a variable.
    pub(crate) constants: HashMap<i64, Var<i64>>,
    /// Constraints already expressed by an earlier pass (an equality merged away), by
    /// position in `ast.constraints`.
    pub(crate) consumed: Vec<bool>,
    /// What each solution prints.
    pub(crate) output: Output,
    /// The search strategy the solve item's annotations ask for, if any.
    pub(crate) strategy: Option<Strategy>,
    /// The arrays (of parameters or variables) declared boolean.
    pub(crate) bool_arrays: std::collections::HashSet<String>,
    /// What the declarations ask to print (resolved by `prepare_variables`).
    pub(crate) wanted: Vec<Wanted>,
    /// The annotations of variables and constraints ambsolve does not know, each with
    /// the first line it is on (listed in a note at the end).
    pub(crate) unknown: Vec<(String, usize)>,
    /// Notes for `-v`: annotations followed only in part, or ignored.
    pub(crate) notes: Vec<String>,
}

/// What a declaration asks to print, noted as it is read (the declaration itself is
/// not kept): `name = value;` for an `output_var`, `name = arrayNd(..)` for an
/// `output_array` with these index sets. `prepare_variables` notes and resolves them.
pub(crate) struct Wanted {
    /// The line of the declaration.
    pub(crate) line: usize,
    /// The name printed.
    pub(crate) name: std::sync::Arc<str>,
    /// An `output_array`'s index sets; `None` for an `output_var`.
    pub(crate) dims: Option<Vec<(i64, i64)>>,
    /// Whether the values print as `true` / `false`.
    pub(crate) is_bool: bool,
}

/// The range an unbounded `var int` is declared over (one with no domain of its own,
/// still without one once merged with the variables it equals): `-(2^31 - 1)..=2^31 - 1`,
/// as Gecode does (its `Int::Limits` are one narrower on each side). That is
/// 2^32 - 1 = [`MAX_VALUES`] values, the most one variable takes; symmetric, so that a
/// negation or an absolute value stays in it; and every value fits an `i32`, so that the
/// product of two of them, like a sum of many, fits the `i64` arithmetic of the
/// constraints.
pub(crate) const UNBOUNDED: (i64, i64) = (-(i32::MAX as i64), i32::MAX as i64);

/// The most values one variable may take (`Model::range_var` counts its values with a
/// `u32`): a wider domain is an error naming the variable.
pub(crate) const MAX_VALUES: u64 = u32::MAX as u64;

/// The most values of a domain with holes declared as a list of its values (the list
/// shared by the variables with that domain): 2^16 values, 512 KiB once and 8 KiB of
/// bits a variable in the core's domains. FlatZinc writes a hole only by listing the
/// values around it (`{1, 3, 5}`), so a wider one lists more than 65536 integers in the
/// file; it is declared over its hull (a range variable), with the holes cut by
/// constraints (`membership::constrain`). A domain without holes is always a range
/// variable, whatever its width. The same bound decides when `set_in_reif` is a table
/// over the variable's values, and `among` a list of values.
pub(crate) const MAX_LISTED: u128 = 1 << 16;

impl Context {
    /// A context for `ast`, nothing compiled yet.
    pub(crate) fn new() -> Self {
        Context {
            model: Model::new(),
            symbols: HashMap::new(),
            decls: Vec::new(),
            parent: Vec::new(),
            vars: Vec::new(),
            constants: HashMap::new(),
            consumed: Vec::new(),
            output: Output::default(),
            strategy: None,
            bool_arrays: std::collections::HashSet::new(),
            unknown: Vec::new(),
            wanted: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Declares `name` (once), or says on `line` that it is declared twice.
    pub(crate) fn define(
        &mut self,
        line: usize,
        name: impl Into<std::sync::Arc<str>>,
        symbol: Symbol,
    ) -> Result<(), FznError> {
        let name = name.into();
        if self
            .symbols
            .insert(std::sync::Arc::clone(&name), symbol)
            .is_some()
        {
            return Err(FznError::invalid(
                line,
                format!("`{name}` is declared twice"),
            ));
        }
        Ok(())
    }

    /// Records the annotations among `annos` that are not `known` (nor MiniZinc's own
    /// `mzn_*` paths and names): ignored, as the specification allows, and listed by
    /// `-v`.
    pub(crate) fn unknown_annotations(
        &mut self,
        line: usize,
        annos: &[flatzinc::Annotation],
        known: &[&str],
    ) {
        for anno in annos {
            let name = anno.id.as_str();
            if known.contains(&name)
                || name.starts_with("mzn_")
                || self.unknown.iter().any(|(n, _)| n == name)
            {
                continue;
            }
            self.unknown.push((name.to_string(), line));
        }
    }

    /// Adds a variable declaration; its position.
    pub(crate) fn declare(&mut self, decl: Decl) -> usize {
        self.decls.push(decl);
        self.parent.push(self.parent.len());
        self.decls.len() - 1
    }

    /// The model's decisions: the variable of each class of merged declarations not
    /// every one of which is `is_defined_var`.
    pub(crate) fn decisions(&self) -> Vec<ambsolve::VarId> {
        let mut decision = vec![false; self.decls.len()];
        for (d, decl) in self.decls.iter().enumerate() {
            if !decl.defined {
                decision[self.root(d)] = true;
            }
        }
        (0..self.decls.len())
            .filter(|&d| decision[d])
            .filter_map(|d| self.vars.get(d).cloned().flatten())
            .map(|var| var.id())
            .collect()
    }

    /// The declaration `decl` was merged into (itself if it was not).
    pub(crate) fn root(&self, mut decl: usize) -> usize {
        while self.parent[decl] != decl {
            decl = self.parent[decl];
        }
        decl
    }

    /// The model variable of an element (a one-value variable for a constant).
    pub(crate) fn var(&mut self, elem: Elem) -> Var<i64> {
        match elem {
            Elem::Var(decl) => {
                let root = self.root(decl);
                self.vars[root]
                    .clone()
                    .expect("prepare_variables made every root's variable")
            }
            Elem::Const(value) => {
                let model = &mut self.model;
                self.constants
                    .entry(value)
                    .or_insert_with(|| model.named_var(value.to_string(), [value]))
                    .clone()
            }
        }
    }

    /// An element as an integer argument of a `Model` method (a constant stays one).
    pub(crate) fn arg(&mut self, elem: Elem) -> IntArg {
        match elem {
            Elem::Const(value) => IntArg::from(value),
            Elem::Var(_) => IntArg::from(&self.var(elem)),
        }
    }

    /// Elements as integer arguments.
    pub(crate) fn args(&mut self, elems: &[Elem]) -> Vec<IntArg> {
        elems.iter().map(|&elem| self.arg(elem)).collect()
    }

    /// The integer argument `expr` reads on `line` (see [`arg`](Context::arg)).
    pub(crate) fn int_arg(&mut self, line: usize, expr: &Expr) -> Result<IntArg, FznError> {
        let elem = self.elem(line, expr)?;
        Ok(self.arg(elem))
    }

    /// The integer arguments of the array `expr` reads on `line` (see
    /// [`args`](Context::args)).
    pub(crate) fn int_args(&mut self, line: usize, expr: &Expr) -> Result<Vec<IntArg>, FznError> {
        let elems = self.elems(line, expr)?;
        Ok(self.args(&elems))
    }

    /// The literal `expr` reads on `line` (see [`lit`](Context::lit)).
    pub(crate) fn lit_arg(&mut self, line: usize, expr: &Expr) -> Result<Lit, FznError> {
        let elem = self.elem(line, expr)?;
        self.lit(line, elem)
    }

    /// The literals of the array `expr` reads on `line` (see [`lits`](Context::lits)).
    pub(crate) fn lit_args(&mut self, line: usize, expr: &Expr) -> Result<Vec<Lit>, FznError> {
        let elems = self.elems(line, expr)?;
        self.lits(line, &elems)
    }

    /// A boolean element as a literal: true when its 0/1 variable is 1 (a constant
    /// `false` or `true` is a one-value variable); an integer constant other than 0 and 1
    /// is an error on `line`.
    pub(crate) fn lit(&mut self, line: usize, elem: Elem) -> Result<Lit, FznError> {
        if let Elem::Const(value) = elem {
            if value != 0 && value != 1 {
                return Err(FznError::invalid(
                    line,
                    format!("expected a boolean, not the integer {value}"),
                ));
            }
        }
        Ok(Lit::from(&self.var(elem)))
    }

    /// Boolean elements as literals.
    pub(crate) fn lits(&mut self, line: usize, elems: &[Elem]) -> Result<Vec<Lit>, FznError> {
        elems.iter().map(|&elem| self.lit(line, elem)).collect()
    }

    /// The values a variable's class may take (a constant: itself). After
    /// `prepare_variables`: before, an unbounded class's is empty.
    pub(crate) fn domain(&self, elem: Elem) -> IntSet {
        match elem {
            Elem::Const(value) => IntSet::single(value),
            Elem::Var(decl) => self.decls[self.root(decl)].domain.clone(),
        }
    }

    /// The symbol an identifier names, or an error on `line`.
    pub(crate) fn symbol(&self, line: usize, name: &str) -> Result<&Symbol, FznError> {
        self.symbols
            .get(name)
            .ok_or_else(|| FznError::invalid(line, format!("unknown identifier `{name}`")))
    }

    /// An integer (or boolean, as 0/1) parameter or variable named by an identifier.
    pub(crate) fn ident_elem(&self, line: usize, name: &str) -> Result<Elem, FznError> {
        match self.symbol(line, name)? {
            Symbol::Var(decl) => Ok(Elem::Var(*decl)),
            Symbol::Int(value) => Ok(Elem::Const(*value)),
            Symbol::Bool(value) => Ok(Elem::Const(i64::from(*value))),
            _ => Err(FznError::invalid(
                line,
                format!("`{name}` is not an integer or a boolean"),
            )),
        }
    }

    /// The element an expression stands for: a variable or a constant.
    pub(crate) fn elem(&self, line: usize, expr: &Expr) -> Result<Elem, FznError> {
        match expr {
            Expr::VarParIdentifier(name) => self.ident_elem(line, name),
            Expr::Int(value) => Ok(Elem::Const(int(line, *value)?)),
            Expr::Bool(value) => Ok(Elem::Const(i64::from(*value))),
            Expr::Float(_) => Err(FznError::Float { line }),
            _ => Err(FznError::invalid(line, "expected an integer or a boolean")),
        }
    }

    /// The elements of an array expression (a literal or an array's identifier).
    pub(crate) fn elems(&self, line: usize, expr: &Expr) -> Result<Vec<Elem>, FznError> {
        match expr {
            Expr::ArrayOfBool(items) => items
                .iter()
                .map(|item| match item {
                    BoolExpr::Bool(value) => Ok(Elem::Const(i64::from(*value))),
                    BoolExpr::VarParIdentifier(name) => self.ident_elem(line, name),
                })
                .collect(),
            Expr::ArrayOfInt(items) => items.iter().map(|item| self.int_elem(line, item)).collect(),
            Expr::VarParIdentifier(name) => match self.symbol(line, name)? {
                Symbol::VarArray(elems) => Ok(elems.clone()),
                Symbol::IntArray(values) => Ok(values.iter().map(|&v| Elem::Const(v)).collect()),
                _ => Err(FznError::invalid(line, format!("`{name}` is not an array"))),
            },
            Expr::ArrayOfFloat(_) => Err(FznError::Float { line }),
            Expr::ArrayOfSet(items) if items.is_empty() => Ok(Vec::new()),
            _ => Err(FznError::invalid(
                line,
                "expected an array of integers or booleans",
            )),
        }
    }

    fn int_elem(&self, line: usize, item: &IntExpr) -> Result<Elem, FznError> {
        match item {
            IntExpr::Int(value) => Ok(Elem::Const(int(line, *value)?)),
            IntExpr::VarParIdentifier(name) => self.ident_elem(line, name),
        }
    }

    /// An integer constant (a literal or a parameter).
    pub(crate) fn int(&self, line: usize, expr: &Expr) -> Result<i64, FznError> {
        match self.elem(line, expr)? {
            Elem::Const(value) => Ok(value),
            Elem::Var(_) => Err(FznError::invalid(
                line,
                "expected a constant, not a variable",
            )),
        }
    }

    /// An array of integer constants.
    pub(crate) fn ints(&self, line: usize, expr: &Expr) -> Result<Vec<i64>, FznError> {
        self.elems(line, expr)?
            .into_iter()
            .map(|elem| match elem {
                Elem::Const(value) => Ok(value),
                Elem::Var(_) => Err(FznError::invalid(
                    line,
                    "expected an array of constants, not of variables",
                )),
            })
            .collect()
    }

    /// A set of integers (a literal or a parameter).
    pub(crate) fn set(&self, line: usize, expr: &Expr) -> Result<IntSet, FznError> {
        match expr {
            Expr::Set(literal) => set_literal(line, literal),
            Expr::VarParIdentifier(name) => match self.symbol(line, name)? {
                Symbol::Set(values) => Ok(values.clone()),
                _ => Err(FznError::invalid(line, format!("`{name}` is not a set"))),
            },
            _ => Err(FznError::invalid(line, "expected a set of integers")),
        }
    }
}

/// A FlatZinc integer as an `i64`.
pub(crate) fn int(line: usize, value: i128) -> Result<i64, FznError> {
    i64::try_from(value)
        .map_err(|_| FznError::invalid(line, format!("the integer {value} does not fit in an i64")))
}

/// The values of a set literal.
pub(crate) fn set_literal(line: usize, literal: &SetLiteralExpr) -> Result<IntSet, FznError> {
    let literal_int = |item: &IntExpr| match item {
        IntExpr::Int(value) => int(line, *value),
        IntExpr::VarParIdentifier(name) => Err(FznError::invalid(
            line,
            format!("`{name}` in a set literal: expected an integer"),
        )),
    };
    match literal {
        SetLiteralExpr::IntInRange(low, high) => {
            Ok(IntSet::range(literal_int(low)?, literal_int(high)?))
        }
        SetLiteralExpr::SetInts(items) => Ok(IntSet::from_values(
            items
                .iter()
                .map(literal_int)
                .collect::<Result<Vec<_>, _>>()?,
        )),
        SetLiteralExpr::BoundedFloat(..) | SetLiteralExpr::SetFloats(_) => {
            Err(FznError::Float { line })
        }
    }
}

/// The integers of a set literal or domain (`{3, 1, 3}`).
pub(crate) fn int_set(line: usize, items: &[i128]) -> Result<IntSet, FznError> {
    Ok(IntSet::from_values(
        items
            .iter()
            .map(|&v| int(line, v))
            .collect::<Result<Vec<_>, _>>()?,
    ))
}
