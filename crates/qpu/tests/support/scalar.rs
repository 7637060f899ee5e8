//! Scalar references shared by the tests that run the examples on several backends.

/// Euclid's algorithm by subtraction, as the GCD example computes it lane by lane.
pub fn gcd(mut a: i32, mut b: i32) -> i32 {
    while a != b {
        if a > b {
            a -= b;
        } else {
            b -= a;
        }
    }
    a
}
