//! A* on a `Grid`: flat arrays indexed by state, generation counters instead of clearing
//! between queries, and ties broken the same way every run.
//!
//! The open list is a bucket queue on a fixed-point f (monotone under a consistent heuristic),
//! newest first among equal f; each cell carries a mask of the steps it may take, so the inner
//! loop tests no walls. Jump point search keeps a radix heap, as its steps have no bound.
//!
//! Contract: step costs are positive and the heuristic never overestimates and is consistent
//! (`Heuristic::admissible_for` refuses the combinations that would overestimate), so the first
//! time the goal is taken from the open list its cost is optimal. With an energy budget the
//! state is (cell, energy left); a state is dropped when an earlier-expanded state on the same
//! cell had at least as much energy (it had no higher cost, since states on one cell leave the
//! open list in order of cost), so a cell is expanded again only with more energy.

use super::grid::{Cell, Grid};
use super::stamp::{self, Generation, CLOSED};

/// Movement rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moves {
    /// Up, down, left, right; cost 1.
    Four,
    /// Also diagonals; cost 1 and √2; no corner cutting.
    Eight,
    /// Also diagonals; integer costs 10 and 14; no corner cutting.
    EightInt,
}

/// Heuristic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heuristic {
    /// |dx| + |dy| (4-connected only).
    Manhattan,
    /// max + (diagonal − 1)·min.
    Octile,
    /// Straight-line distance.
    Euclidean,
    /// 0: Dijkstra.
    Zero,
}

impl Moves {
    /// (straight, diagonal) step costs.
    pub fn costs(self) -> (f64, f64) {
        match self {
            Moves::Four => (1.0, f64::INFINITY),
            Moves::Eight => (1.0, std::f64::consts::SQRT_2),
            Moves::EightInt => (10.0, 14.0),
        }
    }

    /// The tightest admissible heuristic for this movement.
    pub fn default_heuristic(self) -> Heuristic {
        match self {
            Moves::Four => Heuristic::Manhattan,
            _ => Heuristic::Octile,
        }
    }
}

impl Heuristic {
    /// Whether the heuristic never overestimates under `moves`.
    pub fn admissible_for(self, moves: Moves) -> bool {
        !(self == Heuristic::Manhattan && moves != Moves::Four)
    }

    #[inline(always)]
    pub(crate) fn estimate(self, moves: Moves, dx: f64, dy: f64) -> f64 {
        let (s, d) = moves.costs();
        match self {
            Heuristic::Zero => 0.0,
            Heuristic::Manhattan => (dx + dy) * s,
            Heuristic::Euclidean => (dx * dx + dy * dy).sqrt() * s,
            Heuristic::Octile => {
                let (hi, lo) = if dx > dy { (dx, dy) } else { (dy, dx) };
                if moves == Moves::Four {
                    hi + lo
                } else {
                    (hi - lo) * s + lo * d
                }
            }
        }
    }
}

/// A query.
#[derive(Clone, Copy, Debug)]
pub struct Query {
    /// Start cell.
    pub start: (usize, usize),
    /// Goal cell.
    pub goal: (usize, usize),
    /// Movement rule.
    pub moves: Moves,
    /// Heuristic (must be admissible for `moves`).
    pub heuristic: Heuristic,
    /// Energy budget T: each step costs one unit, stations refill to T.
    pub energy: Option<u32>,
}

/// A found path.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// Total cost.
    pub cost: f64,
    /// Cells from start to goal inclusive.
    pub path: Vec<(usize, usize)>,
}

/// Result of a search.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The path, or `None` when the goal is unreachable.
    pub solution: Option<Solution>,
    /// States expanded.
    pub expanded: u64,
}

/// A monotone priority queue on `u64` keys (a radix heap): the key of every push is at least
/// the last key popped, which A* with a consistent heuristic guarantees for f (keys below it,
/// from rounding, are raised to it). Push and pop cost a few bit operations; equal keys leave in
/// a fixed order, so runs are deterministic.
#[derive(Default)]
pub(crate) struct RadixHeap {
    buckets: Vec<Vec<(u64, u32)>>,
    /// Bit b set when bucket b may hold entries.
    used: u128,
    last: u64,
    len: usize,
}

impl RadixHeap {
    pub(crate) fn clear(&mut self) {
        if self.buckets.is_empty() {
            self.buckets = vec![Vec::new(); 65];
        }
        while self.used != 0 {
            let b = self.used.trailing_zeros() as usize;
            self.used &= self.used - 1;
            self.buckets[b].clear();
        }
        self.last = 0;
        self.len = 0;
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        64 - (key ^ self.last).leading_zeros() as usize
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, key: u64, state: u32) {
        let key = key.max(self.last);
        let b = self.bucket(key);
        self.buckets[b].push((key, state));
        self.used |= 1 << b;
        self.len += 1;
    }

    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<(u64, u32)> {
        if self.len == 0 {
            return None;
        }
        if self.buckets[0].is_empty() {
            self.used &= !1;
            let i = self.used.trailing_zeros() as usize;
            let mut moved = std::mem::take(&mut self.buckets[i]);
            self.used &= !(1 << i);
            self.last = moved.iter().map(|&(k, _)| k).min().unwrap_or(self.last);
            for (k, st) in moved.drain(..) {
                let b = self.bucket(k);
                self.buckets[b].push((k, st));
                self.used |= 1 << b;
            }
            self.buckets[i] = moved;
        }
        self.len -= 1;
        self.buckets[0].pop()
    }
}

/// The open list of A*: a bucket queue on f in fixed point, a ring of buckets with a two-level
/// bitmap to find the next non-empty one, and ties in f taken last in, first out (the newest,
/// deepest node first). With a consistent heuristic a child's f exceeds the smallest open f
/// by at most twice the largest step cost, so a ring wider than that never wraps onto open
/// entries; keys below the current bucket (rounding) join the current bucket.
#[derive(Default)]
pub(crate) struct BucketQueue {
    /// Latest entry of each bucket (valid while the bucket's bit is set).
    head: Vec<u32>,
    /// One bit per bucket, and one bit per non-zero word of those.
    bits: Vec<u64>,
    summary: Vec<u64>,
    /// (state, next entry in the same bucket).
    entries: Vec<(u32, u32)>,
    /// Absolute bucket of the last pop.
    current: u64,
}

const RING_BITS: u32 = 18;
const RING: usize = 1 << RING_BITS;
const NIL: u32 = u32::MAX;

impl BucketQueue {
    /// Empties the queue; no key pushed will be below `first` by more than rounding.
    pub(crate) fn reset(&mut self, first: u64) {
        if self.head.is_empty() {
            self.head = vec![0; RING];
            self.bits = vec![0; RING / 64];
            self.summary = vec![0; RING / 4096];
        } else {
            // Clear only the words still marked (a query stops with entries left).
            for i in 0..self.summary.len() {
                let mut m = std::mem::take(&mut self.summary[i]);
                while m != 0 {
                    self.bits[i * 64 + m.trailing_zeros() as usize] = 0;
                    m &= m - 1;
                }
            }
        }
        self.entries.clear();
        self.current = first;
    }

    /// Fixed-point scale (bits) for f such that twice `max_step` spans under half the ring.
    pub(crate) fn scale_bits(max_step: f64) -> u32 {
        let mut s = 16;
        while s > 0 && (2.0 * max_step + 2.0) * (1u64 << s) as f64 >= (RING / 2) as f64 {
            s -= 1;
        }
        s
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, fkey: u64, state: u32) {
        let b = fkey.max(self.current) as usize & (RING - 1);
        let (w, bit) = (b / 64, 1u64 << (b % 64));
        let next = if self.bits[w] & bit == 0 {
            self.bits[w] |= bit;
            self.summary[w / 64] |= 1 << (w % 64);
            NIL
        } else {
            self.head[b]
        };
        self.head[b] = self.entries.len() as u32;
        self.entries.push((state, next));
    }

    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<u32> {
        let at = self.current as usize & (RING - 1);
        let b = self.next_bucket(at)?;
        self.current += ((b + RING - at) & (RING - 1)) as u64;
        let (state, next) = self.entries[self.head[b] as usize];
        if next == NIL {
            let w = b / 64;
            self.bits[w] &= !(1 << (b % 64));
            if self.bits[w] == 0 {
                self.summary[w / 64] &= !(1 << (w % 64));
            }
        } else {
            self.head[b] = next;
        }
        Some(state)
    }

    /// The first non-empty bucket at or after `at`, going round the ring.
    #[inline(always)]
    fn next_bucket(&self, at: usize) -> Option<usize> {
        let w = at / 64;
        let here = self.bits[w] & (!0u64 << (at % 64));
        if here != 0 {
            return Some(w * 64 + here.trailing_zeros() as usize);
        }
        // Words after w, then round from the start.
        let words = RING / 64;
        let first = |from: usize| -> Option<usize> {
            let s = from / 64;
            let m = self.summary[s] & (!0u64).checked_shl((from % 64) as u32).unwrap_or(0);
            if m != 0 {
                return Some(s * 64 + m.trailing_zeros() as usize);
            }
            (s + 1..self.summary.len())
                .find(|&i| self.summary[i] != 0)
                .map(|i| i * 64 + self.summary[i].trailing_zeros() as usize)
        };
        let word = if w + 1 < words { first(w + 1) } else { None }.or_else(|| first(0))?;
        Some(word * 64 + self.bits[word].trailing_zeros() as usize)
    }
}

/// The queue key: f in fixed point (2⁻¹⁶ units), then the deeper node first among equal f
/// (g in 2⁻⁴ units, saturating). The quantisation error, at most 2⁻¹⁶ per comparison, is far
/// below the 1e-4 tolerance of the benchmark lengths; integer costs (moves `4` and `8int`) are
/// exact.
#[inline(always)]
pub(crate) fn key(f: f64, g: f64) -> u64 {
    const G_MAX: u64 = (1 << 20) - 1;
    let fq = ((f * 65536.0 + 0.5) as u64).min((1 << 44) - 1);
    let gq = ((g * 16.0) as u64).min(G_MAX);
    fq << 20 | (G_MAX - gq)
}

/// The eight steps, as (dx, dy): the four straight ones first, so 4-connected movement uses the
/// low four bits of a cell's step mask.
pub(crate) const STEPS: [(i64, i64); 8] = [
    (0, -1),
    (0, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
];

/// A grid prepared for search: a border of walls around it, so no neighbour needs a bounds
/// check, and per cell the mask of the steps it may take (bit i for `STEPS[i]`: the target is
/// passable and, for a diagonal, both orthogonal neighbours are too). Cell bytes: 0 wall,
/// 1 free, 2 station.
pub struct Prepared {
    pub(crate) stride: usize,
    pub(crate) cells: Vec<u8>,
    pub(crate) steps: Vec<u8>,
}

impl Prepared {
    /// Prepares `grid`.
    pub fn new(grid: &Grid) -> Prepared {
        let stride = grid.width + 2;
        let mut cells = vec![0u8; stride * (grid.height + 2)];
        for y in 0..grid.height {
            for x in 0..grid.width {
                cells[(y + 1) * stride + x + 1] = match grid.cells[grid.index(x, y)] {
                    Cell::Wall => 0,
                    Cell::Free => 1,
                    Cell::Station => 2,
                };
            }
        }
        Prepared::from_cells(stride, cells)
    }

    /// A prepared grid from its bordered cells (`stride` per row, a wall border all round).
    pub(crate) fn from_cells(stride: usize, cells: Vec<u8>) -> Prepared {
        let w = stride as isize;
        let mut steps = vec![0u8; cells.len()];
        for c in 0..cells.len() {
            if cells[c] == 0 {
                continue;
            }
            let open = |dx: i64, dy: i64| {
                cells[(c as isize + dx as isize + dy as isize * w) as usize] != 0
            };
            for (i, &(dx, dy)) in STEPS.iter().enumerate() {
                if open(dx, dy) && (dx == 0 || dy == 0 || (open(dx, 0) && open(0, dy))) {
                    steps[c] |= 1 << i;
                }
            }
        }
        Prepared {
            stride,
            cells,
            steps,
        }
    }

    #[inline(always)]
    pub(crate) fn at(&self, x: usize, y: usize) -> usize {
        (y + 1) * self.stride + x + 1
    }
}

/// Reusable search memory: per state its cost, parent and generation stamp (whose top bit
/// marks it closed), so nothing is cleared between queries.
#[derive(Default)]
pub struct Solver {
    g: Vec<f64>,
    parent: Vec<u32>,
    stamp: Vec<u32>,
    best_energy: Vec<u32>,
    energy_seen: Vec<u32>,
    generation: Generation,
    heap: BucketQueue,
}

/// Most states (cells × (T + 1)) an energy search may use.
pub const MAX_STATES: usize = 1 << 26;

impl Solver {
    /// An empty solver.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Grows the memory for `states` states on `cells` cells and starts a new generation,
    /// which it returns.
    fn prepare(&mut self, states: usize, cells: usize) -> u32 {
        if self.g.len() < states {
            self.g.resize(states, 0.0);
            self.parent.resize(states, 0);
            self.stamp.resize(states, 0);
        }
        if self.best_energy.len() < cells {
            self.best_energy.resize(cells, 0);
            self.energy_seen.resize(cells, 0);
        }
        self.generation.advance(|| {
            self.stamp.fill(0);
            self.energy_seen.fill(0);
        })
    }

    /// Solves `q` on `grid` (prepares it first; use `solve_prepared` to reuse a preparation).
    pub fn solve(&mut self, grid: &Grid, q: &Query) -> Outcome {
        self.solve_prepared(&Prepared::new(grid), q)
    }

    /// Solves `q` on a prepared grid. The caller has checked start and goal (passable, inside)
    /// and the state count (`MAX_STATES`).
    pub fn solve_prepared(&mut self, grid: &Prepared, q: &Query) -> Outcome {
        if q.energy.is_some() {
            self.search::<true>(grid, q)
        } else {
            self.search::<false>(grid, q)
        }
    }

    fn search<const ENERGY: bool>(&mut self, grid: &Prepared, q: &Query) -> Outcome {
        let layers = if ENERGY {
            q.energy.map_or(1, |t| t as usize + 1)
        } else {
            1
        };
        let gen = self.prepare(grid.cells.len() * layers, grid.cells.len());
        let (straight, diagonal) = q.moves.costs();
        let max_step = if q.moves == Moves::Four {
            straight
        } else {
            diagonal
        };
        let scale = (1u64 << BucketQueue::scale_bits(max_step)) as f64;
        let fkey = |f: f64| (f * scale + 0.5) as u64;
        let w = grid.stride as isize;
        let offsets = STEPS.map(|(dx, dy)| dx as isize + dy as isize * w);
        let step_mask: u8 = if q.moves == Moves::Four { 0x0F } else { 0xFF };
        let (gx, gy) = (q.goal.0 as i64, q.goal.1 as i64);
        let h = |x: i64, y: i64| {
            q.heuristic
                .estimate(q.moves, (x - gx).abs() as f64, (y - gy).abs() as f64)
        };
        let top = q.energy.unwrap_or(0);
        let start_cell = grid.at(q.start.0, q.start.1);
        let start = (start_cell * layers + top as usize) as u32;
        self.g[start as usize] = 0.0;
        self.parent[start as usize] = start;
        self.stamp[start as usize] = gen;
        let first = fkey(h(q.start.0 as i64, q.start.1 as i64));
        self.heap.reset(first);
        self.heap.push(first, start);
        let goal_cell = grid.at(q.goal.0, q.goal.1);
        let mut expanded = 0;
        while let Some(state) = self.heap.pop() {
            let s = state as usize;
            // Already expanded. An entry left behind by an improvement always leaves after the
            // improved one, so this also drops it.
            if stamp::closed(self.stamp[s], gen) {
                continue;
            }
            self.stamp[s] = gen | CLOSED;
            let g = self.g[s];
            let (cell, energy) = if ENERGY {
                (s / layers, (s % layers) as u32)
            } else {
                (s, 0)
            };
            if ENERGY {
                // Dominated: this cell was expanded before with at least this much energy.
                if self.energy_seen[cell] == gen && self.best_energy[cell] >= energy {
                    continue;
                }
                self.energy_seen[cell] = gen;
                self.best_energy[cell] = energy;
            }
            expanded += 1;
            if cell == goal_cell {
                return Outcome {
                    solution: Some(Solution {
                        cost: g,
                        path: self.path(grid, state, layers),
                    }),
                    expanded,
                };
            }
            if ENERGY && energy == 0 {
                continue;
            }
            let x = (cell % grid.stride) as i64 - 1;
            let y = (cell / grid.stride) as i64 - 1;
            let mut mask = grid.steps[cell] & step_mask;
            while mask != 0 {
                let i = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let ncell = (cell as isize + offsets[i]) as usize;
                let n = if ENERGY {
                    let ne = if grid.cells[ncell] == 2 {
                        top
                    } else {
                        energy - 1
                    };
                    if self.energy_seen[ncell] == gen && self.best_energy[ncell] >= ne {
                        continue;
                    }
                    ncell * layers + ne as usize
                } else {
                    ncell
                };
                let ng = g + if i < 4 { straight } else { diagonal };
                let st = self.stamp[n];
                if stamp::seen(st, gen) && (stamp::closed(st, gen) || self.g[n] <= ng) {
                    continue;
                }
                self.g[n] = ng;
                self.parent[n] = state;
                self.stamp[n] = gen;
                let (dx, dy) = STEPS[i];
                self.heap.push(fkey(ng + h(x + dx, y + dy)), n as u32);
            }
        }
        Outcome {
            solution: None,
            expanded,
        }
    }

    fn path(&self, grid: &Prepared, mut state: u32, layers: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        loop {
            let cell = state as usize / layers;
            out.push((cell % grid.stride - 1, cell / grid.stride - 1));
            let p = self.parent[state as usize];
            if p == state {
                break;
            }
            state = p;
        }
        out.reverse();
        out
    }
}
