//! A parsed Amber script (AmberScript or VkScript, both read into this one model): shaders,
//! buffers with their initial bytes, compute pipelines with their bindings, requirements, and
//! the commands to carry out in order.

use super::error::Place;
use super::layout::{DataType, Layout};
use std::collections::BTreeMap;

/// How a shader is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShaderSource {
    /// spirv-as text, preceded by blank lines so that its line numbers are the script's.
    Asm(String),
    /// A SPIR-V binary (SPIRV-HEX decoded, or SPIRV-BIN read from its file).
    Binary(Vec<u8>),
    /// GLSL compute source, preceded by blank lines as for `Asm`.
    Glsl(String),
}

/// One `SHADER compute`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shader {
    pub source: ShaderSource,
    /// `TARGET_ENV` (spv1.x or vulkan1.x), if given.
    pub target_env: Option<String>,
    /// The file the source's line numbers refer to (the script, or the shader's FILE).
    pub origin: String,
    pub at: Place,
}

/// One `BUFFER`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    pub ty: DataType,
    pub layout: Layout,
    /// The initial bytes.
    pub bytes: Vec<u8>,
    pub at: Place,
}

/// One buffer of a binding, with its window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundBuffer {
    pub buffer: String,
    /// `OFFSET` (dynamic kinds) plus `DESCRIPTOR_OFFSET`, in bytes.
    pub offset: u64,
    /// `DESCRIPTOR_RANGE`, in bytes (None: to the end).
    pub range: Option<u64>,
}

/// One `BIND BUFFER`/`BUFFER_ARRAY … DESCRIPTOR_SET … BINDING …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bind {
    pub set: u32,
    pub binding: u32,
    /// One buffer, or the elements of an array of buffers.
    pub buffers: Vec<BoundBuffer>,
    /// True for `BUFFER_ARRAY` (elements bound one by one).
    pub array: bool,
    pub at: Place,
}

/// One `PIPELINE compute` (or `DERIVE_PIPELINE`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Pipeline {
    /// The attached shader's name and entry point.
    pub shader: Option<(String, String)>,
    /// `SPECIALIZE` values: SpecId → bits.
    pub spec: BTreeMap<u32, u64>,
    pub binds: Vec<Bind>,
    /// The push-constant buffer.
    pub push: Option<String>,
}

/// A comparator of `EXPECT … IDX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    pub fn name(self) -> &'static str {
        match self {
            Cmp::Eq => "EQ",
            Cmp::Ne => "NE",
            Cmp::Lt => "LT",
            Cmp::Le => "LE",
            Cmp::Gt => "GT",
            Cmp::Ge => "GE",
        }
    }
}

/// One tolerance: absolute, or a percentage of the expected value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    pub value: f64,
    pub percent: bool,
}

/// What an `EXPECT` checks.
#[derive(Clone, Debug, PartialEq)]
pub enum ExpectKind {
    /// `IDX offset [TOLERANCE t…] CMP values…`: values (bits of `ty`'s element type) from
    /// byte `offset`, following `ty` in `layout` (the buffer's, or a VkScript probe's own).
    Values {
        ty: DataType,
        layout: Layout,
        offset: u64,
        tolerance: Vec<Tolerance>,
        cmp: Cmp,
        values: Vec<u64>,
    },
    /// `EQ_BUFFER other`: the same bytes.
    EqBuffer(String),
    /// `RMSE_BUFFER other TOLERANCE t`: root mean square difference of the components ≤ t.
    Rmse(String, f64),
}

/// One `EXPECT`.
#[derive(Clone, Debug, PartialEq)]
pub struct Expect {
    pub buffer: String,
    pub kind: ExpectKind,
    pub at: Place,
}

/// A command, carried out in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Run {
        pipeline: String,
        groups: [u32; 3],
        at: Place,
    },
    Copy {
        from: String,
        to: String,
        at: Place,
    },
    Expect(Expect),
    Repeat {
        count: u32,
        body: Vec<Command>,
    },
    /// VkScript `ssbo`/`uniform`: `bytes` written at `offset` (the buffer grown with zeros as
    /// needed), or the buffer resized to `resize` bytes.
    Write {
        buffer: String,
        offset: usize,
        bytes: Vec<u8>,
        resize: Option<usize>,
    },
}

/// A requirement (`DEVICE_FEATURE`, `DEVICE_EXTENSION`, `DEVICE_PROPERTY`, VkScript
/// `[require]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Require {
    Feature(String, Place),
    Extension(String, Place),
    /// A boolean `Vk…Properties` member that must be true.
    Property(String, Place),
}

/// A whole script.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    pub shaders: BTreeMap<String, Shader>,
    pub buffers: BTreeMap<String, Buffer>,
    pub pipelines: BTreeMap<String, Pipeline>,
    pub requires: Vec<Require>,
    pub commands: Vec<Command>,
}

impl Script {
    /// The target environment of a SPIRV-ASM shader without `TARGET_ENV`: `chosen` (the
    /// command line's `--target-env`, as Amber's `-t`) when given, else spv1.4 when the script
    /// requires `VK_KHR_spirv_1_4` (as the CTS harness assembles those scripts) or
    /// `VK_KHR_workgroup_memory_explicit_layout` (its SPIR-V extension requires SPIR-V 1.4: the
    /// CTS's ptr_access_chain/workgroup_bad_stride lists its Workgroup and StorageBuffer
    /// variables in the entry point's interface, as only 1.4 allows), else spv1.0 (Amber's
    /// default).
    pub fn default_asm_env<'a>(&self, chosen: Option<&'a str>) -> &'a str {
        let wants_1_4 = self.requires.iter().any(|r| {
            matches!(r, Require::Extension(e, _)
                if e == "VK_KHR_spirv_1_4" || e == "VK_KHR_workgroup_memory_explicit_layout")
        });
        match chosen {
            Some(env) => env,
            None if wants_1_4 => "spv1.4",
            None => "spv1.0",
        }
    }
}
