//! The transposition table, shared by all search threads: clusters of three entries, each
//! entry two atomic words with a check word that rejects an entry torn by concurrent writes.
//!
//! An entry keeps the lower 32 bits of the Zobrist key (the bucket index comes from the key's
//! high bits, by multiply-shift, so all 32 check bits are independent of it), the move, the score (mate scores relative to
//! the node, see `Score::to_tt`), the static evaluation, the depth, the bound and the search's age.
//! Replacement: the same position is overwritten unless a deeper exact entry would be lost;
//! otherwise the entry with the lowest `depth - 4·age distance` goes.

use crate::board::Move;
use crate::score::Score;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

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

/// One entry as two atomic words: `data` packs the move (bits 0–15), score (16–31), static
/// evaluation (32–47), depth (48–55) and flags (56–63: bound in bits 0–1, age 1–63 in bits
/// 2–7, so a used entry never has zero flags); `check` is `data ^ (check_bits(key) << 32)`.
///
/// Threads read and write the words with relaxed atomics, so there is no data race, but a
/// reader may see the `check` of one write beside the `data` of another. Such a torn pair
/// is rejected: `check ^ data` must have zero low half (true only when both words come from
/// writes with the same low data half) and a high half equal to the key's check bits.
#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

const HIGH: u64 = 0xFFFF_FFFF_0000_0000;

/// The key bits an entry keeps: the low half, which the cluster index (taken from the high
/// bits) does not use, so a foreign key passes the check with probability 2⁻³².
#[inline(always)]
fn check_bits(key: u64) -> u32 {
    key as u32
}

/// The fields of an entry, unpacked.
#[derive(Clone, Copy, Default)]
struct Fields {
    key: u32,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    flags: u8,
}

impl Fields {
    fn pack(self) -> u64 {
        self.mv as u64
            | (self.score as u16 as u64) << 16
            | (self.eval as u16 as u64) << 32
            | (self.depth as u64) << 48
            | (self.flags as u64) << 56
    }
}

impl Entry {
    /// The entry's fields if its two words belong together (else an empty entry, key 0).
    #[inline(always)]
    fn load(&self) -> Fields {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        let key = check ^ data;
        if key & !HIGH != 0 {
            return Fields::default();
        }
        Fields {
            key: (key >> 32) as u32,
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            flags: (data >> 56) as u8,
        }
    }

    #[inline(always)]
    fn save(&self, f: Fields) {
        let data = f.pack();
        self.data.store(data, Ordering::Relaxed);
        self.check
            .store(((f.key as u64) << 32) ^ data, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.data.store(0, Ordering::Relaxed);
        self.check.store(0, Ordering::Relaxed);
    }
}

#[derive(Default)]
/// 48 bytes: a table of `mb` MiB keeps the cluster count (and so the index of every key)
/// of the former 32-byte packed layout and takes 1.5 × `mb` MiB.
#[repr(C, align(16))]
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

/// The table, shared by every search thread (`&self` everywhere but resizing).
pub struct Table {
    clusters: Vec<Cluster>,
    age: AtomicU8,
}

impl Table {
    /// A table of about `mb` MiB.
    pub fn new(mb: usize) -> Table {
        // As many clusters as the former 32-byte layout had: the same index for every key.
        let n = ((mb.max(1) << 20) / 32).max(1);
        let mut clusters = Vec::with_capacity(n);
        clusters.resize_with(n, Cluster::default);
        Table {
            clusters,
            age: AtomicU8::new(1),
        }
    }

    /// Empties the table.
    pub fn clear(&self) {
        for c in &self.clusters {
            for e in &c.entries {
                e.clear();
            }
        }
        self.age.store(1, Ordering::Relaxed);
    }

    /// Marks the start of a new search (entries of older searches are replaced first).
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store(a % 63 + 1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.clusters.len() as u128) >> 64) as usize
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let check = check_bits(key);
        let c = &self.clusters[self.index(key)];
        c.entries
            .iter()
            .map(Entry::load)
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

    /// Stores an entry (score already converted with `Score::to_tt`). Concurrent stores to
    /// one cluster may lose one of the writes; neither can corrupt an entry.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i16,
        eval: Score,
        depth: i32,
        bound: Bound,
    ) {
        let check = check_bits(key);
        let age = self.age.load(Ordering::Relaxed);
        let c = &self.clusters[self.index(key)];
        let entries = [
            c.entries[0].load(),
            c.entries[1].load(),
            c.entries[2].load(),
        ];
        let slot = match entries.iter().position(|e| e.key == check) {
            Some(s) => {
                let e = &entries[s];
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
                let worth = |e: &Fields| {
                    let age_gap = (age.wrapping_sub(e.flags >> 2) & 63) as i32;
                    e.depth as i32 - 4 * age_gap
                };
                let mut best = 0;
                for s in 1..3 {
                    if worth(&entries[s]) < worth(&entries[best]) {
                        best = s;
                    }
                }
                best
            }
        };
        let old = entries[slot];
        let keep_move = old.key == check && mv.is_none();
        c.entries[slot].save(Fields {
            key: check,
            mv: if keep_move {
                old.mv
            } else {
                mv.map_or(0, Move::raw)
            },
            score,
            eval: eval.get().clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(0, 255) as u8,
            flags: (age << 2) | bound as u8,
        });
    }

    /// Per mille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.clusters.len().min(1000);
        let age = self.age.load(Ordering::Relaxed);
        let mut used = 0;
        for c in &self.clusters[..n] {
            used += c
                .entries
                .iter()
                .map(Entry::load)
                .filter(|e| e.flags != 0 && (e.flags >> 2) == age)
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
            // SAFETY: prefetch is a hint that reads nothing; the pointer is to a live element
            // of `clusters`.
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
        let t = Table::new(1);
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
        // Same cluster, other low half: another position.
        assert!(t.probe(key ^ 1).is_none());
        assert!(t.hashfull() <= 1000);
        t.clear();
        assert!(t.probe(key).is_none());
    }
}

#[cfg(test)]
mod stress {
    use super::*;
    use std::sync::Arc;

    // The table tells positions apart by the key's low half: fields depend on that alone.
    fn score_of(key: u64) -> i16 {
        key as i16
    }
    fn eval_of(key: u64) -> Score {
        Score::cp((key >> 8) as i16 as i32)
    }
    fn depth_of(key: u64) -> i32 {
        ((key >> 3) & 127) as i32
    }

    /// A check word of one write beside the data word of another (what a reader racing a
    /// writer can see) is an empty entry, not a wrong one.
    #[test]
    fn a_torn_pair_is_rejected() {
        let f = |key: u32, score: i16| Fields {
            key,
            mv: 0,
            score,
            eval: 5,
            depth: 9,
            flags: 4 | 3,
        };
        let (a, b) = (f(0xABCD_0001, 17), f(0xABCD_0001, -40));
        let e = Entry::default();
        e.save(a);
        assert_eq!(e.load().score, 17);
        for (x, y) in [
            (a, b),
            (b, a),
            (a, f(0x1234_0000, 17)),
            (a, f(0xABCD_0001, 18)),
        ] {
            e.save(x);
            e.data.store(y.pack(), Ordering::Relaxed);
            let got = e.load();
            if x.pack() != y.pack() {
                assert_eq!((got.key, got.flags), (0, 0), "torn pair accepted");
            }
        }
    }

    /// Four threads write entries whose fields are functions of their key into a small table
    /// (every cluster contended) while probing: every hit must be a whole entry of its key.
    #[test]
    fn concurrent_writers_never_show_a_torn_entry() {
        let t = Arc::new(Table::new(1));
        // Few clusters' worth of keys: each cluster sees writes of many different keys.
        let handles: Vec<_> = (0..4u64)
            .map(|id| {
                let t = Arc::clone(&t);
                std::thread::spawn(move || {
                    let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ id;
                    let (mut hits, mut bad) = (0u64, 0u64);
                    for _ in 0..2_000_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        // 1 MiB = 2^15 clusters, index = key >> 49: 2 clusters, 8
                        // positions each (key low halves), random bits 32–48 beside.
                        let low = ((x >> 40) & 7).wrapping_mul(0x0123_4567) & 0xFFFF_FFFF;
                        let key = (x >> 63) << 49 | (x & 0xFFFF) << 32 | low;
                        if x & 1 == 0 {
                            let b = if x & 2 == 0 {
                                Bound::Lower
                            } else {
                                Bound::Exact
                            };
                            t.store(key, None, score_of(key), eval_of(key), depth_of(key), b);
                        } else if let Some(h) = t.probe(key) {
                            hits += 1;
                            if h.score != score_of(key)
                                || h.eval != eval_of(key)
                                || h.depth != depth_of(key)
                            {
                                bad += 1;
                            }
                        }
                    }
                    (hits, bad)
                })
            })
            .collect();
        let (mut hits, mut bad) = (0, 0);
        for h in handles {
            let (a, b) = h.join().expect("thread");
            hits += a;
            bad += b;
        }
        assert!(hits > 1000, "too few hits to mean anything: {hits}");
        assert_eq!(bad, 0, "{bad} torn entries among {hits} hits");
    }
}
