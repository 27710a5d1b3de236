//! `spvx calc fixed` (being written).

use crate::cmd::CmdResult;

#[derive(clap::Args)]
pub struct FixedArgs {}

pub fn run(_args: FixedArgs) -> CmdResult {
    Err("error: spvx calc fixed is not implemented yet".into())
}
