//! The setup words the compiler builds with `qpu_isa::vc4::setup` decode, in the emulator, to
//! the fields they were built from: one description of tables 32–36 on each side, checked
//! against each other over every field's range (the element width is one shared type).

use qpu_emu::vc4::vpm;
use qpu_isa::vc4::setup::{GenericSetup, VdrSetup, VdwSetup, VdwStride, Width};

const WIDTHS: [(Width, u32); 3] = [(Width::Bits32, 1), (Width::Bits16, 2), (Width::Bits8, 4)];

#[test]
fn generic_setups_round_trip() {
    for (w, _) in WIDTHS {
        for stride in [1, 2, 17, 63, 64] {
            for count in [1, 5, 16] {
                for (horizontal, laned) in [(true, false), (false, true), (true, true)] {
                    for address in [0, 1, 37, 255] {
                        let s = GenericSetup {
                            count,
                            stride,
                            horizontal,
                            laned,
                            width: w,
                            address,
                        };
                        for read in [false, true] {
                            let word = if read { s.read_word() } else { s.write_word() };
                            let d = vpm::GenericSetup::decode(word, read).unwrap();
                            assert_eq!(d.count, read.then_some(count), "{s:?}");
                            assert_eq!(
                                (d.stride, d.horizontal, d.laned, d.width, d.address),
                                (stride, horizontal, laned, w, address),
                                "{s:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn vdw_setups_round_trip() {
    for (w, lanes) in WIDTHS {
        for lane in 0..lanes {
            for units in [1, 2, 64, 127, 128] {
                for depth in [1, 16, 100, 128] {
                    for (y, x) in [(0, 0), (5, 3), (127, 15)] {
                        for horizontal in [false, true] {
                            let s = VdwSetup {
                                units,
                                depth,
                                horizontal,
                                y,
                                x,
                                width: w,
                                lane,
                            };
                            let d = vpm::VdwSetup::decode(s.word()).unwrap();
                            assert_eq!(
                                (d.units, d.depth, d.horizontal, d.y, d.x, d.width, d.lane),
                                (units, depth, horizontal, y, x, w, lane),
                                "{s:?}"
                            );
                        }
                    }
                }
            }
        }
    }
    for stride in [0, 1, 704, 8191, 65535] {
        for block_mode in [false, true] {
            let s = VdwStride { stride, block_mode };
            let d = vpm::VdwStrideSetup::decode(s.word()).unwrap();
            assert_eq!((d.stride, d.block_mode), (stride, block_mode), "{s:?}");
        }
    }
}

#[test]
fn vdr_setups_round_trip() {
    for (w, lanes) in WIDTHS {
        for lane in 0..lanes {
            for pitch in [Some(16), Some(64), Some(8 << 15), None] {
                for (row_length, rows, vpm_pitch) in [(1, 1, 1), (16, 16, 16), (7, 3, 2)] {
                    for (y, x, vertical) in [(0, 0, false), (12, 0, false), (127, 15, true)] {
                        let s = VdrSetup {
                            width: w,
                            lane,
                            pitch,
                            row_length,
                            rows,
                            vpm_pitch,
                            vertical,
                            y,
                            x,
                        };
                        let d = vpm::VdrSetup::decode(s.word()).unwrap();
                        assert_eq!(
                            (d.width, d.lane, d.memory_pitch, d.row_length, d.rows),
                            (w, lane, pitch, row_length, rows),
                            "{s:?}"
                        );
                        assert_eq!(
                            (d.vpm_pitch, d.vertical, d.y, d.x),
                            (vpm_pitch, vertical, y, x),
                            "{s:?}"
                        );
                    }
                }
            }
        }
    }
}
