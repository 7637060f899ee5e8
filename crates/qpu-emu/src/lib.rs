//! qpu-emu

pub mod memory;
pub mod vpm;
