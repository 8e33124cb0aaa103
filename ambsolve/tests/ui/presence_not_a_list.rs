use ambsolve::constraints;

fn main() {
    let d = [2i64, 3];
    let _ = constraints! {
        let s[2] = amb(0..5i64);
        let p[2] = amb([false, true]);
        require disjunctive_optional(s, &d, p[0]);
    };
}
