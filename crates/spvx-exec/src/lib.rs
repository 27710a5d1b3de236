//! `spvx-exec`: the execution engine: compiles a validated module into a register program and runs it SIMT over bound resources.
//!
//! Not implemented yet: this crate is a placeholder in the workspace layout of DESIGN.md and
//! exports nothing. Its work is tracked by issue #5.
