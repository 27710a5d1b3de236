//! Helpers shared by the generated extension-rule tests (`*_generated.rs`), included with
//! `mod ext_common;` next to `mod support;` (a directory module, so cargo does not build it as
//! a test target of its own).
//!
//! - [`errors_of`]: spvx's errors of one concern on a text module.
//! - [`check_verdict`]: compares spvx with an independent statement of the rule: the set of rules
//!   the test says are broken. spvx must report an error of the concern iff the set is non-empty,
//!   and the reported variant must be one of the set (spvx reports the first it meets).
//! - [`check_rules`]: the stricter comparison the later generated tests use: every error spvx
//!   reports (of any concern) must be one of the rules the test says are broken, and spvx must
//!   report at least one iff that set is non-empty.
//! - [`Sampler`]: compares verdicts with spirv-val 2025.5 on a bounded, evenly spread (or
//!   scattered) sample.

#![allow(dead_code)]

use crate::support;
use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_spirv::instruction::Instruction;
use spvx_val::{Options, TargetEnv, ValError, errors};
use std::path::PathBuf;
use std::time::Instant;

/// One rule of an independent restatement: the spvx concern (`ErrorKind` variant) and error
/// variant that report it (`"*"`: any variant of the concern, for rules of another concern
/// whose variants the test does not spell out), and whether spirv-val 2025.5 checks it too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    pub concern: &'static str,
    pub variant: &'static str,
    pub theirs: bool,
}

impl Rule {
    /// A rule spirv-val 2025.5 checks as well.
    pub const fn both(concern: &'static str, variant: &'static str) -> Rule {
        Rule {
            concern,
            variant,
            theirs: true,
        }
    }

    /// A rule only spvx checks (docs/semantics/README.md says why).
    pub const fn ours(concern: &'static str, variant: &'static str) -> Rule {
        Rule {
            concern,
            variant,
            theirs: false,
        }
    }
}

/// `(concern, variant, message)` of an error, read from its `Debug` form
/// (`Concern(Variant(...))`).
pub fn classify(e: &ValError) -> (String, String, String) {
    let dbg = format!("{:?}", e.kind);
    let concern: String = dbg.chars().take_while(|c| c.is_alphanumeric()).collect();
    let variant: String = dbg[concern.len()..]
        .trim_start_matches('(')
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (concern, variant, e.to_string())
}

/// Assembles `text` for `env`, lets `edit` change the instruction list (e.g. drop an operand
/// that text cannot leave out), and validates it with spvx.
pub fn validate_edited(
    text: &str,
    env: &str,
    edit: impl FnOnce(&mut Vec<Instruction>),
) -> Vec<ValError> {
    let target = TargetEnv::parse(env).unwrap_or_else(|| panic!("bad target env {env}"));
    let opts = AsmOptions {
        version: target.max_version,
    };
    let asm = assemble(text, &opts)
        .unwrap_or_else(|e| panic!("test module does not assemble: {e}\n{text}"));
    let mut insts: Vec<_> = asm.instructions().cloned().collect();
    edit(&mut insts);
    errors(
        &asm.header,
        &insts,
        &Options {
            target_env: target,
            ..Options::default()
        },
    )
}

/// Compares spvx's errors with `broken` (every rule the restatement says the case breaks):
/// valid iff `broken` is empty, and every reported error is one of `broken`. Returns a
/// description of the disagreement, if any.
pub fn check_rules(errors: &[ValError], broken: &[Rule], case: &str) -> Option<String> {
    let got: Vec<_> = errors.iter().map(classify).collect();
    let listed = |(c, v, _): &(String, String, String)| {
        broken
            .iter()
            .any(|r| r.concern == c && (r.variant == v || r.variant == "*"))
    };
    let names: Vec<String> = broken
        .iter()
        .map(|r| format!("{}::{}", r.concern, r.variant))
        .collect();
    if broken.is_empty() && !got.is_empty() {
        return Some(format!("{case}: expected valid, spvx says {got:?}"));
    }
    if !broken.is_empty() && got.is_empty() {
        return Some(format!(
            "{case}: expected one of {names:?}, spvx says valid"
        ));
    }
    if let Some(extra) = got.iter().find(|g| !listed(g)) {
        return Some(format!(
            "{case}: expected only {names:?}, spvx also says {extra:?}"
        ));
    }
    None
}

/// spirv-val's expected verdict under `broken`: valid iff it checks none of the broken rules.
pub fn theirs_valid(broken: &[Rule]) -> bool {
    !broken.iter().any(|r| r.theirs)
}

/// A small deterministic mixer (splitmix64) for scattered samples.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// spvx's errors of `concern` (the `ErrorKind` variant name, e.g. `"IntDot"`) as
/// `(variant name, message)`.
pub fn errors_of(text: &str, env: &str, concern: &str) -> Vec<(String, String)> {
    support::validate_text(text, env)
        .into_iter()
        .filter_map(|e| {
            let dbg = format!("{:?}", e.kind);
            let inner = dbg.strip_prefix(concern)?.strip_prefix('(')?;
            let variant: String = inner
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            Some((variant, e.to_string()))
        })
        .collect()
}

/// Checks spvx's verdict on `text` against `broken` (the variant names of the rules the test's
/// own statement says are broken). Returns a description of the disagreement, if any.
pub fn check_verdict(
    text: &str,
    env: &str,
    concern: &str,
    broken: &[&str],
    case: &str,
) -> Option<String> {
    let errs = errors_of(text, env, concern);
    match (broken.is_empty(), errs.first()) {
        (true, None) => None,
        (true, Some(e)) => Some(format!("{case}: expected valid, spvx says {e:?}")),
        (false, None) => Some(format!(
            "{case}: expected one of {broken:?}, spvx says valid"
        )),
        (false, Some(_)) => {
            if errs.iter().any(|(v, _)| broken.contains(&v.as_str())) {
                None
            } else {
                Some(format!(
                    "{case}: expected one of {broken:?}, spvx says {errs:?}"
                ))
            }
        }
    }
}

/// How spirv-val 2025.5 relates to spvx on a family of cases.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Relation {
    /// Same verdict.
    Agree,
    /// spvx may reject what spirv-val accepts (never the reverse).
    SpvxStricter,
}

/// A bounded sample of spirv-val comparisons: every `stride`-th offered case, at most `limit`
/// runs (fewer when spirv-val turns out slow, e.g. behind a Python shim).
pub struct Sampler {
    dir: Option<PathBuf>,
    stride: usize,
    limit: usize,
    seen: usize,
    pub runs: usize,
    pub failures: Vec<String>,
}

impl Sampler {
    pub fn new(stride: usize, limit: usize) -> Self {
        Sampler {
            dir: support::tools_dir(),
            stride: stride.max(1),
            limit,
            seen: 0,
            runs: 0,
            failures: Vec::new(),
        }
    }

    /// Offers one case whose spirv-val verdict the test predicts (`theirs_valid`); runs
    /// spirv-val on it when `mix(seen)` falls in the sample (scattered, not every n-th, so
    /// nested loops do not alias with the stride).
    pub fn offer_scattered(&mut self, text: &str, env: &str, theirs_valid: bool, case: &str) {
        self.seen += 1;
        if !mix(self.seen as u64).is_multiple_of(self.stride as u64) {
            return;
        }
        self.force(text, env, theirs_valid, Relation::Agree, case);
    }

    /// Offers one case; runs spirv-val on it when it falls in the sample.
    pub fn offer(&mut self, text: &str, env: &str, spvx_valid: bool, rel: Relation, case: &str) {
        self.seen += 1;
        if !(self.seen - 1).is_multiple_of(self.stride) || self.runs >= self.limit {
            return;
        }
        self.force(text, env, spvx_valid, rel, case);
    }

    /// Runs spirv-val on this case regardless of the stride (still bounded by the limit).
    pub fn force(&mut self, text: &str, env: &str, spvx_valid: bool, rel: Relation, case: &str) {
        let Some(dir) = self.dir.clone() else { return };
        if self.runs >= self.limit {
            return;
        }
        let start = Instant::now();
        let theirs = support::spirv_val(&dir, text, env);
        if start.elapsed().as_millis() > 300 {
            // A slow wrapper: keep the total time bounded.
            self.limit = self.limit.min(6);
        }
        self.runs += 1;
        match theirs {
            None => self
                .failures
                .push(format!("{case}: spirv-as 2025.5 cannot assemble it")),
            Some((ok, msg)) => {
                let fine = ok == spvx_valid || (rel == Relation::SpvxStricter && ok && !spvx_valid);
                if !fine {
                    self.failures.push(format!(
                        "{case}: expected {} / spirv-val {} ({rel:?}): {}",
                        if spvx_valid { "valid" } else { "invalid" },
                        if ok { "valid" } else { "invalid" },
                        msg.trim()
                    ));
                }
            }
        }
    }
}
