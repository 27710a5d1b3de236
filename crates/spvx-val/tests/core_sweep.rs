//! A sweep of composite and memory instructions — `OpCompositeExtract`/`OpCompositeInsert`
//! over vectors, matrices, structs and arrays with index lists of length 0 to 2, and
//! `OpAccessChain` over struct and array variables with constant indices in and out of range —
//! whose verdicts must agree with spirv-val 2025.5 (the external reference; the sweep found the
//! "at least one index" rule). A fixed stride keeps it to about 200 modules.

mod support;

const PRELUDE: &str = "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v4float = OpTypeVector %float 4
%mat2 = OpTypeMatrix %v2float 2
%S = OpTypeStruct %int %v2float
%uint_2 = OpConstant %uint 2
%arr = OpTypeArray %v2float %uint_2
%float_1 = OpConstant %float 1
%int_1 = OpConstant %int 1
%c_v2float = OpConstantComposite %v2float %float_1 %float_1
%c_v4float = OpConstantComposite %v4float %float_1 %float_1 %float_1 %float_1
%c_mat2 = OpConstantComposite %mat2 %c_v2float %c_v2float
%c_S = OpConstantComposite %S %int_1 %c_v2float
%c_arr = OpConstantComposite %arr %c_v2float %c_v2float
%c_float = OpConstant %float 2
%c_int = OpConstant %int 2
%pS = OpTypePointer Function %S
%parr = OpTypePointer Function %arr
%pf = OpTypePointer Function %float
%pv2 = OpTypePointer Function %v2float
%pi = OpTypePointer Function %int
%main = OpFunction %void None %fn
%entry = OpLabel
%vS = OpVariable %pS Function
%varr = OpVariable %parr Function
";

fn cases() -> Vec<String> {
    let comps = ["v2float", "v4float", "mat2", "S", "arr"];
    let mut v = Vec::new();
    for c in comps {
        for r in ["float", "v2float", "int", "v4float"] {
            let mut lists: Vec<Vec<u32>> = vec![vec![]];
            lists.extend((0..5).map(|i| vec![i]));
            lists.extend((0..5).flat_map(|i| (0..5).map(move |j| vec![i, j])));
            for idx in lists {
                let idx: Vec<String> = idx.iter().map(u32::to_string).collect();
                v.push(format!(
                    "%x = OpCompositeExtract %{r} %c_{c} {}",
                    idx.join(" ")
                ));
            }
        }
        for o in ["float", "v2float", "int"] {
            for idx in ["", "0", "1", "2", "0 1", "1 1", "1 0 0"] {
                v.push(format!("%x = OpCompositeInsert %{c} %c_{o} %c_{c} {idx}"));
            }
        }
    }
    for (base, ptrs) in [
        ("vS", &["pS", "pi", "pv2", "pf"][..]),
        ("varr", &["parr", "pv2", "pf"][..]),
    ] {
        for p in ptrs {
            for idx in [
                "",
                "%int_1",
                "%c_int",
                "%int_1 %int_1",
                "%c_int %c_int",
                "%int_1 %c_int %int_1",
            ] {
                v.push(format!("%x = OpAccessChain %{p} %{base} {idx}"));
            }
        }
    }
    v
}

#[test]
fn composite_and_access_chain_sweep_agrees_with_spirv_val() {
    let Some(dir) = support::tools_dir() else {
        eprintln!("spirv-val not found: comparison skipped");
        return;
    };
    let all = cases();
    assert!(all.len() > 700, "sweep too small: {}", all.len());
    let mut failures = Vec::new();
    let mut compared = 0;
    for body in all.iter().step_by(4) {
        let text = format!("{PRELUDE}{body}\nOpReturn\nOpFunctionEnd\n");
        let ours = support::validate_text(&text, "spv1.6").is_empty();
        if let Some((theirs, msg)) = support::spirv_val(&dir, &text, "spv1.6") {
            compared += 1;
            if theirs != ours {
                failures.push(format!("{body}: spvx {ours}, spirv-val {theirs}: {msg}"));
            }
        }
    }
    assert!(compared > 150, "too few modules compared: {compared}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
