//! A user's own constraint, written against the public `Propagator` trait from outside the
//! crate, on both engines, against brute force.

use crate::common;

use common::brute_force;

use ambsolve::{Context, Domain, Engine, Fail, Model, Propagator, Strategy, Var, VarId};

/// The values (indices into `0..n` lists) of a scope add up to an even number. It only
/// checks once everything is fixed: the least a propagator must do.
struct EvenSum {
    vars: Vec<VarId>,
}

impl Propagator for EvenSum {
    fn propagate(&self, cx: &mut Context<'_>) -> Result<(), Fail> {
        let mut sum = 0;
        for &v in &self.vars {
            match cx.fixed(v) {
                Some(index) => sum += index,
                None => return Ok(()),
            }
        }
        if sum % 2 == 0 { Ok(()) } else { Err(Fail) }
    }
}

/// `x + y == z` on the values of three integer variables, by bounds: a propagator that
/// prunes, looking at typed values through the `Var`s it holds.
struct Sum {
    x: Var<i32>,
    y: Var<i32>,
    z: Var<i32>,
}

impl Sum {
    fn values(cx: &Context<'_>, var: &Var<i32>) -> Vec<i32> {
        cx.domain(var.id())
            .iter()
            .map(|i| *var.value(i as usize))
            .collect()
    }
}

impl Propagator for Sum {
    fn propagate(&self, cx: &mut Context<'_>) -> Result<(), Fail> {
        let (xs, ys, zs) = (
            Self::values(cx, &self.x),
            Self::values(cx, &self.y),
            Self::values(cx, &self.z),
        );
        let (Some(&x_lo), Some(&x_hi)) = (xs.iter().min(), xs.iter().max()) else {
            return Err(Fail);
        };
        let (Some(&y_lo), Some(&y_hi)) = (ys.iter().min(), ys.iter().max()) else {
            return Err(Fail);
        };
        let (Some(&z_lo), Some(&z_hi)) = (zs.iter().min(), zs.iter().max()) else {
            return Err(Fail);
        };
        let z_values = self.z.values().to_vec();
        cx.retain(self.z.id(), |i| {
            (x_lo + y_lo..=x_hi + y_hi).contains(&z_values[i as usize])
        })?;
        let x_values = self.x.values().to_vec();
        cx.retain(self.x.id(), |i| {
            (z_lo - y_hi..=z_hi - y_lo).contains(&x_values[i as usize])
        })?;
        let y_values = self.y.values().to_vec();
        cx.retain(self.y.id(), |i| {
            (z_lo - x_hi..=z_hi - x_lo).contains(&y_values[i as usize])
        })?;
        // With everything fixed the bounds above are exact: x + y == z holds.
        Ok(())
    }
}

fn solutions(model: &Model<'_>, engine: Engine, strategy: Strategy) -> Vec<Vec<u32>> {
    model
        .solve(engine)
        .strategy(strategy)
        .solutions()
        .map(|a| a.indices().to_vec())
        .collect()
}

#[test]
fn a_checking_propagator_from_outside_the_crate() {
    let lists = vec![(0..4).collect::<Vec<i32>>(); 3];
    let mut model = Model::new();
    let x: Vec<_> = lists.iter().map(|l| model.var(l.clone())).collect();
    let ids: Vec<VarId> = x.iter().map(Var::id).collect();
    model.propagator(&ids, EvenSum { vars: ids.clone() });
    model.all_different(&x);
    let expected = brute_force(&lists, |i| {
        i.iter().sum::<usize>() % 2 == 0 && i[0] != i[1] && i[1] != i[2] && i[0] != i[2]
    });
    assert_eq!(expected.len(), 12);
    for engine in [Engine::Trail, Engine::Replay] {
        assert_eq!(
            solutions(&model, engine, Strategy::new()),
            expected,
            "{engine:?}"
        );
    }
    let mut ff = solutions(&model, Engine::Trail, Strategy::first_fail());
    ff.sort();
    assert_eq!(ff, expected);
}

#[test]
fn a_pruning_propagator_from_outside_the_crate() {
    let lists = vec![
        vec![-3, 0, 2, 5, 7],
        vec![1, 2, 3],
        vec![-1, 2, 4, 5, 9, 12],
    ];
    let mut model = Model::new();
    let x = model.var(lists[0].clone());
    let y = model.var(lists[1].clone());
    let z = model.var(lists[2].clone());
    model.propagator(
        &[x.id(), y.id(), z.id()],
        Sum {
            x: x.clone(),
            y: y.clone(),
            z: z.clone(),
        },
    );
    let expected = brute_force(&lists, |i| {
        lists[0][i[0]] + lists[1][i[1]] == lists[2][i[2]]
    });
    assert!(expected.len() >= 5, "the case is not trivial");
    for engine in [Engine::Trail, Engine::Replay] {
        assert_eq!(
            solutions(&model, engine, Strategy::new()),
            expected,
            "{engine:?}"
        );
    }
    // Pruning happened: propagation alone fixes z once x and y are fixed, so the trail
    // engine makes no more decisions than there are (x, y) pairs worth trying.
    let stats = model.solve(Engine::Trail).count().unwrap().stats;
    assert!(
        stats.nodes <= (lists[0].len() * lists[1].len() + lists[0].len()) as u64,
        "{stats}"
    );
    for s in model.solve(Engine::Trail).solutions() {
        assert_eq!(s.value(&x) + s.value(&y), *s.value(&z));
        assert_eq!(model.check(&s), Ok(()));
    }
}

#[test]
fn the_context_shows_domains() {
    struct Inspect(VarId);
    impl Propagator for Inspect {
        fn propagate(&self, cx: &mut Context<'_>) -> Result<(), Fail> {
            let before: Domain = cx.domain(self.0);
            cx.remove(self.0, 0)?;
            assert_eq!(
                cx.size(self.0),
                before.len() - usize::from(before.contains(0))
            );
            assert_eq!(cx.scope(), [self.0]);
            Ok(())
        }
    }
    let mut model = Model::new();
    let x = model.var(["a", "b", "c"]);
    model.propagator(&[x.id()], Inspect(x.id()));
    let values: Vec<&str> = model
        .solve(Engine::Trail)
        .solutions()
        .map(|s| *s.value(&x))
        .collect();
    assert_eq!(values, ["b", "c"]);
}
