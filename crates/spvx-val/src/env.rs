//! Target environments (`--target-env`): which client API's rules apply, and the SPIR-V version
//! it allows.

use spvx_spirv::asm::target_env_version;
use spvx_spirv::grammar::Version;

/// The client API family of a target environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnvKind {
    /// `spv1.x` / `universal1.x`: only the SPIR-V specification's own rules.
    Universal,
    /// `vulkan1.x`: the Vulkan environment's rules (appendix "Vulkan Environment for SPIR-V").
    Vulkan,
    /// `opencl*`: the OpenCL environment.
    OpenCL,
    /// `opengl*`.
    OpenGL,
}

/// A target environment: its name as given, its family, and the highest SPIR-V version it
/// allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetEnv {
    pub name: String,
    pub kind: EnvKind,
    pub max_version: Version,
}

impl Default for TargetEnv {
    /// `spv1.6`, spirv-val's default.
    fn default() -> Self {
        TargetEnv {
            name: "spv1.6".to_string(),
            kind: EnvKind::Universal,
            max_version: Version::new(1, 6),
        }
    }
}

impl TargetEnv {
    /// Parses a `--target-env` name as spirv-val accepts it (`spv1.0`–`spv1.6`,
    /// `universal1.0`–`universal1.6`, `vulkan1.0`–`vulkan1.4`, `vulkan1.1spv1.4`, `opencl…`,
    /// `opengl…`).
    pub fn parse(name: &str) -> Option<TargetEnv> {
        let universal = name
            .strip_prefix("universal")
            .map(|rest| format!("spv{rest}"));
        let as_spv = universal.as_deref().unwrap_or(name);
        let max_version = target_env_version(as_spv)?;
        let kind = if name.starts_with("vulkan") {
            EnvKind::Vulkan
        } else if name.starts_with("opencl") {
            EnvKind::OpenCL
        } else if name.starts_with("opengl") {
            EnvKind::OpenGL
        } else {
            EnvKind::Universal
        };
        Some(TargetEnv {
            name: name.to_string(),
            kind,
            max_version,
        })
    }

    /// True for the Vulkan environments.
    pub fn is_vulkan(&self) -> bool {
        self.kind == EnvKind::Vulkan
    }

    /// The Vulkan version of a `vulkan1.x` environment, as (1, x); `None` for other families.
    pub fn vulkan_version(&self) -> Option<(u32, u32)> {
        let rest = self.name.strip_prefix("vulkan1.")?;
        let minor: String = rest.chars().take_while(char::is_ascii_digit).collect();
        Some((1, minor.parse().ok()?))
    }
}
