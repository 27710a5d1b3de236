//! `spvx-dpas`: an exact simulator of Intel's vISA DPAS instruction: syntax, register file, legality, matrix API.
//!
//! Not implemented yet: this crate is a placeholder in the workspace layout of DESIGN.md and
//! exports nothing. Its work is tracked by issue #6.
