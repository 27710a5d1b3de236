//! Operand classes: every id operand of the instruction families spvx-val checks, replaced in
//! turn by a type (`%uint`), a pointer (`%vu`, a Function variable of `%uint`) and an id
//! without a type (`%glsl`, an extended-instruction-set import; `%entry`, a label). The
//! independent answer is spirv-val 2025.5 on the same text: spvx must reject every variant
//! spirv-val rejects, and accept every variant it accepts (the few cases where they differ on
//! purpose are listed in `KNOWN_DIFFERENCES` with their reason).
//!
//! The base lines are valid (checked against both validators first), so each rejection comes
//! from the substituted operand.

mod support;

const PRE: &str = "OpCapability Shader
OpCapability GroupNonUniform
OpCapability GroupNonUniformArithmetic
OpCapability GroupNonUniformBallot
OpCapability GroupNonUniformShuffle
OpCapability GroupNonUniformVote
OpCapability GroupNonUniformClustered
OpCapability GroupNonUniformQuad
OpCapability DotProduct
OpCapability DotProductInput4x8BitPacked
%glsl = OpExtInstImport \"GLSL.std.450\"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\" %wg
OpExecutionMode %main LocalSize 4 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2bool = OpTypeVector %bool 2
%v2float = OpTypeVector %float 2
%v4uint = OpTypeVector %uint 4
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%uint_264 = OpConstant %uint 264
%int_1 = OpConstant %int 1
%float_1 = OpConstant %float 1
%true = OpConstantTrue %bool
%arr = OpTypeArray %uint %uint_4
%pfu = OpTypePointer Function %uint
%pfarr = OpTypePointer Function %arr
%pwu = OpTypePointer Workgroup %uint
%fnu = OpTypeFunction %uint %uint
%wg = OpVariable %pwu Workgroup
%helper = OpFunction %uint None %fnu
%hp = OpFunctionParameter %uint
%hl = OpLabel
OpReturnValue %hp
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%vu = OpVariable %pfu Function
%vu2 = OpVariable %pfu Function
%varr = OpVariable %pfarr Function
%u = OpLoad %uint %vu
%i = OpBitcast %int %u
%f = OpConvertUToF %float %u
%b = OpULessThan %bool %u %uint_3
%v2f = OpCompositeConstruct %v2float %f %f
%v2b = OpCompositeConstruct %v2bool %b %b
%v4u = OpCompositeConstruct %v4uint %u %u %u %u
";

const POST: &str = "OpReturn\nOpFunctionEnd\n";

/// Valid instructions, one per line; every `%` token after the result type is substituted.
const LINES: &[&str] = &[
    "%x = OpIAdd %uint %u %u",
    "%x = OpFAdd %float %f %f",
    "%x = OpSNegate %int %i",
    "%x = OpFNegate %float %f",
    "%x = OpUDiv %uint %u %u",
    "%x = OpShiftLeftLogical %uint %u %u",
    "%x = OpBitwiseAnd %uint %u %u",
    "%x = OpNot %uint %u",
    "%x = OpBitCount %uint %u",
    "%x = OpDot %float %v2f %v2f",
    "%x = OpVectorTimesScalar %v2float %v2f %f",
    "%x = OpAny %bool %v2b",
    "%x = OpIsNan %bool %f",
    "%x = OpLogicalAnd %bool %b %b",
    "%x = OpLogicalNot %bool %b",
    "%x = OpSelect %uint %b %u %u",
    "%x = OpIEqual %bool %u %u",
    "%x = OpFOrdLessThan %bool %f %f",
    "%x = OpConvertUToF %float %u",
    "%x = OpConvertFToS %int %f",
    "%x = OpBitcast %int %u",
    "%x = OpQuantizeToF16 %float %f",
    "%x = OpCompositeConstruct %v2float %f %f",
    "%x = OpCompositeExtract %float %v2f 0",
    "%x = OpCompositeInsert %v2float %f %v2f 1",
    "%x = OpVectorExtractDynamic %float %v2f %u",
    "%x = OpVectorInsertDynamic %v2float %v2f %f %u",
    "%x = OpVectorShuffle %v2float %v2f %v2f 0 3",
    "%x = OpCopyObject %uint %u",
    "%x = OpLoad %uint %vu",
    "OpStore %vu %u",
    "%x = OpAccessChain %pfu %varr %u",
    "OpCopyMemory %vu %vu2",
    "%x = OpAtomicIAdd %uint %wg %uint_2 %uint_0 %u",
    "%x = OpAtomicLoad %uint %wg %uint_2 %uint_0",
    "OpAtomicStore %wg %uint_2 %uint_0 %u",
    "OpControlBarrier %uint_2 %uint_2 %uint_264",
    "OpMemoryBarrier %uint_2 %uint_264",
    "%x = OpExtInst %float %glsl FAbs %f",
    "%x = OpExtInst %float %glsl Pow %f %f",
    "%x = OpExtInst %uint %glsl UMin %u %u",
    "%x = OpBitFieldUExtract %uint %u %u %u",
    "%x = OpBitReverse %uint %u",
    "%x = OpFunctionCall %uint %helper %u",
    "%x = OpUDot %uint %u %u PackedVectorFormat4x8Bit",
    "%x = OpGroupNonUniformElect %bool %uint_3",
    "%x = OpGroupNonUniformAll %bool %uint_3 %b",
    "%x = OpGroupNonUniformAllEqual %bool %uint_3 %u",
    "%x = OpGroupNonUniformBroadcast %uint %uint_3 %u %uint_0",
    "%x = OpGroupNonUniformBroadcastFirst %float %uint_3 %f",
    "%x = OpGroupNonUniformBallot %v4uint %uint_3 %b",
    "%x = OpGroupNonUniformInverseBallot %bool %uint_3 %v4u",
    "%x = OpGroupNonUniformBallotBitExtract %bool %uint_3 %v4u %u",
    "%x = OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce %v4u",
    "%x = OpGroupNonUniformBallotFindLSB %uint %uint_3 %v4u",
    "%x = OpGroupNonUniformShuffle %float %uint_3 %f %u",
    "%x = OpGroupNonUniformShuffleXor %uint %uint_3 %u %u",
    "%x = OpGroupNonUniformIAdd %uint %uint_3 ExclusiveScan %u",
    "%x = OpGroupNonUniformFMax %float %uint_3 Reduce %f",
    "%x = OpGroupNonUniformUMin %uint %uint_3 ClusteredReduce %u %uint_2",
    "%x = OpGroupNonUniformLogicalOr %bool %uint_3 Reduce %b",
    "%x = OpGroupNonUniformQuadSwap %uint %uint_3 %u %uint_1",
];

/// Ids substituted for each operand: a type, a pointer, two ids without a type.
const SUBSTITUTES: &[&str] = &["%uint", "%vu", "%glsl", "%entry"];

/// Variants where spvx-val and spirv-val 2025.5 differ on purpose: (line, position, substitute,
/// reason). Empty: no difference is accepted.
const KNOWN_DIFFERENCES: &[(&str, usize, &str, &str)] = &[];

/// The variants of `line`: (position of the substituted token, substitute, new line).
fn variants(line: &str) -> Vec<(usize, &'static str, String)> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let has_result = tokens.get(1) == Some(&"=");
    // Operands start after "%x = OpCode %type" or after "OpCode".
    let first = if has_result { 4 } else { 1 };
    let mut out = Vec::new();
    for pos in first..tokens.len() {
        if !tokens[pos].starts_with('%') {
            continue;
        }
        for sub in SUBSTITUTES {
            if tokens[pos] == *sub {
                continue;
            }
            let mut t = tokens.clone();
            t[pos] = sub;
            out.push((pos, *sub, t.join(" ")));
        }
    }
    out
}

fn module(line: &str) -> String {
    format!("{PRE}{line}\n{POST}")
}

#[test]
fn base_lines_are_valid() {
    let tools = support::tools_dir();
    for line in LINES {
        let text = module(line);
        let errors = support::validate_text(&text, "spv1.6");
        assert!(errors.is_empty(), "{line}: {errors:#?}");
        if let Some(dir) = &tools {
            let verdict = support::spirv_val(dir, &text, "spv1.6");
            assert!(
                matches!(verdict, Some((true, _))),
                "{line}: spirv-val {verdict:?}"
            );
        }
    }
}

#[test]
fn substituted_operands_agree_with_spirv_val() {
    let Some(dir) = support::tools_dir() else {
        return;
    };
    let cases: Vec<(&str, usize, &str, String)> = LINES
        .iter()
        .flat_map(|l| variants(l).into_iter().map(move |(p, s, v)| (*l, p, s, v)))
        .collect();
    assert!(cases.len() > 300, "{} variants", cases.len());
    let halves: Vec<&[(&str, usize, &str, String)]> = cases.chunks(cases.len() / 2 + 1).collect();
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = halves
            .iter()
            .enumerate()
            .map(|(k, chunk)| {
                let dir = &dir;
                std::thread::Builder::new()
                    .name(format!("operand-classes-{k}"))
                    .spawn_scoped(s, move || {
                        let mut bad = Vec::new();
                        for (line, pos, sub, variant) in chunk.iter() {
                            let text = module(variant);
                            let Some((oracle_ok, msg)) = support::spirv_val(dir, &text, "spv1.6")
                            else {
                                continue;
                            };
                            let errors = support::validate_text(&text, "spv1.6");
                            let ours_ok = errors.is_empty();
                            let known = KNOWN_DIFFERENCES
                                .iter()
                                .any(|(l, p, s, _)| l == line && p == pos && s == sub);
                            if ours_ok != oracle_ok && !known {
                                let ours: Vec<String> =
                                    errors.iter().map(|e| e.to_string()).collect();
                                bad.push(format!(
                                    "{variant}\n  spirv-val: {oracle_ok} {}\n  spvx-val: {ours_ok} {ours:?}",
                                    msg.lines().next().unwrap_or("")
                                ));
                            }
                        }
                        bad
                    })
                    .expect("spawn a test thread")
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("test thread"))
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
