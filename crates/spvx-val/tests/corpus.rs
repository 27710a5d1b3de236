//! The hand-written corpus under tests/corpus/: one module per file, each saying what it
//! expects in its leading comments:
//!
//! ```text
//! ; expect: valid
//! ; expect: error <Concern> <message substring>     (Concern = the ErrorKind variant, e.g. IntDot)
//! ; target-env: vulkan1.3                          (default spv1.6)
//! ; spirv-val: agree | stricter <why> | unknown     (default agree)
//! ```
//!
//! `agree`: spirv-val 2025.5 must give the same verdict. `stricter`: spvx rejects on purpose
//! what spirv-val accepts (docs/semantics/validation.md says why). `unknown`: spirv-val 2025.5 does not
//! know something in the module (e.g. the 2026 VALVE instructions).

mod support;

use std::path::Path;

struct Expect {
    valid: bool,
    concern: String,
    message: String,
    env: String,
    spirv_val: String,
}

fn parse_expect(path: &Path, text: &str) -> Expect {
    let mut e = Expect {
        valid: true,
        concern: String::new(),
        message: String::new(),
        env: "spv1.6".into(),
        spirv_val: "agree".into(),
    };
    let mut seen = false;
    for line in text.lines() {
        let Some(c) = line.trim().strip_prefix(';') else {
            break;
        };
        let c = c.trim();
        if let Some(v) = c.strip_prefix("expect:") {
            seen = true;
            let v = v.trim();
            if v != "valid" {
                let rest = v
                    .strip_prefix("error")
                    .unwrap_or_else(|| panic!("{}: bad expect", path.display()))
                    .trim();
                let (concern, message) = rest.split_once(' ').unwrap_or((rest, ""));
                e.valid = false;
                e.concern = concern.to_string();
                e.message = message.trim().to_string();
            }
        } else if let Some(v) = c.strip_prefix("target-env:") {
            e.env = v.trim().to_string();
        } else if let Some(v) = c.strip_prefix("spirv-val:") {
            e.spirv_val = v.trim().to_string();
        }
    }
    assert!(seen, "{}: no '; expect:' line", path.display());
    e
}

fn corpus_files() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).expect("corpus dir") {
            let p = entry.expect("dir entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "spvasm") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn corpus_verdicts() {
    let mut failures = Vec::new();
    for path in corpus_files() {
        let text = std::fs::read_to_string(&path).expect("read corpus file");
        let e = parse_expect(&path, &text);
        let errors = support::validate_text(&text, &e.env);
        let shown: Vec<String> = errors
            .iter()
            .map(|x| format!("{:?}: {x}", x.kind).chars().take(200).collect())
            .collect();
        if e.valid {
            if !errors.is_empty() {
                failures.push(format!(
                    "{}: expected valid, got {shown:#?}",
                    path.display()
                ));
            }
        } else {
            let hit = errors.iter().any(|x| {
                format!("{:?}", x.kind).starts_with(&format!("{}(", e.concern))
                    && x.to_string().contains(&e.message)
            });
            if !hit {
                failures.push(format!(
                    "{}: expected error {} containing {:?}, got {shown:#?}",
                    path.display(),
                    e.concern,
                    e.message
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn corpus_agrees_with_spirv_val() {
    let Some(dir) = support::tools_dir() else {
        eprintln!("spirv-val not found: comparison skipped");
        return;
    };
    let mut failures = Vec::new();
    for path in corpus_files() {
        let text = std::fs::read_to_string(&path).expect("read corpus file");
        let e = parse_expect(&path, &text);
        let theirs = support::spirv_val(&dir, &text, &e.env);
        match (
            e.spirv_val.split_whitespace().next().unwrap_or("agree"),
            theirs,
        ) {
            ("unknown", _) => {}
            ("stricter", Some((true, _))) if !e.valid => {}
            ("stricter", other) => failures.push(format!(
                "{}: marked stricter, but spirv-val says {other:?}",
                path.display()
            )),
            (_, None) => failures.push(format!(
                "{}: spirv-as 2025.5 cannot assemble it; mark it unknown",
                path.display()
            )),
            (_, Some((ok, msg))) if ok != e.valid => failures.push(format!(
                "{}: spvx says {}, spirv-val says {}: {msg}",
                path.display(),
                if e.valid { "valid" } else { "invalid" },
                if ok { "valid" } else { "invalid" }
            )),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
