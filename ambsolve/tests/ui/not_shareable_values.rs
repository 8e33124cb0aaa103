use std::rc::Rc;

use ambsolve::constraints;

fn main() {
    let _ = constraints! {
        let x = amb([Rc::new(1), Rc::new(2)]);
        let y = amb(0..3);
        require *x != y;
    };
}
