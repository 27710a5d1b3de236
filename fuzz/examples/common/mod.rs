//! What the generator examples share (`gen_stats`, `gen_kernel_stats`, `gen_tensor_stats`,
//! `gen_dump`; included as `mod common`): the count argument, pseudo-random inputs, tallies of
//! messages, how a run took the JIT, and the run settings of the statistics. Each example uses
//! a part of it.
#![allow(dead_code)]

use spvx_exec::{JitUse, RunConfig};
use spvx_spirv::module::Module;
use std::collections::BTreeMap;

/// The first argument as a number of inputs (300 when absent).
pub fn count_arg() -> u64 {
    std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
}

/// Pseudo-random bytes from a seed (a 64-bit LCG; each byte from the top of the state).
pub struct Lcg(pub u64);

impl Lcg {
    /// The next byte.
    pub fn byte(&mut self) -> u8 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u8
    }

    /// The next input: `base` bytes and four times the next byte more.
    pub fn input(&mut self, base: usize) -> Vec<u8> {
        let len = base + self.byte() as usize * 4;
        (0..len).map(|_| self.byte()).collect()
    }
}

/// Counts of messages, their digits dropped (so that alike messages add up) and cut to 120
/// characters.
#[derive(Default)]
pub struct Tally(BTreeMap<String, u32>);

impl Tally {
    pub fn add(&mut self, message: &str) {
        let s = message.chars().filter(|c| !c.is_ascii_digit());
        *self.0.entry(s.take(120).collect()).or_default() += 1;
    }

    /// Prints `title:` and the 15 most common messages, most common first.
    pub fn print(&self, title: &str) {
        println!("{title}:");
        let mut v: Vec<_> = self.0.iter().collect();
        v.sort_by_key(|e| std::cmp::Reverse(e.1));
        for (e, c) in v.iter().take(15) {
            println!("{c:5}  {e}");
        }
    }
}

/// Validates `m` for the universal environment; tallies its first error in `errors`, if any.
/// True when it is valid.
pub fn validates(m: &Module, errors: &mut Tally) -> bool {
    let errs = spvx_val::errors(&m.header, &m.to_instructions(), &Default::default());
    if let Some(e) = errs.first() {
        errors.add(&e.to_string());
    }
    errs.is_empty()
}

/// How a run took the JIT, as text (with the reason it did not run it).
pub fn jit_use(u: &JitUse) -> String {
    match u {
        JitUse::Off => "off".to_string(),
        JitUse::Ran => "ran".to_string(),
        JitUse::Unsupported(w) => format!("unsupported: {w}"),
        JitUse::FellBack(w) => format!("fell back: {w}"),
    }
}

/// The statistics' run settings: the engine checks' step and memory limits, one thread.
pub fn stats_config() -> RunConfig {
    RunConfig {
        step_limit: 20_000,
        memory_limit: 1 << 20,
        threads: Some(1),
        ..RunConfig::default()
    }
}
