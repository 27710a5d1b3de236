//! The bindings a dispatch uses in place: a storage or uniform buffer or a tensor that the
//! module provably never writes (`BindingInfo::written`) is read from the caller's bytes
//! instead of being copied into the engine's memory, and nothing is copied back (its bytes
//! are unchanged either way). A binding another binding of the program shares (the same
//! set, binding and element), a run that records writers, and bytes that are not whole
//! aligned 32-bit words are copied as before.

use crate::config::RunConfig;
use crate::memory::SharedBuffer;
use crate::program::Program;
use crate::resources::{BindingKind, Resources};
use std::collections::HashMap;
use std::ptr::NonNull;

/// For each of the program's bindings, the caller's bytes to use in place (start, length).
pub(super) struct InPlace(Vec<Option<(NonNull<u8>, usize)>>);

impl InPlace {
    /// The never-written bindings of `prog` in `res`. The run must hold `res` (mutably) for as
    /// long as any buffer [`InPlace::buffer`] makes lives, and must neither read nor write
    /// those bindings' bytes meanwhile other than through such buffers.
    pub(super) fn find(prog: &Program, res: &mut Resources, cfg: &RunConfig) -> InPlace {
        let mut uses: HashMap<(u32, u32, u32), usize> = HashMap::new();
        for b in &prog.bindings {
            *uses
                .entry((b.set, b.binding, b.element_index()))
                .or_default() += 1;
        }
        let spans = prog
            .bindings
            .iter()
            .map(|b| {
                let key = (b.set, b.binding, b.element_index());
                if b.written || b.count == 0 || cfg.track_writers || uses[&key] > 1 {
                    return None;
                }
                let bytes = match b.kind {
                    BindingKind::StorageBuffer | BindingKind::UniformBuffer => {
                        res.buffer_element_mut(b.set, b.binding, b.element_index())?
                    }
                    BindingKind::Tensor => {
                        &mut res
                            .tensor_element_mut(b.set, b.binding, b.element_index())?
                            .data
                    }
                    BindingKind::PushConstant => return None,
                };
                NonNull::new(bytes.as_mut_ptr()).map(|p| (p, bytes.len()))
            })
            .collect();
        InPlace(spans)
    }

    /// Binding `index`'s buffer over the caller's bytes in place, when it is used in place
    /// and its bytes allow it (`SharedBuffer::in_place`).
    pub(super) fn buffer(&self, index: usize, read_only: bool) -> Option<SharedBuffer> {
        let (first, len) = self.0.get(index).copied().flatten()?;
        // SAFETY: `find` took the pointer from a unique borrow of the run's resources, which
        // the run holds mutably until its buffers are dropped (the contract of `find`); the
        // binding is no other binding's, and the run copies nothing in or back for it.
        unsafe {
            SharedBuffer::in_place(
                std::slice::from_raw_parts_mut(first.as_ptr(), len),
                read_only,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::InPlace;
    use crate::{CompileOptions, CompiledModule, Resources, RunConfig};
    use spvx_spirv::asm::{AsmOptions, assemble};

    /// `out[i] = a[i] + b[i] + c[i]`: `a` (binding 0) alone at its binding, `b` and `c` two
    /// variables sharing binding 2, `out` (binding 1) written.
    const MODULE: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %a %out %b %c
OpExecutionMode %main LocalSize 2 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 2
OpDecorate %c DescriptorSet 0
OpDecorate %c Binding 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%arr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %arr
%pbuf = OpTypePointer StorageBuffer %Buf
%pu = OpTypePointer StorageBuffer %uint
%pin = OpTypePointer Input %v3
%gid = OpVariable %pin Input
%a = OpVariable %pbuf StorageBuffer
%out = OpVariable %pbuf StorageBuffer
%b = OpVariable %pbuf StorageBuffer
%c = OpVariable %pbuf StorageBuffer
%u0 = OpConstant %uint 0
%main = OpFunction %void None %fn
%e = OpLabel
%id = OpLoad %v3 %gid
%i = OpCompositeExtract %uint %id 0
%pa = OpAccessChain %pu %a %u0 %i
%pb = OpAccessChain %pu %b %u0 %i
%pc = OpAccessChain %pu %c %u0 %i
%va = OpLoad %uint %pa
%vb = OpLoad %uint %pb
%vc = OpLoad %uint %pc
%s = OpIAdd %uint %va %vb
%t = OpIAdd %uint %s %vc
%po = OpAccessChain %pu %out %u0 %i
OpStore %po %t
OpReturn
OpFunctionEnd
"#;

    fn module() -> CompiledModule {
        let a = assemble(MODULE, &AsmOptions::default()).expect("assembles");
        CompiledModule::from_bytes(&a.bytes(), "main", &CompileOptions::default())
            .expect("compiles")
    }

    fn resources(a_bytes: usize) -> Resources {
        let mut r = Resources::new();
        r.set_buffer(0, 0, (1..=a_bytes as u8).collect());
        r.set_buffer(0, 1, vec![0; 8]);
        r.set_buffer(0, 2, vec![0x10; 8]);
        r
    }

    /// Which bindings `find` and `buffer` use in place (program binding order).
    fn in_place(m: &CompiledModule, res: &mut Resources, cfg: &RunConfig) -> Vec<bool> {
        let prog = m.program();
        let places = InPlace::find(prog, res, cfg);
        (0..prog.bindings.len())
            .map(|i| places.buffer(i, false).is_some_and(|b| b.is_in_place()))
            .collect()
    }

    /// Only the never-written binding no other variable shares is used in place; not when
    /// the run records writers, nor when its bytes are not whole words.
    #[test]
    fn only_unshared_never_written_whole_words_are_used_in_place() {
        let m = module();
        let prog = m.program();
        let at: Vec<(u32, bool)> = prog
            .bindings
            .iter()
            .map(|b| (b.binding, b.written))
            .collect();
        let expect: Vec<bool> = at.iter().map(|&(b, w)| b == 0 && !w).collect();
        assert_eq!(expect.iter().filter(|&&x| x).count(), 1, "{at:?}");
        let cfg = RunConfig::default();
        assert_eq!(in_place(&m, &mut resources(8), &cfg), expect);
        let tracking = RunConfig {
            track_writers: true,
            ..RunConfig::default()
        };
        assert!(!in_place(&m, &mut resources(8), &tracking).contains(&true));
        assert!(!in_place(&m, &mut resources(7), &cfg).contains(&true));
    }

    /// The run's result with the input in place is the sums (by hand), on the interpreter and
    /// the JIT, and the input comes back as it went in, also when unwritten bindings are
    /// copied back.
    #[test]
    fn runs_read_the_input_in_place_and_leave_it() {
        let m = module();
        for (jit, copy_back_unwritten) in [(false, false), (true, false), (true, true)] {
            let mut r = resources(8);
            let cfg = RunConfig {
                jit,
                copy_back_unwritten,
                ..RunConfig::default()
            };
            m.run(&mut r, [1, 1, 1], &cfg).expect("runs");
            // Words of a: 0x04030201, 0x08070605; b = c = 0x10101010.
            let out: Vec<u8> = [0x2423_2221u32, 0x2827_2625]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect();
            assert_eq!(r.buffer(0, 1), Some(&out[..]), "jit {jit}");
            assert_eq!(r.buffer(0, 0), Some(&[1, 2, 3, 4, 5, 6, 7, 8][..]));
            assert_eq!(r.buffer(0, 2), Some(&[0x10; 8][..]));
        }
    }
}
