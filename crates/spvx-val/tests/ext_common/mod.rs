//! Helpers shared by the generated extension-rule tests (`*_generated.rs`), included with
//! `#[path = "env_common.rs"] mod common;` after `mod support;`. Built alone it has no tests.
//!
//! - [`errors_of`]: spvx's errors of one concern on a text module.
//! - [`check_verdict`]: compares spvx with an independent statement of the rule: the set of rules
//!   the test says are broken. spvx must report an error of the concern iff the set is non-empty,
//!   and the reported variant must be one of the set (spvx reports the first it meets).
//! - [`Sampler`]: compares verdicts with spirv-val 2025.5 on a bounded, evenly spread sample.

#![allow(dead_code)]

use crate::support;
use std::path::PathBuf;
use std::time::Instant;

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
                        "{case}: spvx {} / spirv-val {} ({rel:?}): {}",
                        if spvx_valid { "valid" } else { "invalid" },
                        if ok { "valid" } else { "invalid" },
                        msg.trim()
                    ));
                }
            }
        }
    }
}
