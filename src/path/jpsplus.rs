//! JPS+ (Harabor & Grastien 2014): jump point search with the jumps precomputed. For every cell
//! and each of the eight directions the table holds how far the jump in that direction goes:
//! a positive `k` when it ends on a jump point `k` steps away, `-k` when it runs into a wall
//! after `k` free steps (0: not even one). A query then never scans the grid: each successor
//! is one table read, plus a check whether the goal lies on the ray (straight) or in the
//! quadrant (diagonal, where the node is put where the diagonal crosses the goal's row or
//! column).
//!
//! The jump points are those of `jps` (no corner cutting): a straight run stops on a cell with
//! a side cell open whose neighbour behind is blocked; a diagonal run stops on a cell from which
//! either straight component reaches a jump point. The search, keys and successor pruning are
//! the same as `jps`'s, so the lengths are the same.

use super::astar::{Moves, Outcome, Prepared, Query, STEPS};
use super::jps::{directions, heuristic, JumpMemory};

/// The precomputed jump distances of a grid (`8` per cell of the bordered layout).
pub struct JumpTable {
    dist: Vec<i16>,
}

/// Longest jump the table can hold; longer runs are cut into several jumps (a cut point is an
/// extra, harmless node).
const MAX_JUMP: i32 = i16::MAX as i32;

impl JumpTable {
    /// Builds the table for a prepared grid: one pass per direction, each cell from its
    /// neighbour in that direction.
    pub fn new(grid: &Prepared) -> JumpTable {
        let n = grid.cells.len();
        let w = grid.stride as isize;
        let h = n / grid.stride;
        let mut dist = vec![0i16; n * 8];
        let free = |c: isize| grid.cells[c as usize] != 0;
        // Straight jump point for direction (dx, dy): a side cell open, its cell behind blocked.
        let forced = |c: isize, d: isize, side: isize| {
            (free(c + side) && !free(c - d + side)) || (free(c - side) && !free(c - d - side))
        };
        let extend = |next: i16, jump: bool| -> i16 {
            if jump {
                1
            } else if next > 0 {
                (next as i32 + 1).min(MAX_JUMP) as i16
            } else {
                (next as i32 - 1).max(-MAX_JUMP) as i16
            }
        };
        // Straight directions first (the diagonals read them).
        for (dir, &(dx, dy)) in STEPS.iter().enumerate().take(4) {
            let d = dx as isize + dy as isize * w;
            let side = if dx != 0 { w } else { 1 };
            // Visit each cell after its neighbour in direction d.
            let order: Box<dyn Iterator<Item = usize>> = if d > 0 {
                Box::new((0..n).rev())
            } else {
                Box::new(0..n)
            };
            for c in order {
                let ci = c as isize;
                if !free(ci) {
                    continue;
                }
                let nb = ci + d;
                if !free(nb) {
                    continue;
                }
                let v = extend(dist[nb as usize * 8 + dir], forced(nb, d, side));
                dist[c * 8 + dir] = v;
            }
        }
        for (dir, &(dx, dy)) in STEPS.iter().enumerate().skip(4) {
            let d = dx as isize + dy as isize * w;
            // Horizontal and vertical components' directions.
            let hdir = if dx < 0 { 2 } else { 3 };
            let vdir = if dy < 0 { 0 } else { 1 };
            let rows: Box<dyn Iterator<Item = usize>> = if dy > 0 {
                Box::new((0..h).rev())
            } else {
                Box::new(0..h)
            };
            for y in rows {
                let cols: Box<dyn Iterator<Item = usize>> = if dx > 0 {
                    Box::new((0..grid.stride).rev())
                } else {
                    Box::new(0..grid.stride)
                };
                for x in cols {
                    let c = y * grid.stride + x;
                    if grid.steps[c] & (1 << dir) == 0 {
                        continue;
                    }
                    let nb = (c as isize + d) as usize;
                    let jump = dist[nb * 8 + hdir] > 0 || dist[nb * 8 + vdir] > 0;
                    dist[c * 8 + dir] = extend(dist[nb * 8 + dir], jump);
                }
            }
        }
        JumpTable { dist }
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.dist.len() * 2
    }
}

/// Reusable memory for JPS+ queries.
#[derive(Default)]
pub struct JpsPlus {
    memory: JumpMemory,
}

/// Direction index in `STEPS` of (dx, dy).
#[inline(always)]
fn dir_of(dx: i64, dy: i64) -> usize {
    match (dx, dy) {
        (0, -1) => 0,
        (0, 1) => 1,
        (-1, 0) => 2,
        (1, 0) => 3,
        (-1, -1) => 4,
        (1, -1) => 5,
        (-1, 1) => 6,
        _ => 7,
    }
}

/// The jump from (cx, cy) in direction (dx, dy), whose table entry is `v`, toward the goal at
/// (gx, gy): how many steps it takes, or `None` when it leads nowhere. A jump that passes the
/// goal's ray (straight) or enters its quadrant (diagonal) stops there instead.
#[inline(always)]
fn jump(v: i64, (cx, cy): (i64, i64), (dx, dy): (i64, i64), (gx, gy): (i64, i64)) -> Option<i64> {
    if v == 0 {
        return None;
    }
    let reach = v.abs();
    if dx != 0 && dy != 0 {
        let (ex, ey) = ((gx - cx) * dx, (gy - cy) * dy);
        let k = ex.min(ey);
        if ex > 0 && ey > 0 && k <= reach {
            Some(k)
        } else {
            (v > 0).then_some(v)
        }
    } else {
        let along = if dx != 0 {
            (gy == cy).then_some((gx - cx) * dx)
        } else {
            (gx == cx).then_some((gy - cy) * dy)
        };
        match along {
            Some(k) if k > 0 && k <= reach => Some(k),
            _ => (v > 0).then_some(v),
        }
    }
}

impl JpsPlus {
    /// Empty memory.
    pub fn new() -> JpsPlus {
        JpsPlus::default()
    }

    /// Solves `q` (moves `Eight` or `EightInt`, no energy budget) with the table of `grid`.
    pub fn solve(&mut self, grid: &Prepared, table: &JumpTable, q: &Query) -> Outcome {
        debug_assert!(q.moves != Moves::Four && q.energy.is_none());
        let (straight, diagonal) = q.moves.costs();
        let w = grid.stride as i64;
        let (gx, gy) = (q.goal.0 as i64 + 1, q.goal.1 as i64 + 1);
        let goal = grid.at(q.goal.0, q.goal.1) as i64;
        let heuristic = heuristic(q);
        let h = |x: i64, y: i64| {
            heuristic.estimate(q.moves, (x - gx).abs() as f64, (y - gy).abs() as f64)
        };
        let start = grid.at(q.start.0, q.start.1) as i64;
        let m = &mut self.memory;
        m.begin(grid.cells.len(), start as u32, h(start % w, start / w));
        while let Some((node, g)) = m.pop() {
            let c = node as i64;
            if c == goal {
                return m.reached(grid, node, g);
            }
            let (cx, cy) = (c % w, c / w);
            let (dirs, nd) = directions(c, m.parent(node) as i64, w);
            let row = &table.dist[c as usize * 8..c as usize * 8 + 8];
            for &(dx, dy) in &dirs[..nd] {
                let v = row[dir_of(dx, dy)] as i64;
                let Some(steps) = jump(v, (cx, cy), (dx, dy), (gx, gy)) else {
                    continue;
                };
                let j = c + steps * (dx + dy * w);
                let diag = dx != 0 && dy != 0;
                let ng = g + steps as f64 * if diag { diagonal } else { straight };
                m.relax(node, j as u32, ng, || h(cx + steps * dx, cy + steps * dy));
            }
        }
        m.unreachable()
    }
}
