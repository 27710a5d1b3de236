//! Options of the disassembler, mirroring the spirv-dis flags spvx supports.

/// How [`super::disassemble`] prints a module. The default is spirv-dis's default output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisOptions {
    /// Print numeric ids (`%1`) instead of friendly names (`spirv-dis --raw-id`).
    pub raw_id: bool,
    /// Print the `; SPIR-V` header comment block (off: `spirv-dis --no-header`).
    pub header: bool,
    /// Indent instructions and right-align result ids (off: `spirv-dis --no-indent`).
    pub indent: bool,
}

impl Default for DisOptions {
    fn default() -> Self {
        DisOptions {
            raw_id: false,
            header: true,
            indent: true,
        }
    }
}
