//! `spvx-vk`: runs modules on real Vulkan drivers (lavapipe, GPUs) so that results can be compared with spvx-exec.
//!
//! Not implemented yet: this crate is a placeholder in the workspace layout of DESIGN.md and
//! exports nothing. Its work is tracked by issue #7.
