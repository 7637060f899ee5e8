//! The cycle model's parameters: one table, each value with its source.
//!
//! Units are V3D clocks unless a name says otherwise. Row numbers (#n) are those of the
//! timing survey the table was built from; each value's source is tagged beside it: [guide] Broadcom's reference guide, [measured] a published hardware
//! measurement, [inferred] arithmetic on published numbers, [assumption] nobody has measured
//! it; a starting value to calibrate on a Pi.

/// Every timing parameter the emulator uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    /// #2: clocks per issued instruction. [guide p.16] one instruction per 4 clocks per QPU.
    pub clocks_per_instruction: u64,
    /// #15: clocks from the TMU `s` write to the result sitting in the receive FIFO when every
    /// lane hits the TMU cache. [measured, coarse: VC4C tuning, ~9 instructions]
    pub tmu_hit_latency: u64,
    /// #16: clocks a request occupies its TMU before the next request of the slice may start
    /// (one quad per clock). [assumption]
    pub tmu_request_occupancy: u64,
    /// #14: TMU L1 cache size in bytes (per TMU, direct-mapped). [measured: imrc, vc4asm]
    pub tmu_cache_bytes: u32,
    /// #14/#19: cache line size in bytes for the TMU cache and the L2C. [measured: imrc]
    pub cache_line_bytes: u32,
    /// #18: clocks to fill one TMU cache line from the V3D L2 cache. [assumption]
    pub l2c_hit_fill: u64,
    /// #19: L2C size in bytes (global, 4-way, LRU). [measured with "?": vc4asm; LRU assumption]
    pub l2c_bytes: u32,
    /// #19: L2C associativity.
    pub l2c_ways: u32,
    /// #20: extra clocks when the L2C misses and the line comes from SDRAM. [assumption, VC4C
    /// guess "+~20 instructions"]
    pub mem_latency: u64,
    /// #24: clocks from a VPM read setup until its first vector can be read. [guide: at
    /// least 3 instructions]
    pub vpm_read_latency: u64,
    /// #25: fixed part of a VDR (DMA load) job. [inferred: fit to 690 MB/s for 1 KiB]
    pub vdr_fixed: u64,
    /// #25: VDR bytes per clock, times 10 (3.8 bytes/clock → 38). [inferred]
    pub vdr_bytes_per_clock_x10: u64,
    /// #26: fixed part of a VDW (DMA store) job. [inferred: fit to ~1,120 MB/s and the Rot3D
    /// store plateau]
    pub vdw_fixed: u64,
    /// #26: VDW bytes per clock, times 10 (10 bytes/clock → 100). [inferred]
    pub vdw_bytes_per_clock_x10: u64,
    /// #28: clocks between a mutex release and the waiting QPU's grant. [assumption]
    pub mutex_handoff: u64,
    /// #29: clocks between a semaphore change and the waiting QPU's wake-up. [assumption]
    pub semaphore_wake: u64,
    /// #30: clocks from the launch until the first instruction issues. [assumption]
    pub program_start_latency: u64,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing::VC4
    }
}

impl Timing {
    /// The model's parameters for the VideoCore IV, each documented on its field with its
    /// source (the guide, vc4asm and imrc measurements, or a fit to published timings).
    pub const VC4: Timing = Timing {
        clocks_per_instruction: qpu_isa::vc4::latency::CLOCKS_PER_INSTRUCTION,
        tmu_hit_latency: qpu_isa::vc4::latency::TMU_HIT_CLOCKS,
        tmu_request_occupancy: 4,
        tmu_cache_bytes: 4096,
        cache_line_bytes: 64,
        l2c_hit_fill: 12,
        l2c_bytes: 32768,
        l2c_ways: 4,
        mem_latency: 80,
        vpm_read_latency: 12,
        vdr_fixed: 96,
        vdr_bytes_per_clock_x10: 38,
        vdw_fixed: 130,
        vdw_bytes_per_clock_x10: 100,
        mutex_handoff: 4,
        semaphore_wake: 4,
        program_start_latency: 4,
    };

    /// Checks what the cache models need: power-of-two sizes, a TMU cache of at least one
    /// line, an L2C of at least one line per way.
    pub fn validate(&self) -> Result<(), String> {
        let pow2 = |name: &str, v: u32| {
            if v.is_power_of_two() {
                Ok(())
            } else {
                Err(format!("timing.{name} = {v} must be a power of two"))
            }
        };
        pow2("cache_line_bytes", self.cache_line_bytes)?;
        pow2("tmu_cache_bytes", self.tmu_cache_bytes)?;
        pow2("l2c_bytes", self.l2c_bytes)?;
        if self.tmu_cache_bytes < self.cache_line_bytes
            || self.l2c_bytes < self.cache_line_bytes * self.l2c_ways.max(1)
            || self.l2c_ways == 0
        {
            return Err("timing: caches must hold at least one line per way".to_string());
        }
        if self.clocks_per_instruction == 0 {
            return Err("timing.clocks_per_instruction must be at least 1".to_string());
        }
        Ok(())
    }

    /// #25: clocks a VDR job of `bytes` occupies the (single, global) load engine.
    pub fn vdr_time(&self, bytes: u32) -> u64 {
        self.vdr_fixed + (u64::from(bytes) * 10).div_ceil(self.vdr_bytes_per_clock_x10.max(1))
    }

    /// #26: clocks a VDW job of `bytes` occupies the (single, global) store engine.
    pub fn vdw_time(&self, bytes: u32) -> u64 {
        self.vdw_fixed + (u64::from(bytes) * 10).div_ceil(self.vdw_bytes_per_clock_x10.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dma_times_follow_the_fitted_lines() {
        let t = Timing::VC4;
        // 1 KiB load: 96 + 1024/3.8 = 96 + 269.47 -> 366 clocks, i.e. ~700 MB/s at 250 MHz.
        assert_eq!(t.vdr_time(1024), 96 + 270);
        let mb_per_s = 1024.0 / (t.vdr_time(1024) as f64 / 250e6) / 1e6;
        assert!((650.0..750.0).contains(&mb_per_s), "{mb_per_s}");
        // 64-byte store: 130 + 6.4 -> 137 clocks.
        assert_eq!(t.vdw_time(64), 137);
    }
}
