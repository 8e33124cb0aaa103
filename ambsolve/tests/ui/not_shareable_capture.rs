use std::rc::Rc;

use ambsolve::constraints;

fn main() {
    let limit = Rc::new(2);
    let _ = constraints! {
        let x = amb(0..3);
        let y = amb(0..3);
        require x + y < *limit || x == y;
    };
}
