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
    g: Vec<f64>,
    parent: Vec<u32>,
    stamp: Vec<u32>,
    generation: Generation,
    heap: RadixHeap,
}

/// Readies the memory of a jump point search (JPS or JPS+) for a grid of `n` cells: grows the
/// arrays and starts a new generation of stamps (clearing them only when the counter wraps).
/// Returns the generation.
pub(super) fn begin(
    g: &mut Vec<f64>,
    parent: &mut Vec<u32>,
    stamp: &mut Vec<u32>,
    generation: &mut Generation,
    n: usize,
) -> u32 {
    if g.len() < n {
        g.resize(n, 0.0);
        parent.resize(n, 0);
        stamp.resize(n, 0);
    }
    generation.advance(|| stamp.fill(0))
}

impl Jps {
    /// Empty memory.
    pub fn new() -> Jps {
        Jps::default()
    }

    /// Solves `q` (moves `Eight` or `EightInt`, no energy budget) on a prepared grid.
    pub fn solve(&mut self, grid: &Prepared, q: &Query) -> Outcome {
        debug_assert!(q.moves != Moves::Four && q.energy.is_none());
        let gen = begin(
            &mut self.g,
            &mut self.parent,
            &mut self.stamp,
            &mut self.generation,
            grid.cells.len(),
        );
        self.heap.clear();
        let (straight, diagonal) = q.moves.costs();
        let w = grid.stride as i64;
        let walk = |c: i64| grid.cells[c as usize] != 0;
        let (gx, gy) = (q.goal.0 as i64, q.goal.1 as i64);
        let goal = grid.at(q.goal.0, q.goal.1) as i64;
        let heuristic = match q.heuristic {
            Heuristic::Manhattan => Heuristic::Octile,
            h => h,
        };
        let h = |c: i64| {
            let (x, y) = (c % w - 1, c / w - 1);
            heuristic.estimate(q.moves, (x - gx).abs() as f64, (y - gy).abs() as f64)
        };
        let start = grid.at(q.start.0, q.start.1) as i64;
        self.g[start as usize] = 0.0;
        self.parent[start as usize] = start as u32;
        self.stamp[start as usize] = gen;
        self.heap.push(key(h(start), 0.0), start as u32);
        let mut expanded = 0;
        // Straight run from `c` in step `d` (±1 or ±w); `side` is the perpendicular step.
        let run_straight = |mut c: i64, d: i64, side: i64| -> Option<i64> {
            loop {
                if !walk(c) {
                    return None;
                }
                if c == goal {
                    return Some(c);
                }
                if (walk(c + side) && !walk(c - d + side))
                    || (walk(c - side) && !walk(c - d - side))
                {
                    return Some(c);
                }
                c += d;
            }
        };
        while let Some((_, node)) = self.heap.pop() {
            let c = node as i64;
            if stamp::closed(self.stamp[c as usize], gen) {
                continue;
            }
            self.stamp[c as usize] = gen | CLOSED;
            expanded += 1;
            let g = self.g[c as usize];
            if c == goal {
                return Outcome {
                    solution: Some(Solution {
                        cost: g,
                        path: fill_path(grid, &self.parent, node),
                    }),
                    expanded,
                };
            }
            // Directions to try: all from the start, pruned by the arrival direction otherwise.
            let p = self.parent[c as usize] as i64;
            let mut dirs: [(i64, i64); 8] = [(0, 0); 8];
            let mut nd = 0;
            if p == c {
                for (dx, dy) in [
                    (1, 0),
                    (-1, 0),
                    (0, 1),
                    (0, -1),
                    (1, 1),
                    (1, -1),
                    (-1, 1),
                    (-1, -1),
                ] {
                    dirs[nd] = (dx, dy);
                    nd += 1;
                }
            } else {
                let (px, py) = (p % w, p / w);
                let (cx, cy) = (c % w, c / w);
                let (dx, dy) = ((cx - px).signum(), (cy - py).signum());
                if dx != 0 && dy != 0 {
                    for d in [(dx, 0), (0, dy), (dx, dy)] {
                        dirs[nd] = d;
                        nd += 1;
                    }
                } else if dx != 0 {
                    for d in [(dx, 0), (dx, 1), (dx, -1), (0, 1), (0, -1)] {
                        dirs[nd] = d;
                        nd += 1;
                    }
                } else {
                    for d in [(0, dy), (1, dy), (-1, dy), (1, 0), (-1, 0)] {
                        dirs[nd] = d;
                        nd += 1;
                    }
                }
            }
            for &(dx, dy) in &dirs[..nd] {
                let step = dx + dy * w;
                let diag = dx != 0 && dy != 0;
                if diag && !(walk(c + dx) && walk(c + dy * w)) {
                    continue;
                }
                let found = if diag {
                    // Diagonal run: stop where a straight sub-run finds something.
                    let mut x = c + step;
                    loop {
                        if !walk(x) {
                            break None;
                        }
                        if x == goal
                            || run_straight(x + dx, dx, w).is_some()
                            || run_straight(x + dy * w, dy * w, 1).is_some()
                        {
                            break Some(x);
                        }
                        if !(walk(x + dx) && walk(x + dy * w)) {
                            break None;
                        }
                        x += step;
                    }
                } else if dx != 0 {
                    run_straight(c + step, step, w)
                } else {
                    run_straight(c + step, step, 1)
                };
                let Some(j) = found else {
                    continue;
                };
                let steps = ((j % w) - (c % w)).abs().max((j / w - c / w).abs()) as f64;
                let ng = g + steps * if diag { diagonal } else { straight };
                let ju = j as usize;
                if stamp::seen(self.stamp[ju], gen)
                    && (self.g[ju] <= ng || stamp::closed(self.stamp[ju], gen))
                {
                    continue;
                }
                self.stamp[ju] = gen;
                self.g[ju] = ng;
                self.parent[ju] = node;
                self.heap.push(key(ng + h(j), ng), j as u32);
            }
        }
        Outcome {
            solution: None,
            expanded,
        }
    }
}

/// Cells from the start to `end` following `parent` links between jump points (the start is
/// its own parent), filling in the unit steps between them (each link is straight or diagonal).
pub(crate) fn fill_path(grid: &Prepared, parent: &[u32], end: u32) -> Vec<(usize, usize)> {
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
