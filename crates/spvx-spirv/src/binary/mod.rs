//! The SPIR-V binary form: header, reader and writer.

mod error;
mod header;
mod reader;
mod writer;

pub use error::{BinaryError, BinaryErrorKind};
pub use header::{Header, MAGIC, SPVX_GENERATOR};
pub use reader::{ParsedModule, read_bytes, read_words};
pub use writer::{to_bytes, to_words};
