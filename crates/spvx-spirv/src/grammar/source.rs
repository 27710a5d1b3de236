//! What spvx reads of a grammar file: the fields of SPIRV-Headers' JSON grammars (and spvx's
//! supplement) that the table is built from.
//!
//! The build script (`build.rs`, which includes this file with `#[path]`) reads each vendored
//! JSON file into these types, turns every enumerant value into a number, and stores them in
//! postcard's binary form; [`super::load`] reads that form back at the first use of the grammar.
//! Parsing the 750 KB of JSON at every process start cost 4–7 ms; reading the stored form costs
//! a fraction of that. The field names are the JSON's, so the build script deserializes the files
//! straight into these types. Every string borrows from the bytes it is read from: at run time
//! those are compiled into the binary, so the table's strings are `&'static str` and building it
//! allocates none of them.

use serde::{Deserialize, Serialize};

/// One grammar file: the core grammar, the supplement or an extended instruction set.
#[derive(Serialize, Deserialize)]
pub struct GrammarSource<'a> {
    #[serde(default)]
    pub major_version: Option<u8>,
    #[serde(default)]
    pub minor_version: Option<u8>,
    #[serde(default, borrow)]
    pub instructions: Vec<SourceInstruction<'a>>,
    #[serde(default, borrow)]
    pub operand_kinds: Vec<SourceKind<'a>>,
}

#[derive(Serialize, Deserialize)]
pub struct SourceInstruction<'a> {
    pub opname: &'a str,
    #[serde(default)]
    pub class: &'a str,
    pub opcode: u32,
    #[serde(default, borrow)]
    pub aliases: Vec<&'a str>,
    #[serde(default, borrow)]
    pub operands: Vec<SourceOperand<'a>>,
    #[serde(default, borrow)]
    pub capabilities: Vec<&'a str>,
    #[serde(default, borrow)]
    pub extensions: Vec<&'a str>,
    #[serde(default, borrow)]
    pub version: Option<&'a str>,
    #[serde(default, borrow, rename = "lastVersion")]
    pub last_version: Option<&'a str>,
}

#[derive(Serialize, Deserialize)]
pub struct SourceOperand<'a> {
    pub kind: &'a str,
    #[serde(default, borrow)]
    pub quantifier: Option<&'a str>,
    #[serde(default, borrow)]
    pub name: Option<&'a str>,
}

#[derive(Serialize, Deserialize)]
pub struct SourceKind<'a> {
    pub category: &'a str,
    pub kind: &'a str,
    #[serde(default, borrow)]
    pub enumerants: Vec<SourceEnumerant<'a>>,
    #[serde(default, borrow)]
    pub bases: Vec<&'a str>,
}

#[derive(Serialize, Deserialize)]
pub struct SourceEnumerant<'a> {
    pub enumerant: &'a str,
    /// The value as a number: the JSON writes it as a number or as a `0x` hexadecimal string;
    /// the build script reads both ([`enum_value`]).
    #[serde(deserialize_with = "enum_value")]
    pub value: u32,
    #[serde(default, borrow)]
    pub aliases: Vec<&'a str>,
    #[serde(default, borrow)]
    pub parameters: Vec<SourceOperand<'a>>,
    #[serde(default, borrow)]
    pub capabilities: Vec<&'a str>,
    #[serde(default, borrow)]
    pub extensions: Vec<&'a str>,
    #[serde(default, borrow)]
    pub version: Option<&'a str>,
    #[serde(default, borrow, rename = "lastVersion")]
    pub last_version: Option<&'a str>,
}

/// An enumerant value as the JSON writes it (a number, or a decimal or `0x` hexadecimal string),
/// or as postcard stores it (a number): the two forms are told apart by
/// [`serde::Deserializer::is_human_readable`].
fn enum_value<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    if !d.is_human_readable() {
        return u32::deserialize(d);
    }
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Number(u64),
        Text(String),
    }
    let bad = |what: &dyn std::fmt::Display| {
        serde::de::Error::custom(format!("bad enumerant value {what}"))
    };
    match Written::deserialize(d)? {
        Written::Number(n) => u32::try_from(n).map_err(|_| bad(&n)),
        Written::Text(s) => s
            .strip_prefix("0x")
            .map_or_else(|| s.parse().ok(), |h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| bad(&s)),
    }
}
