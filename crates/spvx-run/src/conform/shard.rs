//! `--shard K/N`: the K-th of N parts of a sweep. The sweep's units ((form, chunk) pairs, in
//! sweep order) are numbered from 0; shard K takes the units whose number is K−1 modulo N.
//! Every unit's inputs depend only on the seed, the form and the chunk, so the N shards
//! together run exactly the units of the whole sweep, each once.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Part `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole sweep.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Whether unit number `unit` (0-based) belongs to this shard.
    pub fn takes(&self, unit: u64) -> bool {
        unit % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `K/N` with 1 ≤ K ≤ N.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard '{s}': expected K/N with 1 <= K <= N (e.g. 3/16)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
