//! (being written)

use crate::cmd::CmdResult;

#[derive(clap::Args)]
pub struct DisArgs {}

pub fn run(_args: DisArgs) -> CmdResult {
    Err("error: not implemented yet".into())
}
