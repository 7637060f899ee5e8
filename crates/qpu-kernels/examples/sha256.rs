//! Hash many short messages with SHA-256 on the QPUs and report the modelled rate.
//!
//! `cargo run --release -p qpu-kernels --example sha256 -- --qpus 12 --messages 1536`
//! prints the first digests (check one with `printf 'message 0' | sha256sum`) and, on the
//! emulator, the modelled hashes per second at the board's clock. `--listing` prints the compiled
//! kernel instead.

use qpu::Device;
use qpu_kernels::sha256::Sha256;

fn main() -> qpu::Result<()> {
    let mut qpus = 12u32;
    let mut count = 12 * 16 * 8usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--listing" {
            let mut sha = Sha256::new()?;
            print!("{}", sha.kernel().disassemble()?);
            return Ok(());
        }
        let value = args.next().and_then(|v| v.parse::<usize>().ok());
        match (arg.as_str(), value) {
            ("--qpus", Some(v)) => qpus = v as u32,
            ("--messages", Some(v)) => count = v,
            _ => {
                eprintln!("usage: sha256 [--qpus 1..=12] [--messages N] [--listing]");
                std::process::exit(2);
            }
        }
    }
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
