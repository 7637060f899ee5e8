//! The VideoCore IV's float arithmetic on the host, for reference computations that must
//! match a kernel's results bit for bit: `+`, `-`, `*` and int-to-float truncate toward
//! zero and denormals flush to zero, as on the QPUs (the evidence is in
//! [`qpu_emu::float`], which the emulator and the interpreter use too). Plain Rust `f32`
//! arithmetic rounds to nearest instead, so a scalar loop written with it can differ from a
//! kernel in the last bit.
//!
//! ```
//! use qpu::float;
//! // 0.1 · 3 is 0.30000000447...: the QPU truncates to the float below 0.3f32.
//! assert_eq!(float::mul(0.1, 3.0).to_bits(), 0.3f32.to_bits() - 1);
//! assert_eq!(float::add(1.5, 2.25), 3.75);
//! ```

use qpu_emu::float as hw;

/// `a + b` as a QPU computes it.
pub fn add(a: f32, b: f32) -> f32 {
    f32::from_bits(hw::fadd(a.to_bits(), b.to_bits()))
}

/// `a - b` as a QPU computes it.
pub fn sub(a: f32, b: f32) -> f32 {
    f32::from_bits(hw::fsub(a.to_bits(), b.to_bits()))
}

/// `a * b` as a QPU computes it.
pub fn mul(a: f32, b: f32) -> f32 {
    f32::from_bits(hw::fmul(a.to_bits(), b.to_bits()))
}

/// `i as f32` as a QPU computes it (`to_float` in a kernel).
pub fn from_int(i: i32) -> f32 {
    f32::from_bits(hw::itof(i as u32))
}
