//! The benchmark set file (`bench/set.toml`): one `[[kernel]]` table per benchmark, naming a
//! run file (the `spvx run` format) and the work one dispatch does.
//!
//! ```toml
//! [[kernel]]
//! name = "gemm_i8"                  # shown in the table; --filter matches it
//! run = "gemm_i8.toml"              # a run file, relative to the set file
//! macs = 67108864                   # multiply-accumulates per dispatch (GMAC/s), optional
//! bytes = 50331648                  # bytes read + written per dispatch (GB/s), optional
//! device = true                     # or a string: why the device cannot run it
//! subgroup_size_from_device = false # run the engine at the device's subgroup size
//! ```

use crate::case::{DeviceSupport, Work};
use crate::error::BenchError;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// A benchmark set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    pub kernels: Vec<ManifestEntry>,
}

/// One benchmark of a set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestEntry {
    pub name: String,
    /// The run file, resolved against the set file's directory.
    pub run: PathBuf,
    pub work: Work,
    pub device: DeviceSupport,
    pub subgroup_size_from_device: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetFile {
    #[serde(default)]
    kernel: Vec<KernelTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KernelTable {
    name: String,
    run: String,
    macs: Option<u64>,
    bytes: Option<u64>,
    #[serde(default = "supported")]
    device: DeviceField,
    #[serde(default)]
    subgroup_size_from_device: bool,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum DeviceField {
    Flag(bool),
    Reason(String),
}

fn supported() -> DeviceField {
    DeviceField::Flag(true)
}

impl Manifest {
    /// Reads a set file.
    pub fn read(path: &Path) -> Result<Manifest, BenchError> {
        let text = std::fs::read_to_string(path).map_err(|e| BenchError::Read {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        let base = path.parent().unwrap_or(Path::new(""));
        Manifest::parse(&text, base, &path.display().to_string())
    }

    /// Parses the text of a set file; `base` is the directory run files are relative to and
    /// `name` the file's name in messages.
    pub fn parse(text: &str, base: &Path, name: &str) -> Result<Manifest, BenchError> {
        let err = |message: String| BenchError::Manifest {
            path: name.to_string(),
            message,
        };
        let file: SetFile = toml::from_str(text).map_err(|e| err(e.to_string()))?;
        let mut kernels: Vec<ManifestEntry> = Vec::with_capacity(file.kernel.len());
        for k in file.kernel {
            if k.name.is_empty() {
                return Err(err("a kernel has an empty name".into()));
            }
            if kernels.iter().any(|e| e.name == k.name) {
                return Err(err(format!("kernel '{}' is listed twice", k.name)));
            }
            let device = match k.device {
                DeviceField::Flag(true) => DeviceSupport::Supported,
                DeviceField::Flag(false) => DeviceSupport::Unsupported("not supported".into()),
                DeviceField::Reason(r) => DeviceSupport::Unsupported(r),
            };
            kernels.push(ManifestEntry {
                name: k.name,
                run: base.join(k.run),
                work: Work {
                    macs: k.macs,
                    bytes: k.bytes,
                },
                device,
                subgroup_size_from_device: k.subgroup_size_from_device,
            });
        }
        Ok(Manifest { kernels })
    }

    /// The kernels whose name contains `filter` (all of them for `None`).
    pub fn filtered(&self, filter: Option<&str>) -> Vec<&ManifestEntry> {
        self.kernels
            .iter()
            .filter(|k| filter.is_none_or(|f| k.name.contains(f)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_entries_and_resolves_paths() {
        let text = r#"
[[kernel]]
name = "a"
run = "a.toml"
macs = 10

[[kernel]]
name = "b"
run = "../b.toml"
bytes = 12
device = "needs SPV_ARM_tensors"
subgroup_size_from_device = true
"#;
        let m = Manifest::parse(text, Path::new("bench"), "set.toml").expect("parses");
        assert_eq!(m.kernels.len(), 2);
        assert_eq!(m.kernels[0].run, Path::new("bench/a.toml"));
        assert_eq!(m.kernels[0].work.macs, Some(10));
        assert_eq!(m.kernels[0].device, DeviceSupport::Supported);
        assert_eq!(
            m.kernels[1].device,
            DeviceSupport::Unsupported("needs SPV_ARM_tensors".into())
        );
        assert!(m.kernels[1].subgroup_size_from_device);
        assert_eq!(m.filtered(Some("b")).len(), 1);
        assert_eq!(m.filtered(None).len(), 2);
    }

    #[test]
    fn rejects_unknown_keys_and_duplicates() {
        let unknown = "[[kernel]]\nname = \"a\"\nrun = \"a.toml\"\nflops = 3\n";
        assert!(Manifest::parse(unknown, Path::new(""), "s").is_err());
        let twice =
            "[[kernel]]\nname = \"a\"\nrun = \"x\"\n[[kernel]]\nname = \"a\"\nrun = \"y\"\n";
        let e = Manifest::parse(twice, Path::new(""), "s").expect_err("duplicate");
        assert!(e.to_string().contains("twice"));
    }
}
