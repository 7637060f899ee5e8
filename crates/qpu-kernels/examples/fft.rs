//! FFTs on the QPUs: accuracy against an f64 FFT (rustfft) and modelled time per transform.
//!
//! `cargo run --release -p qpu-kernels --example fft -- --log2n 8 --batch 10 --qpus 12`
//! prints the relative RMS error in parts per million and, on the emulator, the modelled
//! time per transform at the modelled board's clock (250 MHz for a Pi 1-3, 500 for a Pi 4,
//! 960 for a Pi 5). `--listing` prints the compiled kernel instead;
//! `FFT_COUNTERS=1` adds the emulator's counters (stall causes, DMA bytes).

use num_complex::Complex32;
use qpu::Device;
use qpu_kernels::fft::{FftDirection, FftPlanner};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut log2n, mut batch, mut qpus, mut inverse) = (8u32, 10usize, 12u32, false);
    let mut listing = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--inverse" {
            inverse = true;
            continue;
        }
        if arg == "--listing" {
            listing = true;
            continue;
        }
        let value: usize = args
            .next()
            .ok_or(format!("{arg} needs a value"))?
            .parse()
            .map_err(|e| format!("{arg}: {e}"))?;
        match arg.as_str() {
            "--log2n" => log2n = value as u32,
            "--batch" => batch = value,
            "--qpus" => qpus = value as u32,
            _ => return Err(format!("unknown option {arg}").into()),
        }
    }
    let n = 1usize << log2n;
    let direction = if inverse {
        FftDirection::Inverse
    } else {
        FftDirection::Forward
    };
    let mut fft = FftPlanner::new(qpus).plan_fft(n, direction)?;
    if listing {
        print!("{}", fft.kernel().disassemble()?);
        return Ok(());
    }
    let input: Vec<Complex32> = (0..n * batch)
        .map(|i| {
            let x = (i as f64 * 0.618_033_988_749_895).fract();
            let y = (i as f64 * 0.414_213_562_373_095).fract();
            Complex32::new(x as f32 - 0.5, y as f32 - 0.5)
        })
        .collect();
    let device = Device::auto()?;
    let mut data = input.clone();
    let report = fft.process(&device, &mut data)?;
    let ppm = qpu_kernels::fft::rms_error_ppm(&input, &data, n, direction);
    println!(
        "{batch} x 2^{log2n} on the {} ({qpus} QPUs): relative RMS error {ppm:.3} ppm",
        device.backend().name()
    );
    if std::env::var_os("FFT_COUNTERS").is_some() {
        eprintln!("{:?}", report.counters);
    }
    if let (Some(cycles), Some(us), Some(mhz)) =
        (report.cycles, report.gpu_time_us(), report.clock_mhz)
    {
        println!(
            "{cycles} cycles: {:.4} ms per transform at {mhz} MHz",
            us / 1e3 / batch as f64
        );
    }
    Ok(())
}
