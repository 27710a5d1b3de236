//! Writing D as a `.npy` array: D → int32, UD → uint32, F → float32, BF/HF → uint16 bits.

use npyz::WriterBuilder;

use crate::DataType;
use crate::matrix::AccMatrix;

/// The `.npy` bytes of `d` (C order, little-endian).
pub fn acc_matrix_to_npy(d: &AccMatrix) -> std::io::Result<Vec<u8>> {
    let shape = [d.rows() as u64, d.cols() as u64];
    let mut out = Vec::new();
    match d.ty() {
        DataType::D => write(&mut out, &shape, d.bits().iter().map(|&v| v as i32))?,
        DataType::Ud => write(&mut out, &shape, d.bits().iter().copied())?,
        DataType::F => write(
            &mut out,
            &shape,
            d.bits().iter().map(|&v| f32::from_bits(v)),
        )?,
        DataType::Bf | DataType::Hf => write(&mut out, &shape, d.bits().iter().map(|&v| v as u16))?,
    }
    Ok(out)
}

fn write<T: npyz::AutoSerialize>(
    out: &mut Vec<u8>,
    shape: &[u64],
    values: impl Iterator<Item = T>,
) -> std::io::Result<()> {
    let mut writer = npyz::WriteOptions::new()
        .default_dtype()
        .shape(shape)
        .writer(out)
        .begin_nd()?;
    writer.extend(values)?;
    writer.finish()
}
