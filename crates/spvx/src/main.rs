//! The `spvx` command line: argument parsing and printing only.
//!
//! Every subcommand lives in its own file under `cmd/` and calls into the library crates; no
//! semantics are implemented here.

mod cmd;
mod io;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// spvx: the reference implementation of the SPIR-V machine-learning arithmetic extensions.
#[derive(Parser)]
#[command(name = "spvx", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Assemble SPIR-V text (spirv-as syntax) into a binary module.
    As(cmd::asm::AsArgs),
    /// Disassemble a binary module into SPIR-V text (spirv-dis syntax).
    Dis(cmd::dis::DisArgs),
    /// Validate a module (binary or text); print each error as spirv-val does, with its place.
    Val(cmd::val::ValArgs),
    /// Exact arithmetic on the command line: fixed-point functions and mixed float dot products.
    #[command(subcommand)]
    Calc(cmd::calc::CalcCommand),
    /// Intel DPAS: run DPAS programs over a register file, or multiply .npy matrices.
    #[command(subcommand)]
    Dpas(cmd::dpas::DpasCommand),
    /// Print what a module declares: entry points, bindings, push and spec constants, features.
    Reflect(cmd::reflect::ReflectArgs),
    /// Run a compute entry point over buffers (command-line form or a TOML run file).
    Run(Box<cmd::run::RunArgs>),
    /// Run on the engine and on a Vulkan device; judge every differing element by the spec.
    Diff(Box<cmd::diff::DiffArgs>),
    /// List the Vulkan devices with the features and properties spvx uses.
    Devices(cmd::devices::DevicesArgs),
    /// Run Amber scripts (AmberScript, VkScript): the compute subset, on the engine or a device.
    Amber(cmd::amber::AmberArgs),
    /// Conformance sweeps: every form of the extensions, on the engine or a device, with verdicts.
    Conform(Box<cmd::conform::ConformArgs>),
    /// Time the engine (and lavapipe) on the benchmark set, checking every output bit for bit.
    Bench(cmd::bench::BenchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The JIT's code cache (spvx-exec `jit::code_cache`), except where compile times are
    // measured: `spvx bench` reports the engine's compile from nothing.
    if !matches!(cli.command, Command::Bench(_)) {
        spvx_exec::jit::code_cache::set_dir(spvx_exec::jit::code_cache::dir_from_env());
    }
    let result = match cli.command {
        Command::As(args) => cmd::asm::run(args),
        Command::Dis(args) => cmd::dis::run(args),
        Command::Val(args) => cmd::val::run(args),
        Command::Calc(c) => cmd::calc::run(c),
        Command::Dpas(c) => cmd::dpas::run(c),
        Command::Reflect(args) => cmd::reflect::run(args),
        Command::Run(args) => cmd::run::run(*args),
        Command::Diff(args) => cmd::diff::run(*args),
        Command::Devices(args) => cmd::devices::run(args),
        Command::Bench(args) => cmd::bench::run(args),
        Command::Amber(args) => cmd::amber::run(args),
        Command::Conform(args) => cmd::conform::run(*args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
