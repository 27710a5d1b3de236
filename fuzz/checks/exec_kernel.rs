//! (being written)
pub fn exec_kernel(_data: &[u8]) {}
