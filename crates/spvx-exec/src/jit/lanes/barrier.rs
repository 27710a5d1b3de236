//! Workgroup barriers in the lanes function: the whole subgroup suspends as the interpreter's
//! does (every lane not finished must be active at the barrier), and resumes at the block its
//! lanes wait at.

use super::{FINISHED, LANES};
use crate::jit::lower::FnLower;
use crate::jit::status;
use crate::program::SegId;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, InstBuilder, types};
use cranelift_frontend::Switch;

const I64: types::Type = types::I64;

impl FnLower<'_, '_, '_> {
    /// A workgroup barrier ending the running block, continuing at block `next`: as the
    /// interpreter, every lane not finished must be active here (else it reports the barrier:
    /// bail); the active lanes' next block becomes `next`, every lane's next block goes to its
    /// state's resume word, the variables live at `next` to its register file, and the
    /// function returns `BARRIER` (the driver calls it again with `RESUME`).
    pub(super) fn lanes_barrier(&mut self, next: SegId) {
        self.enter_lane(0, None);
        let full = self.lane_state().full;
        let resume_word = self.lane_state().resume_word;
        let target = self.b.ins().iconst(I64, next as i64);
        if !full {
            let mut ok = None;
            for l in 0..LANES {
                let a = self.active(l);
                let n = self.lane_state().next[l as usize];
                let n = self.b.use_var(n);
                let done = self.b.ins().icmp_imm_s(IntCC::Equal, n, FINISHED);
                let fine = self.b.ins().bor(a, done);
                ok = Some(ok.map_or(fine, |x| self.b.ins().band(x, fine)));
            }
            let (stop, cont) = (self.b.create_block(), self.b.create_block());
            self.b.set_cold_block(stop);
            self.b.ins().brif(ok.expect("lanes"), cont, &[], stop, &[]);
            self.b.switch_to_block(stop);
            let st = self.b.ins().iconst(I64, status::NON_UNIFORM_BARRIER as i64);
            self.b.ins().return_(&[st]);
            self.b.switch_to_block(cont);
        }
        let live = self.live[next as usize].clone();
        for l in 0..LANES {
            let g = self.guard_of(l);
            self.enter_lane(l, None);
            let n = self.lane_state().next[l as usize];
            let v = match g {
                Some(a) => {
                    let old = self.b.use_var(n);
                    self.b.ins().select(a, target, old)
                }
                None => target,
            };
            self.store_word(resume_word, v);
            self.spill_set(&live);
        }
        self.enter_lane(0, None);
        self.return_status(status::BARRIER);
    }

    /// At a resume: each lane's next block from its state; the variables live at the block
    /// the waiting lanes continue at (the smallest next block: finished lanes have none),
    /// reloaded for every lane; then the dispatcher.
    pub(super) fn resume_lanes(&mut self) {
        let resume_word = self.lane_state().resume_word;
        let next = self.lane_state().next.clone();
        let mut min = None;
        for (l, n) in next.iter().enumerate() {
            self.enter_lane(l as u32, None);
            let v = self.load_word(resume_word);
            self.b.def_var(*n, v);
            min = Some(match min {
                None => v,
                Some(m) => {
                    let lt = self.b.ins().icmp(IntCC::UnsignedLessThan, v, m);
                    self.b.ins().select(lt, v, m)
                }
            });
        }
        self.enter_lane(0, None);
        let targets = crate::jit::analysis::barrier_continuations(self.f);
        let blocks: Vec<Block> = targets.iter().map(|_| self.b.create_block()).collect();
        let mut sw = Switch::new();
        for (t, blk) in targets.iter().zip(&blocks) {
            sw.set_entry(*t as u128, *blk);
        }
        sw.emit(self.b, min.expect("lanes"), self.bail);
        let dispatch = self.lane_state().dispatch;
        for (t, blk) in targets.into_iter().zip(blocks) {
            self.b.switch_to_block(blk);
            let live = self.live[t as usize].clone();
            for l in 0..LANES {
                self.enter_lane(l, None);
                self.reload_set(&live);
            }
            self.enter_lane(0, None);
            self.b.ins().jump(dispatch, &[]);
        }
    }
}
