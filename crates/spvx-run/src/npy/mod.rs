//! `.npy` files: the one layer over npyz that spvx uses. Opening an array (shape, memory
//! order, dtype), reading its elements in C (row-major) order whatever the file's memory
//! order, and writing an array of plain numbers (C order, little-endian, npyz's default
//! dtype of the Rust type).
//!
//! - [`buffer`]: arrays as buffer bytes of an element type (run files, tensors after a run).
//! - [`view`]: a buffer binding as the array its block type declares (n-D, structured).
//! - [`matrix`]: arrays as DPAS matrices, with the element conventions of `spvx dpas matmul`.

pub mod buffer;
pub mod matrix;
pub mod view;

pub use buffer::{NpyBytes, NpyError, element_count, read_npy, write_npy};

use npyz::{DType, NpyFile, Order, WriterBuilder};

/// An opened `.npy` file: its header read, its data not yet.
pub struct NpyArray<'a> {
    file: NpyFile<&'a [u8]>,
}

impl<'a> NpyArray<'a> {
    /// Reads the header of the `.npy` file `bytes`.
    pub fn open(bytes: &'a [u8]) -> std::io::Result<NpyArray<'a>> {
        Ok(NpyArray {
            file: NpyFile::new(bytes)?,
        })
    }

    /// The dimensions, outermost first.
    pub fn shape(&self) -> &[u64] {
        self.file.shape()
    }

    /// The memory order of the data.
    pub fn order(&self) -> Order {
        self.file.order()
    }

    /// The dtype.
    pub fn dtype(&self) -> DType {
        self.file.dtype()
    }

    /// Every element in the file's memory order ([`Self::order`]; see [`to_c_order`]).
    pub fn into_flat<T: npyz::Deserialize>(self) -> std::io::Result<Vec<T>> {
        self.file.into_vec()
    }
}

/// Elements stored in `order` for `shape` (one element per index, `elements.len()` the product
/// of `shape`), in C order (last index fastest).
pub fn to_c_order<T: Copy>(elements: Vec<T>, shape: &[u64], order: Order) -> Vec<T> {
    match order {
        Order::C => elements,
        Order::Fortran => fortran_to_c(&elements, shape),
    }
}

/// Reorders Fortran-order (first index fastest) elements into C order (last index fastest).
fn fortran_to_c<T: Copy>(elements: &[T], shape: &[u64]) -> Vec<T> {
    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let mut out = Vec::with_capacity(elements.len());
    let mut index = vec![0usize; dims.len()];
    for _ in 0..elements.len() {
        // Fortran offset of the current C-order index.
        let mut offset = 0;
        let mut stride = 1;
        for (i, &d) in index.iter().zip(&dims) {
            offset += i * stride;
            stride *= d;
        }
        out.push(elements[offset]);
        // Advance the C-order index (last dimension fastest).
        for k in (0..dims.len()).rev() {
            index[k] += 1;
            if index[k] < dims[k] {
                break;
            }
            index[k] = 0;
        }
    }
    out
}

/// Appends the `.npy` file of `values` (C order) with `shape` to `out`.
pub fn write<T: npyz::AutoSerialize>(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fortran_order_by_hand() {
        // [[1, 2, 3], [4, 5, 6]] stored column-major: 1 4 2 5 3 6.
        let got = to_c_order(vec![1, 4, 2, 5, 3, 6], &[2, 3], Order::Fortran);
        assert_eq!(got, [1, 2, 3, 4, 5, 6]);
        // 2x2x2: Fortran offset of (i, j, k) is i + 2j + 4k.
        let f: Vec<u32> = (0..8).collect();
        let c = to_c_order(f, &[2, 2, 2], Order::Fortran);
        assert_eq!(c, [0, 4, 2, 6, 1, 5, 3, 7]);
    }
}
