//! Linear forms: a side of a comparison as chosen integers times build-time factors.

use std::collections::BTreeSet;

use syn::spanned::Spanned;
use syn::{BinOp, Expr, UnOp};

use crate::analyze::{self, Choices, Slot};
use crate::ast::Comprehension;

/// A coefficient or a constant: a sign times the product of some of the user's integer
/// expressions, evaluated while building the model. Without factors it is 1 or -1.
#[derive(Clone)]
pub(crate) struct Coef<'a> {
    pub(crate) negative: bool,
    pub(crate) factors: Vec<&'a Expr>,
}

impl<'a> Coef<'a> {
    /// Whether this is 1 as written: no factor, no sign.
    pub(crate) fn is_one(&self) -> bool {
        !self.negative && self.factors.is_empty()
    }

    /// 1.
    const ONE: Coef<'static> = Coef {
        negative: false,
        factors: Vec::new(),
    };

    fn factor(expr: &'a Expr) -> Coef<'a> {
        Coef {
            negative: false,
            factors: vec![expr],
        }
    }

    /// `self × other`.
    pub(crate) fn times(&self, other: &Coef<'a>) -> Coef<'a> {
        Coef {
            negative: self.negative != other.negative,
            factors: self.factors.iter().chain(&other.factors).copied().collect(),
        }
    }

    fn negated(self) -> Coef<'a> {
        Coef {
            negative: !self.negative,
            ..self
        }
    }
}

/// A list read at a chosen index (an element constraint): an auxiliary choice tied to
/// the index.
pub(crate) enum Lookup<'a> {
    /// `table[slot]`: a list of constants, tied by a table.
    Table {
        table: &'a Expr,
        slot: Slot,
        span: proc_macro2::Span,
    },
    /// `array[index]`: a list of choices (a slot of depth 1), tied by a propagator.
    Element { array: Slot, index: Slot },
}

/// A linear form: `Σ coef × slot + Σ coef × table[slot] + Σ coef × sum(comprehension) +
/// Σ constant`.
pub(crate) struct Linear<'a> {
    /// Chosen integers (each slot reads one) with their coefficients.
    pub(crate) terms: Vec<(Coef<'a>, Slot)>,
    /// Lookups in constant tables at chosen indices, with their coefficients.
    pub(crate) lookups: Vec<(Coef<'a>, Lookup<'a>)>,
    /// `sum(..)` comprehensions with their coefficients.
    pub(crate) sums: Vec<(Coef<'a>, &'a Comprehension)>,
    pub(crate) constant: Vec<Coef<'a>>,
    /// Whether it multiplies or adds (a bare choice is not "arithmetic").
    pub(crate) arithmetic: bool,
}

impl<'a> Linear<'a> {
    fn empty() -> Linear<'a> {
        Linear {
            terms: Vec::new(),
            lookups: Vec::new(),
            sums: Vec::new(),
            constant: Vec::new(),
            arithmetic: false,
        }
    }

    fn scaled(mut self, factor: &Coef<'a>) -> Linear<'a> {
        for (coef, _) in &mut self.terms {
            *coef = coef.times(factor);
        }
        for (coef, _) in &mut self.lookups {
            *coef = coef.times(factor);
        }
        for (coef, _) in &mut self.sums {
            *coef = coef.times(factor);
        }
        for c in &mut self.constant {
            *c = c.times(factor);
        }
        self.arithmetic = true;
        self
    }

    /// `-self`.
    fn negate(self) -> Linear<'a> {
        Linear {
            terms: self
                .terms
                .into_iter()
                .map(|(coef, slot)| (coef.negated(), slot))
                .collect(),
            lookups: self
                .lookups
                .into_iter()
                .map(|(coef, lookup)| (coef.negated(), lookup))
                .collect(),
            sums: self
                .sums
                .into_iter()
                .map(|(coef, sum)| (coef.negated(), sum))
                .collect(),
            constant: self.constant.into_iter().map(Coef::negated).collect(),
            arithmetic: self.arithmetic,
        }
    }

    /// `self + other`.
    fn plus(mut self, other: Linear<'a>) -> Linear<'a> {
        self.terms.extend(other.terms);
        self.lookups.extend(other.lookups);
        self.sums.extend(other.sums);
        self.constant.extend(other.constant);
        self.arithmetic = true;
        self
    }

    /// `self - other`.
    pub(crate) fn minus(self, other: Linear<'a>) -> Linear<'a> {
        self.plus(other.negate())
    }
}

/// `expr` as a linear form over choices, if it is one. A `sum(..)` in it is one of
/// `comprehensions` (its placeholder stands in the expression).
pub(crate) fn linearize<'a>(
    expr: &'a Expr,
    choices: &Choices,
    comprehensions: &'a [Comprehension],
) -> Option<Linear<'a>> {
    let linearizer = Linearizer {
        choices,
        comprehensions,
        placeholders: comprehensions
            .iter()
            .map(|c| c.placeholder.to_string())
            .collect(),
    };
    linearizer.linearize(expr)
}

struct Linearizer<'c, 'a> {
    choices: &'c Choices,
    comprehensions: &'a [Comprehension],
    placeholders: BTreeSet<String>,
}

impl<'a> Linearizer<'_, 'a> {
    fn linearize(&self, expr: &'a Expr) -> Option<Linear<'a>> {
        if let Some(constant) = self.constant(expr) {
            return Some(Linear {
                constant: vec![Coef::factor(constant)],
                ..Linear::empty()
            });
        }
        if let Some(slot) = analyze::slot_of(expr, self.choices) {
            if slot.depth != 0 {
                return None;
            }
            // `q[k]`, `g[r][k]`: the last index a choice, the others known while building.
            if let Some((last, earlier)) = slot.indices.split_last() {
                if analyze::first_choice_in(last, self.choices).is_some() {
                    let index = analyze::slot_of(last, self.choices)?;
                    let constant = |e: &Expr| analyze::first_choice_in(e, self.choices).is_none();
                    if index.depth != 0
                        || !earlier.iter().all(constant)
                        || !index.indices.iter().all(constant)
                    {
                        return None;
                    }
                    let array = Slot {
                        name: slot.name.clone(),
                        indices: earlier.to_vec(),
                        depth: 1,
                        span: slot.span,
                    };
                    return Some(Linear {
                        lookups: vec![(Coef::ONE, Lookup::Element { array, index })],
                        // A comparison over it is linear even without arithmetic.
                        arithmetic: true,
                        ..Linear::empty()
                    });
                }
            }
            return Some(Linear {
                terms: vec![(Coef::ONE, slot)],
                ..Linear::empty()
            });
        }
        match expr {
            // `table[x]`, the table free of choices, the index a single choice.
            Expr::Index(index) if self.constant(&index.expr).is_some() => {
                let slot = analyze::slot_of(&index.index, self.choices)?;
                // The index a single choice (not one read at a chosen index, `x[s]`).
                let chosen = |e: &Expr| analyze::first_choice_in(e, self.choices).is_some();
                if slot.depth != 0 || slot.indices.iter().any(chosen) {
                    return None;
                }
                Some(Linear {
                    lookups: vec![(
                        Coef::ONE,
                        Lookup::Table {
                            table: &index.expr,
                            slot,
                            span: expr.span(),
                        },
                    )],
                    ..Linear::empty()
                })
            }
            Expr::Paren(p) => self.linearize(&p.expr),
            Expr::Group(g) => self.linearize(&g.expr),
            Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => {
                self.linearize(&u.expr).map(|l| Linear {
                    arithmetic: true,
                    ..l.negate()
                })
            }
            Expr::Binary(b) => match b.op {
                BinOp::Add(_) => Some(self.linearize(&b.left)?.plus(self.linearize(&b.right)?)),
                BinOp::Sub(_) => {
                    let right = self.linearize(&b.right)?.negate();
                    Some(self.linearize(&b.left)?.plus(right))
                }
                BinOp::Mul(_) => match (self.constant(&b.left), self.constant(&b.right)) {
                    (Some(factor), None) => {
                        Some(self.linearize(&b.right)?.scaled(&Coef::factor(factor)))
                    }
                    (None, Some(factor)) => {
                        Some(self.linearize(&b.left)?.scaled(&Coef::factor(factor)))
                    }
                    _ => None,
                },
                _ => None,
            },
            Expr::Call(call) => {
                // `sum(placeholder)`
                let Expr::Path(func) = &*call.func else {
                    return None;
                };
                if !func.path.is_ident("sum") || call.args.len() != 1 {
                    return None;
                }
                let Some(Expr::Path(arg)) = call.args.first() else {
                    return None;
                };
                let ident = arg.path.get_ident()?;
                let comprehension = self
                    .comprehensions
                    .iter()
                    .find(|c| c.placeholder == *ident)?;
                Some(Linear {
                    sums: vec![(Coef::ONE, comprehension)],
                    arithmetic: true,
                    ..Linear::empty()
                })
            }
            _ => None,
        }
    }

    /// `expr` itself if it mentions no choice (and no comprehension): a constant.
    fn constant(&self, expr: &'a Expr) -> Option<&'a Expr> {
        let constant = analyze::first_choice_in(expr, self.choices).is_none()
            && !analyze::mentions_any(expr, &self.placeholders);
        constant.then_some(expr)
    }
}
