//! The interpreter's dispatcher: runs one straight-line [`Inst`] on the active lanes by
//! handing it to the function of its family (one file per family under `exec/`).

use super::ctx::{Ctx, Stop};
use super::mask::{full_mask, lanes};
use super::{
    arith, atomic, bitwise, compare, composite, convert, fixed, float, glsl, intdot, kernel, math,
    matrix_mma, memory, mixdot, opencl, printf, subgroup, tensor, wide,
};
use crate::program::Inst;

/// Runs one straight-line instruction on the active lanes.
pub fn execute(inst: &Inst, cx: &mut Ctx) -> Result<(), Stop> {
    match inst {
        Inst::Copy { dst, src } => cx.pure1(*dst, *src, |x| x),
        Inst::Const { dst, value } => {
            // Only undefined shuffle components and a few OpenCL.std results: a masked fill.
            let (w, mask) = (cx.width, cx.mask);
            let d = &mut cx.regs[*dst as usize * w..(*dst as usize + 1) * w];
            if mask == full_mask(w) {
                d.fill(*value);
            } else {
                for l in lanes(mask) {
                    d[l] = *value;
                }
            }
        }
        Inst::IBin {
            op,
            bits,
            dst,
            a,
            b,
        } => return arith::ibin(cx, *op, *bits as u32, *dst, *a, *b),
        Inst::IUn { op, bits, dst, a } => bitwise::iun(cx, *op, *bits as u32, *dst, *a),
        Inst::IWide {
            op,
            bits,
            lo,
            hi,
            a,
            b,
        } => arith::iwide(cx, *op, *bits as u32, *lo, *hi, *a, *b),
        Inst::ICmp {
            op,
            bits,
            dst,
            a,
            b,
        } => compare::icmp(cx, *op, *bits as u32, *dst, *a, *b),
        Inst::FBin { op, fmt, dst, a, b } => float::fbin(cx, *op, *fmt, *dst, *a, *b),
        Inst::FNeg { fmt, dst, a } => float::fneg(cx, *fmt, *dst, *a),
        Inst::FCmp {
            op,
            ordered,
            fmt,
            dst,
            a,
            b,
        } => compare::fcmp(cx, *op, *ordered, *fmt, *dst, *a, *b),
        Inst::FClass { op, fmt, dst, a } => compare::fclass(cx, *op, *fmt, *dst, *a),
        Inst::Logic { op, dst, a, b } => compare::logic(cx, *op, *dst, *a, *b),
        Inst::LNot { dst, a } => cx.pure1(*dst, *a, |x| (x == 0) as u64),
        Inst::Select { dst, cond, a, b } => {
            cx.pure3(*dst, *cond, *a, *b, |c, x, y| if c != 0 { x } else { y })
        }
        Inst::Convert { op, dst, a } => convert::convert(cx, *op, *dst, *a),
        Inst::BitFieldInsert {
            bits,
            dst,
            base,
            insert,
            offset,
            count,
        } => bitwise::field_insert(cx, *bits as u32, *dst, *base, *insert, *offset, *count),
        Inst::BitFieldExtract {
            bits,
            signed,
            dst,
            base,
            offset,
            count,
        } => bitwise::field_extract(cx, *bits as u32, *signed, *dst, *base, *offset, *count),
        Inst::Bitcast {
            dst,
            dst_bits,
            dst_count,
            src,
            src_bits,
            src_count,
        } => convert::bitcast(cx, *dst, *dst_bits, *dst_count, *src, *src_bits, *src_count),
        Inst::ExtractDyn {
            dst,
            base,
            count,
            index,
            index_bits,
        } => composite::extract_dyn(cx, *dst, *base, *count, *index, *index_bits),
        Inst::InsertDyn {
            dst,
            src,
            count,
            value,
            index,
            index_bits,
        } => composite::insert_dyn(cx, *dst, *src, *count, *value, *index, *index_bits),
        Inst::IntDot {
            spec,
            dst,
            a,
            b,
            count,
            acc,
        } => return intdot::int_dot(cx, spec, *dst, *a, *b, *count, *acc),
        Inst::MixDot {
            op,
            half,
            fp8,
            dst,
            a,
            b,
            acc,
        } => mixdot::mix_dot(cx, *op, *half, *fp8, *dst, *a, *b, *acc),
        Inst::VarInit {
            dst,
            ptr,
            size,
            init,
        } => return memory::var_init(cx, *dst, *ptr, *size, init.as_ref()),
        Inst::AccessChain {
            dst,
            base,
            offset,
            steps,
        } => return memory::access_chain(cx, *dst, *base, *offset, steps),
        Inst::SelectBuffer {
            dst,
            base,
            index,
            index_bits,
            count,
        } => return memory::select_buffer(cx, *dst, *base, *index, *index_bits, *count),
        Inst::Load { dst, ptr, leaves } => return memory::load(cx, *dst, *ptr, leaves),
        Inst::Store { ptr, src, leaves } => return memory::store(cx, *ptr, *src, leaves),
        Inst::CopyMemory { dst, src, size } => return memory::copy_memory(cx, *dst, *src, *size),
        Inst::ArrayLength {
            dst,
            ptr,
            offset,
            stride,
        } => memory::array_length(cx, *dst, *ptr, *offset, *stride),
        Inst::Atomic {
            op,
            bits,
            dst,
            ptr,
            value,
            comparator,
        } => return atomic::atomic(cx, *op, *bits as u32, *dst, *ptr, *value, *comparator),
        Inst::TensorRead {
            dst,
            tensor,
            coords,
            rank,
            coord_bits,
            count,
            element,
            oob,
            shape,
        } => tensor::read(
            cx,
            *dst,
            *tensor,
            (*coords, *rank, *coord_bits),
            *count,
            *element,
            *oob,
            shape.as_deref(),
        ),
        Inst::TensorWrite {
            tensor,
            coords,
            rank,
            coord_bits,
            count,
            element,
            src,
        } => tensor::write(
            cx,
            *tensor,
            *coords,
            *rank,
            *coord_bits,
            *count,
            *element,
            *src,
        ),
        Inst::TensorSize {
            dst,
            tensor,
            dim,
            bits,
        } => tensor::size(cx, *dst, *tensor, *dim, *bits),
        Inst::TensorPack {
            dst,
            at,
            parts,
            element,
            inner,
        } => tensor::pack(cx, *dst, *at, parts, *element, inner),
        Inst::TensorExtract {
            dst,
            src,
            shape,
            first,
            count,
            element,
            at,
        } => tensor::extract(cx, *dst, *src, shape, (*first, *count), *element, *at),
        Inst::Group {
            op,
            scalar,
            dst,
            a,
            b,
        } => subgroup::group(cx, *op, *scalar, *dst, *a, *b),
        Inst::Ballot { dst, pred } => subgroup::ballot(cx, *dst, *pred),
        Inst::SubgroupMma { spec, dst, a, b, c } => {
            matrix_mma::subgroup_mma(cx, spec, *dst, *a, *b, *c)
        }
        Inst::Fixed {
            op,
            result,
            dst,
            src,
        } => return fixed::fixed(cx, op, *result, *dst, *src),
        Inst::Math {
            func,
            fmt,
            dst,
            args,
        } => math::math(cx, *func, *fmt, *dst, *args),
        Inst::IMath {
            func,
            bits,
            dst,
            args,
        } => math::imath(cx, *func, *bits as u32, *dst, *args),
        Inst::Print(spec) => printf::print(cx, spec),
        Inst::Wide(w) => return wide::execute(cx, w),
        Inst::Glsl {
            op,
            fmt,
            bits,
            n,
            dst,
            args,
        } => glsl::glsl(cx, *op, *fmt, *bits as u32, *n as u32, *dst, *args),
        Inst::Ptr { op, dst, a, b } => kernel::ptr_op(cx, *op, *dst, *a, *b)?,
        Inst::CopyMemorySized {
            dst,
            src,
            size,
            size_bits,
        } => return kernel::copy_sized(cx, *dst, *src, *size, *size_bits),
        Inst::Ocl { op, ty, dst, args } => opencl::ocl(cx, *op, *ty, *dst, *args),
    }
    Ok(())
}
