//! Jump point search for uniform-cost 8-connected grids without corner cutting (a diagonal
//! step needs both orthogonal neighbours free), as an option beside plain A*.
//!
//! Straight runs stop where a side cell opens up behind a wall (a forced neighbour); diagonal
//! runs stop where either of their straight sub-runs finds a jump point; nodes are expanded
//! only at jump points, so open areas cost almost nothing. The open list, keys and tie rules are
//! the same as A*'s, and the lengths are the same (checked against Dijkstra in the tests).

use super::astar::{key, Heuristic, Moves, Outcome, Prepared, Query, RadixHeap, Solution};
use super::stamp::{self, Generation, CLOSED};

/// Reusable memory for jump point search.
#[derive(Default)]
pub struct Jps {
    memory: JumpMemory,
}

/// The memory of a jump point search (JPS or JPS+), reused from query to query: per cell the
/// cost so far, the parent jump point and the generation stamp; the open list; and the
/// generation and count of expansions of the query under way.
#[derive(Default)]
pub(super) struct JumpMemory {
    g: Vec<f64>,
    parent: Vec<u32>,
    stamp: Vec<u32>,
    generation: Generation,
    heap: RadixHeap,
    gen: u32,
    expanded: u64,
}

impl JumpMemory {
    /// Readies the memory for a grid of `n` cells (grows the arrays and starts a new
    /// generation of stamps, clearing them only when the counter wraps) and opens `start`
    /// with the estimate `h`.
    pub(super) fn begin(&mut self, n: usize, start: u32, h: f64) {
        if self.g.len() < n {
            self.g.resize(n, 0.0);
            self.parent.resize(n, 0);
            self.stamp.resize(n, 0);
        }
        let stamp = &mut self.stamp;
        self.gen = self.generation.advance(|| stamp.fill(0));
        self.heap.clear();
        self.expanded = 0;
        let s = start as usize;
        self.g[s] = 0.0;
        self.parent[s] = start;
        self.stamp[s] = self.gen;
        self.heap.push(key(h, 0.0), start);
    }

    /// The next open node, now closed, with its cost so far; `None` when none is left.
    #[inline(always)]
    pub(super) fn pop(&mut self) -> Option<(u32, f64)> {
        while let Some((_, node)) = self.heap.pop() {
            let c = node as usize;
            if stamp::closed(self.stamp[c], self.gen) {
                continue;
            }
            self.stamp[c] = self.gen | CLOSED;
            self.expanded += 1;
            return Some((node, self.g[c]));
        }
        None
    }

    /// The jump point `node` came from (the start is its own).
    #[inline(always)]
    pub(super) fn parent(&self, node: u32) -> u32 {
        self.parent[node as usize]
    }

    /// Offers jump point `j`, reached from `node` at cost `ng`: kept when it is new or cheaper
    /// this way and not closed, then opened with the estimate `h()` (read only then).
    #[inline(always)]
    pub(super) fn relax(&mut self, node: u32, j: u32, ng: f64, h: impl FnOnce() -> f64) {
        let ju = j as usize;
        let st = self.stamp[ju];
        if stamp::seen(st, self.gen) && (stamp::closed(st, self.gen) || self.g[ju] <= ng) {
            return;
        }
        self.stamp[ju] = self.gen;
        self.g[ju] = ng;
        self.parent[ju] = node;
        self.heap.push(key(ng + h(), ng), j);
    }

    /// The outcome of a search that closed the goal `node` at cost `g`.
    pub(super) fn reached(&self, grid: &Prepared, node: u32, g: f64) -> Outcome {
        Outcome {
            solution: Some(Solution {
                cost: g,
                path: fill_path(grid, &self.parent, node),
            }),
            expanded: self.expanded,
        }
    }

    /// The outcome of a search that ran out of open nodes.
    pub(super) fn unreachable(&self) -> Outcome {
        Outcome {
            solution: None,
            expanded: self.expanded,
        }
    }
}

/// The heuristic a jump point search uses for `q`'s: Manhattan overestimates on eight
/// directions, so it is octile there.
pub(super) fn heuristic(q: &Query) -> Heuristic {
    match q.heuristic {
        Heuristic::Manhattan => Heuristic::Octile,
        h => h,
    }
}

/// The directions to try from `c` (cells of a grid `w` wide), reached from `p`: all eight
/// from the start (its own parent), else those the arrival direction leaves unpruned. Returns
/// them and how many there are.
#[inline(always)]
pub(super) fn directions(c: i64, p: i64, w: i64) -> ([(i64, i64); 8], usize) {
    const ALL: [(i64, i64); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut dirs = ALL;
    if p == c {
        return (dirs, 8);
    }
    let (dx, dy) = ((c % w - p % w).signum(), (c / w - p / w).signum());
    let n = if dx != 0 && dy != 0 {
        dirs[..3].copy_from_slice(&[(dx, 0), (0, dy), (dx, dy)]);
        3
    } else if dx != 0 {
        dirs[..5].copy_from_slice(&[(dx, 0), (dx, 1), (dx, -1), (0, 1), (0, -1)]);
        5
    } else {
        dirs[..5].copy_from_slice(&[(0, dy), (1, dy), (-1, dy), (1, 0), (-1, 0)]);
        5
    };
    (dirs, n)
}

/// One query's grid as the scans see it: a cell is free where `cells` is not 0.
struct Scan<'a> {
    cells: &'a [u8],
    /// The row stride.
    w: i64,
    goal: i64,
}

impl Scan<'_> {
    #[inline(always)]
    fn walk(&self, c: i64) -> bool {
        self.cells[c as usize] != 0
    }

    /// Straight run from `c` in step `d` (±1 or ±w); `side` is the perpendicular step. Stops
    /// on the goal or on a cell with a forced neighbour; `None` at a wall.
    #[inline(always)]
    fn straight(&self, mut c: i64, d: i64, side: i64) -> Option<i64> {
        loop {
            if !self.walk(c) {
                return None;
            }
            if c == self.goal {
                return Some(c);
            }
            if (self.walk(c + side) && !self.walk(c - d + side))
                || (self.walk(c - side) && !self.walk(c - d - side))
            {
                return Some(c);
            }
            c += d;
        }
    }

    /// Diagonal run from `c` in direction (dx, dy): stops where a straight sub-run finds
    /// something (or on the goal); `None` at a wall or a corner it may not cut.
    #[inline(always)]
    fn diagonal(&self, c: i64, dx: i64, dy: i64) -> Option<i64> {
        let w = self.w;
        let step = dx + dy * w;
        let mut x = c + step;
        loop {
            if !self.walk(x) {
                return None;
            }
            if x == self.goal
                || self.straight(x + dx, dx, w).is_some()
                || self.straight(x + dy * w, dy * w, 1).is_some()
            {
                return Some(x);
            }
            if !(self.walk(x + dx) && self.walk(x + dy * w)) {
                return None;
            }
            x += step;
        }
    }

    /// The jump point from `c` in direction (dx, dy), if any.
    #[inline(always)]
    fn jump(&self, c: i64, dx: i64, dy: i64) -> Option<i64> {
        let w = self.w;
        if dx != 0 && dy != 0 {
            if !(self.walk(c + dx) && self.walk(c + dy * w)) {
                return None;
            }
            self.diagonal(c, dx, dy)
        } else if dx != 0 {
            self.straight(c + dx, dx, w)
        } else {
            self.straight(c + dy * w, dy * w, 1)
        }
    }
}

impl Jps {
    /// Empty memory.
    pub fn new() -> Jps {
        Jps::default()
    }

    /// Solves `q` (moves `Eight` or `EightInt`, no energy budget) on a prepared grid.
    pub fn solve(&mut self, grid: &Prepared, q: &Query) -> Outcome {
        debug_assert!(q.moves != Moves::Four && q.energy.is_none());
        let (straight, diagonal) = q.moves.costs();
        let w = grid.stride as i64;
        let (gx, gy) = (q.goal.0 as i64, q.goal.1 as i64);
        let scan = Scan {
            cells: &grid.cells,
            w,
            goal: grid.at(q.goal.0, q.goal.1) as i64,
        };
        let heuristic = heuristic(q);
        let h = |c: i64| {
            let (x, y) = (c % w - 1, c / w - 1);
            heuristic.estimate(q.moves, (x - gx).abs() as f64, (y - gy).abs() as f64)
        };
        let start = grid.at(q.start.0, q.start.1) as i64;
        let m = &mut self.memory;
        m.begin(grid.cells.len(), start as u32, h(start));
        while let Some((node, g)) = m.pop() {
            let c = node as i64;
            if c == scan.goal {
                return m.reached(grid, node, g);
            }
            let (dirs, nd) = directions(c, m.parent(node) as i64, w);
            for &(dx, dy) in &dirs[..nd] {
                let Some(j) = scan.jump(c, dx, dy) else {
                    continue;
                };
                let steps = ((j % w) - (c % w)).abs().max((j / w - c / w).abs()) as f64;
                let diag = dx != 0 && dy != 0;
                let ng = g + steps * if diag { diagonal } else { straight };
                m.relax(node, j as u32, ng, || h(j));
            }
        }
        m.unreachable()
    }
}

/// Cells from the start to `end` following `parent` links between jump points (the start is
/// its own parent), filling in the unit steps between them (each link is straight or diagonal).
fn fill_path(grid: &Prepared, parent: &[u32], end: u32) -> Vec<(usize, usize)> {
    let w = grid.stride as i64;
    // Walked back from the end, one cell at a time between jump points, then reversed.
    let (mut x, mut y) = (end as i64 % w, end as i64 / w);
    let mut out = vec![((x - 1) as usize, (y - 1) as usize)];
    let mut c = end;
    while parent[c as usize] != c {
        c = parent[c as usize];
        let (px, py) = (c as i64 % w, c as i64 / w);
        let (dx, dy) = ((px - x).signum(), (py - y).signum());
        while (x, y) != (px, py) {
            x += dx;
            y += dy;
            out.push(((x - 1) as usize, (y - 1) as usize));
        }
    }
    out.reverse();
    out
}
