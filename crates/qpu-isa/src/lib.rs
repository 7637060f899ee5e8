//! qpu-isa
