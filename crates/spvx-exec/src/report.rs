//! What a run reports: the undefined-behaviour events it met (each with the instruction,
//! invocation and workgroup), the lines the program printed ([`PrintRecord`]) and counters.

use spvx_num::intdot::AccSatUndefined;
use spvx_spirv::op::Op;
use std::fmt;

/// A kind of undefined or erroneous behaviour the engine gave a documented result for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UbKind {
    /// A read outside its memory object: the value read is zero.
    OutOfBoundsRead {
        space: String,
        offset: u64,
        bytes: u32,
    },
    /// A write outside its memory object: the write is dropped.
    OutOfBoundsWrite {
        space: String,
        offset: u64,
        bytes: u32,
    },
    /// An access-chain index outside its array (the address is computed anyway; the access is
    /// bounds-checked against the memory object).
    IndexOutOfRange { index: i64, length: u32 },
    /// Integer division or remainder by zero (result 0); also signed overflow `MIN / -1`
    /// (result `MIN`, remainder 0).
    DivisionByZero,
    /// A shift by at least the operand width (result: as if shifted one bit at a time).
    ShiftOutOfRange { shift: u64, bits: u32 },
    /// The AccSat form of an integer dot product hit the spec's undefined case (result:
    /// saturate(exact sum)).
    AccSatOverflow(AccSatUndefined),
    /// OpUnreachable was executed (the invocation stops).
    Unreachable,
    /// A workgroup barrier reached by only some invocations of a subgroup.
    NonUniformBarrier,
    /// A fixed-point function met a special input (sqrt/rsqrt of a negative value, which the
    /// spec calls undefined, or 1/0, 1/√0, log 0, log of a negative value), or could not be
    /// evaluated within spvx-num's precision limit (result 0).
    FixedPoint(String),
    /// A write to a read-only resource (uniform buffer or push constants): dropped.
    WriteToReadOnly,
    /// OpPtrDiff of two pointers into different memory objects (Logical addressing; the spec
    /// requires both to point into the same array): result 0.
    PointerDiffAcrossObjects,
}

impl fmt::Display for UbKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UbKind::OutOfBoundsRead {
                space,
                offset,
                bytes,
            } => write!(
                f,
                "out-of-bounds read of {bytes} bytes at offset {offset} of {space} (read as zero)"
            ),
            UbKind::OutOfBoundsWrite {
                space,
                offset,
                bytes,
            } => write!(
                f,
                "out-of-bounds write of {bytes} bytes at offset {offset} of {space} (dropped)"
            ),
            UbKind::IndexOutOfRange { index, length } => {
                write!(f, "access-chain index {index} outside an array of {length}")
            }
            UbKind::ShiftOutOfRange { shift, bits } => {
                write!(f, "shift by {shift} of a {bits}-bit value")
            }
            UbKind::DivisionByZero => write!(f, "integer division by zero or overflow"),
            UbKind::AccSatOverflow(u) => {
                write!(f, "integer dot product AccSat undefined case: {u:?}")
            }
            UbKind::Unreachable => write!(f, "{} executed", Op::Unreachable),
            UbKind::NonUniformBarrier => {
                write!(
                    f,
                    "workgroup barrier reached by only some invocations of a subgroup"
                )
            }
            UbKind::FixedPoint(what) => write!(f, "fixed-point function: {what}"),
            UbKind::WriteToReadOnly => write!(f, "write to a read-only resource (dropped)"),
            UbKind::PointerDiffAcrossObjects => {
                write!(
                    f,
                    "{} of pointers into different objects (result 0)",
                    Op::PtrDiff
                )
            }
        }
    }
}

/// One event: what happened, where, and to whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UbEvent {
    pub kind: UbKind,
    /// Index of the instruction in the module's flat instruction list.
    pub instruction: u32,
    /// The instruction's opcode name.
    pub opcode: String,
    /// GlobalInvocationId of the invocation.
    pub invocation: [u32; 3],
    /// WorkgroupId.
    pub workgroup: [u32; 3],
}

impl fmt::Display for UbEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.invocation;
        let [a, b, c] = self.workgroup;
        write!(
            f,
            "{} at instruction {} ({}), invocation ({x}, {y}, {z}) of workgroup ({a}, {b}, {c})",
            self.kind, self.instruction, self.opcode
        )
    }
}

/// The outcome of a successful run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunReport {
    /// The first recorded events (at most `RunConfig::max_events`), ordered by workgroup
    /// (linear index), then in execution order within the workgroup.
    pub events: Vec<UbEvent>,
    /// How many events happened in all.
    pub total_events: u64,
    /// Instructions executed, counted once per subgroup (not per lane).
    pub steps: u64,
    /// Workgroups run.
    pub workgroups: u64,
    /// The lines the program printed (NonSemantic.DebugPrintf `debugPrintfEXT`, OpenCL
    /// `printf`), ordered by workgroup (linear index), then invocation (LocalInvocationIndex),
    /// then the invocation's program order (docs/semantics/engine-and-jit.md "Printing").
    pub prints: Vec<PrintRecord>,
    /// With `RunConfig::track_writers`: which invocation wrote each byte of each storage
    /// buffer and tensor binding last (empty otherwise).
    pub writers: Vec<BufferWriters>,
    /// The dispatch's workgroup counts and workgroup size (to name invocations).
    pub groups: [u32; 3],
    pub local_size: [u32; 3],
    /// Whether the JIT ran the dispatch.
    pub jit: JitUse,
    /// Whether the JIT ran it several invocations at a time in SIMD vectors (its vector
    /// lanes); false when the JIT did not run it, or ran it one invocation (or subgroup) at a
    /// time.
    pub vector_lanes: bool,
}

/// Whether the JIT ran a dispatch (`RunConfig::jit`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum JitUse {
    /// The interpreter ran it: the JIT was off, or the run asked for the interpreter
    /// (`strict`, `track_writers`).
    #[default]
    Off,
    /// The JIT ran it.
    Ran,
    /// The program cannot run on the JIT (why); the interpreter ran it.
    Unsupported(String),
    /// The JIT started, met something only the interpreter decides (why), and the dispatch
    /// ran again from its inputs on the interpreter: this is the interpreter's result.
    FellBack(String),
}

/// Which invocation wrote each byte of one binding (`RunConfig::track_writers`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BufferWriters {
    pub set: u32,
    pub binding: u32,
    /// Per byte: 1 + the global linear index of the last invocation that stored it (workgroup
    /// linear index × invocations per workgroup + LocalInvocationIndex), 0 if none did. Where
    /// several invocations stored the same byte without ordering (a race, or atomics), it is
    /// one of them.
    pub writers: Vec<u32>,
}

/// An invocation named by its workgroup and local invocation ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvocationId {
    pub workgroup: [u32; 3],
    pub local: [u32; 3],
}

impl fmt::Display for InvocationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.local;
        let [a, b, c] = self.workgroup;
        write!(f, "invocation ({x}, {y}, {z}) of workgroup ({a}, {b}, {c})")
    }
}

impl RunReport {
    /// The invocation that last wrote byte `byte` of binding `set.binding`: `None` without
    /// tracking or when no invocation wrote it (the byte holds its input value).
    pub fn writer_of(&self, set: u32, binding: u32, byte: usize) -> Option<InvocationId> {
        let w = self
            .writers
            .iter()
            .find(|w| w.set == set && w.binding == binding)?;
        let global = u64::from(w.writers.get(byte)?.checked_sub(1)?);
        let [lx, ly, lz] = self.local_size.map(u64::from);
        let [gx, gy, _] = self.groups.map(u64::from);
        let per_group = (lx * ly * lz).max(1);
        let (wg, li) = (global / per_group, global % per_group);
        let coords = |i: u64, x: u64, y: u64| {
            let (x, y) = (x.max(1), y.max(1));
            [i % x, i / x % y, i / (x * y)].map(|v| v as u32)
        };
        Some(InvocationId {
            workgroup: coords(wg, gx, gy),
            local: coords(li, lx, ly),
        })
    }
}

/// One line printed by one invocation: one execution of a print instruction
/// (`debugPrintfEXT` of NonSemantic.DebugPrintf, or OpenCL.std `printf`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrintRecord {
    /// WorkgroupId of the printing invocation.
    pub workgroup: [u32; 3],
    /// LocalInvocationId of the printing invocation.
    pub local_invocation: [u32; 3],
    /// GlobalInvocationId of the printing invocation.
    pub global_invocation: [u32; 3],
    /// Index of the print instruction in the module's flat instruction list.
    pub instruction: u32,
    /// The formatted text (the format string with its directives replaced; no newline added).
    pub text: String,
}

impl fmt::Display for PrintRecord {
    /// `[workgroup (x, y, z) local (x, y, z)] text`. The format string's final newline (C's
    /// habit, `"x=%d\n"`) ends the record rather than adding a blank line, and each line of a
    /// text with newlines inside carries the prefix, so that every printed line says who
    /// printed it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c] = self.workgroup;
        let [x, y, z] = self.local_invocation;
        let text = self.text.strip_suffix('\n').unwrap_or(&self.text);
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(
                f,
                "[workgroup ({a}, {b}, {c}) local ({x}, {y}, {z})] {line}"
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::PrintRecord;

    fn record(text: &str) -> String {
        PrintRecord {
            workgroup: [1, 0, 0],
            local_invocation: [2, 0, 0],
            global_invocation: [6, 0, 0],
            instruction: 0,
            text: text.to_string(),
        }
        .to_string()
    }

    #[test]
    fn printf_newlines_end_records_and_prefix_every_line() {
        let p = "[workgroup (1, 0, 0) local (2, 0, 0)] ";
        assert_eq!(record("x=1\n"), format!("{p}x=1"));
        assert_eq!(record("x=1"), format!("{p}x=1"));
        assert_eq!(record("a\nb\n"), format!("{p}a\n{p}b"));
        assert_eq!(record("a\n\n"), format!("{p}a\n{p}"));
        assert_eq!(record(""), p.trim_end().to_string() + " ");
    }
}
