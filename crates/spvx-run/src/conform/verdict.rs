//! A unit's verdict: the device's (or the engine's) output compared with the expected output
//! element by element, bit for bit, the undefined elements masked. Integer dot products and
//! tensors have no freedom (exact is the spec), fixed point none but at the special inputs
//! the spec gives no value for; where a spec allows differences (floats), a difference it
//! allows is ALLOWED DIFFERENCE with the reason.

use super::form::{CHUNK, Form, Kind};
use super::run::EngineRun;
use super::{fixed, mixdot, smma};
use serde::{Deserialize, Serialize};

/// The first failing input of a unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// The case's index in the form (chunk · CHUNK + invocation index).
    pub case: u64,
    pub chunk: u32,
    /// GlobalInvocationId of the invocation that computed it, in the chunk's dispatch.
    pub invocation: [u32; 3],
    /// Each input binding's elements of that invocation, `name = [v, …]`.
    pub inputs: Vec<String>,
    pub expected: String,
    pub got: String,
    /// Elements of the unit that differ.
    pub mismatches: u64,
}

/// A form's verdict (or a unit's, before they are joined).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status")]
pub enum Verdict {
    #[serde(rename = "PASS")]
    Pass,
    #[serde(rename = "FAIL")]
    Fail(Box<Failure>),
    /// The target lacks what the module needs (the feature or property named).
    #[serde(rename = "UNSUPPORTED")]
    Unsupported { missing: String },
    /// The results differ in ways the specification allows.
    #[serde(rename = "ALLOWED DIFFERENCE")]
    Allowed { reason: String },
    /// The run itself failed (the message says where).
    #[serde(rename = "ERROR")]
    Error { message: String },
}

impl Verdict {
    /// The word printed for it.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail(_) => "FAIL",
            Verdict::Unsupported { .. } => "UNSUPPORTED",
            Verdict::Allowed { .. } => "ALLOWED DIFFERENCE",
            Verdict::Error { .. } => "ERROR",
        }
    }

    /// FAIL and ERROR make the exit status non-zero.
    pub fn is_failure(&self) -> bool {
        matches!(self, Verdict::Fail(_) | Verdict::Error { .. })
    }

    fn rank(&self) -> u8 {
        match self {
            Verdict::Pass => 0,
            Verdict::Allowed { .. } => 1,
            Verdict::Unsupported { .. } => 2,
            Verdict::Error { .. } => 3,
            Verdict::Fail(_) => 4,
        }
    }

    /// Two units' verdicts as one: the worse (FAIL, ERROR, UNSUPPORTED, ALLOWED DIFFERENCE,
    /// PASS, in that order); of two FAILs the one of the lower case, with the mismatches
    /// added up; of two others of a kind, the first.
    pub fn join(self, other: Verdict) -> Verdict {
        match (self, other) {
            (Verdict::Fail(a), Verdict::Fail(b)) => {
                let mismatches = a.mismatches + b.mismatches;
                let mut first = if a.case <= b.case { a } else { b };
                first.mismatches = mismatches;
                Verdict::Fail(first)
            }
            (a, b) => {
                if b.rank() > a.rank() {
                    b
                } else {
                    a
                }
            }
        }
    }

    /// One line for people.
    pub fn detail(&self) -> String {
        match self {
            Verdict::Pass => String::new(),
            Verdict::Fail(f) => format!(
                "case {} (chunk {}, invocation ({}, {}, {})): {}; expected {}, got {} ({} element{} differ)",
                f.case,
                f.chunk,
                f.invocation[0],
                f.invocation[1],
                f.invocation[2],
                f.inputs.join(", "),
                f.expected,
                f.got,
                f.mismatches,
                if f.mismatches == 1 { "" } else { "s" }
            ),
            Verdict::Unsupported { missing } => format!("missing: {missing}"),
            Verdict::Allowed { reason } => reason.clone(),
            Verdict::Error { message } => message.clone(),
        }
    }
}

/// What a unit's comparison counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Elements compared.
    pub compared: u64,
    /// Elements not compared (undefined results).
    pub masked: u64,
}

/// Whether a difference is allowed: (invocation, expected bits, got bits) → the reason.
pub type Allow<'a> = dyn Fn(u32, u64, u64) -> Option<String> + 'a;

/// The differences a form's specification allows on these inputs (None: exact is the spec).
pub fn allowance<'a>(form: &'a Form, inputs: &'a [Vec<u8>]) -> Option<Box<Allow<'a>>> {
    match &form.kind {
        Kind::IntDot(_) | Kind::Tensors(_) => None,
        Kind::Fixed(f) => Some(Box::new(move |inv, _, _| {
            let p = form.inputs.first()?;
            let bits = inputs.first().map(|b| p.elem.bits_at(b, inv as usize))?;
            fixed::allowed(f, bits)
        })),
        Kind::Smma(f) => f
            .is_float()
            .then(|| -> Box<Allow<'a>> { Box::new(move |_, e, g| smma::allowed(f, e, g)) }),
        Kind::MixDot(f) => {
            let allowance = mixdot::Allowance::new(f, inputs);
            Some(Box::new(move |inv, expected, got| {
                allowance.reason(inv, expected as u32, got as u32)
            }))
        }
    }
}

/// Compares `got` with the expected run of a unit, exactly; the elements the expected run
/// marks undefined are skipped; a difference `allow` accepts is an allowed difference.
pub fn judge(
    form: &Form,
    chunk: u32,
    inputs: &[Vec<u8>],
    expected: &EngineRun,
    got: &[u8],
    allow: Option<&Allow<'_>>,
) -> (Verdict, Counts) {
    let elem = form.output.elem;
    let per = form.output.per_invocation;
    let total = expected.out.len() / elem.size();
    let mut counts = Counts::default();
    let mut first: Option<usize> = None;
    let mut mismatches = 0u64;
    let mut allowed = 0u64;
    let mut first_allowed: Option<(usize, String)> = None;
    for i in 0..total {
        let inv = (i / per) as u32;
        if expected.masked.contains(&inv) {
            counts.masked += 1;
            continue;
        }
        counts.compared += 1;
        let (e, g) = (elem.bits_at(&expected.out, i), elem.bits_at(got, i));
        let short = got.len() < (i + 1) * elem.size();
        if e != g || short {
            match allow.filter(|_| !short).and_then(|a| a(inv, e, g)) {
                Some(reason) => {
                    allowed += 1;
                    first_allowed.get_or_insert((i, reason));
                }
                None => {
                    mismatches += 1;
                    first.get_or_insert(i);
                }
            }
        }
    }
    let Some(i) = first else {
        return match first_allowed {
            None => (Verdict::Pass, counts),
            Some((i, reason)) => (
                Verdict::Allowed {
                    reason: format!(
                        "{allowed} element{} differ{}; the first, case {} ({} instead of {}), {reason}",
                        if allowed == 1 { "" } else { "s" },
                        if allowed == 1 { "s" } else { "" },
                        u64::from(chunk) * u64::from(CHUNK) + (i / per) as u64,
                        elem.display(elem.bits_at(got, i)),
                        elem.display(elem.bits_at(&expected.out, i)),
                    ),
                },
                counts,
            ),
        };
    };
    let inv = (i / per) as u32;
    let inputs = form
        .inputs
        .iter()
        .zip(inputs)
        .map(|(p, bytes)| {
            let start = inv as usize * p.per_invocation;
            let vals: Vec<String> = (start..start + p.per_invocation)
                .map(|k| p.elem.display(p.elem.bits_at(bytes, k)))
                .collect();
            format!("{} = [{}]", p.name, vals.join(", "))
        })
        .collect();
    let failure = Failure {
        case: u64::from(chunk) * u64::from(CHUNK) + u64::from(inv),
        chunk,
        invocation: [inv, 0, 0],
        inputs,
        expected: elem.display(elem.bits_at(&expected.out, i)),
        got: if got.len() < (i + 1) * elem.size() {
            format!("nothing (the output has {} bytes)", got.len())
        } else {
            elem.display(elem.bits_at(got, i))
        },
        mismatches,
    };
    (Verdict::Fail(Box::new(failure)), counts)
}
