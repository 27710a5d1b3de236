//! VkScript (stub).
use super::error::AmberError;
use super::model::Script;
use std::path::Path;

pub fn looks_like(text: &str) -> bool {
    text.lines().any(|l| l.trim_start().starts_with("[test]"))
}

pub fn parse_vkscript(_file: &str, _text: &str, _base: &Path) -> Result<Script, AmberError> {
    Ok(Script::default())
}
