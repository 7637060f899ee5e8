//! What every machine-code backend does around a launch, whatever runs the code: compile
//! once per kernel and lay the run out in the device's memory following the compiler's
//! launch contract (see [`crate::compiler`](mod@crate::compiler)).
//!
//! The argument arrays are already in the device's memory at their bus addresses (GPU memory
//! on the Pi; on the emulator, host memory the backend lends the emulated machine for the
//! run), so staging copies none of them. It adds, in allocation order, the code, the spill
//! area (one slice per QPU) when the kernel spills, and one uniform stream per QPU,
//! `[qpu, n, args..., spill?]`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::host::lock;
use super::{Launch, MAX_QPUS};
use crate::compiler::v3d::V3dCompiled;
use crate::compiler::{self, Compiled, Gpu, Program};
use crate::error::{Error, Result};
use crate::lang::ast::Type;

/// Zero-filled bytes after each array in GPU memory on the Pi: a gather one vector (64 bytes)
/// or a few past the end, which hardware-proven kernels issue and discard, reads memory that
/// exists.
pub(super) const TAIL_MARGIN: u32 = 4096;
/// Arrays and spill areas start on a page, as mailbox allocations on the Pi do.
const PAGE: u32 = 4096;
/// Code is fetched in 64-byte lines.
const CODE_ALIGN: u32 = 64;
/// Uniform streams start on a 16-byte boundary.
const UNIFORMS_ALIGN: u32 = 16;

/// Memory a backend's QPUs read and write, by bus address.
pub(super) trait DeviceMemory {
    /// Allocates `bytes` zero-filled bytes aligned to `align` (a power of two, at most a page)
    /// and returns their bus address.
    fn alloc(&mut self, bytes: u32, align: u32) -> Result<u32>;
    /// Writes `words` from `address` on; the range lies inside one allocation.
    fn write(&mut self, address: u32, words: &[u32]) -> Result<()>;
}

/// Compiled kernels by (kernel id, GPU, QPU count): the one compile cache every backend
/// uses, filled through the one compile entry point ([`compiler::compile_for_with`]). The
/// VideoCore IV code depends on the QPU count (store runs move as many VPM rows per DMA as
/// each QPU owns); the V3D code does not, so its entries are keyed with count 0.
#[derive(Default)]
pub(super) struct ProgramCache {
    programs: Mutex<HashMap<(u64, Gpu, u32), Arc<Program>>>,
}

impl ProgramCache {
    /// The launched kernel compiled for `gpu` (compiled on first use).
    pub(super) fn get(&self, launch: &Launch<'_>, gpu: Gpu) -> Result<Arc<Program>> {
        let options = match gpu {
            Gpu::Vc4 => compiler::Options {
                max_qpus: launch.num_qpus,
                ..compiler::Options::default()
            },
            Gpu::Vc6 | Gpu::Vc7 => compiler::Options::default(),
        };
        let key = (
            launch.kernel_id,
            gpu,
            if gpu == Gpu::Vc4 { launch.num_qpus } else { 0 },
        );
        if let Some(program) = lock(&self.programs).get(&key) {
            return Ok(program.clone());
        }
        // Compiled outside the lock: two threads racing on a new kernel both compile it, and
        // the results are identical.
        let program = Arc::new(compiler::compile_for_with(launch.kernel, gpu, options)?);
        lock(&self.programs).insert(key, program.clone());
        Ok(program)
    }
}

/// The VideoCore IV code of a program the cache compiled for [`Gpu::Vc4`].
pub(super) fn vc4_code(program: &Program) -> Result<&Compiled> {
    match program {
        Program::Vc4(code) => Ok(code),
        Program::V3d(_) => Err(internal("a V3D program reached a VideoCore IV backend")),
    }
}

/// The V3D code of a program the cache compiled for [`Gpu::Vc6`] or [`Gpu::Vc7`].
pub(super) fn v3d_code(program: &Program) -> Result<&V3dCompiled> {
    match program {
        Program::V3d(code) => Ok(code),
        Program::Vc4(_) => Err(internal("a VideoCore IV program reached a V3D backend")),
    }
}

fn internal(message: &str) -> Error {
    Error::Backend {
        backend: "runtime".to_string(),
        message: format!("internal error: {message}"),
    }
}

/// Checks that a launch fits its kernel, and its QPU count the GPU (`gpu`, with `max` QPUs),
/// before anything is allocated.
pub(super) fn check(launch: &Launch<'_>, gpu: &'static str, max: u32) -> Result<()> {
    let params = &launch.kernel.params;
    if launch.args.len() != params.len() {
        return Err(Error::Arguments(format!(
            "the kernel takes {} parameters but {} arguments were given",
            params.len(),
            launch.args.len()
        )));
    }
    let pointers = params
        .iter()
        .filter(|param| matches!(param.ty, Type::Ptr(_)))
        .count();
    if launch.buffers.len() != pointers {
        return Err(Error::Arguments(format!(
            "the kernel takes {pointers} pointer parameters but {} arrays were given",
            launch.buffers.len()
        )));
    }
    if !(1..=MAX_QPUS).contains(&launch.num_qpus) {
        return Err(Error::NumQpus(launch.num_qpus));
    }
    if launch.num_qpus > max {
        return Err(Error::TooManyQpus {
            requested: launch.num_qpus,
            gpu,
            max,
        });
    }
    for (index, buffer) in launch.buffers.iter().enumerate() {
        u32::try_from(buffer.len())
            .ok()
            .and_then(|len| len.checked_mul(4))
            .ok_or_else(|| too_large(&format!("array argument {index}")))?;
    }
    Ok(())
}

/// Where a launch was put in device memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Staged {
    /// One (uniforms address, code address) pair per QPU, QPU 0 first.
    pub(super) programs: Vec<(u32, u32)>,
}

fn too_large(what: &str) -> Error {
    Error::Arguments(format!(
        "{what} does not fit in the 32-bit bus address space"
    ))
}

/// Puts the kernel's code in `memory`; returns its bus address.
pub(super) fn stage_code(compiled: &Compiled, memory: &mut dyn DeviceMemory) -> Result<u32> {
    let code_words = compiled.code_words();
    let code_bytes = u32::try_from(code_words.len() * 4).map_err(|_| too_large("the code"))?;
    let code = memory.alloc(code_bytes.max(4), CODE_ALIGN)?;
    memory.write(code, &code_words)?;
    Ok(code)
}

/// The rest of a launch's layout once its arrays (`arrays`, in the order of
/// `Launch::buffers`) and code (`code`) are in device memory: the spill area and the uniform
/// streams.
pub(super) fn stage_uniforms(
    launch: &Launch<'_>,
    compiled: &Compiled,
    memory: &mut dyn DeviceMemory,
    arrays: Vec<u32>,
    code: u32,
) -> Result<Staged> {
    let n = launch.num_qpus;
    let args = device_args(launch, &arrays);
    let spill = match compiled.spill_bytes(n) {
        None => return Err(too_large("the spill area")),
        Some(0) => None,
        Some(bytes) => Some(memory.alloc(bytes, PAGE)?),
    };

    let mut programs = Vec::with_capacity(n as usize);
    for qpu in 0..n {
        let spill_area = spill.map_or(0, |base| base + qpu * compiled.spill_bytes_per_qpu);
        let stream = compiled.uniforms(qpu, n, &args, spill_area);
        let address = memory.alloc((stream.len() * 4) as u32, UNIFORMS_ALIGN)?;
        memory.write(address, &stream)?;
        programs.push((address, code));
    }
    Ok(Staged { programs })
}

/// The launch's argument words with each pointer argument replaced by its array's device
/// address (arrays are passed in pointer-parameter order).
fn device_args(launch: &Launch<'_>, arrays: &[u32]) -> Vec<u32> {
    let mut addresses = arrays.iter();
    launch
        .args
        .iter()
        .zip(&launch.kernel.params)
        .map(|(&arg, param)| match param.ty {
            Type::Ptr(_) => addresses.next().copied().unwrap_or(arg),
            _ => arg,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::*;
    use crate::runtime::{Buffer, Device};
    use std::collections::BTreeMap;

    /// Device memory as a map of allocations, each placed at the next multiple of its
    /// alignment after a one-page gap, so misplaced accesses are caught.
    #[derive(Default)]
    struct MapMemory {
        blocks: BTreeMap<u32, Vec<u32>>,
        next: u32,
        allocations: Vec<(u32, u32, u32)>,
    }

    impl MapMemory {
        fn block(&self, address: u32, count: u32) -> Result<(u32, usize)> {
            let (&base, words) = self
                .blocks
                .range(..=address)
                .next_back()
                .ok_or_else(|| Error::Arguments(format!("{address:#x} unmapped")))?;
            let start = ((address - base) / 4) as usize;
            if start + count as usize > words.len() {
                return Err(Error::Arguments(format!("{address:#x}+{count} past end")));
            }
            Ok((base, start))
        }

        fn read(&self, address: u32, count: u32) -> Result<Vec<u32>> {
            let (base, start) = self.block(address, count)?;
            Ok(self.blocks[&base][start..start + count as usize].to_vec())
        }
    }

    impl DeviceMemory for MapMemory {
        fn alloc(&mut self, bytes: u32, align: u32) -> Result<u32> {
            let base = (self.next + 4096).next_multiple_of(align);
            self.next = base + bytes;
            self.blocks
                .insert(base, vec![0; bytes.div_ceil(4) as usize]);
            self.allocations.push((base, bytes, align));
            Ok(base)
        }
        fn write(&mut self, address: u32, words: &[u32]) -> Result<()> {
            let (base, start) = self.block(address, words.len() as u32)?;
            let block = self.blocks.get_mut(&base).expect("found above");
            block[start..start + words.len()].copy_from_slice(words);
            Ok(())
        }
    }

    type Params = (Int, Ptr<Int>, Float, Ptr<Int>);

    fn kernel(f: impl FnOnce(Int, Ptr<Int>, Float, Ptr<Int>)) -> crate::runtime::Kernel<Params> {
        crate::compile(f).expect("builds")
    }

    #[test]
    fn layout_follows_the_launch_contract() {
        let k = kernel(|_n, p, _x, q| q.store(p.load()));
        let device = Device::interpreter();
        let input = device.alloc_from(&[7i32; 16]).unwrap();
        let mut output = device.alloc::<i32>(20).unwrap();
        let launch = Launch {
            kernel: &k.ast,
            kernel_id: k.id,
            num_qpus: 3,
            args: vec![
                5,
                input.bus_address(),
                1.5f32.to_bits(),
                output.bus_address(),
            ],
            buffers: vec![input.buffer(), output.buffer_mut()],
            step_limit: None,
        };
        check(&launch, "VideoCore IV", super::super::VC4_QPUS).unwrap();
        let compiled = Compiled {
            instructions: Vec::new(),
            words: vec![0x1122_3344_5566_7788, 0x99aa_bbcc_ddee_ff00],
            uniforms: 7,
            spill_bytes_per_qpu: 128,
            max_qpus: 12,
            compile_time: Default::default(),
            locations: Vec::new(),
            cycles: Vec::new(),
        };
        let mut memory = MapMemory::default();
        let code = stage_code(&compiled, &mut memory).unwrap();
        let arrays = vec![input.bus_address(), launch.args[3]];
        let staged = stage_uniforms(&launch, &compiled, &mut memory, arrays, code).unwrap();

        // Code, spill, then three uniform streams; no array is copied.
        let sizes: Vec<(u32, u32)> = memory.allocations.iter().map(|a| (a.1, a.2)).collect();
        assert_eq!(
            sizes,
            vec![(16, 64), (3 * 128, 4096), (28, 16), (28, 16), (28, 16)]
        );
        let [code_at, spill_at, ..] =
            memory.allocations.iter().map(|a| a.0).collect::<Vec<_>>()[..]
        else {
            panic!("five allocations");
        };
        assert_eq!(code, code_at);
        assert_eq!(
            memory.read(code_at, 4).unwrap(),
            vec![0x5566_7788, 0x1122_3344, 0xddee_ff00, 0x99aa_bbcc]
        );
        for (qpu, &(uniforms_at, code)) in staged.programs.iter().enumerate() {
            assert_eq!(code, code_at);
            let qpu = qpu as u32;
            assert_eq!(
                memory.read(uniforms_at, 7).unwrap(),
                vec![
                    qpu,
                    3,
                    5,
                    input.bus_address(),
                    1.5f32.to_bits(),
                    output.bus_address(),
                    spill_at + 128 * qpu
                ]
            );
        }
    }

    #[test]
    fn launches_that_do_not_fit_the_kernel_are_refused() {
        let k = kernel(|_n, _p, _x, _q| {});
        let device = Device::interpreter();
        let a = device.alloc::<i32>(16).unwrap();
        let launch = |args: Vec<u32>, buffers: Vec<Buffer<'_>>, num_qpus| {
            check(
                &Launch {
                    kernel: &k.ast,
                    kernel_id: k.id,
                    num_qpus,
                    args,
                    buffers,
                    step_limit: None,
                },
                "VideoCore IV",
                super::super::VC4_QPUS,
            )
        };
        assert!(matches!(
            launch(vec![0; 3], vec![], 1),
            Err(Error::Arguments(m)) if m.contains("4 parameters but 3")
        ));
        assert!(matches!(
            launch(vec![0; 4], vec![a.buffer()], 1),
            Err(Error::Arguments(m)) if m.contains("2 pointer parameters but 1")
        ));
        assert_eq!(
            launch(vec![0; 4], vec![a.buffer(), a.buffer()], 13),
            Err(Error::TooManyQpus {
                requested: 13,
                gpu: "VideoCore IV",
                max: 12
            })
        );
        assert_eq!(
            launch(vec![0; 4], vec![a.buffer(), a.buffer()], 17),
            Err(Error::NumQpus(17))
        );
        assert_eq!(launch(vec![0; 4], vec![a.buffer(), a.buffer()], 12), Ok(()));
    }
}
