//! `--target-env` names, as spirv-as (SPIRV-Tools 2025.5) parses them, and the SPIR-V version
//! each one puts in the module header.

use crate::grammar::Version;

/// The names spirv-as accepts, in the order it tries them, with the header version it writes.
/// spirv-as matches a name when the argument *starts with* it (so `vulkan1.0x` is `vulkan1.0`);
/// `vulkan1.1spv1.4` comes before `vulkan1.1` so that it can match at all.
pub const TARGET_ENVS: &[(&str, Version)] = &[
    ("vulkan1.1spv1.4", Version::new(1, 4)),
    ("vulkan1.0", Version::new(1, 0)),
    ("vulkan1.1", Version::new(1, 3)),
    ("vulkan1.2", Version::new(1, 5)),
    ("vulkan1.3", Version::new(1, 6)),
    ("vulkan1.4", Version::new(1, 6)),
    ("spv1.0", Version::new(1, 0)),
    ("spv1.1", Version::new(1, 1)),
    ("spv1.2", Version::new(1, 2)),
    ("spv1.3", Version::new(1, 3)),
    ("spv1.4", Version::new(1, 4)),
    ("spv1.5", Version::new(1, 5)),
    ("spv1.6", Version::new(1, 6)),
    ("opencl1.2embedded", Version::new(1, 0)),
    ("opencl1.2", Version::new(1, 0)),
    ("opencl2.0embedded", Version::new(1, 0)),
    ("opencl2.0", Version::new(1, 0)),
    ("opencl2.1embedded", Version::new(1, 0)),
    ("opencl2.1", Version::new(1, 0)),
    ("opencl2.2embedded", Version::new(1, 2)),
    ("opencl2.2", Version::new(1, 2)),
    ("opengl4.0", Version::new(1, 0)),
    ("opengl4.1", Version::new(1, 0)),
    ("opengl4.2", Version::new(1, 0)),
    ("opengl4.3", Version::new(1, 0)),
    ("opengl4.5", Version::new(1, 0)),
];

/// The version spirv-as writes when no `--target-env` is given.
pub const DEFAULT_VERSION: Version = Version::new(1, 6);

/// The header version for a `--target-env` argument, or `None` if spirv-as rejects it.
pub fn target_env_version(arg: &str) -> Option<Version> {
    TARGET_ENVS
        .iter()
        .find(|(name, _)| arg.starts_with(name))
        .map(|&(_, v)| v)
}
