//! (being written)
pub fn exec_tensor(_data: &[u8]) {}
