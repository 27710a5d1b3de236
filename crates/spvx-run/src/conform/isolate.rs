//! Device sweeps with one process per form (`spvx conform --device … --isolate`): a driver or
//! layer that crashes the process (a segfault, an uncaught C++ exception) ends only that form,
//! which gets an ERROR naming the crash, and the sweep goes on to the next. The command line
//! runs each form as a child `spvx conform … --only ID --json`; this module turns each child's
//! outcome into the form's result and joins them into one report.

use super::form::{CHUNK, Form};
use super::report::{FORMAT, FormResult, Report};
use super::sweep::{Options, rounded_cases};
use super::verdict::Verdict;

/// How a child process ended.
pub enum Child {
    /// It printed its report (exit status 0 or 1).
    Finished { stdout: Vec<u8> },
    /// It printed no report: killed by a signal (`killed`: a crash of the driver or a layer),
    /// or it exited without one; its status as text and its stderr.
    Died {
        killed: bool,
        status: String,
        stderr: String,
    },
}

/// The result of form number `order` from its child.
pub fn form_result(order: usize, form: &Form, cases: u64, child: Child) -> FormResult {
    let chunks = rounded_cases(cases).div_ceil(u64::from(CHUNK)) as u32;
    let error = |message: String| FormResult {
        order: order as u64,
        id: form.id.clone(),
        ext: form.ext,
        verdict: Verdict::Error { message },
        compared: 0,
        masked: 0,
        chunks: (0..chunks).collect(),
    };
    match child {
        Child::Died {
            killed,
            status,
            stderr,
        } => {
            let tail: Vec<&str> = stderr.lines().rev().take(3).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            let how = if killed {
                "was killed (STATUS): the driver or a layer crashed"
            } else {
                "ended without a report (STATUS)"
            }
            .replace("STATUS", &status);
            error(format!(
                "{}: the device run's process {how}; its last words: {}",
                form.id,
                if tail.is_empty() {
                    "none".to_string()
                } else {
                    tail.join(" | ")
                }
            ))
        }
        Child::Finished { stdout } => match serde_json::from_slice::<Report>(&stdout) {
            Ok(r) => match r.forms.into_iter().find(|f| f.id == form.id) {
                Some(mut f) => {
                    f.order = order as u64;
                    f
                }
                None => error(format!("{}: the child's report has no such form", form.id)),
            },
            Err(e) => error(format!(
                "{}: the child's report is not readable: {e}",
                form.id
            )),
        },
    }
}

/// The report of an isolated sweep of `forms` on `target` (the device as children named it).
pub fn report(opts: &Options, target: String, forms: Vec<FormResult>) -> Report {
    Report {
        format: FORMAT,
        target,
        seed: opts.seed,
        cases: rounded_cases(opts.cases),
        extensions: opts.exts.clone(),
        shards: vec![opts.shard],
        only: opts.only.clone(),
        profile: opts.profile.clone(),
        forms,
    }
}

/// The target a child's report names (the device, with its driver), if it printed one.
pub fn child_target(stdout: &[u8]) -> Option<String> {
    serde_json::from_slice::<Report>(stdout)
        .ok()
        .map(|r| r.target)
}
