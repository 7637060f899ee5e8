// A kernel takes at most 12 parameters (the QPU's uniforms carry them).
use qpu::lang::*;

fn main() {
    let _ = qpu::compile(
        |a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int, i: Int, j: Int, k: Int,
         l: Int, m: Int| {
            let _ = (a, b, c, d, e, f, g, h, i, j, k, l, m);
        },
    );
}
