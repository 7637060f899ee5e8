//! The one launch path of the machine-code backends ([`launch`]): check the launch against
//! the kernel and the GPU, take the program from the one compile cache ([`ProgramCache`]),
//! and hand it to the backend ([`Adapter`]), which places it with [`stage_code`] and
//! [`stage_run`] in its memory ([`DeviceMemory`]), lends the arrays, runs it and maps its
//! faults to the kernel's source. Each generation's launch contract is its compiled
//! program's (see [`crate::compiler`](mod@crate::compiler)); the backends are the memory
//! and the machine.
//!
//! The argument arrays are already in the device's memory at their bus addresses (GPU memory
//! on the Pi; on the emulators, host memory the backend lends the emulated machine for the
//! run), so staging copies none of them. It adds, in allocation order, the code (backends
//! that keep code between runs place it once per kernel), the spill area (one slice per
//! QPU) when the kernel spills, on V3D the semaphore area when the kernel uses semaphores,
//! and the uniform streams: one per QPU on the VideoCore IV, `[qpu, n, args..., spill?]`,
//! and one all V3D batches share.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::host::lock;
use super::{Launch, RunReport, MAX_QPUS};
use crate::compiler::{self, Gpu, Program};
use crate::error::{Error, Result};
use crate::lang::ast::Type;

/// Zero-filled bytes after each array in GPU memory on the Pi: a gather one vector (64 bytes)
/// or a few past the end, which hardware-proven kernels issue and discard, reads memory that
/// exists.
pub(super) const TAIL_MARGIN: u32 = 4096;
/// VideoCore IV spill areas start on a page, as mailbox allocations on the Pi do.
const PAGE: u32 = 4096;
/// Code is fetched in 64-byte lines; V3D's spill and semaphore areas start on a line too.
const LINE: u32 = 64;
/// Uniform streams start on a 16-byte boundary.
const UNIFORMS_ALIGN: u32 = 16;

/// What a block of a run's device memory holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Region {
    /// The instructions.
    Code,
    /// The spill area: the kernel writes and reads it.
    Spill,
    /// V3D's semaphore words (zero at the start): the kernel's atomics write them.
    Semaphores,
    /// A uniform stream: the kernel reads it.
    Uniforms,
}

impl Region {
    /// Whether the QPUs write this region (the others they only read).
    pub(super) fn written(self) -> bool {
        matches!(self, Region::Spill | Region::Semaphores)
    }

    /// Its alignment in bytes for `program`'s generation.
    fn align(self, program: &Program) -> u32 {
        match (self, program) {
            (Region::Code, _) => LINE,
            (Region::Uniforms, _) => UNIFORMS_ALIGN,
            (Region::Spill, Program::Vc4(_)) => PAGE,
            (Region::Spill | Region::Semaphores, _) => LINE,
        }
    }
}

/// Memory a backend's QPUs read and write, by bus address.
pub(super) trait DeviceMemory {
    /// Allocates `bytes` (at least 4) zero-filled bytes for `region`, aligned to `align` (a
    /// power of two, at most a page), and returns their bus address.
    fn alloc(&mut self, region: Region, bytes: u32, align: u32) -> Result<u32>;
    /// Writes `words` from `address` on; the range lies inside one allocation.
    fn write(&mut self, address: u32, words: &[u32]) -> Result<()>;
}

/// A machine-code backend's part in [`launch`]: its GPU and QPU count, its compile cache,
/// and the run itself.
pub(super) trait Adapter {
    /// The GPU the backend runs code for.
    fn gpu(&self) -> Gpu;
    /// The GPU's name in errors about the QPU count.
    fn gpu_name(&self) -> &'static str;
    /// The QPUs a launch may use.
    fn qpus(&self) -> u32;
    /// The backend's compiled kernels.
    fn programs(&self) -> &ProgramCache;
    /// Places `program` ([`stage_code`], [`stage_run`]), lends the launch's arrays, runs it
    /// and reports; a fault becomes a run error at the kernel's source
    /// ([`Program::location_at`]).
    fn execute(&self, launch: &mut Launch<'_>, program: &Program) -> Result<RunReport>;
}

/// Launches a kernel on a machine-code backend: check the launch before anything is
/// allocated, compile (or take the cached program), run.
pub(super) fn launch(adapter: &impl Adapter, launch: &mut Launch<'_>) -> Result<RunReport> {
    check(launch, adapter.gpu_name(), adapter.qpus())?;
    let program = adapter.programs().get(launch, adapter.gpu())?;
    adapter.execute(launch, &program)
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
    /// The code's bus address.
    pub(super) code: u32,
    /// The uniform streams' addresses: one per QPU on the VideoCore IV, QPU 0 first; one
    /// that every V3D batch reads.
    pub(super) uniforms: Vec<u32>,
}

impl Staged {
    /// One (uniforms address, code address) pair per QPU, as the VideoCore IV starts them.
    pub(super) fn programs(&self) -> Vec<(u32, u32)> {
        self.uniforms.iter().map(|&u| (u, self.code)).collect()
    }
}

fn too_large(what: &str) -> Error {
    Error::Arguments(format!(
        "{what} does not fit in the 32-bit bus address space"
    ))
}

/// Places `words` in a new block of `memory` for `region`; returns its address.
fn place(
    memory: &mut dyn DeviceMemory,
    program: &Program,
    region: Region,
    words: &[u32],
) -> Result<u32> {
    let bytes = u32::try_from(words.len() * 4).map_err(|_| too_large("the code"))?;
    let address = memory.alloc(region, bytes.max(4), region.align(program))?;
    memory.write(address, words)?;
    Ok(address)
}

/// Puts the program's code in `memory`; returns its bus address.
pub(super) fn stage_code(program: &Program, memory: &mut dyn DeviceMemory) -> Result<u32> {
    place(memory, program, Region::Code, &program.code_words())
}

/// The rest of a launch's layout once its code is at `code`: the spill area, V3D's
/// semaphore area and the uniform streams.
pub(super) fn stage_run(
    launch: &Launch<'_>,
    program: &Program,
    memory: &mut dyn DeviceMemory,
    code: u32,
) -> Result<Staged> {
    let n = launch.num_qpus;
    let args = device_args(launch);
    let spill_bytes = match program {
        Program::Vc4(c) => c.spill_bytes(n),
        Program::V3d(c) => c.spill_bytes(n),
    }
    .ok_or_else(|| too_large("the spill area"))?;
    let mut area = |region: Region, bytes: u32| match bytes {
        0 => Ok(0),
        bytes => memory.alloc(region, bytes, region.align(program)),
    };
    let spill = area(Region::Spill, spill_bytes)?;
    let streams = match program {
        Program::Vc4(c) => (0..n)
            .map(|qpu| {
                let slice = if spill == 0 {
                    0
                } else {
                    spill + qpu * c.spill_bytes_per_qpu
                };
                c.uniforms(qpu, n, &args, slice)
            })
            .collect(),
        Program::V3d(c) => {
            let semaphores = area(Region::Semaphores, c.semaphore_bytes)?;
            vec![c.uniforms(n, &args, spill, semaphores)]
        }
    };
    let uniforms = streams
        .iter()
        .map(|stream| {
            // An empty stream starts past its (4-byte) block: a read of it is an error.
            let address = place(memory, program, Region::Uniforms, stream)?;
            Ok(if stream.is_empty() {
                address + 4
            } else {
                address
            })
        })
        .collect::<Result<_>>()?;
    Ok(Staged { code, uniforms })
}

/// The launch's argument words with each pointer argument replaced by its array's device
/// address (arrays are passed in pointer-parameter order).
fn device_args(launch: &Launch<'_>) -> Vec<u32> {
    let mut addresses = launch.buffers.iter().map(|b| b.bus_address);
    launch
        .args
        .iter()
        .zip(&launch.kernel.params)
        .map(|(&arg, param)| match param.ty {
            Type::Ptr(_) => addresses.next().unwrap_or(arg),
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
        fn alloc(&mut self, _: Region, bytes: u32, align: u32) -> Result<u32> {
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
        let program = Program::Vc4(crate::compiler::Compiled {
            instructions: Vec::new(),
            words: vec![0x1122_3344_5566_7788, 0x99aa_bbcc_ddee_ff00],
            uniform_count: 7,
            spill_bytes_per_qpu: 128,
            max_qpus: 12,
            compile_time: Default::default(),
            locations: Vec::new(),
            cycles: Vec::new(),
        });
        let mut memory = MapMemory::default();
        let code = stage_code(&program, &mut memory).unwrap();
        let staged = stage_run(&launch, &program, &mut memory, code).unwrap();

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
        for (qpu, &(uniforms_at, code)) in staged.programs().iter().enumerate() {
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

    /// V3D's layout: code, the spill area for all batches, the semaphore words, then one
    /// uniform stream `[n, args..., spill, semaphores, constants...]` every batch reads.
    #[test]
    fn v3d_layout_follows_its_launch_contract() {
        let k = kernel(|_n, p, _x, q| q.store(p.load()));
        let device = Device::interpreter();
        let input = device.alloc_from(&[7i32; 16]).unwrap();
        let mut output = device.alloc::<i32>(20).unwrap();
        let args = vec![
            5,
            input.bus_address(),
            1.5f32.to_bits(),
            output.bus_address(),
        ];
        let launch = Launch {
            kernel: &k.ast,
            kernel_id: k.id,
            num_qpus: 4,
            args: args.clone(),
            buffers: vec![input.buffer(), output.buffer_mut()],
            step_limit: None,
        };
        let program = Program::V3d(crate::compiler::v3d::V3dCompiled {
            version: qpu_isa::v3d::V3dVersion::V42,
            instructions: Vec::new(),
            words: vec![0x1122_3344_5566_7788],
            locations: Vec::new(),
            constants: vec![0xdead_beef],
            params: 4,
            spill_bytes_per_qpu: 96,
            semaphore_bytes: 64,
            compile_time: Default::default(),
        });
        let mut memory = MapMemory::default();
        let code = stage_code(&program, &mut memory).unwrap();
        let staged = stage_run(&launch, &program, &mut memory, code).unwrap();
        let sizes: Vec<(u32, u32)> = memory.allocations.iter().map(|a| (a.1, a.2)).collect();
        assert_eq!(sizes, vec![(8, 64), (4 * 96, 64), (64, 64), (32, 16)]);
        let at: Vec<u32> = memory.allocations.iter().map(|a| a.0).collect();
        assert_eq!(staged.code, at[0]);
        assert_eq!(staged.uniforms, vec![at[3]]);
        let mut stream = vec![4];
        stream.extend(&args);
        stream.extend([at[1], at[2], 0xdead_beef]);
        assert_eq!(memory.read(at[3], 8).unwrap(), stream);
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
