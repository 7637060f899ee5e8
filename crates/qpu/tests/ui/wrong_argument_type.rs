// A float passed where the kernel takes an array.
use qpu::lang::*;

fn main() -> qpu::Result<()> {
    let device = qpu::Device::interpreter();
    let kernel = qpu::compile(|p: Ptr<Int>, x: Int| p.store(x))?;
    kernel.run(&device, (1.5f32, 3))?;
    Ok(())
}
