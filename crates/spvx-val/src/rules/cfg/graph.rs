//! The control-flow graph of one function: blocks, successors from the terminators,
//! predecessors, reachability from the entry block, immediate dominators (Cooper, Harvey and
//! Kennedy, "A Simple, Fast Dominance Algorithm", 2001) and O(1) dominance queries through
//! pre/post numbers of the dominator tree.

use rustc_hash::FxHashMap as HashMap;
use spvx_spirv::index::{FunctionInfo, ModuleIndex};
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;

/// The label ids a terminator branches to (`OpBranch`, `OpBranchConditional`, `OpSwitch`).
pub fn targets(inst: &Instruction) -> Vec<Id> {
    match inst.opcode {
        Op::Branch => inst
            .operands
            .first()
            .and_then(|o| o.id())
            .into_iter()
            .collect(),
        Op::BranchConditional => inst
            .operands
            .iter()
            .skip(1)
            .take(2)
            .filter_map(|o| o.id())
            .collect(),
        Op::Switch => inst
            .operands
            .iter()
            .skip(1)
            .filter_map(|o| o.id())
            .collect(),
        _ => Vec::new(),
    }
}

/// One function's graph. Blocks are numbered by their order in the function.
pub struct Cfg {
    pub block_of_label: HashMap<Id, usize>,
    /// Label index (in the flat list) of each block, increasing.
    pub starts: Vec<usize>,
    pub succs: Vec<Vec<usize>>,
    pub preds: Vec<Vec<usize>>,
    pub reachable: Vec<bool>,
    /// Immediate dominator of each reachable block (the entry block is its own).
    pub idom: Vec<Option<usize>>,
    /// Reachable blocks in reverse post-order from the entry block.
    pub rpo: Vec<usize>,
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl Cfg {
    /// Builds the graph of `f`. Branches to ids that are not labels of `f` are left out (the
    /// caller reports them).
    pub fn build(ix: &ModuleIndex, f: &FunctionInfo) -> Cfg {
        Self::build_with(ix, f, &[])
    }

    /// The graph with `extra` edges (block numbers) added: with each header's edges to its
    /// merge block and continue target, its dominators are the *structural* dominators of
    /// SPIR-V §2.11 ("structurally dominates").
    pub fn build_with(ix: &ModuleIndex, f: &FunctionInfo, extra: &[(usize, usize)]) -> Cfg {
        let n = f.blocks.len();
        let block_of_label: HashMap<Id, usize> = f
            .blocks
            .iter()
            .enumerate()
            .map(|(i, b)| (b.label, i))
            .collect();
        let starts = f.blocks.iter().map(|b| b.label_index).collect();
        let mut succs = vec![Vec::new(); n];
        let mut preds = vec![Vec::new(); n];
        for (i, b) in f.blocks.iter().enumerate() {
            for t in targets(&ix.insts[b.terminator]) {
                if let Some(&j) = block_of_label.get(&t)
                    && !succs[i].contains(&j)
                {
                    succs[i].push(j);
                    preds[j].push(i);
                }
            }
        }
        for &(i, j) in extra {
            if i < n && j < n && !succs[i].contains(&j) {
                succs[i].push(j);
                preds[j].push(i);
            }
        }
        let mut cfg = Cfg {
            block_of_label,
            starts,
            succs,
            preds,
            reachable: vec![false; n],
            idom: vec![None; n],
            rpo: Vec::new(),
            pre: vec![0; n],
            post: vec![0; n],
        };
        if n > 0 {
            cfg.dominators();
        }
        cfg
    }

    /// The block holding instruction `index` (which must lie inside the function's blocks).
    pub fn block_at(&self, index: usize) -> Option<usize> {
        match self.starts.binary_search(&index) {
            Ok(b) => Some(b),
            Err(0) => None,
            Err(b) => Some(b - 1),
        }
    }

    /// Reverse post-order from the entry block (reachable blocks only).
    fn reverse_post_order(&mut self) -> Vec<usize> {
        let n = self.succs.len();
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        self.reachable[0] = true;
        while let Some(&mut (b, ref mut next)) = stack.last_mut() {
            if let Some(&s) = self.succs[b].get(*next) {
                *next += 1;
                if !self.reachable[s] {
                    self.reachable[s] = true;
                    stack.push((s, 0));
                }
            } else {
                order.push(b);
                stack.pop();
            }
        }
        order.reverse();
        order
    }

    fn dominators(&mut self) {
        let rpo = self.reverse_post_order();
        let mut rank = vec![usize::MAX; self.succs.len()];
        for (r, &b) in rpo.iter().enumerate() {
            rank[b] = r;
        }
        self.idom[0] = Some(0);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new: Option<usize> = None;
                for &p in &self.preds[b] {
                    if self.idom[p].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(cur) => self.intersect(&rank, p, cur),
                    });
                }
                if new.is_some() && self.idom[b] != new {
                    self.idom[b] = new;
                    changed = true;
                }
            }
        }
        self.number_tree();
        self.rpo = rpo;
    }

    fn intersect(&self, rank: &[usize], mut a: usize, mut b: usize) -> usize {
        while a != b {
            while rank[a] > rank[b] {
                a = self.idom[a].unwrap_or(0);
            }
            while rank[b] > rank[a] {
                b = self.idom[b].unwrap_or(0);
            }
        }
        a
    }

    /// Pre/post numbers of the dominator tree, for O(1) `dominates`.
    fn number_tree(&mut self) {
        let n = self.succs.len();
        let mut children = vec![Vec::new(); n];
        for b in 1..n {
            if let Some(d) = self.idom[b]
                && self.reachable[b]
            {
                children[d].push(b);
            }
        }
        let mut clock = 0u32;
        let mut stack = vec![(0usize, 0usize)];
        self.pre[0] = clock;
        while let Some(&mut (b, ref mut next)) = stack.last_mut() {
            if let Some(&c) = children[b].get(*next) {
                *next += 1;
                clock += 1;
                self.pre[c] = clock;
                stack.push((c, 0));
            } else {
                clock += 1;
                self.post[b] = clock;
                stack.pop();
            }
        }
    }

    /// True when block `a` dominates block `b` (both reachable; every block dominates itself).
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        self.reachable[a]
            && self.reachable[b]
            && self.pre[a] <= self.pre[b]
            && self.post[b] <= self.post[a]
    }
}
