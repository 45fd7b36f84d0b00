//! A* on a `Grid`: flat arrays indexed by state, generation counters instead of clearing
//! between queries, and ties broken towards the deeper node, the same way every run.
//!
//! The open list is a radix heap on f (monotone under a consistent heuristic).
//!
//! Contract: step costs are positive and the heuristic never overestimates and is consistent
//! (`Heuristic::admissible_for` refuses the combinations that would overestimate), so the first
//! time the goal is taken from the open list its cost is optimal. With an energy budget the
//! state is (cell, energy left); a state is dropped when an earlier-expanded state on the same
//! cell had at least as much energy (it had no higher cost, since states on one cell leave the
//! open list in order of cost), so a cell is expanded again only with more energy.

use super::grid::{Cell, Grid};

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
    last: u64,
    len: usize,
}

impl RadixHeap {
    pub(crate) fn clear(&mut self) {
        if self.buckets.is_empty() {
            self.buckets = vec![Vec::new(); 65];
        }
        self.buckets.iter_mut().for_each(Vec::clear);
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
        self.len += 1;
    }

    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<(u64, u32)> {
        if self.len == 0 {
            return None;
        }
        if self.buckets[0].is_empty() {
            let i = (1..65).find(|&i| !self.buckets[i].is_empty())?;
            let mut moved = std::mem::take(&mut self.buckets[i]);
            self.last = moved.iter().map(|&(k, _)| k).min().unwrap_or(self.last);
            for (k, st) in moved.drain(..) {
                let b = self.bucket(k);
                self.buckets[b].push((k, st));
            }
            self.buckets[i] = moved;
        }
        self.len -= 1;
        self.buckets[0].pop()
    }
}

/// The queue key: f, less a hair per unit of g so that among equal f the deeper node leaves
/// first (the hair, at most 2e-6, is far below the smallest gap between distinct path costs on
/// these maps). Non-negative floats order like their bits.
#[inline(always)]
pub(crate) fn key(f: f64, g: f64) -> u64 {
    (f - g * 1e-9).max(0.0).to_bits()
}

/// A grid prepared for search: a border of walls around it, so no neighbour needs a bounds
/// check. Cell bytes: 0 wall, 1 free, 2 station.
pub struct Prepared {
    pub(crate) stride: usize,
    pub(crate) cells: Vec<u8>,
    width: usize,
    height: usize,
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
        Prepared {
            stride,
            cells,
            width: grid.width,
            height: grid.height,
        }
    }

    #[inline(always)]
    pub(crate) fn at(&self, x: usize, y: usize) -> usize {
        (y + 1) * self.stride + x + 1
    }
}

#[derive(Clone, Copy, Default)]
struct Slot {
    g: f64,
    parent: u32,
    stamp: u32,
}

/// Reusable search memory.
#[derive(Default)]
pub struct Solver {
    slots: Vec<Slot>,
    best_energy: Vec<u32>,
    energy_seen: Vec<u32>,
    generation: u32,
    heap: RadixHeap,
}

const CLOSED: u32 = 1 << 31;

/// Most states (cells × (T + 1)) an energy search may use.
pub const MAX_STATES: usize = 1 << 26;

impl Solver {
    /// An empty solver.
    pub fn new() -> Solver {
        Solver::default()
    }

    fn prepare(&mut self, states: usize, cells: usize) {
        if self.slots.len() < states {
            self.slots.resize(states, Slot::default());
        }
        if self.best_energy.len() < cells {
            self.best_energy.resize(cells, 0);
            self.energy_seen.resize(cells, 0);
        }
        self.generation = (self.generation + 1) & !CLOSED;
        if self.generation == 0 {
            self.slots.iter_mut().for_each(|s| s.stamp = 0);
            self.energy_seen.fill(0);
            self.generation = 1;
        }
        self.heap.clear();
    }

    /// Solves `q` on `grid` (prepares it first; use `solve_prepared` to reuse a preparation).
    pub fn solve(&mut self, grid: &Grid, q: &Query) -> Outcome {
        self.solve_prepared(&Prepared::new(grid), q)
    }

    /// Solves `q` on a prepared grid. The caller has checked start and goal (passable, inside)
    /// and the state count (`MAX_STATES`).
    pub fn solve_prepared(&mut self, grid: &Prepared, q: &Query) -> Outcome {
        let layers = q.energy.map_or(1, |t| t as usize + 1);
        self.prepare(grid.cells.len() * layers, grid.cells.len());
        let gen = self.generation;
        let (straight, diagonal) = q.moves.costs();
        let w = grid.stride as isize;
        let steps: [(isize, i64, i64); 8] = [
            (-w, 0, -1),
            (w, 0, 1),
            (-1, -1, 0),
            (1, 1, 0),
            (-w - 1, -1, -1),
            (-w + 1, 1, -1),
            (w - 1, -1, 1),
            (w + 1, 1, 1),
        ];
        let ndirs = if q.moves == Moves::Four { 4 } else { 8 };
        let (gx, gy) = (q.goal.0 as i64, q.goal.1 as i64);
        let h = |x: i64, y: i64| {
            q.heuristic
                .estimate(q.moves, (x - gx).abs() as f64, (y - gy).abs() as f64)
        };
        let top = q.energy.unwrap_or(0);
        let energy_mode = q.energy.is_some();
        let start_cell = grid.at(q.start.0, q.start.1);
        let start = (start_cell * layers + top as usize) as u32;
        self.slots[start as usize] = Slot {
            g: 0.0,
            parent: start,
            stamp: gen,
        };
        self.heap
            .push(key(h(q.start.0 as i64, q.start.1 as i64), 0.0), start);
        let goal_cell = grid.at(q.goal.0, q.goal.1);
        let mut expanded = 0;
        while let Some((_, state)) = self.heap.pop() {
            let s = state as usize;
            // Already expanded (the closed flag is the stamp's top bit). An entry left behind
            // by an improvement always leaves after the improved one, so this also drops it.
            if self.slots[s].stamp == gen | CLOSED {
                continue;
            }
            self.slots[s].stamp = gen | CLOSED;
            let g = self.slots[s].g;
            let (cell, energy) = if energy_mode {
                (s / layers, (s % layers) as u32)
            } else {
                (s, 0)
            };
            if energy_mode {
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
            if energy_mode && energy == 0 {
                continue;
            }
            let x = (cell % grid.stride) as i64 - 1;
            let y = (cell / grid.stride) as i64 - 1;
            for &(off, dx, dy) in &steps[..ndirs] {
                let ncell = (cell as isize + off) as usize;
                let kind = grid.cells[ncell];
                if kind == 0 {
                    continue;
                }
                let diag = dx != 0 && dy != 0;
                if diag
                    && (grid.cells[(cell as isize + dx as isize) as usize] == 0
                        || grid.cells[(cell as isize + dy as isize * w) as usize] == 0)
                {
                    continue;
                }
                let n = if energy_mode {
                    let ne = if kind == 2 { top } else { energy - 1 };
                    if self.energy_seen[ncell] == gen && self.best_energy[ncell] >= ne {
                        continue;
                    }
                    ncell * layers + ne as usize
                } else {
                    ncell
                };
                let ng = g + if diag { diagonal } else { straight };
                let slot = &mut self.slots[n];
                if (slot.stamp & !CLOSED) == gen && (slot.g <= ng || slot.stamp & CLOSED != 0) {
                    continue;
                }
                *slot = Slot {
                    g: ng,
                    parent: state,
                    stamp: gen,
                };
                self.heap.push(key(ng + h(x + dx, y + dy), ng), n as u32);
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
            let p = self.slots[state as usize].parent;
            if p == state {
                break;
            }
            state = p;
        }
        out.reverse();
        let _ = (grid.width, grid.height);
        out
    }
}
