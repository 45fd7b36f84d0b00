//! The transposition table, shared by all search threads: 32-byte clusters of three entries,
//! so a table of `Hash` MiB takes `Hash` MiB (any size, power of two or not).
//!
//! A cluster is four atomic words: one data word per entry and one check word holding three
//! 21-bit check fields, one per entry. An entry's data word keeps the move, the score (mate
//! scores relative to the node, see `Score::to_tt`), the static evaluation, the depth, the bound
//! and the search's age; its check field is the key's low 21 bits XOR a hash of the data word.
//! The cluster index comes from the key's high bits (multiply-shift), so the check bits are
//! independent of it.
//!
//! Threads read and write the words with relaxed atomics (no data race), but a reader may see
//! the data word of one write beside the check field of another. A probe accepts an entry only
//! when its check field equals the probing key's bits XOR the hash of the data word it read, so
//! such a torn pair is rejected unless the hashes of two different data words agree on 21 bits
//! (probability 2⁻²¹ per torn read); a foreign key passes with probability 2⁻²¹ per entry. What
//! a false hit can do is bounded: the move is only used if it is legal, a score is a score.
//!
//! Replacement: the same position is overwritten unless a deeper exact entry would be lost;
//! otherwise the entry with the lowest `depth - 4·age distance` goes.

use crate::board::Move;
use crate::large::{AllocError, Large};
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

/// Bits of one check field.
const CHECK_BITS: u32 = 21;
const CHECK_MASK: u64 = (1 << CHECK_BITS) - 1;

/// The check field of an entry of `key` whose data word is `data`: the key's low bits (the
/// cluster index, taken from the high bits, does not use them) XOR the top bits of a
/// multiplicative hash of the data word.
#[inline(always)]
fn check_of(key: u64, data: u64) -> u64 {
    (key ^ (data.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - CHECK_BITS))) & CHECK_MASK
}

/// Entry `i`'s field of a check word.
#[inline(always)]
fn field(checks: u64, i: usize) -> u64 {
    (checks >> (CHECK_BITS as usize * i)) & CHECK_MASK
}

/// The fields of an entry's data word: move (bits 0–15), score (16–31), static evaluation
/// (32–47), depth (48–55) and flags (56–63: bound in bits 0–1, age 1–63 in bits 2–7, so a used
/// entry never has zero flags).
#[derive(Clone, Copy, Default)]
struct Fields {
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

    fn unpack(data: u64) -> Fields {
        Fields {
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            flags: (data >> 56) as u8,
        }
    }
}

/// Three entries in 32 bytes (one cache line holds two clusters, never half of one).
#[derive(Default)]
#[repr(C, align(32))]
struct Cluster {
    data: [AtomicU64; 3],
    checks: AtomicU64,
}

const _: () = assert!(std::mem::size_of::<Cluster>() == 32);

impl Cluster {
    /// The cluster's data words, and which of them belong to `key` (torn or foreign: no).
    #[inline(always)]
    fn load(&self, key: u64) -> ([u64; 3], [bool; 3]) {
        let data = [
            self.data[0].load(Ordering::Relaxed),
            self.data[1].load(Ordering::Relaxed),
            self.data[2].load(Ordering::Relaxed),
        ];
        let checks = self.checks.load(Ordering::Relaxed);
        let ours = std::array::from_fn(|i| {
            data[i] >> 56 != 0 && field(checks, i) == check_of(key, data[i])
        });
        (data, ours)
    }

    /// Writes entry `i` for `key`. Another thread writing the same entry at once may leave the
    /// data of one write beside the check of the other: a pair every probe rejects.
    #[inline(always)]
    fn save(&self, i: usize, key: u64, data: u64) {
        self.data[i].store(data, Ordering::Relaxed);
        let shift = CHECK_BITS as usize * i;
        let f = check_of(key, data) << shift;
        let _ = self
            .checks
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |w| {
                Some(w & !(CHECK_MASK << shift) | f)
            });
    }

    fn clear(&self) {
        for d in &self.data {
            d.store(0, Ordering::Relaxed);
        }
        self.checks.store(0, Ordering::Relaxed);
    }
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
    clusters: Large<Cluster>,
    age: AtomicU8,
}

impl Table {
    /// A table of at most `mb` MiB (at least one cluster). Aborts if the memory cannot be had;
    /// see `try_new`.
    pub fn new(mb: usize) -> Table {
        match Table::try_new(mb) {
            Ok(t) => t,
            Err(e) => panic!("cannot allocate a {mb} MiB hash table: {e}"),
        }
    }

    /// A table of at most `mb` MiB (at least one cluster), or the allocation's error.
    pub fn try_new(mb: usize) -> Result<Table, AllocError> {
        let n = ((mb << 20) / std::mem::size_of::<Cluster>()).max(1);
        let clusters = Large::try_from_fn(n, |_| Cluster::default())?;
        Ok(Table {
            clusters,
            age: AtomicU8::new(1),
        })
    }

    /// A table with no memory, for a searcher that is given one with each search (a helper
    /// thread between searches). It must not be probed or written.
    pub fn empty() -> Table {
        Table {
            clusters: Large::from_fn(0, |_| Cluster::default()),
            age: AtomicU8::new(1),
        }
    }

    /// Bytes taken by the entries.
    pub fn bytes(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>()
    }

    /// Empties the table.
    pub fn clear(&self) {
        for c in self.clusters.iter() {
            c.clear();
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
        let (data, ours) = self.clusters[self.index(key)].load(key);
        let i = ours.iter().position(|&o| o)?;
        let e = Fields::unpack(data[i]);
        Some(Hit {
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
        let age = self.age.load(Ordering::Relaxed);
        let c = &self.clusters[self.index(key)];
        let (data, ours) = c.load(key);
        let entries = data.map(Fields::unpack);
        let slot = match ours.iter().position(|&o| o) {
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
                let worth = |s: usize| {
                    let e = &entries[s];
                    let age_gap = (age.wrapping_sub(e.flags >> 2) & 63) as i32;
                    e.depth as i32 - 4 * age_gap
                };
                let mut best = 0;
                for s in 1..3 {
                    if worth(s) < worth(best) {
                        best = s;
                    }
                }
                best
            }
        };
        let keep_move = ours[slot] && mv.is_none();
        let fields = Fields {
            mv: if keep_move {
                entries[slot].mv
            } else {
                mv.map_or(0, Move::raw)
            },
            score,
            eval: eval.get().clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(0, 255) as u8,
            flags: (age << 2) | bound as u8,
        };
        c.save(slot, key, fields.pack());
    }

    /// Per mille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.clusters.len().min(1000);
        if n == 0 {
            return 0;
        }
        let age = self.age.load(Ordering::Relaxed);
        let used: usize = self.clusters[..n]
            .iter()
            .map(|c| {
                c.data
                    .iter()
                    .map(|d| (d.load(Ordering::Relaxed) >> 56) as u8)
                    .filter(|&flags| flags != 0 && flags >> 2 == age)
                    .count()
            })
            .sum();
        (used * 1000 / (n * 3)) as u32
    }

    /// Prefetch hint for `key`'s cluster (no effect on correctness).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.clusters.as_ptr().wrapping_add(self.index(key)) as *const i8;
            // SAFETY: prefetch is a hint that reads nothing and does not fault, whatever the
            // address; it is inside `clusters` whenever the table has memory.
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
        // Same cluster, other low bits: another position.
        assert!(t.probe(key ^ 1).is_none());
        assert!(t.probe(key ^ (1 << 20)).is_none());
        // A store without a move keeps the stored one.
        t.store(key, None, 5, Score::cp(12), 8, Bound::Exact);
        assert_eq!(t.probe(key).map(|h| (h.mv, h.score)), Some((Some(m), 5)));
        assert!(t.hashfull() <= 1000);
        t.clear();
        assert!(t.probe(key).is_none());
    }

    #[test]
    fn the_table_takes_at_most_its_size() {
        for mb in [1, 3, 16, 100, 257] {
            let t = Table::new(mb);
            assert!(t.bytes() <= mb << 20, "{mb} MiB: {} bytes", t.bytes());
            assert!(t.bytes() > (mb << 20) - 32, "{mb} MiB: {} bytes", t.bytes());
        }
        assert_eq!(Table::empty().bytes(), 0);
        assert_eq!(Table::empty().hashfull(), 0);
    }

    /// Three positions of one cluster live side by side; a fourth replaces the shallowest.
    #[test]
    fn three_entries_per_cluster() {
        let t = Table::new(1);
        // Same high bits (cluster), different low bits.
        let keys = [
            0xABCD_0000_0000_0001u64,
            0xABCD_0000_0000_0002,
            0xABCD_0000_0000_0003,
        ];
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, None, i as i16, Score::cp(0), 10 - i as i32, Bound::Exact);
        }
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(t.probe(k).map(|h| h.score), Some(i as i16));
        }
        t.store(
            0xABCD_0000_0000_0004,
            None,
            9,
            Score::cp(0),
            20,
            Bound::Exact,
        );
        assert_eq!(t.probe(0xABCD_0000_0000_0004).map(|h| h.score), Some(9));
        assert!(t.probe(keys[0]).is_some() && t.probe(keys[1]).is_some());
        assert!(t.probe(keys[2]).is_none(), "the shallowest entry goes");
    }
}

#[cfg(test)]
mod stress {
    use super::*;
    use std::sync::Arc;

    // The table tells positions apart by the key's low bits: fields depend on those alone.
    fn score_of(key: u64) -> i16 {
        key as i16
    }
    fn eval_of(key: u64) -> Score {
        Score::cp((key >> 5) as i16 as i32)
    }
    fn depth_of(key: u64) -> i32 {
        ((key >> 3) & 127) as i32
    }

    /// The data word of one write beside the check field of another (what a reader racing a
    /// writer can see) is no entry, not a wrong one.
    #[test]
    fn a_torn_pair_is_rejected() {
        let f = |score: i16, depth: u8| Fields {
            mv: 0,
            score,
            eval: 5,
            depth,
            flags: 4 | 3,
        };
        let key = 0x5555_0000_0ABC_0001u64;
        let c = Cluster::default();
        c.save(1, key, f(17, 9).pack());
        let (data, ours) = c.load(key);
        assert_eq!(ours, [false, true, false]);
        assert_eq!(Fields::unpack(data[1]).score, 17);
        // Every other data word (score, depth, flags, move or eval changed) under that check.
        let others = [
            f(-40, 9),
            f(17, 10),
            f(18, 9),
            Fields { mv: 1, ..f(17, 9) },
            Fields {
                eval: 6,
                ..f(17, 9)
            },
            Fields {
                flags: 8 | 3,
                ..f(17, 9)
            },
            Fields {
                flags: 4 | 2,
                ..f(17, 9)
            },
        ];
        for y in others {
            c.save(1, key, f(17, 9).pack());
            c.data[1].store(y.pack(), Ordering::Relaxed);
            assert_eq!(c.load(key).1, [false; 3], "torn pair accepted");
            // And the check of that write beside the first one's data.
            c.save(1, key, y.pack());
            c.data[1].store(f(17, 9).pack(), Ordering::Relaxed);
            assert_eq!(c.load(key).1, [false; 3], "torn pair accepted");
        }
        // A torn pair is accepted only when two data words hash alike on 21 bits: count the
        // pairs among many random data words that would pass.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut passed = 0;
        for _ in 0..1_000_000 {
            let (a, b) = (next() | 1 << 60, next() | 1 << 60);
            if a != b && check_of(key, a) == check_of(key, b) {
                passed += 1;
            }
        }
        assert!(
            passed < 5,
            "{passed} of 10^6 torn pairs pass (2^-21 expected)"
        );
    }

    /// Four threads write entries whose fields are functions of their key into one cluster
    /// while probing: every hit must be a whole entry of its key. (A race detector: with the
    /// check blind to the data word it fails about one run in two on a busy two-core machine.)
    #[test]
    fn concurrent_writers_never_show_a_torn_entry() {
        let t = Arc::new(Table::new(1));
        let handles: Vec<_> = (0..4u64)
            .map(|id| {
                let t = Arc::clone(&t);
                std::thread::spawn(move || {
                    let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ id;
                    let (mut hits, mut bad) = (0u64, 0u64);
                    for _ in 0..8_000_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        // 1 MiB = 2^15 clusters, index = key >> 49: one cluster, 8 positions
                        // (distinct in their low 21 bits), random bits 32–47 beside.
                        let low = ((x >> 40) & 7).wrapping_mul(0x0123_4567) & 0xFFFF_FFFF;
                        let key = (x & 0xFFFF) << 32 | low;
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
