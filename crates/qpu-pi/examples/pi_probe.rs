//! Diagnoses whether this machine can run QPU programs, without launching anything.
//!
//! `cargo run -p qpu-pi --example pi_probe` prints the board checks' verdict; with `--open` it
//! also opens the GPU (mailbox calls, QPU enable, V3D register check) and closes it again.

use std::process::ExitCode;

fn main() -> ExitCode {
    let open = std::env::args().any(|arg| arg == "--open");
    match qpu_pi::probe() {
        Ok(info) => {
            println!("supported: {}", info.describe());
            for note in &info.notes {
                println!("note: {note}");
            }
        }
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    }
    if open {
        match qpu_pi::Gpu::open() {
            Ok(gpu) => println!("opened: {}", gpu.describe()),
            Err(error) => {
                eprintln!("{error}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
