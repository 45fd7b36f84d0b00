//! Dead-end trees: the cells that peel off a map when cells with at most one neighbour are
//! removed again and again (dead-end corridors, pockets, whole tree-shaped mazes), and the
//! core that stays (the 2-core of the cell graph).
//!
//! A peeled cell had one neighbour left when it went (its parent) or none (the root of a
//! component that is all tree), and every other neighbour had gone before with it as parent,
//! so the peeled cells form trees hanging from the core by one cell each, and a path between
//! two cells of one tree is the tree path (through their lowest common ancestor), and any other
//! path is tree path, core path, tree path. A peeled cell never sits beside both ends of a
//! diagonal step between core cells (it would have had two neighbours left), so the core with
//! the peeled cells turned to walls — the core grid, which the tables of JPS+ and the subgoal
//! graph are built on — has exactly the core's steps and distances.

use super::astar::{Outcome, Prepared, Query, Solution};

/// The dead-end trees of a grid and its core grid.
pub struct Forest {
    /// Per cell: the parent of a peeled cell (itself for a root), `NONE` for a core cell or
    /// a wall.
    parent: Vec<u32>,
    /// Per cell: steps up to the core (or the root); 0 for core cells.
    depth: Vec<u32>,
    /// The grid with the peeled cells walled off.
    pub core: Prepared,
    /// Cells peeled.
    pub peeled: usize,
}

const NONE: u32 = u32::MAX;

impl Forest {
    /// Peels `grid`.
    pub fn new(grid: &Prepared) -> Forest {
        let n = grid.cells.len();
        let w = grid.stride as isize;
        let offsets = super::astar::STEPS.map(|(dx, dy)| dx as isize + dy as isize * w);
        let mut degree: Vec<u8> = grid.steps.iter().map(|m| m.count_ones() as u8).collect();
        let mut gone = vec![false; n];
        let mut queued = vec![false; n];
        let mut parent = vec![NONE; n];
        let mut order = Vec::new();
        let mut queue: Vec<u32> = Vec::new();
        for c in 0..n {
            if grid.cells[c] != 0 && degree[c] <= 1 {
                queued[c] = true;
                queue.push(c as u32);
            }
        }
        while let Some(u) = queue.pop() {
            let u = u as usize;
            gone[u] = true;
            order.push(u as u32);
            parent[u] = u as u32;
            let mut mask = grid.steps[u];
            while mask != 0 {
                let i = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let v = (u as isize + offsets[i]) as usize;
                if gone[v] {
                    continue;
                }
                parent[u] = v as u32;
                degree[v] -= 1;
                if degree[v] <= 1 && !queued[v] {
                    queued[v] = true;
                    queue.push(v as u32);
                }
            }
        }
        let mut depth = vec![0u32; n];
        for &u in order.iter().rev() {
            let u = u as usize;
            let p = parent[u] as usize;
            depth[u] = if p == u {
                0
            } else if gone[p] {
                depth[p] + 1
            } else {
                1
            };
        }
        let cells: Vec<u8> = grid
            .cells
            .iter()
            .zip(&gone)
            .map(|(&c, &g)| if g { 0 } else { c })
            .collect();
        Forest {
            parent,
            depth,
            core: Prepared::from_cells(grid.stride, cells),
            peeled: order.len(),
        }
    }

    /// Bytes held (the core grid included).
    pub fn bytes(&self) -> usize {
        self.parent.len() * 8 + self.core.cells.len() * 2
    }

    /// Solves `q` (no energy budget): within a tree by its tree path, else by the tree paths
    /// up to the core and `core_search` (a query on the core grid) between their ends.
    pub fn solve(
        &self,
        grid: &Prepared,
        q: &Query,
        core_search: impl FnOnce(&Query) -> Outcome,
    ) -> Outcome {
        let w = grid.stride;
        let (straight, diagonal) = q.moves.costs();
        let step_cost = |a: usize, b: usize| {
            let d = a.abs_diff(b);
            if d == 1 || d == w {
                straight
            } else {
                diagonal
            }
        };
        let s = grid.at(q.start.0, q.start.1);
        let t = grid.at(q.goal.0, q.goal.1);
        if s != t && self.parent[s] == NONE && self.parent[t] == NONE {
            // Both ends on the core: nothing to walk or join.
            return core_search(q);
        }
        let (mut a, mut b) = (s, t);
        // Cells walked up from each end, ends included.
        let mut up_s = vec![s];
        let mut up_t = vec![t];
        let up = |c: usize| self.parent[c] as usize;
        while self.depth[a] > self.depth[b] {
            a = up(a);
            up_s.push(a);
        }
        while self.depth[b] > self.depth[a] {
            b = up(b);
            up_t.push(b);
        }
        while a != b && self.depth[a] > 0 {
            a = up(a);
            up_s.push(a);
            b = up(b);
            up_t.push(b);
        }
        let xy = |c: usize| (c % w - 1, c / w - 1);
        let leg_cost =
            |cells: &[usize]| -> f64 { cells.windows(2).map(|p| step_cost(p[0], p[1])).sum() };
        let join = |mid: Vec<(usize, usize)>| -> Vec<(usize, usize)> {
            let mut path: Vec<(usize, usize)> = up_s.iter().map(|&c| xy(c)).collect();
            path.pop();
            path.extend(mid);
            let mut tail: Vec<(usize, usize)> = up_t.iter().map(|&c| xy(c)).collect();
            tail.pop();
            tail.reverse();
            path.extend(tail);
            path
        };
        if a == b {
            let cost = leg_cost(&up_s) + leg_cost(&up_t);
            return Outcome {
                solution: Some(Solution {
                    cost,
                    path: join(vec![xy(a)]),
                }),
                expanded: 0,
            };
        }
        // Different roots: both must be core cells, joined through the core.
        if self.parent[a] != NONE || self.parent[b] != NONE {
            return Outcome {
                solution: None,
                expanded: 0,
            };
        }
        let core_q = Query {
            start: xy(a),
            goal: xy(b),
            ..*q
        };
        let out = core_search(&core_q);
        let solution = out.solution.map(|sol| Solution {
            cost: leg_cost(&up_s) + sol.cost + leg_cost(&up_t),
            path: join(sol.path),
        });
        Outcome {
            solution,
            expanded: out.expanded,
        }
    }
}
