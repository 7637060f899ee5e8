fn main() {
    let k = qpu::compile(qpu_kernels::mandelbrot::kernel).unwrap();
    let c = qpu::compile::v3d::compile(k.ast(), qpu::compile::v3d::V3dVersion::V42).unwrap();
    println!("{}", c.disassemble());
}
