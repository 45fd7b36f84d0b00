//! A contraction hierarchy over the subgoal graph with an uncontracted core (after Uras &
//! Koenig's SUB-CH, and core-based hierarchies with goal-directed search in the core).
//!
//! Subgoals are contracted one by one, the cheapest first (twice the edges its contraction
//! adds minus those it removes, plus its neighbours already contracted; re-evaluated when
//! taken; the first priorities count only witnesses of one or two edges). Contracting a
//! subgoal v joins each pair u, w of its remaining neighbours by a shortcut of length
//! d(u, v) + d(v, w) unless a witness turns up, a path from u to w that avoids v and is no
//! longer: first paths of one or two edges, read from a table of u's edges, then A* with the
//! octile length, pruned at the shortcut's length and given up after `WITNESS_SETTLED`
//! expansions (a shortcut too many costs speed, never exactness). A shortcut remembers v, so it unpacks into the edges below it. A subgoal with
//! more than `MAX_DEGREE` edges when its turn comes, or whose contraction would add more than
//! `MAX_GROWTH` edges beyond those it removes, is left uncontracted: these form the core. On
//! random maps full contraction fills the last levels with dense cliques (seconds to build);
//! the core keeps the build bounded.
//!
//! Every distance between subgoals is then the length of a path that climbs through
//! contracted subgoals of rising rank, crosses the core, and descends (either part may be
//! empty). A query links the start and the goal to the subgoals they reach directly (as the
//! plain subgoal search does) and climbs from both with Dijkstra on the edges to higher ranks,
//! stopping at core subgoals; a node that a higher-ranked node reaches more cheaply is not
//! expanded (stall-on-demand). The climbs meeting below the core give one candidate. Then A*
//! runs in the core from the subgoals the start's climb reached, with the plain search's
//! heuristic (octile distance or landmark bound, whichever is larger; the core keeps the
//! graph's distances, so both stay admissible), and every core subgoal the goal's climb
//! reached offers the rest of the way. It stops when no open node's f is below the best.
//!
//! Lengths are integers: moves `8` use steps of 2^32 and √2·2^32 rounded, moves `8int` 10
//! and 14. A length with n diagonal steps is off by at most n/2 units, while two real lengths
//! that differ, with at most n diagonal steps each, differ by more than about 2^32/(3n) units
//! (√2 is badly approximable), so below 37,000 diagonal steps every comparison decides as with
//! the real lengths; beyond, an error would cost less than 10^-9 of the length.

use super::astar::{Moves, Outcome, Prepared, Query, RadixHeap, Solution};
use super::subgoal::{fill, octile_cost, Info, SubgoalGraph, LANDMARKS};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const NONE: u32 = u32::MAX;

/// The length of a straight step for moves `8`.
const UNIT: u64 = 1 << 32;

/// Expansions after which a witness search gives up (and the shortcut is added).
const WITNESS_SETTLED: usize = 16;

/// A subgoal with more edges than this when its turn comes is left in the core (contracting
/// it would test too many pairs and add too many edges).
const MAX_DEGREE: usize = 16;

/// A subgoal whose contraction would add more than this many edges beyond those it removes
/// is left in the core.
const MAX_GROWTH: i64 = 8;

/// An edge: its target, the contracted subgoal a shortcut bypasses (`NONE` for an edge of
/// the subgoal graph), and its length.
#[derive(Clone, Copy, Debug)]
struct Arc {
    to: u32,
    mid: u32,
    w: u64,
}

/// The contraction hierarchy of a subgoal graph for one movement rule.
pub struct Hierarchy {
    straight: u64,
    diagonal: u64,
    /// Per subgoal: its place in the contraction order, `NONE` for the core.
    rank: Vec<u32>,
    /// Edges of subgoal i to higher-ranked subgoals (the core above all), or for a core
    /// subgoal its edges to the rest of the core: `up[first[i]..first[i + 1]]`.
    first: Vec<u32>,
    up: Vec<Arc>,
    shortcuts: usize,
    /// Per core index: the subgoal, its position and its landmark distances; per subgoal:
    /// its core index or `NONE`.
    core_node: Vec<u32>,
    core_xy: Vec<(i32, i32)>,
    core_info: Vec<Info>,
    core_of: Vec<u32>,
    /// Edges of core index i within the core: `core_arcs[core_first[i]..core_first[i + 1]]`.
    core_first: Vec<u32>,
    core_arcs: Vec<CoreArc>,
}

/// An edge within the core: its target's core index and its length.
#[derive(Clone, Copy, Debug)]
struct CoreArc {
    to: u32,
    w: u64,
}

/// Bounded Dijkstra searches on the graph being contracted.
struct Witness {
    dist: Vec<u64>,
    stamp: Vec<u32>,
    generation: u32,
    open: BinaryHeap<Reverse<(u64, u64, u32)>>,
    xy: Vec<(i32, i32)>,
    steps: (u64, u64),
    /// (generation, length) of the edge from the current source, per node.
    near: Vec<(u32, u64)>,
    near_gen: u32,
}

impl Witness {
    fn new(sg: &SubgoalGraph, steps: (u64, u64)) -> Witness {
        let m = sg.subgoals();
        Witness {
            open: BinaryHeap::new(),
            xy: sg.xy.clone(),
            steps,
            near: vec![(0, 0); m],
            near_gen: 0,
            dist: vec![0; m],
            stamp: vec![0; m],
            generation: 0,
        }
    }

    fn get(&self, v: u32) -> u64 {
        if self.stamp[v as usize] == self.generation {
            self.dist[v as usize]
        } else {
            u64::MAX
        }
    }

    /// Whether a path from `from` to `to` avoiding `skip` is at most `need` long: A* with the
    /// octile length (which no edge undercuts), pruned at `need`, giving up (false) after
    /// `WITNESS_SETTLED` expansions.
    fn witnessed(
        &mut self,
        adj: &[Vec<Arc>],
        (from, to, skip): (u32, u32, u32),
        need: u64,
    ) -> bool {
        self.generation += 1;
        let gen = self.generation;
        let (tx, ty) = self.xy[to as usize];
        let (s, dg) = self.steps;
        let h = |(x, y): (i32, i32)| {
            let (a, b) = (
                (x - tx).unsigned_abs() as u64,
                (y - ty).unsigned_abs() as u64,
            );
            let (hi, lo) = if a > b { (a, b) } else { (b, a) };
            (hi - lo) * s + lo * dg
        };
        self.open.clear();
        self.stamp[from as usize] = gen;
        self.dist[from as usize] = 0;
        self.open
            .push(Reverse((h(self.xy[from as usize]), 0, from)));
        let mut settled = 0;
        while let Some(Reverse((_, d, u))) = self.open.pop() {
            if d > self.dist[u as usize] {
                continue;
            }
            if u == to {
                return true;
            }
            settled += 1;
            if settled > WITNESS_SETTLED {
                return false;
            }
            for a in &adj[u as usize] {
                if a.to == skip {
                    continue;
                }
                let nd = d + a.w;
                let f = nd + h(self.xy[a.to as usize]);
                if f <= need && nd < self.get(a.to) {
                    self.stamp[a.to as usize] = gen;
                    self.dist[a.to as usize] = nd;
                    self.open.push(Reverse((f, nd, a.to)));
                }
            }
        }
        false
    }

    /// The shortcuts contracting `v` (neighbours `nb`) needs, as (u, w, length): those without
    /// a witness of one or two edges and, if `search`, none found by `witnessed` either.
    fn shortcuts(
        &mut self,
        adj: &[Vec<Arc>],
        v: u32,
        nb: &[Arc],
        out: &mut Vec<(u32, u32, u64)>,
        search: bool,
    ) {
        out.clear();
        for (i, a) in nb.iter().enumerate() {
            if i + 1 == nb.len() {
                break;
            }
            // Paths of one and two edges first, from a table of a's neighbours.
            self.near_gen += 1;
            let g = self.near_gen;
            for x in &adj[a.to as usize] {
                if x.to != v {
                    self.near[x.to as usize] = (g, x.w);
                }
            }
            for b in &nb[i + 1..] {
                let near = |x: u32| match self.near[x as usize] {
                    (s, w) if s == g => w,
                    _ => u64::MAX,
                };
                let need = a.w + b.w;
                let short = near(b.to) <= need
                    || adj[b.to as usize]
                        .iter()
                        .any(|x| x.to != v && near(x.to).saturating_add(x.w) <= need);
                let witnessed = short || (search && self.witnessed(adj, (a.to, b.to, v), need));
                if !witnessed {
                    out.push((a.to, b.to, need));
                }
            }
        }
    }
}

/// Adds the edge u → w of length `w` bypassing `mid`, or shortens the one there.
fn add_edge(adj: &mut [Vec<Arc>], u: u32, to: u32, w: u64, mid: u32) {
    let list = &mut adj[u as usize];
    if let Some(a) = list.iter_mut().find(|a| a.to == to) {
        if w < a.w {
            a.w = w;
            a.mid = mid;
        }
    } else {
        list.push(Arc { to, mid, w });
    }
}

impl Hierarchy {
    /// The (straight, diagonal) step lengths for `moves` (8 or 8int).
    pub fn weights(moves: Moves) -> (u64, u64) {
        match moves {
            Moves::EightInt => (10, 14),
            _ => (
                UNIT,
                (std::f64::consts::SQRT_2 * UNIT as f64).round() as u64,
            ),
        }
    }

    /// Contracts the subgoal graph `sg` with the step lengths of `moves` (8 or 8int).
    pub fn new(sg: &SubgoalGraph, moves: Moves) -> Hierarchy {
        let (straight, diagonal) = Hierarchy::weights(moves);
        let length = |dx: i64, dy: i64| {
            let (a, b) = (dx.unsigned_abs(), dy.unsigned_abs());
            let (hi, lo) = if a > b { (a, b) } else { (b, a) };
            (hi - lo) * straight + lo * diagonal
        };
        let m = sg.subgoals();
        // The graph both ways (a leg walked backwards is as long and as valid).
        let mut adj: Vec<Vec<Arc>> = vec![Vec::new(); m];
        for u in 0..m {
            let (a, b) = (sg.first[u] as usize, sg.first[u + 1] as usize);
            for (&v, &(dx, dy)) in sg.edges[a..b].iter().zip(&sg.delta[a..b]) {
                let w = length(dx as i64, dy as i64);
                add_edge(&mut adj, u as u32, v, w, NONE);
                add_edge(&mut adj, v, u as u32, w, NONE);
            }
        }
        let mut witness = Witness::new(sg, (straight, diagonal));
        let mut found = Vec::new();
        let mut gone = vec![0i64; m];
        let priority = |search: bool,
                        witness: &mut Witness,
                        adj: &[Vec<Arc>],
                        gone: &[i64],
                        v: u32,
                        found: &mut Vec<(u32, u32, u64)>| {
            let nb = &adj[v as usize];
            if nb.len() > MAX_DEGREE {
                found.clear();
                return i64::MAX;
            }
            witness.shortcuts(adj, v, nb, found, search);
            2 * (found.len() as i64 - nb.len() as i64) + gone[v as usize]
        };
        // First priorities from witnesses of one or two edges only (a shortcut too many at
        // worst: the priority is an overestimate, corrected when the subgoal is taken).
        let mut heap = BinaryHeap::with_capacity(m);
        for v in 0..m as u32 {
            let p = priority(false, &mut witness, &adj, &gone, v, &mut found);
            heap.push(Reverse((p, v)));
        }
        let mut rank = vec![NONE; m];
        let mut upward: Vec<Vec<Arc>> = vec![Vec::new(); m];
        let mut order = 0u32;
        let mut shortcuts = 0;
        while let Some(Reverse((_, v))) = heap.pop() {
            if rank[v as usize] != NONE {
                continue;
            }
            // Re-evaluated when taken: other contractions change its edges and witnesses.
            let p = priority(true, &mut witness, &adj, &gone, v, &mut found);
            if let Some(&Reverse((next, _))) = heap.peek() {
                if p > next {
                    heap.push(Reverse((p, v)));
                    continue;
                }
            }
            if p == i64::MAX {
                break;
            }
            if found.len() as i64 - adj[v as usize].len() as i64 > MAX_GROWTH {
                // Left for the core.
                continue;
            }
            let nb = std::mem::take(&mut adj[v as usize]);
            for a in &nb {
                let list = &mut adj[a.to as usize];
                if let Some(i) = list.iter().position(|b| b.to == v) {
                    list.swap_remove(i);
                }
                gone[a.to as usize] += 1;
            }
            for &(a, b, w) in &found {
                add_edge(&mut adj, a, b, w, v);
                add_edge(&mut adj, b, a, w, v);
            }
            shortcuts += found.len();
            upward[v as usize] = nb;
            rank[v as usize] = order;
            order += 1;
        }
        let mut first = Vec::with_capacity(m + 1);
        let mut up = Vec::new();
        for (v, list) in upward.into_iter().enumerate() {
            first.push(up.len() as u32);
            if rank[v] == NONE {
                up.extend(&adj[v]);
            } else {
                up.extend(list);
            }
        }
        first.push(up.len() as u32);
        // The core, numbered in subgoal order (so along the Z-order curve) and packed.
        let core_node: Vec<u32> = (0..m as u32)
            .filter(|&v| rank[v as usize] == NONE)
            .collect();
        let mut core_of = vec![NONE; m];
        for (i, &v) in core_node.iter().enumerate() {
            core_of[v as usize] = i as u32;
        }
        let mut core_first = Vec::with_capacity(core_node.len() + 1);
        let mut core_arcs = Vec::new();
        for &v in &core_node {
            core_first.push(core_arcs.len() as u32);
            core_arcs.extend(adj[v as usize].iter().map(|a| CoreArc {
                to: core_of[a.to as usize],
                w: a.w,
            }));
        }
        core_first.push(core_arcs.len() as u32);
        Hierarchy {
            straight,
            diagonal,
            rank,
            first,
            up,
            shortcuts,
            core_xy: core_node.iter().map(|&v| sg.xy[v as usize]).collect(),
            core_info: core_node.iter().map(|&v| sg.info[v as usize]).collect(),
            core_node,
            core_of,
            core_first,
            core_arcs,
        }
    }

    /// Shortcuts added (each joins two subgoals both ways).
    pub fn shortcuts(&self) -> usize {
        self.shortcuts
    }

    /// Subgoals left uncontracted (the core).
    pub fn core(&self) -> usize {
        self.core_node.len()
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.rank.len() * 8
            + self.first.len() * 4
            + self.up.len() * std::mem::size_of::<Arc>()
            + self.core_node.len() * (12 + std::mem::size_of::<Info>())
            + self.core_first.len() * 4
            + self.core_arcs.len() * std::mem::size_of::<CoreArc>()
    }

    fn arcs(&self, u: u32) -> &[Arc] {
        &self.up[self.first[u as usize] as usize..self.first[u as usize + 1] as usize]
    }

    /// Appends to `out` the subgoals after `a` up to `b` on the graph path the edge a–b
    /// stands for.
    fn unpack(&self, a: u32, b: u32, out: &mut Vec<u32>) {
        let mut stack = vec![(a, b)];
        while let Some((a, b)) = stack.pop() {
            let (lo, hi) = if self.rank[a as usize] <= self.rank[b as usize] {
                (a, b)
            } else {
                (b, a)
            };
            let arc = self
                .arcs(lo)
                .iter()
                .find(|x| x.to == hi)
                .expect("an edge of the hierarchy");
            if arc.mid == NONE {
                out.push(b);
            } else {
                stack.push((arc.mid, b));
                stack.push((a, arc.mid));
            }
        }
    }
}

/// One side's search state of a node.
#[derive(Clone, Copy, Default)]
struct Side {
    d: u64,
    parent: u32,
    /// The generation that last touched the node, with `CLOSED` once the core search has
    /// expanded it.
    stamp: u32,
}

const CLOSED: u32 = 1 << 31;

/// The core search's state of a core subgoal.
#[derive(Clone, Copy, Default)]
struct Core {
    /// Length from the start.
    g: u64,
    /// Length to the goal down the goal's climb (`u64::MAX` if it did not reach it).
    exit: u64,
    /// Core index of the parent, `NONE` for a subgoal entered from the start's climb.
    parent: u32,
    /// The generation that last touched the node, with `CLOSED` once expanded.
    stamp: u32,
}

/// A climb reaches `v` at length `d` from `parent`: kept if shorter than before, and a
/// meeting with the other side's climb (`theirs`, for the second climb) if that is the best so
/// far.
fn reach(
    mine: &mut [Side],
    theirs: Option<&[Side]>,
    heap: &mut BinaryHeap<Reverse<(u64, u32)>>,
    gen: u32,
    (v, d, parent): (u32, u64, u32),
    (best, meet): (&mut u64, &mut u32),
) {
    let sv = &mut mine[v as usize];
    if sv.stamp == gen && sv.d <= d {
        return;
    }
    *sv = Side {
        d,
        parent,
        stamp: gen,
    };
    heap.push(Reverse((d, v)));
    if let Some(theirs) = theirs {
        let o = theirs[v as usize];
        if o.stamp == gen && d + o.d < *best {
            *best = d + o.d;
            *meet = v;
        }
    }
}

/// Reusable memory for hierarchy queries.
#[derive(Default)]
pub struct HierarchySearch {
    state: [Vec<Side>; 2],
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    open: RadixHeap,
    core: Vec<Core>,
    links: [Vec<u32>; 2],
    /// Core subgoals the start's and the goal's climbs reached.
    entries: Vec<u32>,
    exits: Vec<u32>,
    generation: u32,
}

impl HierarchySearch {
    /// Empty memory.
    pub fn new() -> HierarchySearch {
        HierarchySearch::default()
    }

    /// Solves `q` (moves `Eight` or `EightInt` as `h` was built for, no energy budget) on the
    /// subgoal graph `sg` of `grid` with its hierarchy `h`. `expanded` counts nodes expanded
    /// by the climbs and the core search.
    pub fn solve(
        &mut self,
        grid: &Prepared,
        sg: &SubgoalGraph,
        h: &Hierarchy,
        q: &Query,
    ) -> Outcome {
        debug_assert!(q.moves != Moves::Four && q.energy.is_none());
        debug_assert!(Hierarchy::weights(q.moves) == (h.straight, h.diagonal));
        let m = sg.subgoals();
        for st in &mut self.state {
            if st.len() < m {
                st.resize(m, Side::default());
            }
        }
        self.generation = (self.generation + 1) & !CLOSED;
        if self.generation == 0 {
            for st in &mut self.state {
                st.fill(Side::default());
            }
            self.generation = 1;
        }
        let gen = self.generation;
        let (straight, diagonal) = q.moves.costs();
        let octile = |a, b| octile_cost(a, b, straight, diagonal);
        let length = |a: (i64, i64), b: (i64, i64)| {
            let (dx, dy) = ((a.0 - b.0).unsigned_abs(), (a.1 - b.1).unsigned_abs());
            let (hi, lo) = if dx > dy { (dx, dy) } else { (dy, dx) };
            (hi - lo) * h.straight + lo * h.diagonal
        };
        let s = grid.at(q.start.0, q.start.1);
        let t = grid.at(q.goal.0, q.goal.1);
        let sxy = (q.start.0 as i64 + 1, q.start.1 as i64 + 1);
        let txy = (q.goal.0 as i64 + 1, q.goal.1 as i64 + 1);
        let direct = || Outcome {
            solution: Some(Solution {
                cost: octile(sxy, txy),
                path: fill(grid, &[s as u32, t as u32]),
            }),
            expanded: 0,
        };
        if s == t {
            return direct();
        }
        let (s_id, t_id) = (sg.id[s], sg.id[t]);
        let ends = [(s, s_id, txy), (t, t_id, sxy)];
        for (side, &(c, id, other)) in ends.iter().enumerate() {
            let links = &mut self.links[side];
            links.clear();
            if id != 0 {
                links.push(id - 1);
            } else {
                let hit = sg.sweep(grid, c, Some(other), |v| links.push(v));
                let other_id = ends[1 - side].1;
                if hit || (other_id != 0 && links.contains(&(other_id - 1))) {
                    return direct();
                }
            }
        }
        let node_xy = |v: u32| {
            let (x, y) = sg.xy[v as usize];
            (x as i64, y as i64)
        };
        let mut best = u64::MAX;
        let mut meet = NONE;
        let mut expanded = 0;
        self.entries.clear();
        self.exits.clear();
        // The climbs: from each end up to the core (whose subgoals are reached, not expanded).
        for (side, &(_, own_id, _)) in ends.iter().enumerate() {
            let end = if side == 0 { sxy } else { txy };
            // The first climb has nothing to meet yet.
            let (mine, theirs) = {
                let (a, b) = self.state.split_at_mut(1);
                if side == 0 {
                    (&mut a[0], None)
                } else {
                    (&mut b[0], Some(&a[0][..]))
                }
            };
            let heap = &mut self.heap;
            heap.clear();
            for &v in &self.links[side] {
                let d = if own_id != 0 {
                    0
                } else {
                    length(end, node_xy(v))
                };
                reach(
                    mine,
                    theirs,
                    heap,
                    gen,
                    (v, d, NONE),
                    (&mut best, &mut meet),
                );
            }
            while let Some(Reverse((d, u))) = heap.pop() {
                if d > mine[u as usize].d {
                    continue;
                }
                if h.rank[u as usize] == NONE {
                    if side == 0 {
                        self.entries.push(u);
                    } else {
                        self.exits.push(u);
                    }
                    continue;
                }
                expanded += 1;
                let arcs = h.arcs(u);
                // Stall-on-demand: a higher node reaches u more cheaply, so no shortest climb
                // passes u with this length.
                if arcs.iter().any(|a| {
                    let y = mine[a.to as usize];
                    y.stamp == gen && y.d + a.w < d
                }) {
                    continue;
                }
                for a in arcs {
                    reach(
                        mine,
                        theirs,
                        heap,
                        gen,
                        (a.to, d + a.w, u),
                        (&mut best, &mut meet),
                    );
                }
            }
        }
        // The core: A* with the octile distance to the goal, from the core subgoals the start's
        // climb reached, meeting the goal's climb.
        // The heuristic of the plain subgoal search: the octile distance or the landmarks'
        // bound, whichever is larger (the core keeps the graph's distances).
        let mut lo = [f64::NEG_INFINITY; LANDMARKS];
        let mut hi = [f64::INFINITY; LANDMARKS];
        let unit = |a: (i64, i64), b: (i64, i64)| {
            let (dx, dy) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
            let (hi, lo) = if dx > dy { (dx, dy) } else { (dy, dx) };
            (hi - lo) as f64 + lo as f64 * std::f64::consts::SQRT_2
        };
        for &v in &self.links[1] {
            let lm = &sg.info[v as usize].lm;
            let extra = if t_id != 0 {
                0.0
            } else {
                unit(node_xy(v), txy)
            };
            if lm[0] >= 0.0 {
                for k in 0..LANDMARKS {
                    let d = lm[k] as f64;
                    lo[k] = lo[k].max(d - extra);
                    hi[k] = hi[k].min(d + extra);
                }
            }
        }
        let eps = sg.lm_eps as f64;
        let lo: [f32; LANDMARKS] = lo.map(|l| {
            if l.is_finite() {
                (l - eps) as f32
            } else {
                -1e30
            }
        });
        let hi: [f32; LANDMARKS] = hi.map(|h| {
            if h.is_finite() {
                (h + eps) as f32
            } else {
                1e30
            }
        });
        // Landmark units to lengths, rounded down.
        let scale = h.diagonal as f64 / std::f64::consts::SQRT_2 * (1.0 - 1e-9);
        let hcost = |c: usize| {
            let lm = &h.core_info[c].lm;
            let mut acc = [0f32; LANDMARKS];
            for k in 0..LANDMARKS {
                let (a, b) = (lo[k] - lm[k], lm[k] - hi[k]);
                acc[k] = if a > b { a } else { b };
            }
            let l = acc.into_iter().fold(0f32, |x, y| if y > x { y } else { x });
            let (x, y) = h.core_xy[c];
            length((x as i64, y as i64), txy).max((l as f64 * scale) as u64)
        };
        let cs = &mut self.core;
        if cs.len() < h.core_node.len() {
            cs.resize(h.core_node.len(), Core::default());
        }
        let fresh = Core {
            g: u64::MAX,
            exit: u64::MAX,
            parent: NONE,
            stamp: gen,
        };
        for &v in &self.exits {
            let c = h.core_of[v as usize] as usize;
            if cs[c].stamp != gen {
                cs[c] = fresh;
            }
            cs[c].exit = self.state[1][v as usize].d;
        }
        let open = &mut self.open;
        open.clear();
        for &v in &self.entries {
            let c = h.core_of[v as usize] as usize;
            if cs[c].stamp != gen {
                cs[c] = fresh;
            }
            let g = self.state[0][v as usize].d;
            if g < cs[c].g {
                cs[c].g = g;
                open.push(g + hcost(c), c as u32);
            }
        }
        // A meeting in the core, by core index.
        let mut core_meet = NONE;
        while let Some((f, c)) = open.pop() {
            if f >= best {
                break;
            }
            let cu = &mut cs[c as usize];
            if cu.stamp != gen {
                continue;
            }
            cu.stamp = gen | CLOSED;
            expanded += 1;
            let g = cu.g;
            if cu.exit != u64::MAX && g + cu.exit < best {
                best = g + cu.exit;
                core_meet = c;
            }
            let (a0, a1) = (
                h.core_first[c as usize] as usize,
                h.core_first[c as usize + 1] as usize,
            );
            for a in &h.core_arcs[a0..a1] {
                let nd = g + a.w;
                let cv = &mut cs[a.to as usize];
                if cv.stamp & !CLOSED != gen {
                    *cv = fresh;
                } else if cv.stamp & CLOSED != 0 || cv.g <= nd {
                    continue;
                }
                cv.g = nd;
                cv.parent = c;
                if cv.exit != u64::MAX && nd + cv.exit < best {
                    best = nd + cv.exit;
                    core_meet = a.to;
                }
                let f = nd + hcost(a.to as usize);
                if f < best {
                    open.push(f, a.to);
                }
            }
        }
        let mut climb = Vec::new();
        if core_meet != NONE {
            // Through the core: back to the entry, then down the start's climb.
            let mut c = core_meet;
            loop {
                climb.push(h.core_node[c as usize]);
                if cs[c as usize].parent == NONE {
                    break;
                }
                c = cs[c as usize].parent;
            }
            meet = h.core_node[core_meet as usize];
        } else if meet != NONE {
            climb.push(meet);
        } else {
            return Outcome {
                solution: None,
                expanded,
            };
        }
        // The climb from the start's side, then the descent to the goal's.
        let mut v = *climb.last().expect("a node");
        while self.state[0][v as usize].parent != NONE {
            v = self.state[0][v as usize].parent;
            climb.push(v);
        }
        climb.reverse();
        v = meet;
        while self.state[1][v as usize].parent != NONE {
            v = self.state[1][v as usize].parent;
            climb.push(v);
        }
        let mut nodes = vec![climb[0]];
        for pair in climb.windows(2) {
            h.unpack(pair[0], pair[1], &mut nodes);
        }
        let mut cells = Vec::with_capacity(nodes.len() + 2);
        if s_id == 0 {
            cells.push(s as u32);
        }
        cells.extend(nodes.iter().map(|&v| sg.cell[v as usize]));
        if t_id == 0 {
            cells.push(t as u32);
        }
        let w = grid.stride as i64;
        let at = |c: u32| (c as i64 % w, c as i64 / w);
        let cost = cells.windows(2).map(|p| octile(at(p[0]), at(p[1]))).sum();
        Outcome {
            solution: Some(Solution {
                cost,
                path: fill(grid, &cells),
            }),
            expanded,
        }
    }
}
