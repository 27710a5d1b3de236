//! (being written)

use crate::cmd::CmdResult;

#[derive(clap::Args)]
pub struct AsArgs {}

pub fn run(_args: AsArgs) -> CmdResult {
    Err("error: not implemented yet".into())
}
