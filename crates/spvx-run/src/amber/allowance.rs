//! The specification's freedoms in `EXPECT`s on a device (`spvx amber --device`, unless
//! `--literal`): after each device `RUN`, the engine runs the same dispatch on the same bytes,
//! and every element where the device differs is judged by spvx's spec-aware comparison
//! ([`crate::compare::judge_of`]: contraction, Fma precision, the Vulkan precision table,
//! flushing, NaN payloads, the VALVE models). An element the specification allows is
//! *held*: the engine's bytes are kept beside the device's. An `EXPECT` that fails on the
//! device's buffers but holds once every held element is replaced by the engine's bytes is an
//! allowed difference, not a failure; one that fails on both is a failure as in Amber.
//! Decisions: docs/semantics/amber.md ("Devices: the specification's freedoms").

use crate::ElemType;
use crate::compare::{ElementVerdict, SpecJudge};
use std::collections::BTreeMap;

/// One element the device wrote differently and the specification allows.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Held {
    /// The engine's bytes of the element.
    engine: Vec<u8>,
    /// The freedom that allows the device's bytes.
    freedom: String,
}

/// The held elements of every buffer: buffer name → first byte → element.
#[derive(Clone, Debug, Default)]
pub struct Allowances {
    held: BTreeMap<String, BTreeMap<usize, Held>>,
}

/// One bound window of a device run, as the judge sees it.
pub struct Window<'a> {
    /// (set, binding, element of an array of buffers).
    pub key: (u32, u32, u32),
    /// The script's buffer and the window's first byte in it.
    pub buffer: &'a str,
    pub start: usize,
    /// The bytes the run was given, the device's and the engine's after it.
    pub given: &'a [u8],
    pub device: &'a [u8],
    pub engine: Option<&'a [u8]>,
}

impl Allowances {
    /// True when nothing is held.
    pub fn is_empty(&self) -> bool {
        self.held.values().all(BTreeMap::is_empty)
    }

    /// Records one device run: elements the device or the engine changed lose what was held
    /// for them (a new value was written); those where the device's bytes differ from the
    /// engine's are judged (`judge` is built on the first such element only) and held when
    /// the specification allows them. `types` gives each binding's element type.
    pub fn record_run(
        &mut self,
        windows: &[Window],
        types: &BTreeMap<(u32, u32), ElemType>,
        judge: &mut dyn FnMut() -> SpecJudge,
    ) {
        let mut built: Option<SpecJudge> = None;
        for w in windows {
            let Some(&elem) = types.get(&(w.key.0, w.key.1)) else {
                continue;
            };
            let n = elem.size();
            let held = self.held.entry(w.buffer.to_string()).or_default();
            for (c, given) in w.given.chunks(n).enumerate() {
                let at = c * n;
                let device = w.device.get(at..(at + n).min(w.device.len()));
                let engine = w.engine.and_then(|e| e.get(at..(at + n).min(e.len())));
                let changed = device != Some(given) || engine.is_some_and(|e| e != given);
                if !changed {
                    continue;
                }
                held.remove(&(w.start + at));
                let (Some(d), Some(e)) = (device, engine) else {
                    continue;
                };
                if d == e || d.len() != n || e.len() != n {
                    continue;
                }
                let j = built.get_or_insert_with(&mut *judge);
                let verdict = j.judge(w.key, elem, c, elem.bits_at(e, 0), elem.bits_at(d, 0));
                if let ElementVerdict::Allowed(freedom) = verdict {
                    held.insert(
                        w.start + at,
                        Held {
                            engine: e.to_vec(),
                            freedom: freedom.to_string(),
                        },
                    );
                }
            }
        }
    }

    /// The buffers with every held element replaced by the engine's bytes.
    pub fn reference(&self, buffers: &BTreeMap<String, Vec<u8>>) -> BTreeMap<String, Vec<u8>> {
        let mut out = buffers.clone();
        for (name, held) in &self.held {
            let Some(b) = out.get_mut(name) else { continue };
            for (&start, h) in held {
                if let Some(dst) = b.get_mut(start..start + h.engine.len()) {
                    dst.copy_from_slice(&h.engine);
                }
            }
        }
        out
    }

    /// The freedom held for the element of `buffer` that holds byte `byte`, and how many
    /// elements of `buffer` are held in all.
    pub fn at(&self, buffer: &str, byte: usize) -> (Option<&str>, usize) {
        let Some(held) = self.held.get(buffer) else {
            return (None, 0);
        };
        let here = held
            .range(..=byte)
            .next_back()
            .filter(|(start, h)| byte < *start + h.engine.len())
            .map(|(_, h)| h.freedom.as_str());
        (here, held.len())
    }
}
