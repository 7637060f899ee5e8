//! qpu
