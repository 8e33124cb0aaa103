use ambsolve::constraints;

fn main() {
    let n = 3;
    let cost = [[4, 1, 3], [2, 0, 5], [3, 2, 2]];
    let _ = constraints! {
        let task[n] = amb(0..n);
        minimize sum(cost[i][task[i]] for i in 0..n)
        require all_different(task);
    };
}
