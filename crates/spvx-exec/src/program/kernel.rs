//! What a compiled Kernel (OpenCL) entry point needs at run time besides its code: the
//! workgroup size it requires (if any), where each kernel argument goes, and the initial
//! bytes of its CrossWorkgroup program-scope variables.

use super::{Leaf, Slot};
use crate::memory::{Ptr, SPACE_NULL};
use crate::resources::KernelArgInfo;

/// How the bytes of one kernel argument reach the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamPlace {
    /// A pointer argument (buffer or local memory): the parameter slot gets the pointer.
    Pointer,
    /// A scalar or vector argument: its leaves are read from the argument's bytes (at the
    /// leaves' C-layout offsets) into the parameter's slots.
    Value { leaves: Box<[Leaf]> },
    /// A by-value aggregate passed as a Function-storage pointer (llvm-spirv's `ByVal`): the
    /// bytes are copied to `offset` in every invocation's private memory, and the parameter
    /// slot points there.
    ByValue { offset: u32, size: u32 },
}

/// One parameter of the kernel function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelParam {
    /// The first slot of the parameter.
    pub slot: Slot,
    pub place: ParamPlace,
}

/// The Kernel-specific part of a [`super::Program`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelInfo {
    /// The workgroup size the module requires (LocalSize), if it gives one; otherwise the
    /// dispatch's local size is used (`Resources::set_local_size`).
    pub local_size: Option<[u32; 3]>,
    /// The arguments as a caller sees them, in parameter order.
    pub args: Vec<KernelArgInfo>,
    /// Where each argument goes, in parameter order.
    pub params: Vec<KernelParam>,
    /// Bits of an integer holding a pointer (32 for Physical32, 64 for Physical64).
    pub pointer_bits: u32,
    /// How pointers become integers (addresses) and back.
    pub address_map: AddressMap,
    /// The memory object of the CrossWorkgroup program-scope variables, if the module has
    /// any.
    pub globals: Option<ProgramGlobals>,
}

/// The CrossWorkgroup program-scope variables of a Kernel module: one memory object per
/// dispatch, shared by every workgroup, at memory space `space` (the one after the kernel's
/// buffer arguments), starting with `init`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramGlobals {
    pub space: u32,
    pub init: Vec<u8>,
}

/// A pointer operation on pointers held as `memory::Ptr` bits: of physical addressing (through
/// the address map), or of Logical addressing (`Logical*`: on the memory space and offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PtrOp {
    /// OpGenericCastToPtr(Explicit) to storage class `class`: the pointer if it points into
    /// memory of that class, else the null pointer (OpenCL `to_global` and friends).
    GenericToClass(u32),
    /// OpGenericPtrMemSemantics: WorkgroupMemory (0x100) or CrossWorkgroupMemory (0x200), 0
    /// for private memory and null.
    MemSemantics,
    /// OpPtrDiff: (address(a) − address(b)) / `elem` bytes, as a signed integer of the result
    /// width (`bits`).
    Diff {
        elem: u32,
        bits: u8,
        map: AddressMap,
    },
    /// OpConvertPtrToU / OpBitcast to an integer: the pointer's address, truncated or
    /// zero-extended to `bits`.
    ToAddress { map: AddressMap, bits: u8 },
    /// OpConvertUToPtr / OpBitcast from an integer of `bits` bits: the pointer at that address.
    FromAddress { map: AddressMap, bits: u8 },
    /// OpPtrEqual (`ne` false) / OpPtrNotEqual: compares the two pointers' addresses.
    Equal { map: AddressMap, ne: bool },
    /// OpPtrEqual / OpPtrNotEqual under Logical addressing: equal when both point at the same
    /// byte of the same memory object (the same space and offset).
    LogicalEqual { ne: bool },
    /// OpPtrDiff under Logical addressing: (offset(a) − offset(b)) / `elem` bytes (the step of
    /// OpPtrAccessChain on the same pointer type), as a signed integer of `bits` bits. Pointers
    /// into different memory objects (undefined behaviour) give 0 and an event.
    LogicalDiff { elem: u32, bits: u8 },
}

/// The offset given to a pointer converted from an address too far from its object's base
/// to be an offset (out of bounds of every object).
const WILD_OFFSET: u64 = 1 << 47;

/// The address map of physical addressing: how a pointer (memory space, byte offset) becomes
/// the integer a kernel sees (OpConvertPtrToU, pointers stored in memory) and back.
///
/// The `bits`-bit address space is cut into `2^k` equal *slots* of `S = 2^(bits − k)` bytes,
/// `2^k` the least power of two ≥ the number of memory spaces (null, private, workgroup, the
/// buffers). Slot `i` belongs to space `i`. Space 0 (null) has its base at address 0; every
/// other object's base is the middle of its slot (`i·S + S/2`), so each object is surrounded
/// by guard addresses (`S/2` before it, `S/2 − size` after it) that still belong to it: an
/// address there converts to a pointer into the same object, out of bounds. Objects may be
/// at most `S/2` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddressMap {
    /// The pointer width: 32 (Physical32) or 64 (Physical64).
    pub bits: u8,
    /// log2 of the slot size.
    pub slot_shift: u8,
    /// The number of memory spaces (slots that hold an object).
    pub spaces: u32,
}

/// Sign-extends a 48-bit pointer offset.
fn signed_offset(offset: u64) -> i64 {
    ((offset << 16) as i64) >> 16
}

impl AddressMap {
    /// The map for `bits`-bit pointers and `spaces` memory spaces (taken as at least 2, at
    /// most 2^16).
    pub fn new(bits: u32, spaces: u32) -> AddressMap {
        let slots = spaces.clamp(2, 1 << 16).next_power_of_two();
        AddressMap {
            bits: bits as u8,
            slot_shift: (bits - slots.trailing_zeros()) as u8,
            spaces,
        }
    }

    /// The bytes of one slot.
    pub fn slot_size(self) -> u64 {
        1u64 << self.slot_shift
    }

    /// The largest memory object the map can hold (half a slot).
    pub fn max_object_bytes(self) -> u64 {
        self.slot_size() / 2
    }

    fn mask(self) -> u64 {
        crate::bits::low_bits(self.bits as u32)
    }

    /// The address of byte 0 of `space`'s object, `None` for the null space and spaces that
    /// hold no object.
    pub fn base(self, space: u32) -> Option<u64> {
        (space != SPACE_NULL && space < self.spaces)
            .then(|| ((space as u64) << self.slot_shift) + self.slot_size() / 2)
    }

    /// The address of the pointer with bits `ptr`. An offset that leaves the object's slot
    /// gives the slot's first address (still out of bounds of the object); a null-space
    /// pointer gives its offset when that lies in slot 0, else slot 0's last address.
    pub fn to_address(self, ptr: u64) -> u64 {
        let p = Ptr(ptr);
        let off = signed_offset(p.offset());
        let s = self.slot_size();
        let a = match self.base(p.space()) {
            Some(base) if off >= -((s / 2) as i64) && off < (s / 2) as i64 => {
                base.wrapping_add(off as u64)
            }
            Some(_) => (p.space() as u64) << self.slot_shift,
            None if off >= 0 && (off as u64) < s => off as u64,
            None => s - 1,
        };
        a & self.mask()
    }

    /// The pointer at address `address` (its low `bits` bits): into the object whose slot
    /// holds it (out of bounds in the guard part), or a null-space pointer for slot 0 and
    /// slots without an object.
    pub fn from_address(self, address: u64) -> u64 {
        let a = address & self.mask();
        let slot = a >> self.slot_shift;
        let space = u32::try_from(slot).unwrap_or(u32::MAX);
        let off = match self.base(space) {
            Some(base) => a.wrapping_sub(base) as i64,
            None if slot == 0 => a as i64,
            None => return Ptr::new(SPACE_NULL, WILD_OFFSET).0,
        };
        let off = if (-(WILD_OFFSET as i64)..WILD_OFFSET as i64).contains(&off) {
            off as u64
        } else {
            WILD_OFFSET
        };
        let space = if self.base(space).is_some() {
            space
        } else {
            SPACE_NULL
        };
        Ptr::new(space, off).0
    }
}
