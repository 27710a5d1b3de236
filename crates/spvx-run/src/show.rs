//! Outputs shown as arrays on the terminal (`spvx run --print`), in NumPy's manner: elements
//! separated by spaces in brackets, and for more than 1,000 elements the first and last three
//! around `...` (NumPy's `threshold` and `edgeitems` defaults). Integers print in decimal;
//! floats print their exact value (the shortest decimal that reads back as the same f64 —
//! for f16, bf16 and fp8 that is the exact value of the element, not NumPy's shortest
//! float16 form); NaN and infinities as `nan`, `inf`, `-inf`. A binding without one element
//! type prints its bytes as u8.

use crate::ElemType;

/// More elements than this are summarised (NumPy's `threshold`).
pub const THRESHOLD: usize = 1000;
/// Elements shown at each end of a summarised array (NumPy's `edgeitems`).
pub const EDGE_ITEMS: usize = 3;

/// `[a b c]`, or `[a b c ... x y z]` beyond [`THRESHOLD`] elements. Trailing bytes that do
/// not fill an element are not shown.
pub fn array_text(elem: ElemType, bytes: &[u8]) -> String {
    let n = bytes.len() / elem.size();
    let item = |i: usize| element_text(elem, elem.bits_at(bytes, i));
    let items: Vec<String> = if n > THRESHOLD {
        (0..EDGE_ITEMS)
            .map(item)
            .chain(std::iter::once("...".to_string()))
            .chain((n - EDGE_ITEMS..n).map(item))
            .collect()
    } else {
        (0..n).map(item).collect()
    };
    format!("[{}]", items.join(" "))
}

/// One element's value ([`ElemType::value_text`], with NumPy's `nan`).
pub fn element_text(elem: ElemType, bits: u64) -> String {
    if elem.is_nan(bits) {
        "nan".to_string()
    } else {
        elem.value_text(bits)
    }
}

/// The label of a shown binding: `SET.BINDING dtype[N]` (`SET.BINDING.INDEX` for an element of
/// an array of buffers).
pub fn label(set: u32, binding: u32, index: Option<u32>, elem: ElemType, bytes: usize) -> String {
    let place = match index {
        Some(i) => format!("{set}.{binding}.{i}"),
        None => format!("{set}.{binding}"),
    };
    format!("{place} {}[{}]", elem.name(), bytes / elem.size())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes_u32(v: &[u32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn short_arrays_in_full_and_long_ones_summarised() {
        assert_eq!(
            array_text(ElemType::U32, &bytes_u32(&[7, 0, 4294967295])),
            "[7 0 4294967295]"
        );
        assert_eq!(
            array_text(ElemType::I32, &bytes_u32(&[4294967295, 5])),
            "[-1 5]"
        );
        let long: Vec<u32> = (0..1001).collect();
        assert_eq!(
            array_text(ElemType::U32, &bytes_u32(&long)),
            "[0 1 2 ... 998 999 1000]"
        );
        let exactly: Vec<u32> = (0..1000).collect();
        assert_eq!(
            array_text(ElemType::U32, &bytes_u32(&exactly))
                .matches(' ')
                .count(),
            999
        );
    }

    #[test]
    fn floats_print_their_exact_values() {
        let f: Vec<u8> = [0.5f32, -0.0, 1.0e10, f32::NAN, f32::NEG_INFINITY]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(
            array_text(ElemType::F32, &f),
            "[0.5 -0 10000000000 nan -inf]"
        );
        // f16 0x2e66 is 0.0999755859375 exactly (the nearest f16 to 0.1).
        assert_eq!(element_text(ElemType::F16, 0x2e66), "0.0999755859375");
        assert_eq!(element_text(ElemType::Bf16, 0x3f80), "1");
    }

    #[test]
    fn labels() {
        assert_eq!(label(0, 1, None, ElemType::F32, 16), "0.1 f32[4]");
        assert_eq!(label(0, 1, Some(2), ElemType::U8, 3), "0.1.2 u8[3]");
    }
}
