//! The transposition table: buckets of three 10-byte entries in 32-byte clusters.
//!
//! An entry keeps the upper 32 bits of the Zobrist key (the bucket index comes from the key's
//! low bits, so together they check the position), the move, the score (mate scores relative to
//! the node, see `Score::to_tt`), the static evaluation, the depth, the bound and the search's age.
//! Replacement: the same position is overwritten unless a deeper exact entry would be lost;
//! otherwise the entry with the lowest `depth - 4·age distance` goes.

use crate::board::Move;
use crate::score::Score;

/// Kind of bound stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No usable score (only the move).
    None = 0,
    /// Score is an upper bound (fail low).
    Upper = 1,
    /// Score is a lower bound (fail high).
    Lower = 2,
    /// Exact score.
    Exact = 3,
}

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u32,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// bound in bits 0–1, age (1–63, so a used entry is never 0) in bits 2–7.
    flags: u8,
}

#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Cluster {
    entries: [Entry; 3],
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// Stored move, if any.
    pub mv: Option<Move>,
    /// Stored score (node-relative; convert with `Score::from_tt`).
    pub score: i16,
    /// Stored static evaluation.
    pub eval: Score,
    /// Stored depth.
    pub depth: i32,
    /// Stored bound.
    pub bound: Bound,
}

/// The table.
pub struct Table {
    clusters: Vec<Cluster>,
    age: u8,
}

impl Table {
    /// A table of about `mb` MiB.
    pub fn new(mb: usize) -> Table {
        let n = (mb.max(1) << 20) / std::mem::size_of::<Cluster>();
        Table {
            clusters: vec![Cluster::default(); n.max(1)],
            age: 1,
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.clusters.fill(Cluster::default());
        self.age = 1;
    }

    /// Marks the start of a new search (entries of older searches are replaced first).
    pub fn new_search(&mut self) {
        self.age = self.age % 63 + 1;
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.clusters.len() as u128) >> 64) as usize
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let check = (key >> 32) as u32;
        let c = &self.clusters[self.index(key)];
        c.entries
            .iter()
            .find(|e| e.key == check && e.flags != 0)
            .map(|e| Hit {
                mv: Move::from_raw(e.mv),
                score: e.score,
                eval: Score::cp(e.eval as i32),
                depth: e.depth as i32,
                bound: match e.flags & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    3 => Bound::Exact,
                    _ => Bound::None,
                },
            })
    }

    /// Stores an entry (score already converted with `Score::to_tt`).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i16,
        eval: Score,
        depth: i32,
        bound: Bound,
    ) {
        let check = (key >> 32) as u32;
        let age = self.age;
        let i = self.index(key);
        let c = &mut self.clusters[i];
        let slot = match c.entries.iter().position(|e| e.key == check) {
            Some(s) => {
                let e = &c.entries[s];
                // Keep a deeper exact entry of this search against a shallow non-exact one.
                if bound != Bound::Exact
                    && (e.flags >> 2) == age
                    && e.depth as i32 > depth + 3
                    && e.flags & 3 == Bound::Exact as u8
                {
                    return;
                }
                s
            }
            None => {
                let worth = |e: &Entry| {
                    let age_gap = (age.wrapping_sub(e.flags >> 2) & 63) as i32;
                    e.depth as i32 - 4 * age_gap
                };
                let mut best = 0;
                for s in 1..3 {
                    if worth(&c.entries[s]) < worth(&c.entries[best]) {
                        best = s;
                    }
                }
                best
            }
        };
        let e = &mut c.entries[slot];
        let keep_move = e.key == check && mv.is_none();
        e.key = check;
        if !keep_move {
            e.mv = mv.map_or(0, Move::raw);
        }
        e.score = score;
        e.eval = eval.get().clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        e.depth = depth.clamp(0, 255) as u8;
        e.flags = (age << 2) | bound as u8;
    }

    /// Per mille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.clusters.len().min(1000);
        let mut used = 0;
        for c in &self.clusters[..n] {
            used += c
                .entries
                .iter()
                .filter(|e| e.flags != 0 && (e.flags >> 2) == self.age)
                .count();
        }
        (used * 1000 / (n * 3)) as u32
    }

    /// Prefetch hint for `key`'s cluster (no effect on correctness).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.clusters[self.index(key)] as *const Cluster as *const i8;
            // SAFETY: prefetch is a hint; the pointer is to a live element of `clusters`.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn store_and_probe() {
        let mut t = Table::new(1);
        let m = Move::new(Square::new(7, 2).unwrap(), Square::new(4, 2).unwrap());
        let key = 0x1234_5678_9abc_def0;
        assert!(t.probe(key).is_none());
        t.store(key, Some(m), -29_990, Score::cp(12), 7, Bound::Lower);
        let h = t.probe(key).expect("stored");
        assert_eq!(h.mv, Some(m));
        assert_eq!(
            (h.score, h.eval, h.depth, h.bound),
            (-29_990, Score::cp(12), 7, Bound::Lower)
        );
        assert!(t.probe(key ^ (1 << 40)).is_none());
        assert!(t.hashfull() <= 1000);
        t.clear();
        assert!(t.probe(key).is_none());
    }
}
