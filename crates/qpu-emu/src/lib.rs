//! qpu-emu
