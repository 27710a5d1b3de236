//! Speed of `validate` on a generated ~1 MB module (the goal: "validating a 1 MB module takes
//! well under a second").
//!
//! The module is a GLCompute shader with many functions, each a loop with a selection,
//! arithmetic, comparisons, conversions, composites, access chains, loads and stores, calls
//! between functions, and a storage buffer in the interface: every core rule has work to do.

use criterion::{Criterion, criterion_group, criterion_main};
use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_spirv::grammar::Version;
use spvx_spirv::instruction::Instruction;
use spvx_val::{Options, TargetEnv, errors, validate};
use std::fmt::Write;

/// One function body: a counted loop whose body holds `work` groups of instructions.
fn function(out: &mut String, f: usize, work: usize) {
    let _ = write!(
        out,
        "%f{f} = OpFunction %int None %fnii\n%p{f} = OpFunctionParameter %int\n%e{f} = OpLabel\n\
         %v{f} = OpVariable %pfs Function\nOpBranch %h{f}\n%h{f} = OpLabel\n\
         %i{f} = OpPhi %int %int_0 %e{f} %n{f} %c{f}\n%acc{f} = OpPhi %int %p{f} %e{f} %a{f}_{last} %c{f}\n\
         OpLoopMerge %m{f} %c{f} None\nOpBranch %b{f}\n%b{f} = OpLabel\n",
        last = work - 1
    );
    let mut prev = format!("%acc{f}");
    for k in 0..work {
        let _ = write!(
            out,
            "%x{f}_{k} = OpIAdd %int {prev} %int_1\n\
             %y{f}_{k} = OpIMul %int %x{f}_{k} %i{f}\n\
             %z{f}_{k} = OpShiftLeftLogical %int %y{f}_{k} %uint_1\n\
             %fl{f}_{k} = OpConvertSToF %float %z{f}_{k}\n\
             %g{f}_{k} = OpFMul %float %fl{f}_{k} %float_1\n\
             %vec{f}_{k} = OpCompositeConstruct %v2float %g{f}_{k} %fl{f}_{k}\n\
             %d{f}_{k} = OpDot %float %vec{f}_{k} %vec{f}_{k}\n\
             %q{f}_{k} = OpAccessChain %pff %v{f} %int_1 %uint_0\n\
             OpStore %q{f}_{k} %d{f}_{k}\n\
             %cmp{f}_{k} = OpSLessThan %bool %z{f}_{k} %int_1\n\
             %a{f}_{k} = OpSelect %int %cmp{f}_{k} %x{f}_{k} %y{f}_{k}\n"
        );
        prev = format!("%a{f}_{k}");
    }
    let _ = write!(
        out,
        "%t{f} = OpSLessThan %bool %i{f} %int_1\nOpSelectionMerge %j{f} None\n\
         OpBranchConditional %t{f} %s{f} %j{f}\n%s{f} = OpLabel\nOpBranch %j{f}\n%j{f} = OpLabel\n\
         OpBranch %c{f}\n%c{f} = OpLabel\n%n{f} = OpIAdd %int %i{f} %int_1\n\
         %k{f} = OpSLessThan %bool %n{f} %int_1\nOpBranchConditional %k{f} %h{f} %m{f}\n\
         %m{f} = OpLabel\nOpReturnValue %acc{f}\nOpFunctionEnd\n"
    );
}

/// Assembly text of a module of about `target_bytes` bytes of binary.
fn module_text(functions: usize, work: usize) -> String {
    let mut t = String::from(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
         OpEntryPoint GLCompute %main \"main\" %buf\nOpExecutionMode %main LocalSize 64 1 1\n\
         OpDecorate %S Block\nOpMemberDecorate %S 0 Offset 0\nOpDecorate %buf DescriptorSet 0\n\
         OpDecorate %buf Binding 0\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n\
         %int = OpTypeInt 32 1\n%uint = OpTypeInt 32 0\n%float = OpTypeFloat 32\n\
         %v2float = OpTypeVector %float 2\n%fnii = OpTypeFunction %int %int\n\
         %int_0 = OpConstant %int 0\n%int_1 = OpConstant %int 1\n%uint_0 = OpConstant %uint 0\n\
         %uint_1 = OpConstant %uint 1\n%float_1 = OpConstant %float 1\n\
         %FS = OpTypeStruct %int %v2float\n%pfs = OpTypePointer Function %FS\n\
         %pff = OpTypePointer Function %float\n\
         %S = OpTypeStruct %int\n%pS = OpTypePointer StorageBuffer %S\n\
         %pSi = OpTypePointer StorageBuffer %int\n%buf = OpVariable %pS StorageBuffer\n",
    );
    for f in 0..functions {
        function(&mut t, f, work);
    }
    t.push_str("%main = OpFunction %void None %fn\n%me = OpLabel\n%r0 = OpBitcast %int %uint_0\n");
    for f in 0..functions {
        let _ = writeln!(t, "%r{} = OpFunctionCall %int %f{f} %r{f}", f + 1);
    }
    let _ = write!(
        t,
        "%bp = OpAccessChain %pSi %buf %int_0\nOpStore %bp %r{functions}\nOpReturn\nOpFunctionEnd\n"
    );
    t
}

fn bench(c: &mut Criterion) {
    let text = module_text(200, 25);
    let asm = assemble(
        &text,
        &AsmOptions {
            version: Version::new(1, 6),
        },
    )
    .expect("the generated module assembles");
    let insts: Vec<Instruction> = asm.instructions().cloned().collect();
    let bytes = asm.bytes().len();
    let opts = Options {
        target_env: TargetEnv::parse("vulkan1.3").expect("vulkan1.3"),
        ..Options::default()
    };
    let found = errors(&asm.header, &insts, &opts);
    assert!(
        found.is_empty(),
        "the generated module is valid: {:?}",
        &found[..found.len().min(5)]
    );
    eprintln!(
        "validate bench: {bytes} bytes, {} instructions",
        insts.len()
    );
    let mut g = c.benchmark_group("validate");
    g.sample_size(20);
    g.bench_function(format!("generated_{}KiB", bytes / 1024), |b| {
        b.iter(|| validate(&asm.header, &insts, &opts).is_ok())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
