//! Memory is bytes: every memory object (a buffer, the workgroup's shared memory, an
//! invocation's private memory) is a byte array, and a logical pointer is a memory space plus a
//! byte offset ([`Ptr`]). Layouts (Offset/ArrayStride/MatrixStride) are applied by the compiler,
//! which turns every load and store into scalar accesses at byte offsets.
//!
//! Every access is bounds-checked against its memory object: a read outside gives zero, a
//! write outside is dropped ([`Access`] tells the caller, which records the event).

mod buffer;
mod pool;
mod storage;
mod view;

pub use buffer::SharedBuffer;
pub use pool::BufferPool;
pub use view::{BufferLanes, CommonBytes, LaneBytes, LaneSpan, LaneView, PrivateLanes};

/// No memory object: the null pointer (all bits zero) and anything else in space 0 is out of
/// bounds (OpenCL's NULL must never reach a variable).
pub const SPACE_NULL: u32 = 0;
/// The invocation's private memory (Private and Function variables, built-in inputs).
pub const SPACE_PRIVATE: u32 = 1;
/// The workgroup's shared memory (Workgroup variables, Kernel local-memory arguments).
pub const SPACE_WORKGROUP: u32 = 2;
/// Buffer `i` of the program's bindings (then the Kernel buffer arguments) is space
/// `SPACE_BUFFER0 + i`.
pub const SPACE_BUFFER0: u32 = 3;
/// No memory object: where an out-of-range index into an array of buffers points (every
/// access is out of bounds).
pub const SPACE_NONE: u32 = 0xffff;

const OFFSET_BITS: u32 = 48;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;

/// A logical pointer as stored in a register: the memory space in the top 16 bits, the byte
/// offset (modulo 2^48; negative offsets wrap to huge ones, which are out of bounds) below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ptr(pub u64);

impl Ptr {
    /// The pointer to `offset` in `space`.
    pub fn new(space: u32, offset: u64) -> Ptr {
        Ptr(((space as u64) << OFFSET_BITS) | (offset & OFFSET_MASK))
    }
    /// The memory space.
    pub fn space(self) -> u32 {
        (self.0 >> OFFSET_BITS) as u32
    }
    /// The byte offset.
    pub fn offset(self) -> u64 {
        self.0 & OFFSET_MASK
    }
    /// The pointer `delta` bytes further (wrapping within the offset field).
    pub fn offset_by(self, delta: i64) -> Ptr {
        Ptr::new(self.space(), self.offset().wrapping_add(delta as u64))
    }
}

/// The memory one subgroup sees while it runs.
pub struct Memory<'a> {
    /// The dispatch's buffers (shared by all workgroups; atomic words).
    pub buffers: &'a [SharedBuffer],
    /// Private memory of the subgroup's lanes: lane `l` owns
    /// `private[l * private_bytes..(l + 1) * private_bytes]`.
    pub private: &'a mut [u8],
    pub private_bytes: usize,
    /// The workgroup's shared memory.
    pub workgroup: &'a mut [u8],
    /// For each buffer space that holds a tensor: its shape and byte strides.
    pub tensors: &'a [Option<TensorView>],
    /// With `RunConfig::track_writers`: the global linear index of the subgroup's lane 0
    /// (lane `l` is invocation `writer_base + l`); buffer writes are then recorded.
    pub writer_base: Option<u32>,
}

/// The shape and byte strides of a bound tensor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorView {
    pub shape: Vec<u64>,
    pub strides: Vec<u64>,
}

/// Why an access did not happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    OutOfBounds,
    ReadOnly,
}

fn in_bounds(offset: u64, bytes: u32, len: usize) -> Option<usize> {
    let end = offset.checked_add(bytes as u64)?;
    (end <= len as u64).then_some(offset as usize)
}

fn read_le(bytes: &[u8]) -> u64 {
    let mut v = 0u64;
    for (i, b) in bytes.iter().enumerate() {
        v |= (*b as u64) << (8 * i);
    }
    v
}

fn write_le(out: &mut [u8], value: u64) {
    for (i, b) in out.iter_mut().enumerate() {
        *b = (value >> (8 * i)) as u8;
    }
}

impl Memory<'_> {
    /// Reads `bytes` (1..=8) little-endian bytes at `ptr` for lane `lane`.
    #[inline]
    pub fn read(&self, lane: usize, ptr: Ptr, bytes: u32) -> Result<u64, Access> {
        let off = ptr.offset();
        match ptr.space() {
            SPACE_PRIVATE => {
                let o = in_bounds(off, bytes, self.private_bytes).ok_or(Access::OutOfBounds)?;
                let base = lane * self.private_bytes + o;
                Ok(read_le(&self.private[base..base + bytes as usize]))
            }
            SPACE_WORKGROUP => {
                let o = in_bounds(off, bytes, self.workgroup.len()).ok_or(Access::OutOfBounds)?;
                Ok(read_le(&self.workgroup[o..o + bytes as usize]))
            }
            s => {
                let b = s
                    .checked_sub(SPACE_BUFFER0)
                    .and_then(|i| self.buffers.get(i as usize))
                    .ok_or(Access::OutOfBounds)?;
                b.read(off, bytes).ok_or(Access::OutOfBounds)
            }
        }
    }

    /// Writes the low `bytes` (1..=8) bytes of `value` at `ptr` for lane `lane`.
    #[inline]
    pub fn write(&mut self, lane: usize, ptr: Ptr, bytes: u32, value: u64) -> Result<(), Access> {
        let off = ptr.offset();
        match ptr.space() {
            SPACE_PRIVATE => {
                let o = in_bounds(off, bytes, self.private_bytes).ok_or(Access::OutOfBounds)?;
                let base = lane * self.private_bytes + o;
                write_le(&mut self.private[base..base + bytes as usize], value);
                Ok(())
            }
            SPACE_WORKGROUP => {
                let o = in_bounds(off, bytes, self.workgroup.len()).ok_or(Access::OutOfBounds)?;
                write_le(&mut self.workgroup[o..o + bytes as usize], value);
                Ok(())
            }
            s => {
                let b = s
                    .checked_sub(SPACE_BUFFER0)
                    .and_then(|i| self.buffers.get(i as usize))
                    .ok_or(Access::OutOfBounds)?;
                if b.read_only {
                    return Err(Access::ReadOnly);
                }
                if b.write(off, bytes, value) {
                    if let Some(base) = self.writer_base {
                        b.record_writer(off, bytes, base.wrapping_add(lane as u32));
                    }
                    Ok(())
                } else {
                    Err(Access::OutOfBounds)
                }
            }
        }
    }

    /// The size in bytes of the memory object `ptr` points into.
    pub fn object_size(&self, ptr: Ptr) -> u64 {
        match ptr.space() {
            SPACE_PRIVATE => self.private_bytes as u64,
            SPACE_WORKGROUP => self.workgroup.len() as u64,
            s => s
                .checked_sub(SPACE_BUFFER0)
                .and_then(|i| self.buffers.get(i as usize))
                .map_or(0, |b| b.len() as u64),
        }
    }

    /// A name of the memory space for reports ("buffer (set 0, binding 1)" is given by the
    /// caller, which knows the bindings).
    pub fn space_kind(space: u32) -> &'static str {
        match space {
            SPACE_PRIVATE => "private memory",
            SPACE_WORKGROUP => "workgroup memory",
            SPACE_NULL => "no memory (null pointer)",
            SPACE_NONE => "no buffer (index into an array of buffers out of range)",
            _ => "buffer",
        }
    }
}
