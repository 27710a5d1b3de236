//! A sweep's report: one result per form (its verdict joined over the chunks run), as JSON
//! (what shards write and `spvx conform merge` reads) and Markdown. Nothing in it depends on
//! the time or the order in which units ran: a report is the same bytes for the same seed,
//! cases, extensions, shard and target.

use super::ext::Ext;
use super::shard::Shard;
use super::verdict::Verdict;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The report format's version (`format` in the JSON).
pub const FORMAT: u32 = 1;

/// One form's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormResult {
    /// The form's position in the sweep (reports list forms in this order).
    pub order: u64,
    pub id: String,
    pub ext: Ext,
    pub verdict: Verdict,
    /// Elements compared and elements masked (undefined results), over the chunks run.
    pub compared: u64,
    pub masked: u64,
    /// The chunks run, ascending.
    pub chunks: Vec<u32>,
}

impl FormResult {
    /// The same form's results from other chunks joined in.
    pub fn join(&mut self, other: FormResult) {
        let v = std::mem::replace(&mut self.verdict, Verdict::Pass);
        self.verdict = v.join(other.verdict);
        self.compared += other.compared;
        self.masked += other.masked;
        self.chunks.extend(other.chunks);
        self.chunks.sort_unstable();
        self.chunks.dedup();
    }
}

/// A sweep's (or a merge's) report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub format: u32,
    /// `engine`, or the device (name and driver).
    pub target: String,
    pub seed: u64,
    /// Cases per form.
    pub cases: u64,
    pub extensions: Vec<Ext>,
    /// The shards this report covers (`[1/1]` for a whole sweep).
    pub shards: Vec<Shard>,
    /// The form filter (`--only`), if any.
    pub only: Option<String>,
    /// The vendor profile the engine's expected values follow (`--profile`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    pub forms: Vec<FormResult>,
}

/// How many forms got each verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub pass: usize,
    pub fail: usize,
    pub unsupported: usize,
    pub allowed: usize,
    pub error: usize,
}

impl Tally {
    pub fn failed(&self) -> bool {
        self.fail + self.error > 0
    }
}

/// Why reports cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is not a spvx conform report: {source}")]
    Parse {
        path: String,
        #[source]
        source: serde_json::Error,
    },
    #[error("{path}: {what} is {theirs}, but {first} has {ours}: only shards of one sweep merge")]
    Mismatch {
        path: String,
        first: String,
        what: &'static str,
        theirs: String,
        ours: String,
    },
    #[error("{path}: shard {shard} is also in {other}")]
    Duplicate {
        path: String,
        shard: Shard,
        other: String,
    },
    #[error("no reports to merge")]
    Empty,
}

impl Report {
    /// The tally of verdicts.
    pub fn tally(&self) -> Tally {
        let mut t = Tally::default();
        for f in &self.forms {
            match f.verdict {
                Verdict::Pass => t.pass += 1,
                Verdict::Fail(_) => t.fail += 1,
                Verdict::Unsupported { .. } => t.unsupported += 1,
                Verdict::Allowed { .. } => t.allowed += 1,
                Verdict::Error { .. } => t.error += 1,
            }
        }
        t
    }

    /// The shards of the sweep that no report covered (empty when complete).
    pub fn missing_shards(&self) -> Vec<Shard> {
        let Some(n) = self.shards.first().map(|s| s.count) else {
            return Vec::new();
        };
        (1..=n)
            .map(|index| Shard { index, count: n })
            .filter(|s| !self.shards.contains(s))
            .collect()
    }

    /// The JSON document.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self)
            .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialise the report: {e}\"}}"))
            + "\n"
    }

    /// Reads a JSON report; `path` names it in errors.
    pub fn read(path: &Path) -> Result<Report, MergeError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| MergeError::Read {
            path: name.clone(),
            source,
        })?;
        serde_json::from_str(&text).map_err(|source| MergeError::Parse { path: name, source })
    }

    /// Writes `report.json` and `report.md` into `dir` (created if needed).
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        std::fs::write(dir.join("report.json"), self.to_json())?;
        std::fs::write(dir.join("report.md"), self.to_markdown())
    }

    /// Joins shard reports (`(path, report)`) of one sweep: the same target, seed, cases,
    /// extensions and shard count; no shard twice. Forms are joined by id.
    pub fn merge(reports: Vec<(String, Report)>) -> Result<Report, MergeError> {
        let mut it = reports.into_iter();
        let (first_path, mut merged) = it.next().ok_or(MergeError::Empty)?;
        let mut seen: Vec<(Shard, String)> = merged
            .shards
            .iter()
            .map(|s| (*s, first_path.clone()))
            .collect();
        for (path, r) in it {
            let check = |what: &'static str, theirs: String, ours: String| {
                if theirs == ours {
                    Ok(())
                } else {
                    Err(MergeError::Mismatch {
                        path: path.clone(),
                        first: first_path.clone(),
                        what,
                        theirs,
                        ours,
                    })
                }
            };
            check("the target", r.target.clone(), merged.target.clone())?;
            check("the seed", r.seed.to_string(), merged.seed.to_string())?;
            check(
                "the case count",
                r.cases.to_string(),
                merged.cases.to_string(),
            )?;
            check(
                "the extension list",
                format!("{:?}", r.extensions),
                format!("{:?}", merged.extensions),
            )?;
            check(
                "the form filter",
                format!("{:?}", r.only),
                format!("{:?}", merged.only),
            )?;
            check(
                "the profile",
                format!("{:?}", r.profile),
                format!("{:?}", merged.profile),
            )?;
            let count = |rep: &Report| rep.shards.first().map_or(0, |s| s.count).to_string();
            check("the shard count", count(&r), count(&merged))?;
            for s in &r.shards {
                if let Some((_, other)) = seen.iter().find(|(t, _)| t == s) {
                    return Err(MergeError::Duplicate {
                        path: path.clone(),
                        shard: *s,
                        other: other.clone(),
                    });
                }
                seen.push((*s, path.clone()));
            }
            merged.shards.extend(r.shards);
            for f in r.forms {
                match merged.forms.iter_mut().find(|m| m.id == f.id) {
                    Some(m) => m.join(f),
                    None => merged.forms.push(f),
                }
            }
        }
        merged.shards.sort_by_key(|s| s.index);
        merged.forms.sort_by_key(|f| f.order);
        Ok(merged)
    }

    /// The Markdown report: the settings, the tally, a table of every form.
    pub fn to_markdown(&self) -> String {
        let t = self.tally();
        let exts: Vec<&str> = self.extensions.iter().map(|e| e.name()).collect();
        let shards: Vec<String> = self.shards.iter().map(Shard::to_string).collect();
        let mut s = String::from("# spvx conform\n\n");
        s += &format!("- target: {}\n", self.target);
        s += &format!("- extensions: {}\n", exts.join(", "));
        s += &format!("- seed: {}, cases per form: {}\n", self.seed, self.cases);
        if let Some(p) = &self.profile {
            s += &format!("- profile: {p} (the engine's expected values follow it)\n");
        }
        s += &format!("- shards: {}\n", shards.join(", "));
        if let Some(only) = &self.only {
            s += &format!("- forms whose id contains: `{only}`\n");
        }
        let missing = self.missing_shards();
        if !missing.is_empty() {
            let m: Vec<String> = missing.iter().map(Shard::to_string).collect();
            s += &format!("- **incomplete**: shards {} not merged\n", m.join(", "));
        }
        s += &format!(
            "\n{} forms: {} PASS, {} FAIL, {} UNSUPPORTED, {} ALLOWED DIFFERENCE, {} ERROR\n\n",
            self.forms.len(),
            t.pass,
            t.fail,
            t.unsupported,
            t.allowed,
            t.error
        );
        s += "| form | verdict | compared | masked | detail |\n| --- | --- | ---: | ---: | --- |\n";
        for f in &self.forms {
            s += &format!(
                "| `{}` | {} | {} | {} | {} |\n",
                f.id,
                f.verdict.word(),
                f.compared,
                f.masked,
                f.verdict.detail().replace('|', "\\|")
            );
        }
        s
    }
}
