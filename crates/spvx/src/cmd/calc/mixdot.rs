//! `spvx calc mixdot` (being written).

use crate::cmd::CmdResult;

#[derive(clap::Args)]
pub struct MixdotArgs {}

pub fn run(_args: MixdotArgs) -> CmdResult {
    Err("error: spvx calc mixdot is not implemented yet".into())
}
