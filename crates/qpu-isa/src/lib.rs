//! The QPU instruction sets of the Raspberry Pi GPUs, one module per generation, as peers:
//!
//! * [`vc4`]: VideoCore IV (Pi 1, 2, 3, Zero), from Broadcom's *VideoCore IV 3D Architecture
//!   Reference Guide*;
//! * [`v3d`]: V3D 4.2 (VideoCore VI, Pi 4) and V3D 7.1 (VideoCore VII, Pi 5), from Mesa's
//!   broadcom sources and py-videocore6/7.
//!
//! Each is the one home of its generation's encoding facts: typed instructions that encode
//! and decode losslessly, a text assembler and disassembler, latencies, register and
//! magic-address classes, setup words, shared by the compiler and the emulator.

pub mod v3d;
pub mod vc4;
pub mod violation;

pub use violation::{CitedRule, Violation};
