//! One module per subcommand.

pub mod amber;
pub mod asm;
pub mod bench;
pub mod calc;
pub mod conform;
pub mod devices;
pub mod diff;
pub mod dis;
pub mod dpas;
pub mod limits;
pub mod progress;
pub mod reflect;
pub mod run;
pub mod val;

/// What a subcommand returns: an exit code, or a fully rendered error message.
pub type CmdResult = Result<std::process::ExitCode, String>;

/// A library error as the command line prints it: `error: MESSAGE`.
pub fn error(e: impl std::fmt::Display) -> String {
    format!("error: {e}")
}

/// A library error that knows its places, printed by the one renderer (spvx-run's
/// `diagnostic`): `error: MESSAGE`, ` --> FILE:LINE:COL` with the source line and carets, or
/// ` --> FILE: word W` with the instruction.
pub fn report(e: impl spvx_run::diagnostic::ToDiagnostics) -> String {
    spvx_run::diagnostic::render_all(&e.diagnostics())
}
