//! Fuzz check of spvx-exec on tensors (SPV_ARM_tensors): modules from `gen_tensor.rs` (its
//! race-free mode three times in four) that validate are compiled and run with tiny step and
//! memory limits on a small dispatch, with tensors bound as the module declares them — the
//! declared Shape where the type has one, else a random shape (rank-1 tensors sometimes longer
//! than 128 elements, so that narrow coordinates reach past the sign bit), packed or with
//! padded byte strides, random contents; a runtime array of tensors gets 1–3 elements.
//!
//! One input in eight binds one tensor (or element of an array of tensors) wrongly: not at all,
//! with one dimension more or less, a zero dimension, one byte too few, strides of the wrong
//! length, strides that overflow, or another shape of the same rank. When the entry point uses
//! that binding, every run must end in `ExecError::Tensor` or `ExecError::MissingBinding`
//! (leaving out the last element of a runtime array only shortens it, and another shape is
//! wrong only for a type with a Shape).
//!
//! Otherwise a run ends in a report or one typed error (step limit, memory limit,
//! strict-mode undefined behaviour), never a panic or hang. When the interpreter's run ends
//! well, every known-answer read (`gen_tensor::Probe`: constant coordinates of any integer type,
//! into a tensor never written; or a dimension's size into any integer type) has stored the
//! value VK_ARM_tensors' rules give for the bound tensor (bounds per element, byte strides,
//! OutOfBoundsValueARM, booleans, sizes truncated to the result's width). Tensors the module never writes
//! are unchanged byte for byte, written ones keep their shape, strides and byte length, the
//! output buffer its length; running the same dispatch again gives the same outcome and the
//! same bytes. The interpreter (`jit: false`), the JIT (`CompiledModule::with_jit_always`, run
//! twice) and the all-call-out JIT (`with_jit_callouts_only`) must give identical outcomes
//! (result or error text, events, event count, output buffer, every tensor) where the result
//! cannot depend on how invocations of a subgroup interleave: race-free modules (accesses to
//! writable tensors and output stores only at elements the invocation owns, see
//! `gen_tensor.rs`), or any module at subgroup size 1 (both engines then run the invocations
//! one after another in LocalInvocationIndex order). The runs and comparisons are
//! `exec_common::differential`'s, as in the other engine checks. Strict runs (one input in four)
//! use the interpreter.
//!
//! Called by the fuzz target `exec_tensor`, replayed by
//! `crates/spvx-exec/tests/fuzz_regressions.rs`.

use crate::exec_common::{Engine, Outcome, config, differential, split_settings};
use crate::gen_tensor::{
    Interface, OUT_BINDING, OWNED, PROBE_BINDING, PROBE_SLOTS, Probe, TensorDecl, generate,
};
use spvx_exec::{
    BindingKind, CompileOptions, CompiledModule, ExecError, Resources, RunConfig, Tensor,
};

/// A small deterministic generator (SplitMix64) for shapes, strides and contents.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A value below `n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// How a tensor is bound wrongly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Trouble {
    Unbound,
    ExtraDimension,
    MissingDimension,
    ZeroDimension,
    ShortData,
    StrideCount,
    StrideOverflow,
    /// Another shape of the same rank (refused only where the type has a Shape).
    OtherShape,
}

const TROUBLES: [Trouble; 8] = [
    Trouble::Unbound,
    Trouble::ExtraDimension,
    Trouble::MissingDimension,
    Trouble::ZeroDimension,
    Trouble::ShortData,
    Trouble::StrideCount,
    Trouble::StrideOverflow,
    Trouble::OtherShape,
];

/// The tensors bound for a run: (binding, element, tensor).
type Bound = Vec<(u32, u32, Tensor)>;

/// Bytes a tensor of `shape` with byte `strides` and elements of `size` bytes spans.
fn span(shape: &[u64], strides: &[u64], size: u64) -> u64 {
    shape
        .iter()
        .zip(strides)
        .fold(size, |end, (d, s)| end + (d - 1) * s)
}

/// A tensor for `decl`: its Shape or a random one, packed or padded strides, random bytes.
fn make_tensor(decl: &TensorDecl, rng: &mut Rng) -> Tensor {
    let shape = decl.shape.clone().unwrap_or_else(|| {
        (0..decl.rank)
            .map(|d| match (decl.rank, d, rng.below(4)) {
                (1, _, 0 | 1) => 129 + rng.below(200),
                (1, _, _) => 1 + rng.below(40),
                (_, 0, 0 | 1) => 1 + rng.below(26),
                (5.., 1.., _) => 1 + rng.below(2),
                _ => 1 + rng.below(6),
            })
            .collect()
    });
    let size = decl.element.element_bytes() as u64;
    let strides = if rng.below(2) == 0 {
        None
    } else {
        let mut s = vec![0; shape.len()];
        let mut next = size * (1 + rng.below(4) / 3);
        for d in (0..shape.len()).rev() {
            s[d] = next;
            next = next * shape[d] + size * rng.below(3);
        }
        Some(s)
    };
    let packed = Tensor {
        shape: shape.clone(),
        strides: None,
        data: Vec::new(),
    }
    .byte_strides(size);
    let end = span(&shape, strides.as_deref().unwrap_or(&packed), size) + rng.below(6);
    let data = (0..end).map(|_| rng.next() as u8).collect();
    Tensor {
        shape,
        strides,
        data,
    }
}

/// Binds `t` wrongly as `trouble` says (`None`: leave it unbound).
fn spoil(mut t: Tensor, trouble: Trouble, size: u64) -> Option<Tensor> {
    let rank = t.shape.len();
    match trouble {
        Trouble::Unbound => return None,
        Trouble::ExtraDimension => {
            t.shape.push(1);
            t.strides = t.strides.map(|mut s| {
                s.push(size);
                s
            });
        }
        Trouble::MissingDimension if rank > 1 => {
            t.shape.pop();
            t.strides = t.strides.map(|mut s| {
                s.pop();
                s
            });
        }
        Trouble::MissingDimension | Trouble::ZeroDimension => t.shape[rank - 1] = 0,
        Trouble::ShortData => {
            let strides = t.byte_strides(size);
            let end = span(&t.shape, &strides, size);
            t.data.truncate(end as usize - 1);
        }
        Trouble::StrideCount => {
            let mut s = t.byte_strides(size);
            s.push(size);
            t.strides = Some(s);
        }
        Trouble::StrideOverflow => {
            // (Strides of dimensions of size 1 are never used: one dimension of 2 at least.)
            t.shape[rank - 1] = t.shape[rank - 1].max(2);
            t.strides = Some(vec![u64::MAX / 2; rank]);
        }
        Trouble::OtherShape => {
            // One more in the outermost dimension, with packed strides and room for it.
            t.shape[0] += 1;
            t.strides = None;
            let end = span(&t.shape, &t.byte_strides(size), size);
            t.data.resize(end as usize, 0);
        }
    }
    Some(t)
}

/// The tensors to bind for `iface`: every element of every variable, one spoiled when
/// `trouble` is (variable index, what). Returns them and whether the spoiled one may leave the
/// run without error (it is not used, or it is the last element of a runtime array left out).
fn tensors(
    iface: &Interface,
    rng: &mut Rng,
    trouble: Option<(usize, Trouble)>,
    used: impl Fn(u32) -> bool,
) -> (Bound, bool) {
    let mut bound = Vec::new();
    let mut harmless = true;
    for (k, decl) in iface.tensors.iter().enumerate() {
        let count = match decl.array {
            None => 1,
            Some(0) => 1 + rng.below(3) as u32,
            Some(n) => n,
        };
        let spoiled = trouble
            .filter(|t| t.0 == k)
            .map(|t| (rng.below(count as u64) as u32, t.1));
        for e in 0..count {
            let t = make_tensor(decl, rng);
            let t = match spoiled {
                Some((which, what)) if which == e => {
                    let last_of_runtime = decl.array == Some(0) && e + 1 == count;
                    harmless = !used(decl.binding)
                        || (what == Trouble::Unbound && last_of_runtime)
                        || (what == Trouble::OtherShape && decl.shape.is_none());
                    spoil(t, what, decl.element.element_bytes() as u64)
                }
                _ => Some(t),
            };
            if let Some(t) = t {
                bound.push((decl.binding, e, t));
            }
        }
    }
    (bound, harmless)
}

/// The values a probe must read from tensor `t` (VK_ARM_tensors: element i of the access is
/// at the coordinates with i added to the innermost; it is inside iff 0 ≤ each coordinate <
/// its dimension, and reads as its bytes, little-endian, booleans as non-zero; outside, as the
/// OutOfBoundsValueARM operand or zero). A negative innermost coordinate puts every element
/// outside (as in the ARM emulation layer, where an element past the end makes the rest
/// outside too; reference/tensors.md §4): −1 + 1 is not element 0.
fn probe_answer(p: &Probe, decl: &TensorDecl, t: &Tensor) -> Vec<u64> {
    if let Some((d, bits)) = p.size_of {
        // The bound dimension, reduced to the result type's width.
        let n = t.shape[d as usize];
        return vec![if bits == 64 { n } else { n & ((1 << bits) - 1) }];
    }
    let size = decl.element.element_bytes() as u64;
    let strides = t.byte_strides(size);
    let last = p.coords.len() - 1;
    (0..p.count)
        .map(|i| {
            let coords: Vec<i128> = (p.coords.iter().enumerate())
                .map(|(d, &c)| {
                    if d == last && c >= 0 {
                        c + i as i128
                    } else {
                        c
                    }
                })
                .collect();
            let inside = (coords.iter().zip(&t.shape)).all(|(&c, &n)| 0 <= c && c < n as i128);
            if !inside {
                return p.oob.unwrap_or(0);
            }
            let at: u64 = (coords.iter().zip(&strides))
                .map(|(&c, s)| c as u64 * s)
                .sum();
            let bytes = &t.data[at as usize..(at + size) as usize];
            let v = bytes.iter().rev().fold(0u64, |v, &b| v << 8 | b as u64);
            if decl.element == crate::gen_tensor::Ty::Bool {
                (v != 0) as u64
            } else {
                v
            }
        })
        .collect()
}

/// What a run leaves in memory: the output and probe buffers, and every bound tensor (in the
/// order of [`Bound`]).
#[derive(Clone, Debug, PartialEq)]
struct Memory {
    out: Option<Vec<u8>>,
    probes: Option<Vec<u8>>,
    tensors: Vec<Option<Tensor>>,
}

/// The known-answer reads (see `gen_tensor::Probe`) of a run that ended well: each must have
/// stored what VK_ARM_tensors' rules give for the tensor bound.
fn check_probes(iface: &Interface, bound: &Bound, probes: Option<&[u8]>) {
    // Every probe ran (they are at the entry function's top level): known answers.
    let slots: Vec<u64> = (probes.unwrap_or_default().chunks_exact(8))
        .map(|c| u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
        .collect();
    for p in &iface.probes {
        let decl = iface.tensors.iter().find(|d| d.binding == p.binding);
        let t = bound
            .iter()
            .find(|b| b.0 == p.binding && b.1 == p.element)
            .map(|b| &b.2);
        let Some(decl) = decl else {
            panic!("probe {p:?} of an undeclared tensor");
        };
        let want = match t {
            Some(t) => probe_answer(p, decl, t),
            // A runtime array of tensors left empty: the index is past its end and selects
            // no tensor, whose reads are out of bounds and whose sizes are 0.
            None if decl.array == Some(0) => vec![p.oob.unwrap_or(0); p.count as usize],
            None => panic!("probe {p:?}: no tensor bound, yet the run ended well"),
        };
        let got = slots.get(p.slot as usize..(p.slot + p.count) as usize);
        assert_eq!(
            got,
            Some(&want[..]),
            "probe {p:?} of tensor {:?}",
            t.map(|t| (&t.shape, &t.strides))
        );
    }
}

/// The check (see the module comment). Layout of `data`: 8 bytes of run settings (subgroup
/// size; strict and race-free; groups; three seeds of shapes, strides and contents; which
/// tensor is bound wrongly and how; output words), then the generator's bytes.
pub fn exec_tensor(data: &[u8]) {
    let Some((mut h, rest)) = split_settings(data) else {
        return;
    };
    let subgroup_size = [1, 2, 4, 8, 16, 32, 64, 3][h.below(8)];
    let flags = h.u8();
    let strict = flags & 3 == 3;
    let race_free = (flags >> 2) & 3 != 0;
    let g = h.u8();
    let groups = [1 + (g & 3) as u32 % 3, 1 + (g >> 2 & 1) as u32, 1];
    let seed = h.u8() as u64 | (h.u8() as u64) << 8 | (h.u8() as u64) << 16;
    let t = h.u8();
    let short = h.below(8) as u32;
    let Some((module, iface)) = generate(rest, race_free) else {
        return;
    };
    let trouble = (t & 7 == 0).then(|| {
        (
            (t >> 3) as usize % iface.tensors.len().max(1),
            TROUBLES[(t >> 5) as usize % TROUBLES.len()],
        )
    });
    let Ok(compiled) = CompiledModule::from_module(&module, "main", &CompileOptions::default())
    else {
        return;
    };
    let used = |binding: u32| {
        compiled
            .bindings()
            .iter()
            .any(|b| b.kind == BindingKind::Tensor && b.set == 0 && b.binding == binding)
    };
    let mut rng = Rng(seed);
    let (bound, harmless) = tensors(&iface, &mut rng, trouble, used);
    // Room for every owned output word, or (one time in four) one to two words short.
    let need = groups[0] * groups[1] * iface.local_x * OWNED;
    let words = if short < 2 { need - 1 - short } else { need };
    let out: Vec<u32> = (0..words).map(|k| k.wrapping_mul(0x9e37_79b9)).collect();
    let run = |m: &CompiledModule, cfg: &RunConfig| {
        let mut res = Resources::new();
        res.set_words(0, OUT_BINDING, &out);
        res.set_words(0, PROBE_BINDING, &[0xaaaa_aaaa; 2 * PROBE_SLOTS as usize]);
        for (binding, e, t) in &bound {
            res.set_tensor_element(0, *binding, *e, t.clone());
        }
        let r = m.run(&mut res, groups, cfg);
        if trouble.is_some() && !harmless {
            assert!(
                matches!(
                    r,
                    Err(ExecError::Tensor { .. } | ExecError::MissingBinding { .. })
                ),
                "a wrongly bound tensor ({trouble:?}) gave {r:?}"
            );
        }
        let memory = Memory {
            out: res.buffer(0, OUT_BINDING).map(<[u8]>::to_vec),
            probes: res.buffer(0, PROBE_BINDING).map(<[u8]>::to_vec),
            tensors: (bound.iter())
                .map(|(binding, e, _)| res.tensor_element(0, *binding, *e).cloned())
                .collect(),
        };
        Outcome::new(r, memory)
    };
    // Isolation, and the known answers of the interpreter's run.
    let check = |o: &Outcome<Memory>, what: Engine| {
        assert_eq!(
            o.memory.out.as_ref().map_or(0, Vec::len),
            out.len() * 4,
            "{what}: the output buffer changed length ({})",
            o.result
        );
        for ((binding, e, before), after) in bound.iter().zip(&o.memory.tensors) {
            let Some(after) = after else {
                panic!("{what}: tensor {binding}[{e}] disappeared ({})", o.result);
            };
            let writable = iface
                .tensors
                .iter()
                .any(|d| d.binding == *binding && d.writable);
            if writable {
                assert_eq!(
                    (&after.shape, &after.strides, after.data.len()),
                    (&before.shape, &before.strides, before.data.len()),
                    "{what}: tensor {binding}[{e}] changed shape or size ({})",
                    o.result
                );
            } else {
                assert_eq!(
                    after, before,
                    "{what}: tensor {binding}[{e}] (never written by the module) changed ({})",
                    o.result
                );
            }
        }
        if what == Engine::Interpreter && o.result == "ok" {
            check_probes(&iface, &bound, o.memory.probes.as_deref());
        }
    };
    let cfg = config(subgroup_size, strict);
    differential(&compiled, &cfg, race_free || subgroup_size == 1, run, check);
}
