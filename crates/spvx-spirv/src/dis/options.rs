//! Options of the disassembler, mirroring the spirv-dis flags spvx supports.

/// How [`super::disassemble`] prints a module. The default is spirv-dis's default output (to a
/// file or pipe: no colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisOptions {
    /// Print numeric ids (`%1`) instead of friendly names (`spirv-dis --raw-id`).
    pub raw_id: bool,
    /// Print the `; SPIR-V` header comment block (off: `spirv-dis --no-header`).
    pub header: bool,
    /// Indent instructions and right-align result ids (off: `spirv-dis --no-indent`).
    pub indent: bool,
    /// Indent blocks by their nesting in structured control flow (`spirv-dis --nested-indent`).
    pub nested_indent: bool,
    /// End each line with a comment giving the instruction's byte offset (`spirv-dis --offsets`).
    pub offsets: bool,
    /// Section comments, the id of each `OpName`, and each id's decorations on its definition
    /// (`spirv-dis --comment`).
    pub comment: bool,
    /// ANSI colours (`spirv-dis --color`).
    pub color: bool,
}

impl Default for DisOptions {
    fn default() -> Self {
        DisOptions {
            raw_id: false,
            header: true,
            indent: true,
            nested_indent: false,
            offsets: false,
            comment: false,
            color: false,
        }
    }
}
