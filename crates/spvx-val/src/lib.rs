//! `spvx-val`: validation of SPIR-V modules: the core rules an engine needs and every rule of the five source documents.
//!
//! Not implemented yet: this crate is a placeholder in the workspace layout of DESIGN.md and
//! exports nothing. Its work is tracked by issue #4.
