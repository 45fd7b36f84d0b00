//! Simple subgoal graphs (Uras, Koenig & Hernández 2013) for uniform-cost 8-connected grids
//! without corner cutting.
//!
//! A subgoal is a free cell at the convex corner of an obstacle: a diagonal neighbour is
//! blocked while the two cells beside both are free. Two cells are h-reachable when a path
//! between them has the octile length, and every shortest path can be taken through subgoals
//! only, each leg h-reachable, so a graph whose nodes are the subgoals and whose edges join
//! the pairs found h-reachable from each other with nothing in between (weighted with their
//! octile distance) keeps every distance of the grid. A query joins the start and the goal to
//! the subgoals they reach that way (or to each other, which ends it at once), searches the
//! small graph with A*, and fills in the legs with diagonal-then-straight steps.
//!
//! Finding the subgoals a cell reaches directly (`sweep`) walks each diagonal from it and, from
//! every cell on the way, the two straight runs the diagonal spans, each run read from a table
//! of clearances (free cells before the next wall or subgoal, per cell and straight direction)
//! and never longer than the run one diagonal step before, so the swept area is the part of
//! the grid reached by a diagonal-then-straight path that passes no subgoal.

use super::astar::{key, Moves, Outcome, Prepared, Query, RadixHeap, Solution, STEPS};
use super::stamp::{self, Generation, CLOSED};

/// The subgoal graph of a grid.
pub struct SubgoalGraph {
    stride: usize,
    /// Per cell of the bordered layout: subgoal number + 1, or 0.
    pub(super) id: Vec<u32>,
    /// Per subgoal: its cell.
    pub(super) cell: Vec<u32>,
    /// Per subgoal: (x, y) in the bordered layout.
    pub(super) xy: Vec<(i32, i32)>,
    /// Per cell: free cells before the next wall or subgoal, for the 4 straight `STEPS`.
    clear: Vec<[u16; 4]>,
    /// Edges of subgoal i: `edges[first[i]..first[i + 1]]`.
    pub(super) first: Vec<u32>,
    pub(super) edges: Vec<u32>,
    /// Per edge: (dx, dy) from its source to its target (sides are at most `MAX_SIDE`), so
    /// the search has the cost without reading the target.
    pub(super) delta: Vec<(i16, i16)>,
    /// Per subgoal: its landmark distances and position, together for the search's one read.
    pub(super) info: Vec<Info>,
    /// A bound on the rounding of the f32 landmark distances and of the heuristic computed
    /// from them (added to it, so it stays admissible).
    pub(super) lm_eps: f32,
}

/// What the search reads of a subgoal it reaches: its distances to the `LANDMARKS`
/// landmarks for the straight cost 1 and diagonal cost √2 (-1 for a subgoal outside the
/// landmarks' component, which all landmarks share), one aligned 32-byte read.
#[derive(Clone, Copy)]
#[repr(align(32))]
pub(super) struct Info {
    pub(super) lm: [f32; LANDMARKS],
}

/// Landmarks of the differential heuristic.
pub const LANDMARKS: usize = 8;

/// The straight components (indices into `STEPS`) of each diagonal `STEPS[4..8]`:
/// (horizontal, vertical).
const COMPONENTS: [(usize, usize); 4] = [(2, 0), (3, 0), (2, 1), (3, 1)];

/// The octile length between two cells: `straight` per straight step and `diagonal` per
/// diagonal one, over an obstacle-free grid.
pub(super) fn octile_cost(a: (i64, i64), b: (i64, i64), straight: f64, diagonal: f64) -> f64 {
    let (dx, dy) = ((a.0 - b.0).unsigned_abs(), (a.1 - b.1).unsigned_abs());
    let (hi, lo) = if dx > dy { (dx, dy) } else { (dy, dx) };
    (hi - lo) as f64 * straight + lo as f64 * diagonal
}

/// The Z-order (Morton) code of (x, y): their bits interleaved.
fn morton(x: u32, y: u32) -> u64 {
    let spread = |v: u32| {
        let mut v = v as u64;
        v = (v | v << 16) & 0x0000_FFFF_0000_FFFF;
        v = (v | v << 8) & 0x00FF_00FF_00FF_00FF;
        v = (v | v << 4) & 0x0F0F_0F0F_0F0F_0F0F;
        v = (v | v << 2) & 0x3333_3333_3333_3333;
        (v | v << 1) & 0x5555_5555_5555_5555
    };
    spread(x) | spread(y) << 1
}

impl SubgoalGraph {
    /// Finds the subgoals, the clearances and the edges of a prepared grid.
    pub fn new(grid: &Prepared) -> SubgoalGraph {
        let n = grid.cells.len();
        let stride = grid.stride;
        let w = stride as isize;
        let free = |c: usize| grid.cells[c] != 0;
        let mut id = vec![0u32; n];
        let mut cell = Vec::new();
        let mut xy = Vec::new();
        for c in 0..n {
            if !free(c) {
                continue;
            }
            let corner = STEPS[4..].iter().any(|&(dx, dy)| {
                let (dx, dy) = (dx as isize, dy as isize);
                let at = |o: isize| grid.cells[(c as isize + o) as usize] != 0;
                !at(dx + dy * w) && at(dx) && at(dy * w)
            });
            if corner {
                cell.push(c as u32);
            }
        }
        // Numbered along a Z-order curve, so that subgoals near each other on the map are
        // near each other in memory (the search's reads stay in fewer cache lines).
        cell.sort_by_key(|&c| morton((c as usize % stride) as u32, (c as usize / stride) as u32));
        for (i, &c) in cell.iter().enumerate() {
            id[c as usize] = i as u32 + 1;
            xy.push(((c as usize % stride) as i32, (c as usize / stride) as i32));
        }
        let mut clear = vec![[0u16; 4]; n];
        for (dir, &(dx, dy)) in STEPS.iter().enumerate().take(4) {
            let d = dx as isize + dy as isize * w;
            let order: Box<dyn Iterator<Item = usize>> = if d > 0 {
                Box::new((0..n).rev())
            } else {
                Box::new(0..n)
            };
            for c in order {
                if !free(c) {
                    continue;
                }
                let nb = (c as isize + d) as usize;
                clear[c][dir] = if !free(nb) || id[nb] != 0 {
                    0
                } else {
                    clear[nb][dir] + 1
                };
            }
        }
        let mut graph = SubgoalGraph {
            stride,
            id,
            cell,
            xy,
            clear,
            first: Vec::new(),
            edges: Vec::new(),
            delta: Vec::new(),
            info: Vec::new(),
            lm_eps: 0.0,
        };
        let m = graph.cell.len();
        let mut first = Vec::with_capacity(m + 1);
        let mut edges = Vec::new();
        let mut seen = vec![u32::MAX; m];
        for u in 0..m {
            first.push(edges.len() as u32);
            graph.sweep(grid, graph.cell[u] as usize, None, |v| {
                if seen[v as usize] != u as u32 {
                    seen[v as usize] = u as u32;
                    edges.push(v);
                }
            });
        }
        first.push(edges.len() as u32);
        graph.delta = (0..m)
            .flat_map(|u| {
                let (ux, uy) = graph.xy[u];
                edges[first[u] as usize..first[u + 1] as usize]
                    .iter()
                    .map(move |&v| (v, ux, uy))
            })
            .map(|(v, ux, uy)| {
                let (vx, vy) = graph.xy[v as usize];
                ((vx - ux) as i16, (vy - uy) as i16)
            })
            .collect();
        graph.first = first;
        graph.edges = edges;
        let landmarks = graph.landmark_distances();
        let mut lm_max = 0f32;
        graph.info = landmarks
            .iter()
            .map(|lm| {
                let reached = lm[0].is_finite();
                if reached {
                    lm_max = lm.iter().fold(lm_max, |a, &b| a.max(b));
                }
                Info {
                    lm: if reached { *lm } else { [-1.0; LANDMARKS] },
                }
            })
            .collect();
        // f32 keeps 24 bits: the stored distances and the differences taken from them are
        // within a few units of 2^-24 of the largest one.
        graph.lm_eps = lm_max * (1.0 / (1u32 << 17) as f32) + 1e-3;
        graph
    }

    fn octile(&self, u: u32, v: u32) -> f64 {
        let (a, b) = (self.xy[u as usize], self.xy[v as usize]);
        let (dx, dy) = ((a.0 - b.0).unsigned_abs(), (a.1 - b.1).unsigned_abs());
        let (hi, lo) = if dx > dy { (dx, dy) } else { (dy, dx) };
        (hi - lo) as f64 + lo as f64 * std::f64::consts::SQRT_2
    }

    /// Distances from `LANDMARKS` subgoals, each the farthest (summed over the landmarks so
    /// far) from those before it, by Dijkstra on the graph.
    fn landmark_distances(&self) -> Vec<[f32; LANDMARKS]> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let m = self.cell.len();
        let mut out = vec![[f32::INFINITY; LANDMARKS]; m];
        if m == 0 {
            return out;
        }
        let mut dist = vec![f64::INFINITY; m];
        let mut heap = BinaryHeap::new();
        let mut score = vec![0f64; m];
        let mut next = 0usize;
        for k in 0..LANDMARKS {
            dist.fill(f64::INFINITY);
            dist[next] = 0.0;
            heap.push(Reverse((0u64, next as u32)));
            while let Some(Reverse((d, u))) = heap.pop() {
                let d = f64::from_bits(d);
                if d > dist[u as usize] {
                    continue;
                }
                let ui = u as usize;
                for &v in &self.edges[self.first[ui] as usize..self.first[ui + 1] as usize] {
                    let nd = d + self.octile(u, v);
                    if nd < dist[v as usize] {
                        dist[v as usize] = nd;
                        heap.push(Reverse((nd.to_bits(), v)));
                    }
                }
            }
            for (i, &d) in dist.iter().enumerate() {
                out[i][k] = d as f32;
                if d.is_finite() {
                    score[i] += d;
                }
            }
            // The next landmark: farthest from those so far, in the first one's component.
            next = (0..m)
                .filter(|&i| out[i][0].is_finite())
                .max_by(|&a, &b| score[a].total_cmp(&score[b]))
                .unwrap_or(0);
        }
        out
    }

    /// Number of subgoals.
    pub fn subgoals(&self) -> usize {
        self.cell.len()
    }

    /// Number of (directed) edges.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.id.len() * 4
            + self.cell.len() * 4
            + self.xy.len() * 8
            + self.clear.len() * 8
            + self.first.len() * 4
            + self.edges.len() * 8
            + self.info.len() * std::mem::size_of::<Info>()
    }

    /// Calls `found` with every subgoal reached from cell `c` by a diagonal-then-straight path
    /// that passes no other subgoal (possibly more than once); returns whether `target` (a
    /// cell given as (x, y) in the bordered layout) lies in the swept area, i.e. is
    /// h-reachable from `c`.
    pub(super) fn sweep(
        &self,
        grid: &Prepared,
        c: usize,
        target: Option<(i64, i64)>,
        mut found: impl FnMut(u32),
    ) -> bool {
        let w = self.stride as isize;
        let off = STEPS.map(|(dx, dy)| dx as isize + dy as isize * w);
        let (cx, cy) = ((c % self.stride) as i64, (c / self.stride) as i64);
        let (tx, ty) = target.unwrap_or((-1, -1));
        // Whether the target is on the straight ray from (x, y) in STEPS[dir] within `len`.
        let on_ray = |x: i64, y: i64, dir: usize, len: i64| -> bool {
            let (dx, dy) = STEPS[dir];
            if dx != 0 {
                ty == y && (1..=len).contains(&((tx - x) * dx))
            } else {
                tx == x && (1..=len).contains(&((ty - y) * dy))
            }
        };
        let mut hit = false;
        for (dir, &o) in off.iter().enumerate().take(4) {
            let k = self.clear[c][dir] as isize;
            hit |= on_ray(cx, cy, dir, k as i64);
            let b = (c as isize + (k + 1) * o) as usize;
            if self.id[b] != 0 {
                found(self.id[b] - 1);
            }
        }
        for (i, &(hd, vd)) in COMPONENTS.iter().enumerate() {
            let dir = 4 + i;
            let (dx, dy) = STEPS[dir];
            let mut limit = [self.clear[c][hd] as i64, self.clear[c][vd] as i64];
            let (mut x, mut px, mut py) = (c, cx, cy);
            while grid.steps[x] & (1 << dir) != 0 {
                x = (x as isize + off[dir]) as usize;
                px += dx;
                py += dy;
                if self.id[x] != 0 {
                    found(self.id[x] - 1);
                    break;
                }
                hit |= px == tx && py == ty;
                for (j, comp) in [hd, vd].into_iter().enumerate() {
                    let k = self.clear[x][comp] as i64;
                    if k < limit[j] {
                        let b = (x as isize + (k as isize + 1) * off[comp]) as usize;
                        if self.id[b] != 0 {
                            found(self.id[b] - 1);
                        }
                        limit[j] = k;
                    }
                    hit |= on_ray(px, py, comp, limit[j]);
                }
            }
        }
        hit
    }
}

/// Search state of one graph node.
#[derive(Clone, Copy, Default)]
struct State {
    g: f64,
    parent: u32,
    /// The generation that last touched the node, with `CLOSED` once expanded.
    stamp: u32,
}

/// Reusable memory for subgoal-graph queries.
#[derive(Default)]
pub struct SubgoalSearch {
    state: Vec<State>,
    goal_links: Vec<u32>,
    start_links: Vec<u32>,
    generation: Generation,
    heap: RadixHeap,
}

/// A bound no landmark difference reaches.
pub(super) const FAR: f32 = 1e30;

impl SubgoalSearch {
    /// Empty memory.
    pub fn new() -> SubgoalSearch {
        SubgoalSearch::default()
    }

    /// Solves `q` (moves `Eight` or `EightInt`, no energy budget) on the subgoal graph of
    /// `grid`. `expanded` counts graph nodes.
    pub fn solve(&mut self, grid: &Prepared, sg: &SubgoalGraph, q: &Query) -> Outcome {
        debug_assert!(q.moves != Moves::Four && q.energy.is_none());
        let ends = Ends::new(grid, sg, q);
        if ends.s == ends.t {
            return ends.direct(grid, 0.0);
        }
        if self.link(grid, sg, &ends) {
            return ends.direct(grid, ends.octile(ends.sxy, ends.txy));
        }
        let goal = GoalBounds::new(sg, &ends, &self.goal_links);
        self.search(grid, sg, &ends, &goal)
    }

    /// Links the start and the goal, where they are not subgoals, to the subgoals they reach
    /// directly; true when one reaches the other that way (the query is then a straight leg).
    fn link(&mut self, grid: &Prepared, sg: &SubgoalGraph, e: &Ends) -> bool {
        self.start_links.clear();
        if e.s_id == 0 {
            let links = &mut self.start_links;
            let hit = sg.sweep(grid, e.s, Some(e.txy), |v| links.push(v));
            if hit || (e.t_id != 0 && links.contains(&(e.t_id - 1))) {
                return true;
            }
        }
        self.goal_links.clear();
        if e.t_id == 0 {
            let links = &mut self.goal_links;
            let hit = sg.sweep(grid, e.t, Some(e.sxy), |v| links.push(v));
            if hit || (e.s_id != 0 && links.contains(&(e.s_id - 1))) {
                return true;
            }
        }
        false
    }

    /// A* over the subgoal graph, with the start's and the goal's links.
    fn search(
        &mut self,
        grid: &Prepared,
        sg: &SubgoalGraph,
        e: &Ends,
        goal: &GoalBounds,
    ) -> Outcome {
        let m = e.m;
        let gen = self.begin(m + 2, e.start_node, e.octile(e.sxy, e.txy));
        let mut expanded = 0;
        while let Some((_, u)) = self.heap.pop() {
            let ui = u as usize;
            let su = &mut self.state[ui];
            if stamp::closed(su.stamp, gen) {
                continue;
            }
            su.stamp = gen | CLOSED;
            expanded += 1;
            let g = su.g;
            if u == e.goal_node {
                return Outcome {
                    solution: Some(Solution {
                        cost: g,
                        path: fill(grid, &self.chain(sg, e, u)),
                    }),
                    expanded,
                };
            }
            // The goal's links are few (a handful): a scan beats a per-node mark.
            let to_goal = ui < m && e.t_id == 0 && self.goal_links.contains(&u);
            let uxy = e.node_xy(sg, u);
            let (state, heap) = (&mut self.state, &mut self.heap);
            // Relaxes the edge to v, (dx, dy) away: the target's heuristic is read only when
            // the edge improves it.
            let mut relax = |v: u32, dx: i64, dy: i64| {
                let ng = g + e.octile((0, 0), (dx, dy));
                let vi = v as usize;
                if !offer(&mut state[vi], gen, u, ng) {
                    return;
                }
                let vxy = (uxy.0 + dx, uxy.1 + dy);
                let h = e.octile(vxy, e.txy).max(goal.estimate(&sg.info[vi].lm));
                heap.push(key(ng + h, ng), v);
            };
            if ui == m {
                for &v in &self.start_links {
                    let (x, y) = e.node_xy(sg, v);
                    relax(v, x - uxy.0, y - uxy.1);
                }
            } else {
                let (a, b) = (sg.first[ui] as usize, sg.first[ui + 1] as usize);
                for (&v, &(dx, dy)) in sg.edges[a..b].iter().zip(&sg.delta[a..b]) {
                    relax(v, dx as i64, dy as i64);
                }
            }
            if to_goal {
                let ng = g + e.octile(uxy, e.txy);
                if offer(&mut self.state[e.goal_node as usize], gen, u, ng) {
                    self.heap.push(key(ng, ng), e.goal_node);
                }
            }
        }
        Outcome {
            solution: None,
            expanded,
        }
    }

    /// Readies the memory for `nodes` graph nodes (a new generation of stamps, cleared only
    /// when the counter wraps) and opens `start` with the estimate `h`. Returns the generation.
    fn begin(&mut self, nodes: usize, start: u32, h: f64) -> u32 {
        if self.state.len() < nodes {
            self.state.resize(nodes, State::default());
        }
        let state = &mut self.state;
        let gen = self.generation.advance(|| state.fill(State::default()));
        self.heap.clear();
        self.state[start as usize] = State {
            g: 0.0,
            parent: start,
            stamp: gen,
        };
        self.heap.push(key(h, 0.0), start);
        gen
    }

    /// The cells of the nodes from the start to `u`, following parents.
    fn chain(&self, sg: &SubgoalGraph, e: &Ends, u: u32) -> Vec<u32> {
        let mut chain = vec![u];
        let mut v = u;
        while self.state[v as usize].parent != v {
            v = self.state[v as usize].parent;
            chain.push(v);
        }
        chain.reverse();
        chain.iter().map(|&v| e.node_cell(sg, v)).collect()
    }
}

/// Offers a node the cost `ng` through `parent`: taken (and the node opened) when the node is
/// new this generation, or open and reached more cheaply now.
#[inline(always)]
fn offer(st: &mut State, gen: u32, parent: u32, ng: f64) -> bool {
    if stamp::seen(st.stamp, gen) && (stamp::closed(st.stamp, gen) || st.g <= ng) {
        return false;
    }
    st.stamp = gen;
    st.g = ng;
    st.parent = parent;
    true
}

/// A query's ends on the subgoal graph: the cells, their (x, y) in the bordered layout, their
/// subgoal numbers + 1 (0 for a cell that is not a subgoal) and their graph nodes (a subgoal's
/// own, else `m` for the start and `m + 1` for the goal, `m` being the number of subgoals).
struct Ends {
    s: usize,
    t: usize,
    sxy: (i64, i64),
    txy: (i64, i64),
    s_id: u32,
    t_id: u32,
    m: usize,
    start_node: u32,
    goal_node: u32,
    straight: f64,
    diagonal: f64,
}

impl Ends {
    fn new(grid: &Prepared, sg: &SubgoalGraph, q: &Query) -> Ends {
        let (straight, diagonal) = q.moves.costs();
        let m = sg.cell.len();
        let (s, t) = (grid.at(q.start.0, q.start.1), grid.at(q.goal.0, q.goal.1));
        let (s_id, t_id) = (sg.id[s], sg.id[t]);
        Ends {
            s,
            t,
            sxy: (q.start.0 as i64 + 1, q.start.1 as i64 + 1),
            txy: (q.goal.0 as i64 + 1, q.goal.1 as i64 + 1),
            s_id,
            t_id,
            m,
            start_node: if s_id != 0 { s_id - 1 } else { m as u32 },
            goal_node: if t_id != 0 { t_id - 1 } else { m as u32 + 1 },
            straight,
            diagonal,
        }
    }

    /// The octile length from `a` to `b` under the query's costs.
    #[inline(always)]
    fn octile(&self, a: (i64, i64), b: (i64, i64)) -> f64 {
        octile_cost(a, b, self.straight, self.diagonal)
    }

    /// Where node `v` is.
    #[inline(always)]
    fn node_xy(&self, sg: &SubgoalGraph, v: u32) -> (i64, i64) {
        if (v as usize) < self.m {
            let (x, y) = sg.xy[v as usize];
            (x as i64, y as i64)
        } else if v as usize == self.m {
            self.sxy
        } else {
            self.txy
        }
    }

    /// The cell of node `v`.
    fn node_cell(&self, sg: &SubgoalGraph, v: u32) -> u32 {
        if (v as usize) < self.m {
            sg.cell[v as usize]
        } else if v as usize == self.m {
            self.s as u32
        } else {
            self.t as u32
        }
    }

    /// The straight leg from the start to the goal, of cost `cost`.
    fn direct(&self, grid: &Prepared, cost: f64) -> Outcome {
        Outcome {
            solution: Some(Solution {
                cost,
                path: fill(grid, &[self.s as u32, self.t as u32]),
            }),
            expanded: 0,
        }
    }
}

/// The goal's landmark distances, for steps 1 and √2, as bounds: from its links (exact for a
/// subgoal goal), widened by the rounding allowance. They give the differential heuristic.
struct GoalBounds {
    lo: [f32; LANDMARKS],
    hi: [f32; LANDMARKS],
    /// Makes the heuristic a lower bound under the query's costs (14/√2 per unit for 10/14).
    scale: f64,
}

impl GoalBounds {
    fn new(sg: &SubgoalGraph, e: &Ends, goal_links: &[u32]) -> GoalBounds {
        let unit_octile = |a, b| octile_cost(a, b, 1.0, std::f64::consts::SQRT_2);
        let (lo, hi) = if e.t_id != 0 {
            landmark_bounds(sg, [(e.t_id - 1, 0.0)])
        } else {
            landmark_bounds(
                sg,
                goal_links
                    .iter()
                    .map(|&v| (v, unit_octile(e.node_xy(sg, v), e.txy))),
            )
        };
        GoalBounds {
            lo,
            hi,
            scale: e.diagonal / std::f64::consts::SQRT_2,
        }
    }

    /// The heuristic from a node with landmark distances `lm`, under the query's costs.
    #[inline(always)]
    fn estimate(&self, lm: &[f32; LANDMARKS]) -> f64 {
        self.landmark_h(lm) as f64 * self.scale
    }

    /// max over k of |d(v, k) - d(t, k)| as bounded: written so that it compiles to vector
    /// max instructions.
    #[inline(always)]
    fn landmark_h(&self, lm: &[f32; LANDMARKS]) -> f32 {
        let mut acc = [0f32; LANDMARKS];
        for k in 0..LANDMARKS {
            let (a, b) = (self.lo[k] - lm[k], lm[k] - self.hi[k]);
            acc[k] = if a > b { a } else { b };
        }
        acc.into_iter().fold(0f32, |x, y| if y > x { y } else { x })
    }
}

/// Bounds on a goal's landmark distances (steps 1 and √2) from the subgoals it reaches
/// directly: each `(subgoal, extra)` bounds them to that subgoal's own, give or take `extra`
/// (the length between them), and the bounds are widened by the landmarks' rounding. A subgoal
/// outside the landmarks' component bounds nothing; no bound at all is ±`FAR`.
pub(super) fn landmark_bounds(
    sg: &SubgoalGraph,
    links: impl IntoIterator<Item = (u32, f64)>,
) -> ([f32; LANDMARKS], [f32; LANDMARKS]) {
    let mut lo = [f64::NEG_INFINITY; LANDMARKS];
    let mut hi = [f64::INFINITY; LANDMARKS];
    for (b, extra) in links {
        let lm = &sg.info[b as usize].lm;
        if lm[0] >= 0.0 {
            for k in 0..LANDMARKS {
                let d = lm[k] as f64;
                lo[k] = lo[k].max(d - extra);
                hi[k] = hi[k].min(d + extra);
            }
        }
    }
    let eps = sg.lm_eps as f64;
    let lo = lo.map(|l| {
        if l.is_finite() {
            (l - eps) as f32
        } else {
            -FAR
        }
    });
    let hi = hi.map(|h| if h.is_finite() { (h + eps) as f32 } else { FAR });
    (lo, hi)
}

/// The cells of a path through `nodes` (cells of the bordered layout, each h-reachable from
/// the one before), each leg diagonal-then-straight from its first end or, when that crosses a
/// wall, straight-then-diagonal.
pub(super) fn fill(grid: &Prepared, nodes: &[u32]) -> Vec<(usize, usize)> {
    let w = grid.stride;
    let xy = |c: usize| (c % w - 1, c / w - 1);
    let mut out = vec![xy(nodes[0] as usize)];
    for pair in nodes.windows(2) {
        let (a, b) = (pair[0] as usize, pair[1] as usize);
        if let Some(leg) = leg(grid, a, b) {
            out.extend(leg.into_iter().map(xy));
        } else if let Some(mut leg) = leg(grid, b, a) {
            // Walked from b: reverse it, dropping a and adding b.
            leg.pop();
            leg.reverse();
            out.extend(leg.into_iter().map(xy));
            out.push(xy(b));
        } else {
            debug_assert!(false, "a leg of a subgoal path is not h-reachable");
        }
    }
    out
}

/// The cells after `a` up to `b` on the diagonal-then-straight path, if every step is allowed.
fn leg(grid: &Prepared, a: usize, b: usize) -> Option<Vec<usize>> {
    let w = grid.stride as i64;
    let (ax, ay) = (a as i64 % w, a as i64 / w);
    let (bx, by) = (b as i64 % w, b as i64 / w);
    let (sx, sy) = ((bx - ax).signum(), (by - ay).signum());
    let (ex, ey) = ((bx - ax).abs(), (by - ay).abs());
    let diag = ex.min(ey);
    let mut out = Vec::with_capacity(ex.max(ey) as usize);
    let mut c = a as i64;
    let step_bit =
        |dx: i64, dy: i64| 1u8 << STEPS.iter().position(|&s| s == (dx, dy)).expect("a step");
    for _ in 0..diag {
        if grid.steps[c as usize] & step_bit(sx, sy) == 0 {
            return None;
        }
        c += sx + sy * w;
        out.push(c as usize);
    }
    let (rx, ry) = if ex > ey { (sx, 0) } else { (0, sy) };
    for _ in diag..ex.max(ey) {
        if grid.steps[c as usize] & step_bit(rx, ry) == 0 {
            return None;
        }
        c += rx + ry * w;
        out.push(c as usize);
    }
    Some(out)
}
