//! The other legal results of a run, computed exactly by the engine: the module with
//! contraction sites fused or Fma instructions split ([`super::rewrite`]), the VALVE mixed dot
//! products under every accumulation model, and the inputs with subnormals flushed to zero.
//!
//! With k contraction (or Fma) sites, every combination is a legal program; spvx evaluates all
//! 2^k − 1 non-empty combinations up to [`MAX_COMBINED_SITES`] sites, and beyond that every
//! site alone and all together, recording that the rest was not evaluated (differences those
//! could explain are then undecided, not violations).

use super::provenance::ModuleFacts;
use super::rewrite::rewrite;
use super::spec::{Alternative, SpecJudge};
use super::verdict::{Freedom, Site};
use crate::ElemType;
use crate::device::Loaded;
use crate::module::LoadedModule;
use crate::plan::RunPlan;
use spvx_exec::CompileOptions;
use spvx_exec::{Resources, RunConfig};
use spvx_num::mixdot::{Model, ModelConfig};
use spvx_spirv::asm::AsmOptions;
use spvx_spirv::binary::to_bytes;
use std::collections::BTreeMap;

/// Up to this many sites, every combination is evaluated (2^3 − 1 = 7 runs).
pub const MAX_COMBINED_SITES: usize = 3;

/// The judge of a loaded plan: the module's facts for `loaded.entry`, and every alternative
/// the engine can compute from `inputs` (the run's input resources) under `config`.
pub fn judge_for(
    loaded: &Loaded,
    plan: &RunPlan,
    inputs: &Resources,
    config: &RunConfig,
) -> SpecJudge {
    let source = JudgedRun {
        module: &loaded.module,
        entry: &loaded.entry,
        compile: plan.compile_options(),
        groups: plan.groups,
        element_types: &loaded.element_types,
    };
    judge_of(&source, inputs, config)
}

/// What a judge needs of one dispatch: the module and entry point, how it is compiled, the
/// workgroups, and each buffer binding's element type (`LoadedModule::buffer_elements`).
pub struct JudgedRun<'a> {
    pub module: &'a LoadedModule,
    pub entry: &'a str,
    pub compile: CompileOptions,
    pub groups: [u32; 3],
    pub element_types: &'a BTreeMap<(u32, u32), ElemType>,
}

impl JudgedRun<'_> {
    /// The dispatch of `module` (the run's module or a variant of it) on `inputs` under `cfg`:
    /// the resources after it.
    pub fn run_module(
        &self,
        module: &LoadedModule,
        inputs: &Resources,
        cfg: &RunConfig,
    ) -> Result<Resources, String> {
        let compiled = module
            .compile(self.entry, &self.compile)
            .map_err(|e| e.to_string())?;
        let mut res = inputs.clone();
        compiled
            .run(&mut res, self.groups, cfg)
            .map_err(|e| e.to_string())?;
        Ok(res)
    }
}

/// The judge of one dispatch (a run plan's, an Amber `RUN`'s): the module's facts for the
/// entry point, and every alternative the engine can compute from `inputs` under `config`.
pub fn judge_of(source: &JudgedRun, inputs: &Resources, config: &RunConfig) -> SpecJudge {
    let facts = ModuleFacts::of(source.module.index(), source.entry);
    let mut judge = SpecJudge::new(facts);
    let run = |module: &LoadedModule, res: &Resources, cfg: &RunConfig| {
        source.run_module(module, res, cfg)
    };
    let cfg = RunConfig {
        track_writers: false,
        strict: false,
        ..config.clone()
    };
    // Contractions and Fma sites, over every output binding, once each.
    let mut contractions: Vec<(Site, Site)> = Vec::new();
    let mut fmas: Vec<Site> = Vec::new();
    let mut mixdot = false;
    for f in judge.facts.outputs.values() {
        for c in &f.contractions {
            if !contractions.contains(c) {
                contractions.push(c.clone());
            }
        }
        for s in &f.fmas {
            if !fmas.contains(s) {
                fmas.push(s.clone());
            }
        }
        mixdot |= !f.mixdot.is_empty();
    }
    for subset in combinations(contractions.len(), &mut judge.unevaluated, "contraction") {
        let pairs: Vec<(Site, Site)> = subset.iter().map(|&i| contractions[i].clone()).collect();
        let ids: Vec<(u32, u32)> = pairs.iter().map(|(m, a)| (m.id, a.id)).collect();
        match variant(source.module, &ids, &[]).and_then(|m| run(&m, inputs, &cfg)) {
            Ok(outputs) => judge.alternatives.push(Alternative {
                freedom: Freedom::Contraction(pairs),
                outputs,
            }),
            Err(e) => judge.unevaluated.push(format!(
                "the contracted variant could not be evaluated: {e}"
            )),
        }
    }
    for subset in combinations(fmas.len(), &mut judge.unevaluated, "Fma") {
        let sites: Vec<Site> = subset.iter().map(|&i| fmas[i].clone()).collect();
        let ids: Vec<u32> = sites.iter().map(|s| s.id).collect();
        match variant(source.module, &[], &ids).and_then(|m| run(&m, inputs, &cfg)) {
            Ok(outputs) => judge.alternatives.push(Alternative {
                freedom: Freedom::UnfusedFma(sites),
                outputs,
            }),
            Err(e) => judge.unevaluated.push(format!(
                "the unfused Fma variant could not be evaluated: {e}"
            )),
        }
    }
    if mixdot {
        for model in Model::ALL {
            for (fin, fout) in [(false, false), (true, false), (false, true), (true, true)] {
                let m = ModelConfig {
                    model,
                    flush_input_denormals: fin,
                    flush_output_denormals: fout,
                    ..config.mixdot
                };
                if m == config.mixdot {
                    continue;
                }
                let c = RunConfig {
                    mixdot: m,
                    ..cfg.clone()
                };
                let mut name = model.name().to_string();
                if fin {
                    name.push_str(", subnormal inputs flushed");
                }
                if fout {
                    name.push_str(", subnormal results flushed");
                }
                match run(source.module, inputs, &c) {
                    Ok(outputs) => judge.alternatives.push(Alternative {
                        freedom: Freedom::MixdotModel(name),
                        outputs,
                    }),
                    Err(e) => judge
                        .unevaluated
                        .push(format!("the '{name}' model could not be evaluated: {e}")),
                }
            }
        }
    }
    // Subnormal float inputs flushed to zero (where the width may be flushed).
    let mut flushed = inputs.clone();
    let mut widths = Vec::new();
    for (&(set, binding), &elem) in source.element_types {
        let Some(f) = elem.float_format() else {
            continue;
        };
        if !judge.facts.may_flush(elem.bits()) {
            continue;
        }
        if let Some(buf) = flushed.buffer_mut(set, binding)
            && flush_subnormals(buf, elem, f)
            && !widths.contains(&elem.bits())
        {
            widths.push(elem.bits());
        }
    }
    if let Some(&width) = widths.first()
        && let Ok(outputs) = run(source.module, &flushed, &cfg)
    {
        judge.alternatives.push(Alternative {
            freedom: Freedom::DenormalFlush {
                width,
                inputs: true,
            },
            outputs,
        });
    }
    judge
}

/// The module with the contraction sites `contract` fused and the Fma sites `unfuse` split.
fn variant(
    module: &LoadedModule,
    contract: &[(u32, u32)],
    unfuse: &[u32],
) -> Result<LoadedModule, String> {
    let (header, insts) = rewrite(module.index(), contract, unfuse)
        .ok_or_else(|| "a site is not the instruction it was found as".to_string())?;
    let bytes = to_bytes(&header, &insts);
    LoadedModule::from_bytes(
        format!("{} (variant)", module.name),
        &bytes,
        &AsmOptions::default(),
    )
    .map_err(|e| e.to_string())
}

/// The subsets of `0..k` to evaluate: all non-empty ones up to [`MAX_COMBINED_SITES`], else each
/// alone and all together (noting the rest in `unevaluated`).
fn combinations(k: usize, unevaluated: &mut Vec<String>, what: &str) -> Vec<Vec<usize>> {
    if k == 0 {
        return Vec::new();
    }
    if k <= MAX_COMBINED_SITES {
        return (1u32..(1 << k))
            .map(|mask| (0..k).filter(|i| mask & (1 << i) != 0).collect())
            .collect();
    }
    unevaluated.push(format!(
        "{k} {what} sites: only each alone and all together were evaluated, not the other {} combinations",
        (1u64 << k.min(63)) - 2 - k as u64
    ));
    let mut out: Vec<Vec<usize>> = (0..k).map(|i| vec![i]).collect();
    out.push((0..k).collect());
    out
}

/// Replaces every subnormal element of `buf` (elements of `elem`, format `f`) by zero of the same
/// sign; true when one was.
fn flush_subnormals(buf: &mut [u8], elem: ElemType, f: spvx_num::float::Format) -> bool {
    let n = elem.size();
    let mut any = false;
    for chunk in buf.chunks_mut(n) {
        if chunk.len() < n {
            break;
        }
        let bits = elem.bits_at(chunk, 0);
        if f.is_subnormal(bits) {
            let zero = f.zero(f.is_negative(bits));
            let mut out = Vec::with_capacity(n);
            elem.push_bytes(zero, &mut out);
            chunk.copy_from_slice(&out);
            any = true;
        }
    }
    any
}
