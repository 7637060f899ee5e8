//! qpu-pi
