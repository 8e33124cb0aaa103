//! Propagators of counting: occurrences of values, cardinalities, distinct values.

mod cardinality;
mod count_eq;
mod count_in;
mod nvalue;

pub(super) use self::cardinality::CardinalityProp;
pub(super) use self::count_eq::CountEqProp;
pub(super) use self::count_in::CountInProp;
pub(super) use self::nvalue::NValueProp;

use crate::choice::Fail;
use crate::model::Cmp;
use crate::propagate::view::IntView;
use crate::store::Store;

/// Which sides of `occurrences cmp count` bound the occurrences: `(from above, from
/// below)` — `==` both, `<=` above (the count is at least the occurrences), `>=` below.
pub(super) fn sides(cmp: Cmp) -> (bool, bool) {
    match cmp {
        Cmp::Eq => (true, true),
        Cmp::Le | Cmp::Lt => (true, false),
        Cmp::Ge | Cmp::Gt | Cmp::Ne => (false, true),
    }
}

/// Removes every value of the sorted list `values` from `item`: value by value when they
/// are fewer than its domain, else in one pass over the domain.
pub(super) fn remove_all(item: &IntView, store: &mut Store, values: &[i64]) -> Result<(), Fail> {
    if (values.len() as u64) < u64::from(item.size(store)) {
        for &v in values {
            item.remove(store, i128::from(v))?;
        }
    } else {
        item.retain(store, |v| values.binary_search(&v).is_err())?;
    }
    Ok(())
}
