//! Hash many short messages with SHA-256 on the QPUs and report the modelled rate.
//!
//! `cargo run --release -p qpu-kernels --example sha256 -- --qpus 12 --messages 1536`
//! prints the first digests (check one with `printf 'message 0' | sha256sum`) and, on the
//! emulator, the modelled hashes per second at the board's clock. `--listing` prints the compiled
//! kernel instead.

use clap::Parser;
use qpu::Device;
use qpu_kernels::sha256::Sha256;

// Every example ends the same way: success, or the error's message and exit status 1.
#[path = "support/exit.rs"]
mod exit;

/// Hash many short messages with SHA-256 on the QPUs and report the modelled rate.
#[derive(Parser)]
#[command(name = "sha256")]
struct Cli {
    /// QPUs to run on
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=16))]
    qpus: u32,
    /// Messages to hash ("message 0", "message 1", ...)
    #[arg(long, default_value_t = 12 * 16 * 8, value_parser = clap::value_parser!(u32).range(1..=1 << 24))]
    messages: u32,
    /// Print the compiled kernel instead of running it
    #[arg(long)]
    listing: bool,
}

/// Runs the example; errors end it with their message (`Display`) and exit status 1.
fn main() -> std::process::ExitCode {
    exit::finish(run(Cli::parse()))
}

fn run(cli: Cli) -> qpu::Result<()> {
    if cli.listing {
        let mut sha = Sha256::new()?;
        print!("{}", sha.kernel().disassemble()?);
        return Ok(());
    }
    let (qpus, count) = (cli.qpus, cli.messages as usize);
    let messages: Vec<String> = (0..count).map(|i| format!("message {i}")).collect();
    let device = Device::auto()?;
    let sha = Sha256::with_qpus(qpus)?;
    let (digests, report) = sha.digest_all_with_report(&device, &messages)?;
    for (m, d) in messages.iter().zip(&digests).take(3) {
        let hex: String = d.iter().map(|b| format!("{b:02x}")).collect();
        println!("{hex}  {m:?}");
    }
    println!(
        "{} messages on the {} ({qpus} QPUs)",
        messages.len(),
        device.backend().name()
    );
    if let (Some(cycles), Some(us), Some(mhz)) =
        (report.cycles, report.gpu_time_us(), report.clock_mhz)
    {
        let seconds = us / 1e6;
        println!(
            "{cycles} cycles = {:.1} us at {mhz} MHz: {:.2} M hashes/s ({} instructions issued)",
            seconds * 1e6,
            messages.len() as f64 / seconds / 1e6,
            report.qpus.iter().map(|q| q.steps).sum::<u64>()
        );
    }
    Ok(())
}
