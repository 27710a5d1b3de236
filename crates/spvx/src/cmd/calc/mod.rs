//! `spvx calc`: the exact arithmetic of spvx-num on the command line.

pub mod fixed;
mod fixed_batch;
mod lines;
pub mod mixdot;
mod mixdot_batch;

use super::CmdResult;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum CalcCommand {
    /// Fixed-point math functions (SPV_INTEL_arbitrary_precision_fixed_point).
    Fixed(fixed::FixedArgs),
    /// Mixed-precision float dot products (SPV_VALVE_mixed_float_dot_product).
    Mixdot(mixdot::MixdotArgs),
}

pub fn run(c: CalcCommand) -> CmdResult {
    match c {
        CalcCommand::Fixed(a) => fixed::run(a),
        CalcCommand::Mixdot(a) => mixdot::run(a),
    }
}
