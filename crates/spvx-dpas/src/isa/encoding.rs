//! What a later vISA binary encoder needs from a DPAS instruction (DPAS.md "Opcode" and
//! "Format"; IGC `visa/Common_ISA_util.h` `DpasInfoToUI32`): the opcode, the field order, the
//! Exec_size byte and the packed W/A/SD/RC info dword. Operand encodings (vISA raw/vec
//! operands referring to declared variables) are not modelled.

use spvx_num::dpas::{DpasError, Precision};

use super::Instruction;

/// The vISA opcode of DPAS.
pub const OPCODE: u8 = 0x83;

/// The binary fields in order (DPAS.md Format table): opcode, Exec_size, Dst, Src0, Src1, Src2,
/// W, A, SD, RC.
pub const FIELD_ORDER: [&str; 10] = [
    "opcode",
    "exec_size",
    "dst",
    "src0",
    "src1",
    "src2",
    "W",
    "A",
    "SD",
    "RC",
];

/// The Exec_size byte: bits 2:0 = log2(exec size) (8 → 0b011, 16 → 0b100), bits 7:4 = the
/// execution mask (M1..M8 = 0..7, +8 for `_NM`). `None` for an exec size that is not a power
/// of two up to 32.
pub fn exec_size_byte(instr: &Instruction) -> Option<u8> {
    let size = instr.exec_size;
    if !size.is_power_of_two() || size > 32 {
        return None;
    }
    let mask = instr.mask.offset | if instr.mask.no_mask { 8 } else { 0 };
    Some((size.trailing_zeros() as u8) | (mask << 4))
}

/// The info dword as IGC packs it: W in bits 7:0, A in 15:8, SD in 23:16, RC in 31:24, with
/// the `GenPrecision` codes of `spvx_num::dpas::Precision::code` (tf32 = 12). `None` if SD or
/// RC does not fit a byte, or a precision has no `GenPrecision` code (df).
pub fn info_dword(instr: &Instruction) -> Option<u32> {
    let sd = u8::try_from(instr.sd).ok()?;
    let rc = u8::try_from(instr.rc).ok()?;
    Some(
        u32::from(instr.w.code()?)
            | u32::from(instr.a.code()?) << 8
            | u32::from(sd) << 16
            | u32::from(rc) << 24,
    )
}

/// Decodes an info dword into (W, A, SD, RC).
pub fn decode_info(info: u32) -> Result<(Precision, Precision, u32, u32), DpasError> {
    Ok((
        Precision::from_code(info as u8)?,
        Precision::from_code((info >> 8) as u8)?,
        (info >> 16) & 0xff,
        info >> 24,
    ))
}
