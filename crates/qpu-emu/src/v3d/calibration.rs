//! Programs of the kinds whose run times on real Pi 4 and Pi 5 boards were published, written
//! here in V3D assembly with the same algorithms and access patterns (not copies): the
//! calibration of the cycle model (`v3d/timing.rs`) runs them at the published sizes
//! (`tests/v3d_calibration.rs`), and the `help_us_check` example runs them on a Pi 4/5 to
//! compare the kernel's performance counters with the model's.
//!
//! Each function returns the program's text for [`qpu_isa::v3d::assemble`]; its uniforms
//! are listed in its documentation. All run one thread per QPU, one batch per QPU, each
//! QPU finding its number as (tidx >> 2) & 15, as py-videocore6 and 7 do.

use qpu_isa::v3d::V3dVersion;

/// The end of a program: the last-thread-switch pair and the final `thrsw` with their
/// delay slots.
pub const END: &str = "
    nop ; nop ; thrsw
    nop ; nop ; thrsw
    nop ; nop
    nop ; nop
    nop ; nop ; thrsw
    nop ; nop
    nop ; nop
";

/// Lines that put the QPU number ((tidx >> 2) & 15, one thread per QPU as py-videocore
/// numbers them) in `q` and the lane in `e`.
pub fn qpu_and_lane(q: &str, e: &str) -> String {
    format!(
        "
        tidx {q} ; nop
        shr {q}, {q}, 2 ; nop
        and {q}, {q}, 15 ; nop
        eidx {e} ; nop"
    )
}

/// The prologue the streaming programs share: uniforms into rf1 (source or destination),
/// rf2 (destination), rf3 (iterations) and rf6 (stride), then rf1 (and rf2, if `both`)
/// advanced to this QPU's lanes: (16 · QPU + lane) << `shift` bytes.
fn stream_prologue(shift: u32, both: bool) -> String {
    format!(
        "
        nop ; nop ; ldunifrf.rf1
        nop ; nop ; ldunifrf.rf2
        nop ; nop ; ldunifrf.rf3
        nop ; nop ; ldunifrf.rf6
        {ids}
        shl rf4, rf4, 4 ; nop
        add rf4, rf4, rf5 ; nop
        shl rf4, rf4, {shift} ; nop
        add rf1, rf1, rf4 ; nop
        {second}",
        ids = qpu_and_lane("rf4", "rf5"),
        second = if both { "add rf2, rf2, rf4 ; nop" } else { "" },
    )
}

/// memset, V3D 4.2: each lane stores 16 bytes (vec4, the lookup config from a uniform whose
/// four bytes configure this store and the next three), a QPU's 16 lanes 256 contiguous
/// bytes, the QPUs interleaved. Uniforms: dst, fill, iterations, stride, then a config word
/// per iteration.
pub fn memset_kernel() -> String {
    let store = |first: bool| {
        format!(
            "
        or tmud, rf2, rf2 ; nop
        or tmud, rf2, rf2 ; nop
        or tmud, rf2, rf2 ; nop
        or tmud, rf2, rf2 ; nop
        add rf1, rf1, rf6 ; mov {}, rf1",
            if first { "tmuau" } else { "tmua" }
        )
    };
    format!(
        "
        {prologue}
    loop:
        sub.pushz rf3, rf3, 1 ; nop
        {s0}
        {s1}
        {s2}
        or tmud, rf2, rf2 ; nop
        or tmud, rf2, rf2 ; nop
        b.anyna loop
        or tmud, rf2, rf2 ; nop
        or tmud, rf2, rf2 ; nop
        add rf1, rf1, rf6 ; mov tmua, rf1
        tmuwt ; nop
        {END}",
        prologue = stream_prologue(4, false),
        s0 = store(true),
        s1 = store(false),
        s2 = store(false),
    )
}

/// The loop shared by summation and scopy: 8 loads in flight per QPU, each QPU's lanes
/// reading 64 contiguous bytes, the QPUs interleaved. `each` is what happens to a loaded
/// vector (in rf8) before the next load is issued. Uniforms: src, dst, blocks of 8 loads,
/// stride.
pub fn streaming_kernel(each: &str, after: &str) -> String {
    let issue = "add rf1, rf1, rf6 ; mov tmua, rf1";
    let mut body: Vec<String> = vec!["sub.pushz rf3, rf3, 1 ; nop".into()];
    for _ in 0..8 {
        body.push("nop ; nop ; ldtmu.rf8".into());
        body.extend(each.lines().map(str::to_string));
        body.push(issue.into());
    }
    // The branch goes three instructions before the end of the body.
    let at = body.len() - 3;
    body.insert(at, "b.anyna loop".into());
    let mut drain = String::new();
    for _ in 0..8 {
        drain.push_str("nop ; nop ; ldtmu.rf8\n");
        drain.push_str(each);
        drain.push('\n');
    }
    format!(
        "
        {prologue}
        xor rf7, rf7, rf7 ; nop
        sub rf3, rf3, 1 ; nop
        {issue}
        {issue}
        {issue}
        {issue}
        {issue}
        {issue}
        {issue}
        {issue}
    loop:
        {body}
        {drain}
        {after}
        {END}",
        prologue = stream_prologue(2, true),
        body = body.join("\n"),
    )
}

/// summation (py-videocore6's kind): every QPU adds its share of 32-bit words lane by lane
/// and stores its 16 sums at dst + 64 × QPU. Uniforms as [`streaming_kernel`]'s.
pub fn summation_kernel() -> String {
    streaming_kernel(
        "add rf7, rf7, rf8 ; nop",
        "or tmud, rf7, rf7 ; nop\n or tmua, rf2, rf2 ; nop\n tmuwt ; nop",
    )
}

/// scopy with 16-lane loads and stores (py-videocore6's kind). Uniforms as
/// [`streaming_kernel`]'s.
pub fn scopy_kernel() -> String {
    streaming_kernel(
        "or tmud, rf8, rf8 ; nop\n add rf2, rf2, rf6 ; mov tmua, rf2",
        "tmuwt ; nop",
    )
}

/// scopy, V3D 7.1: vec4 loads and stores (each lane 16 bytes, a QPU's lanes 256 contiguous
/// bytes), two loads in flight, each lookup's config a uniform. Uniforms: src, dst,
/// iterations, stride, then the configs in the order the lookups are made.
pub fn scopy_vec4_kernel() -> String {
    let copy = "
        nop ; nop ; ldtmu.rf10
        nop ; nop ; ldtmu.rf11
        nop ; nop ; ldtmu.rf12
        nop ; nop ; ldtmu.rf13
        or tmud, rf10, rf10 ; nop
        or tmud, rf11, rf11 ; nop
        or tmud, rf12, rf12 ; nop
        or tmud, rf13, rf13 ; nop
        add rf2, rf2, rf6 ; mov tmuau, rf2";
    let issue = "add rf1, rf1, rf6 ; mov tmuau, rf1";
    let mut body: Vec<&str> = vec!["sub.pushz rf3, rf3, 1 ; nop", issue];
    body.extend(copy.lines().filter(|l| !l.trim().is_empty()));
    let at = body.len() - 3;
    body.insert(at, "b.anyna loop");
    format!(
        "
        {prologue}
        {issue}
    loop:
        {body}
        {copy}
        tmuwt ; nop
        {END}",
        prologue = stream_prologue(4, true),
        body = body.join("\n"),
    )
}

/// SGEMM C = A·B, one thread per QPU, QPU q computing `ib` × `jb` blocks of 16×16 of the
/// tile (q >> 2, q & 3) of C. Per k (38 instructions): the 16 rows' k-th words of A gathered (16 lines),
/// row k of B's 16 columns loaded (one line), then 16 multiply-adds, each with lane i of
/// A's column broadcast (4.2: `rot` into r5rep; 7.1: `rotate` and `rep`). Uniforms: A, B,
/// C, A's row stride, B's, C's, k count, ib, jb, bytes from one tile row of A to the next,
/// the same for C, bytes between tile columns, 64.
pub fn sgemm_kernel(version: V3dVersion) -> String {
    let acc = |i: usize| format!("rf{}", 16 + i);
    let v42 = version == V3dVersion::V42;
    let (col, row, prod, bcast) = if v42 {
        ("r0", "r1", "r3", "r5")
    } else {
        ("rf38", "rf39", "rf40", "rf0")
    };
    let mut k: Vec<String> = vec![
        "add rf1, rf1, 4 ; mov tmua, rf1".into(),
        "add rf2, rf2, rf5 ; mov tmua, rf2".into(),
        format!("nop ; nop ; ldtmu.{col}"),
        format!("nop ; nop ; ldtmu.{row}"),
    ];
    for i in 0..16 {
        let add = if i == 0 {
            // The k counter, in the first multiply's free add slot.
            "sub.pushz rf6, rf6, 1".to_string()
        } else {
            format!("fadd {a}, {a}, {prod}", a = acc(i - 1))
        };
        if v42 {
            let rot = if i == 0 {
                String::new()
            } else {
                format!(" ; rot.{}", -(i as i32))
            };
            let (first, second) = if i == 0 {
                ("nop".to_string(), add)
            } else {
                (add, "nop".to_string())
            };
            k.push(format!("{first} ; mov r5rep, {col}{rot}"));
            k.push(format!("{second} ; fmul {prod}, {bcast}, {row}"));
        } else {
            k.push(format!("rotate {col}, {col}, 1 ; mov rep, {col}"));
            k.push(format!("{add} ; fmul {prod}, {bcast}, {row}"));
        }
    }
    k.push(format!("fadd {a}, {a}, {prod} ; nop", a = acc(15)));
    let at = k.len() - 3;
    k.insert(at, "b.anyna kloop".into());
    let zero: Vec<String> = (0..16)
        .map(|i| format!("xor {a}, {a}, {a} ; nop", a = acc(i)))
        .collect();
    let mut store = vec!["add rf33, rf32, rf4 ; nop".to_string()];
    for i in 0..16 {
        store.push(format!("or tmud, {a}, {a} ; nop", a = acc(i)));
        store.push("add rf33, rf33, rf14 ; mov tmua, rf33".into());
    }
    format!(
        "
        nop ; nop ; ldunifrf.rf41
        nop ; nop ; ldunifrf.rf42
        nop ; nop ; ldunifrf.rf43
        nop ; nop ; ldunifrf.rf9
        nop ; nop ; ldunifrf.rf5
        nop ; nop ; ldunifrf.rf14
        nop ; nop ; ldunifrf.rf10
        nop ; nop ; ldunifrf.rf44
        nop ; nop ; ldunifrf.rf35
        nop ; nop ; ldunifrf.rf45
        nop ; nop ; ldunifrf.rf46
        nop ; nop ; ldunifrf.rf47
        nop ; nop ; ldunifrf.rf49
        {ids}
        shr rf34, rf33, 2 ; nop
        and rf33, rf33, 3 ; nop
        nop ; umul24 rf48, rf34, rf45
        add rf11, rf41, rf48 ; nop
        nop ; umul24 rf48, rf34, rf46
        add rf13, rf43, rf48 ; nop
        nop ; umul24 rf48, rf33, rf47
        add rf12, rf42, rf48 ; nop
        add rf13, rf13, rf48 ; nop
        nop ; umul24 rf3, rf50, rf9
        shl rf4, rf50, 2 ; nop
        shl rf36, rf9, 4 ; nop
        shl rf37, rf14, 4 ; nop
        or rf7, rf44, rf44 ; nop
    iloop:
        or rf15, rf12, rf12 ; nop
        or rf32, rf13, rf13 ; nop
        or rf8, rf35, rf35 ; nop
    jloop:
        {zero}
        add rf1, rf11, rf3 ; nop
        add rf2, rf15, rf4 ; nop
        or rf6, rf10, rf10 ; nop
    kloop:
        {k}
        {store}
        tmuwt ; nop
        add rf15, rf15, rf49 ; nop
        add rf32, rf32, rf49 ; nop
        sub.pushz rf8, rf8, 1 ; nop
        b.anyna jloop
        nop ; nop
        nop ; nop
        nop ; nop
        add rf11, rf11, rf36 ; nop
        add rf13, rf13, rf37 ; nop
        sub.pushz rf7, rf7, 1 ; nop
        b.anyna iloop
        nop ; nop
        nop ; nop
        nop ; nop
        {END}",
        ids = qpu_and_lane("rf33", "rf50"),
        zero = zero.join("\n"),
        k = k.join("\n"),
        store = store.join("\n"),
    )
}

/// A loop of `sub.pushz`, a branch and its three delay slots (py-videocore6's
/// tests/test_qpu.py clock loop): five instructions an iteration, no memory. Uniform: the
/// iteration count. Its cycles over its instructions are the issue rate.
pub fn issue_loop_kernel() -> String {
    format!(
        "
        nop ; nop ; ldunifrf.rf1
    loop:
        sub.pushz rf1, rf1, 1 ; nop
        b.anyna loop
        nop ; nop
        nop ; nop
        nop ; nop
        {END}"
    )
}
