//! Undefined values on the V3D: which lanes of a value the hardware leaves undefined
//! (*poison*), and where that undefinedness was made.
//!
//! The rule is the VideoCore IV emulator's ([`crate::vc4::rules`], "Undefined values are
//! poison"): an undefined value is not an error where it is made, only where it is *used*:
//! stored to memory, used as a TMU address or lookup config, written to `unifa`, deciding a
//! branch or giving its target. Operations carry the marks lane by lane into their results
//! and into the flags they push. Programs proven on Pi 4s rely on this: py-videocore6's tests
//! zero registers with `xor rf0, rf0, rf0` / `sub rf1, rf1, rf1` before anything wrote them
//! (both define their result whatever the register held), and leave dead results of
//! never-written registers unread.

use super::placement::register_name;
use qpu_isa::v3d::Register;

/// Where an undefined value was made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Not known (a value combined from several).
    #[default]
    Unknown,
    /// A register nothing wrote.
    Unwritten(Register),
    /// A 4.2 accumulator after a thread switch (at the `thrsw` instruction at `pc`) that let
    /// another thread run on the QPU.
    Switched(Register, u32),
    /// A TMU load of a word outside every buffer: `address`, by the instruction at `pc`.
    Load { address: u32, pc: u32 },
    /// The value an op writes that no source defines (`tmuwt`, `barrierid`), at `pc`.
    Unspecified(&'static str, u32),
    /// The flags after `flpop` at `pc` (no source gives its effect on them).
    Flpop(u32),
    /// The flags as a batch starts: whatever the QPU's last thread left.
    FlagsAtStart,
}

impl Origin {
    /// The origin in words, the instruction address that made it and the memory address it
    /// was read from, when known.
    pub(crate) fn describe(self) -> (String, Option<u32>, Option<u32>) {
        match self {
            Origin::Unknown => (String::new(), None, None),
            Origin::Unwritten(reg) => (
                format!("by reading {}, which nothing wrote", register_name(reg)),
                None,
                None,
            ),
            Origin::Switched(reg, pc) => (
                format!(
                    "by reading {} after the thread switch at {pc:#010x}, which let another \
                     thread run on this QPU and use the accumulators",
                    register_name(reg)
                ),
                Some(pc),
                None,
            ),
            Origin::Load { address, pc } => (
                format!("by a TMU load at {pc:#010x} from {address:#010x}, outside every buffer"),
                Some(pc),
                Some(address),
            ),
            Origin::FlagsAtStart => (
                "by reading a flag that nothing in this batch pushed".to_string(),
                None,
                None,
            ),
            Origin::Unspecified(op, pc) => (
                format!("by the {op} at {pc:#010x}, whose result no source defines"),
                Some(pc),
                None,
            ),
            Origin::Flpop(pc) => (
                format!("by the flpop at {pc:#010x}: no source gives its effect on the flags"),
                Some(pc),
                None,
            ),
        }
    }
}

/// The undefined lanes of a 16-lane value (bit i = lane i) and where they came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Poison {
    pub(crate) lanes: u16,
    pub(crate) origin: Origin,
}

impl Poison {
    /// Every lane defined.
    pub(crate) const NONE: Poison = Poison {
        lanes: 0,
        origin: Origin::Unknown,
    };

    /// Every lane undefined, made at `origin`.
    pub(crate) fn all(origin: Origin) -> Poison {
        Poison {
            lanes: 0xffff,
            origin,
        }
    }

    /// Whether any lane is undefined.
    pub(crate) fn any(self) -> bool {
        self.lanes != 0
    }

    /// The lanes undefined in either; the origin of the first that has any.
    pub(crate) fn or(self, other: Poison) -> Poison {
        Poison {
            lanes: self.lanes | other.lanes,
            origin: if self.any() {
                self.origin
            } else {
                other.origin
            },
        }
    }

    /// Only the lanes in `lanes`.
    pub(crate) fn within(self, lanes: u16) -> Poison {
        Poison {
            lanes: self.lanes & lanes,
            origin: self.origin,
        }
    }

    /// Lane i takes lane `from(i)`'s mark (a rotation or broadcast).
    pub(crate) fn moved(self, from: impl Fn(usize) -> usize) -> Poison {
        if !self.any() {
            return self;
        }
        let lanes = (0..16).fold(0u16, |m, i| m | (self.lanes >> from(i) & 1) << i);
        Poison {
            lanes,
            origin: self.origin,
        }
    }

    /// Every lane undefined if any is (a reduction over the lanes: `ballot`, `alleq`).
    pub(crate) fn spread(self) -> Poison {
        if self.any() {
            Poison::all(self.origin)
        } else {
            self
        }
    }

    /// A register's marks after a write of `value` (marked `value`) in the lanes `mask`
    /// enables, under a condition whose flag is undefined in `cond`'s lanes: written lanes
    /// take the value's marks, lanes whose condition is undefined become undefined (written
    /// or not, no one knows), the rest keep theirs.
    pub(crate) fn after_write(self, mask: u16, value: Poison, cond: Poison) -> Poison {
        let kept = self.lanes & !mask & !cond.lanes;
        let written = value.lanes & mask;
        let lanes = kept | written | cond.lanes;
        let origin = if written != 0 {
            value.origin
        } else if cond.any() {
            cond.origin
        } else {
            self.origin
        };
        Poison { lanes, origin }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_keep_merge_and_spread_marks() {
        let old = Poison::all(Origin::Unwritten(Register::Rf(3)));
        let value = Poison {
            lanes: 0b0110,
            origin: Origin::Unspecified("tmuwt", 8),
        };
        // A full write takes the value's marks.
        assert_eq!(old.after_write(0xffff, value, Poison::NONE), value);
        // A write of lanes 0-3: lanes 1 and 2 from the value, 4-15 kept.
        let w = old.after_write(0x000f, value, Poison::NONE);
        assert_eq!(w.lanes, 0xfff6);
        assert_eq!(w.origin, Origin::Unspecified("tmuwt", 8));
        // A defined write under an undefined condition in lane 0 leaves lane 0 undefined.
        let cond = Poison {
            lanes: 1,
            origin: Origin::Unwritten(Register::Acc(1)),
        };
        let w = Poison::NONE.after_write(0xffff, Poison::NONE, cond);
        assert_eq!((w.lanes, w.origin), (1, cond.origin));
        // Rotation by one toward higher lanes: lane i takes lane i - 1.
        let r = value.moved(|i| (i + 15) % 16);
        assert_eq!(r.lanes, 0b1100);
        assert_eq!(value.spread().lanes, 0xffff);
        assert_eq!(Poison::NONE.spread(), Poison::NONE);
    }
}
