//! The textbook searches beside A*, for small maps: iterative-deepening depth-first search
//! (`iddfs`: depth limit 1, 2, 3, … — optimal where every step costs the same, i.e. moves `4`)
//! and IDA* (`idastar`: the limit is on f = g + h and grows to the smallest f that went past
//! it; optimal for any step costs with an admissible heuristic).
//!
//! Both are one routine: IDDFS is IDA* with h = 0 on unit steps. Each iteration is a
//! depth-first search with an explicit stack; a state reached again in the same iteration with
//! no smaller cost is not searched again (its earlier visit had at least the budget left), which
//! keeps an iteration linear in the states instead of exponential in the depth without
//! changing what is found. With an energy budget the state is (cell, energy left). The cost of
//! a search is (iterations × states), so both refuse maps over `MAX_CELLS` cells.

use super::astar::{Moves, Outcome, Prepared, Query, Solution, STEPS};

/// Largest map (width × height) the textbook searches accept: 64 × 64.
pub const MAX_CELLS: usize = 4096;
/// Largest number of (cell, energy) states they accept.
pub const MAX_STATES: usize = 1 << 20;

/// Reusable memory.
#[derive(Default)]
pub struct Textbook {
    best: Vec<f64>,
    stamp: Vec<u32>,
    iteration: u32,
    stack: Vec<(u32, f64, u8)>,
}

const EPS: f64 = 1e-9;

impl Textbook {
    /// Empty memory.
    pub fn new() -> Textbook {
        Textbook::default()
    }

    /// Iterative deepening on the number of steps (moves `4`). The caller checked the size.
    pub fn iddfs(&mut self, grid: &Prepared, q: &Query) -> Outcome {
        debug_assert!(q.moves == Moves::Four);
        self.deepen(grid, q, false)
    }

    /// IDA* with the query's heuristic. The caller checked the size.
    pub fn idastar(&mut self, grid: &Prepared, q: &Query) -> Outcome {
        self.deepen(grid, q, true)
    }

    fn deepen(&mut self, grid: &Prepared, q: &Query, heuristic: bool) -> Outcome {
        let layers = q.energy.map_or(1, |t| t as usize + 1);
        let states = grid.cells.len() * layers;
        if self.best.len() < states {
            self.best.resize(states, 0.0);
            self.stamp.resize(states, 0);
        }
        let (straight, diagonal) = q.moves.costs();
        let step_mask: u8 = if q.moves == Moves::Four { 0x0F } else { 0xFF };
        let w = grid.stride as isize;
        let offsets = STEPS.map(|(dx, dy)| dx as isize + dy as isize * w);
        let (gx, gy) = (q.goal.0 as i64, q.goal.1 as i64);
        let h = |cell: usize| {
            if !heuristic {
                return 0.0;
            }
            let (x, y) = (
                (cell % grid.stride) as i64 - 1,
                (cell / grid.stride) as i64 - 1,
            );
            q.heuristic
                .estimate(q.moves, (x - gx).abs() as f64, (y - gy).abs() as f64)
        };
        let top = q.energy.unwrap_or(0);
        let goal = grid.at(q.goal.0, q.goal.1);
        let start_cell = grid.at(q.start.0, q.start.1);
        let start = (start_cell * layers + top as usize) as u32;
        let mut expanded = 1u64;
        if start_cell == goal {
            return Outcome {
                solution: Some(Solution {
                    cost: 0.0,
                    path: vec![q.start],
                }),
                expanded,
            };
        }
        // Steps a state may take: none when out of energy.
        let mask_of = |state: u32| -> u8 {
            let s = state as usize;
            if q.energy.is_some() && s.is_multiple_of(layers) {
                0
            } else {
                grid.steps[s / layers] & step_mask
            }
        };
        let mut limit = h(start_cell);
        loop {
            self.iteration = self.iteration.wrapping_add(1);
            if self.iteration == 0 {
                self.stamp.fill(0);
                self.iteration = 1;
            }
            let it = self.iteration;
            let mut next = f64::INFINITY;
            self.stamp[start as usize] = it;
            self.best[start as usize] = 0.0;
            self.stack.clear();
            self.stack.push((start, 0.0, mask_of(start)));
            while let Some(top_frame) = self.stack.last_mut() {
                let (state, g, mask) = *top_frame;
                if mask == 0 {
                    self.stack.pop();
                    continue;
                }
                let i = mask.trailing_zeros() as usize;
                top_frame.2 = mask & (mask - 1);
                let cell = state as usize / layers;
                let ncell = (cell as isize + offsets[i]) as usize;
                let n = if let Some(t) = q.energy {
                    let e = (state as usize % layers) as u32;
                    let ne = if grid.cells[ncell] == 2 { t } else { e - 1 };
                    (ncell * layers + ne as usize) as u32
                } else {
                    ncell as u32
                };
                let ng = g + if i < 4 { straight } else { diagonal };
                let f = ng + h(ncell);
                if f > limit + EPS {
                    next = next.min(f);
                    continue;
                }
                let ni = n as usize;
                if self.stamp[ni] == it && self.best[ni] <= ng + EPS {
                    continue;
                }
                self.stamp[ni] = it;
                self.best[ni] = ng;
                expanded += 1;
                if ncell == goal {
                    let xy = |c: usize| (c % grid.stride - 1, c / grid.stride - 1);
                    let mut path: Vec<(usize, usize)> = self
                        .stack
                        .iter()
                        .map(|&(s, _, _)| xy(s as usize / layers))
                        .collect();
                    path.push(xy(ncell));
                    return Outcome {
                        solution: Some(Solution { cost: ng, path }),
                        expanded,
                    };
                }
                self.stack.push((n, ng, mask_of(n)));
            }
            if next == f64::INFINITY {
                return Outcome {
                    solution: None,
                    expanded,
                };
            }
            limit = next;
        }
    }
}
