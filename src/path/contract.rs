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
use super::stamp::{self, Generation, CLOSED};
use super::subgoal::{fill, landmark_bounds, octile_cost, Info, SubgoalGraph, LANDMARKS};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const NONE: u32 = u32::MAX;

/// The length of a straight step for moves `8`.
const UNIT: u64 = 1 << 32;

/// The length of `dx` straight and `dy` across with `steps` = (straight, diagonal) step
/// lengths, over an obstacle-free grid.
#[inline(always)]
fn octile_length(dx: u64, dy: u64, (straight, diagonal): (u64, u64)) -> u64 {
    let (hi, lo) = if dx > dy { (dx, dy) } else { (dy, dx) };
    (hi - lo) * straight + lo * diagonal
}

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
        let steps = self.steps;
        let h = |(x, y): (i32, i32)| {
            octile_length(
                (x - tx).unsigned_abs() as u64,
                (y - ty).unsigned_abs() as u64,
                steps,
            )
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

/// The subgoal graph both ways, with lengths (a leg walked backwards is as long and as valid).
fn both_ways(sg: &SubgoalGraph, weights: (u64, u64)) -> Vec<Vec<Arc>> {
    let m = sg.subgoals();
    let mut adj: Vec<Vec<Arc>> = vec![Vec::new(); m];
    for u in 0..m {
        let (a, b) = (sg.first[u] as usize, sg.first[u + 1] as usize);
        for (&v, &(dx, dy)) in sg.edges[a..b].iter().zip(&sg.delta[a..b]) {
            let w = octile_length(
                (dx as i64).unsigned_abs(),
                (dy as i64).unsigned_abs(),
                weights,
            );
            add_edge(&mut adj, u as u32, v, w, NONE);
            add_edge(&mut adj, v, u as u32, w, NONE);
        }
    }
    adj
}

/// The contraction under way: the graph left, how many neighbours each subgoal has lost, and
/// the shortcuts the last priority found.
struct Contraction {
    witness: Witness,
    adj: Vec<Vec<Arc>>,
    gone: Vec<i64>,
    found: Vec<(u32, u32, u64)>,
}

impl Contraction {
    /// The priority of contracting `v` (lower first): the edges it would add less those it
    /// removes, twice, plus its neighbours already gone; `i64::MAX` above `MAX_DEGREE`
    /// neighbours. Leaves the shortcuts in `found`; `search` looks for longer witnesses too.
    fn priority(&mut self, search: bool, v: u32) -> i64 {
        let nb = &self.adj[v as usize];
        if nb.len() > MAX_DEGREE {
            self.found.clear();
            return i64::MAX;
        }
        self.witness
            .shortcuts(&self.adj, v, nb, &mut self.found, search);
        2 * (self.found.len() as i64 - nb.len() as i64) + self.gone[v as usize]
    }

    /// Contracts the subgoals in priority order until the rest would grow the graph too much
    /// (the core). Returns each subgoal's rank (`NONE` in the core), the edges of each
    /// contracted one to those contracted later or left, and the shortcuts added.
    fn contract(&mut self) -> (Vec<u32>, Vec<Vec<Arc>>, usize) {
        let m = self.adj.len();
        // First priorities from witnesses of one or two edges only (a shortcut too many at
        // worst: the priority is an overestimate, corrected when the subgoal is taken).
        let mut heap = BinaryHeap::with_capacity(m);
        for v in 0..m as u32 {
            heap.push(Reverse((self.priority(false, v), v)));
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
            let p = self.priority(true, v);
            if let Some(&Reverse((next, _))) = heap.peek() {
                if p > next {
                    heap.push(Reverse((p, v)));
                    continue;
                }
            }
            if p == i64::MAX {
                break;
            }
            if self.found.len() as i64 - self.adj[v as usize].len() as i64 > MAX_GROWTH {
                // Left for the core.
                continue;
            }
            shortcuts += self.found.len();
            upward[v as usize] = self.remove(v);
            rank[v as usize] = order;
            order += 1;
        }
        (rank, upward, shortcuts)
    }

    /// Takes `v` out of the graph, adding the shortcuts in `found`; returns its edges.
    fn remove(&mut self, v: u32) -> Vec<Arc> {
        let nb = std::mem::take(&mut self.adj[v as usize]);
        for a in &nb {
            let list = &mut self.adj[a.to as usize];
            if let Some(i) = list.iter().position(|b| b.to == v) {
                list.swap_remove(i);
            }
            self.gone[a.to as usize] += 1;
        }
        for &(a, b, w) in &self.found {
            add_edge(&mut self.adj, a, b, w, v);
            add_edge(&mut self.adj, b, a, w, v);
        }
        nb
    }
}

/// The upward graph packed: per subgoal its edges (`up[first[v]..first[v + 1]]`), those it had
/// when contracted, or for a core subgoal those of the core.
fn upward_arrays(upward: Vec<Vec<Arc>>, rank: &[u32], adj: &[Vec<Arc>]) -> (Vec<u32>, Vec<Arc>) {
    let mut first = Vec::with_capacity(rank.len() + 1);
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
    (first, up)
}

/// The core (the subgoals left uncontracted), numbered in subgoal order (so along the
/// Z-order curve) and packed: its subgoals, each subgoal's core number (`NONE` outside), and
/// its arcs (`core_arcs[core_first[i]..core_first[i + 1]]`).
fn core_arrays(rank: &[u32], adj: &[Vec<Arc>]) -> (Vec<u32>, Vec<u32>, Vec<u32>, Vec<CoreArc>) {
    let m = rank.len();
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
    (core_node, core_of, core_first, core_arcs)
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
        let mut c = Contraction {
            witness: Witness::new(sg, (straight, diagonal)),
            adj: both_ways(sg, (straight, diagonal)),
            gone: vec![0; sg.subgoals()],
            found: Vec::new(),
        };
        let (rank, upward, shortcuts) = c.contract();
        let adj = c.adj;
        let (first, up) = upward_arrays(upward, &rank, &adj);
        let (core_node, core_of, core_first, core_arcs) = core_arrays(&rank, &adj);
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

    /// The octile length between two points of the bordered layout, in this hierarchy's
    /// step lengths.
    #[inline(always)]
    fn length(&self, a: (i64, i64), b: (i64, i64)) -> u64 {
        octile_length(
            (a.0 - b.0).unsigned_abs(),
            (a.1 - b.1).unsigned_abs(),
            (self.straight, self.diagonal),
        )
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

/// The index of the start's side in the per-side arrays of a query (its links, its climb).
const START: usize = 0;
/// The index of the goal's side.
const GOAL: usize = 1;

/// A query's two ends, per side (`START`, `GOAL`).
#[derive(Clone, Copy, Debug)]
struct Ends {
    /// The end's cell in the bordered layout.
    cell: [usize; 2],
    /// Its subgoal number + 1, or 0 for a cell that is no subgoal.
    id: [u32; 2],
    /// Its (x, y) in the bordered layout.
    xy: [(i64, i64); 2],
}

impl Ends {
    fn new(grid: &Prepared, sg: &SubgoalGraph, q: &Query) -> Ends {
        let cell = [grid.at(q.start.0, q.start.1), grid.at(q.goal.0, q.goal.1)];
        let xy = |(x, y): (usize, usize)| (x as i64 + 1, y as i64 + 1);
        Ends {
            cell,
            id: cell.map(|c| sg.id[c]),
            xy: [xy(q.start), xy(q.goal)],
        }
    }
}

/// The shortest way found so far from the start's links to the goal's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Meeting {
    /// Its length (`u64::MAX` while there is none).
    len: u64,
    /// The subgoal where the two climbs meet, when the way stays below the core (else `NONE`).
    below: u32,
    /// The core index where the core search joins the goal's climb, when the way crosses the
    /// core (else `NONE`; it wins over `below`, being found later and shorter).
    core: u32,
}

impl Meeting {
    const NONE: Meeting = Meeting {
        len: u64::MAX,
        below: NONE,
        core: NONE,
    };
}

/// One side's search state of a node.
#[derive(Clone, Copy, Default)]
struct Side {
    d: u64,
    parent: u32,
    /// The generation that last touched the node.
    stamp: u32,
}

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
#[inline(always)]
fn reach(
    mine: &mut [Side],
    theirs: Option<&[Side]>,
    heap: &mut BinaryHeap<Reverse<(u64, u32)>>,
    gen: u32,
    (v, d, parent): (u32, u64, u32),
    meeting: &mut Meeting,
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
        if o.stamp == gen && d + o.d < meeting.len {
            meeting.len = d + o.d;
            meeting.below = v;
        }
    }
}

/// The core search's heuristic: from a core subgoal, the larger of the octile length to the
/// goal and the landmarks' lower bound on the distance (the plain subgoal search's heuristic;
/// the core keeps the graph's distances, so both stay admissible).
struct CoreHeuristic {
    /// Per landmark, bounds on the goal's distance to it (in landmark units, widened by the
    /// landmarks' rounding).
    lo: [f32; LANDMARKS],
    hi: [f32; LANDMARKS],
    /// Landmark units to lengths, rounded down.
    scale: f64,
    goal: (i64, i64),
}

impl CoreHeuristic {
    /// The goal's landmark distances bounded through its links (`links`, the subgoals it
    /// reaches directly): each link's distance, give or take the link's octile length.
    fn new(sg: &SubgoalGraph, h: &Hierarchy, links: &[u32], ends: &Ends) -> CoreHeuristic {
        let goal = ends.xy[GOAL];
        let (lo, hi) = landmark_bounds(
            sg,
            links.iter().map(|&v| {
                let extra = if ends.id[GOAL] != 0 {
                    0.0
                } else {
                    let (x, y) = sg.xy[v as usize];
                    octile_cost((x as i64, y as i64), goal, 1.0, std::f64::consts::SQRT_2)
                };
                (v, extra)
            }),
        );
        CoreHeuristic {
            lo,
            hi,
            scale: h.diagonal as f64 / std::f64::consts::SQRT_2 * (1.0 - 1e-9),
            goal,
        }
    }

    /// The estimate from core index `c` of `h`.
    #[inline(always)]
    fn at(&self, h: &Hierarchy, c: usize) -> u64 {
        let lm = &h.core_info[c].lm;
        let mut acc = [0f32; LANDMARKS];
        for k in 0..LANDMARKS {
            let (a, b) = (self.lo[k] - lm[k], lm[k] - self.hi[k]);
            acc[k] = if a > b { a } else { b };
        }
        let l = acc.into_iter().fold(0f32, |x, y| if y > x { y } else { x });
        let (x, y) = h.core_xy[c];
        h.length((x as i64, y as i64), self.goal)
            .max((l as f64 * self.scale) as u64)
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
    generation: Generation,
}

impl HierarchySearch {
    /// Empty memory.
    pub fn new() -> HierarchySearch {
        HierarchySearch::default()
    }

    /// Solves `q` (moves `Eight` or `EightInt` as `h` was built for, no energy budget) on the
    /// subgoal graph `sg` of `grid` with its hierarchy `h`. `expanded` counts nodes expanded
    /// by the climbs and the core search.
    ///
    /// The phases: `begin` (memory and generation), `link` (each end to the subgoals it
    /// reaches, or straight to the other end), `climb` from each end, `core_search` with the
    /// `CoreHeuristic`, then `route` (the subgoals of the way, shortcuts unpacked) and
    /// `solution` (the cells and the length).
    pub fn solve(
        &mut self,
        grid: &Prepared,
        sg: &SubgoalGraph,
        h: &Hierarchy,
        q: &Query,
    ) -> Outcome {
        debug_assert!(q.moves != Moves::Four && q.energy.is_none());
        debug_assert!(Hierarchy::weights(q.moves) == (h.straight, h.diagonal));
        let gen = self.begin(sg.subgoals(), h.core());
        let ends = Ends::new(grid, sg, q);
        if ends.cell[START] == ends.cell[GOAL] || self.link(grid, sg, &ends) {
            return Outcome {
                solution: Some(solution(grid, &ends.cell.map(|c| c as u32), q.moves)),
                expanded: 0,
            };
        }
        let mut meeting = Meeting::NONE;
        let mut expanded = self.climb(h, sg, &ends, START, gen, &mut meeting);
        expanded += self.climb(h, sg, &ends, GOAL, gen, &mut meeting);
        let heuristic = CoreHeuristic::new(sg, h, &self.links[GOAL], &ends);
        expanded += self.core_search(h, &heuristic, gen, &mut meeting);
        Outcome {
            solution: self
                .route(h, &meeting)
                .map(|nodes| solution(grid, &cells_through(sg, &ends, &nodes), q.moves)),
            expanded,
        }
    }

    /// Readies the memory for a graph of `subgoals` subgoals with `core` in the core and
    /// starts a new generation, which it returns.
    fn begin(&mut self, subgoals: usize, core: usize) -> u32 {
        for st in &mut self.state {
            if st.len() < subgoals {
                st.resize(subgoals, Side::default());
            }
        }
        if self.core.len() < core {
            self.core.resize(core, Core::default());
        }
        self.generation.advance(|| {
            for st in &mut self.state {
                st.fill(Side::default());
            }
            self.core.fill(Core::default());
        })
    }

    /// Links each end to the subgoals it reaches directly (itself, if it is one): `links[side]`.
    /// True if the ends reach each other directly, so the answer is their octile length.
    fn link(&mut self, grid: &Prepared, sg: &SubgoalGraph, ends: &Ends) -> bool {
        for side in [START, GOAL] {
            let other = 1 - side;
            let links = &mut self.links[side];
            links.clear();
            let id = ends.id[side];
            if id != 0 {
                links.push(id - 1);
            } else {
                let hit = sg.sweep(grid, ends.cell[side], Some(ends.xy[other]), |v| {
                    links.push(v)
                });
                let other_id = ends.id[other];
                if hit || (other_id != 0 && links.contains(&(other_id - 1))) {
                    return true;
                }
            }
        }
        false
    }

    /// Climbs from one end's links (`side`) with Dijkstra on the edges to higher ranks, up to
    /// the core, whose subgoals are reached but not expanded (kept in `entries` for the start,
    /// `exits` for the goal). The goal's climb meets the start's (done before) in `meeting`.
    /// Returns the nodes expanded.
    fn climb(
        &mut self,
        h: &Hierarchy,
        sg: &SubgoalGraph,
        ends: &Ends,
        side: usize,
        gen: u32,
        meeting: &mut Meeting,
    ) -> u64 {
        // The first climb has nothing to meet yet.
        let (mine, theirs) = {
            let (a, b) = self.state.split_at_mut(1);
            if side == START {
                (&mut a[0], None)
            } else {
                (&mut b[0], Some(&a[0][..]))
            }
        };
        let core = if side == START {
            &mut self.entries
        } else {
            &mut self.exits
        };
        core.clear();
        let heap = &mut self.heap;
        heap.clear();
        let end = ends.xy[side];
        for &v in &self.links[side] {
            let d = if ends.id[side] != 0 {
                0
            } else {
                let (x, y) = sg.xy[v as usize];
                h.length(end, (x as i64, y as i64))
            };
            reach(mine, theirs, heap, gen, (v, d, NONE), meeting);
        }
        let mut expanded = 0;
        while let Some(Reverse((d, u))) = heap.pop() {
            if d > mine[u as usize].d {
                continue;
            }
            if h.rank[u as usize] == NONE {
                core.push(u);
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
                reach(mine, theirs, heap, gen, (a.to, d + a.w, u), meeting);
            }
        }
        expanded
    }

    /// A* in the core from the core subgoals the start's climb reached (`entries`), every core
    /// subgoal the goal's climb reached (`exits`) offering the rest of the way; stops when no
    /// open node's f is below the best length. Returns the nodes expanded.
    fn core_search(
        &mut self,
        h: &Hierarchy,
        heuristic: &CoreHeuristic,
        gen: u32,
        meeting: &mut Meeting,
    ) -> u64 {
        let cs = &mut self.core;
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
            cs[c].exit = self.state[GOAL][v as usize].d;
        }
        let open = &mut self.open;
        open.clear();
        for &v in &self.entries {
            let c = h.core_of[v as usize] as usize;
            if cs[c].stamp != gen {
                cs[c] = fresh;
            }
            let g = self.state[START][v as usize].d;
            if g < cs[c].g {
                cs[c].g = g;
                open.push(g + heuristic.at(h, c), c as u32);
            }
        }
        let mut best = meeting.len;
        let mut core_meet = NONE;
        let mut expanded = 0;
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
                if !stamp::seen(cv.stamp, gen) {
                    *cv = fresh;
                } else if stamp::closed(cv.stamp, gen) || cv.g <= nd {
                    continue;
                }
                cv.g = nd;
                cv.parent = c;
                if cv.exit != u64::MAX && nd + cv.exit < best {
                    best = nd + cv.exit;
                    core_meet = a.to;
                }
                let f = nd + heuristic.at(h, a.to as usize);
                if f < best {
                    open.push(f, a.to);
                }
            }
        }
        if core_meet != NONE {
            meeting.len = best;
            meeting.core = core_meet;
        }
        expanded
    }

    /// The subgoals of the way `meeting` found, from the start's links to the goal's: up the
    /// start's climb, through the core (if it crosses it), down the goal's climb, every
    /// shortcut unpacked into the graph's edges. `None` if no way was found.
    fn route(&self, h: &Hierarchy, meeting: &Meeting) -> Option<Vec<u32>> {
        let mut climb = Vec::new();
        let top = if meeting.core != NONE {
            // Through the core: back to the entry.
            let mut c = meeting.core;
            loop {
                climb.push(h.core_node[c as usize]);
                if self.core[c as usize].parent == NONE {
                    break;
                }
                c = self.core[c as usize].parent;
            }
            h.core_node[meeting.core as usize]
        } else if meeting.below != NONE {
            climb.push(meeting.below);
            meeting.below
        } else {
            return None;
        };
        // Down the start's climb, turned round, then down the goal's.
        let mut v = *climb.last().expect("a node");
        while self.state[START][v as usize].parent != NONE {
            v = self.state[START][v as usize].parent;
            climb.push(v);
        }
        climb.reverse();
        v = top;
        while self.state[GOAL][v as usize].parent != NONE {
            v = self.state[GOAL][v as usize].parent;
            climb.push(v);
        }
        let mut nodes = vec![climb[0]];
        for pair in climb.windows(2) {
            h.unpack(pair[0], pair[1], &mut nodes);
        }
        Some(nodes)
    }
}

/// The cells of the way through the subgoals `nodes`: the start's cell unless it is the first
/// of them, their cells, the goal's cell unless it is the last.
fn cells_through(sg: &SubgoalGraph, ends: &Ends, nodes: &[u32]) -> Vec<u32> {
    let mut cells = Vec::with_capacity(nodes.len() + 2);
    if ends.id[START] == 0 {
        cells.push(ends.cell[START] as u32);
    }
    cells.extend(nodes.iter().map(|&v| sg.cell[v as usize]));
    if ends.id[GOAL] == 0 {
        cells.push(ends.cell[GOAL] as u32);
    }
    cells
}

/// The path through `cells` (each h-reachable from the one before) and its length for `moves`.
fn solution(grid: &Prepared, cells: &[u32], moves: Moves) -> Solution {
    let (straight, diagonal) = moves.costs();
    let w = grid.stride as i64;
    let at = |c: u32| (c as i64 % w, c as i64 / w);
    let cost = cells
        .windows(2)
        .map(|p| octile_cost(at(p[0]), at(p[1]), straight, diagonal))
        .sum();
    Solution {
        cost,
        path: fill(grid, cells),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::astar::{Heuristic, Solver};
    use crate::path::grid::Grid;

    /// A map, its subgoal graph and its hierarchy for moves `8int` (integer lengths 10 and 14,
    /// which A* adds up exactly, so the phases' lengths compare with `==`).
    struct Fixture {
        grid: Grid,
        prepared: Prepared,
        sg: SubgoalGraph,
        h: Hierarchy,
    }

    impl Fixture {
        /// A `w` × `h` grid with about `walls` % walls (xorshift from `seed`).
        fn random(seed: u64, w: usize, h: usize, walls: u64) -> Fixture {
            let mut x = seed | 1;
            let rows: Vec<String> = (0..h)
                .map(|_| {
                    (0..w)
                        .map(|_| {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            if x % 100 < walls {
                                '#'
                            } else {
                                '.'
                            }
                        })
                        .collect()
                })
                .collect();
            Fixture::of(Grid::parse_text(rows.iter().map(String::as_str)).expect("a grid"))
        }

        fn of(grid: Grid) -> Fixture {
            let prepared = Prepared::new(&grid);
            let sg = SubgoalGraph::new(&prepared);
            let h = Hierarchy::new(&sg, Moves::EightInt);
            Fixture {
                grid,
                prepared,
                sg,
                h,
            }
        }

        fn query(start: (usize, usize), goal: (usize, usize)) -> Query {
            Query {
                start,
                goal,
                moves: Moves::EightInt,
                heuristic: Heuristic::Octile,
                energy: None,
            }
        }

        /// A spread of (start, goal) pairs of free cells.
        fn pairs(&self, n: usize) -> Vec<((usize, usize), (usize, usize))> {
            let free: Vec<(usize, usize)> = (0..self.grid.height)
                .flat_map(|y| (0..self.grid.width).map(move |x| (x, y)))
                .filter(|&(x, y)| self.grid.passable(x as i64, y as i64))
                .collect();
            (0..n)
                .map(|i| {
                    (
                        free[(i * 7919) % free.len()],
                        free[(i * 104_729 + 17) % free.len()],
                    )
                })
                .collect()
        }

        /// Dijkstra's length from `a` to `b` (cells of the map), exact for moves `8int`.
        fn distance(&self, a: (usize, usize), b: (usize, usize)) -> Option<u64> {
            let q = Query {
                heuristic: Heuristic::Zero,
                ..Fixture::query(a, b)
            };
            let cost = Solver::new().solve(&self.grid, &q).solution?.cost;
            Some(cost as u64)
        }

        /// The map cell of subgoal `v`.
        fn cell_of(&self, v: u32) -> (usize, usize) {
            let (x, y) = self.sg.xy[v as usize];
            (x as usize - 1, y as usize - 1)
        }

        /// Runs the phases of a query up to the core search; `None` if the ends are linked
        /// directly.
        fn meet(
            &self,
            search: &mut HierarchySearch,
            a: (usize, usize),
            b: (usize, usize),
        ) -> Option<(Ends, Meeting)> {
            let gen = search.begin(self.sg.subgoals(), self.h.core());
            let ends = Ends::new(&self.prepared, &self.sg, &Fixture::query(a, b));
            if ends.cell[START] == ends.cell[GOAL] || search.link(&self.prepared, &self.sg, &ends) {
                return None;
            }
            let mut meeting = Meeting::NONE;
            for side in [START, GOAL] {
                search.climb(&self.h, &self.sg, &ends, side, gen, &mut meeting);
            }
            let heuristic = CoreHeuristic::new(&self.sg, &self.h, &search.links[GOAL], &ends);
            search.core_search(&self.h, &heuristic, gen, &mut meeting);
            Some((ends, meeting))
        }
    }

    /// 64 × 64 at 8 % walls: the hierarchy leaves a core (random 40 % maps leave none).
    fn with_core() -> Fixture {
        let f = Fixture::random(7, 64, 64, 8);
        assert!(f.h.core() > 0, "no core");
        f
    }

    fn without_core() -> Fixture {
        let f = Fixture::random(3, 48, 40, 40);
        assert_eq!(f.h.core(), 0);
        f
    }

    #[test]
    fn octile_length_takes_the_diagonal_steps_first() {
        assert_eq!(octile_length(5, 2, (10, 14)), 3 * 10 + 2 * 14);
        assert_eq!(octile_length(2, 5, (10, 14)), 3 * 10 + 2 * 14);
        assert_eq!(octile_length(4, 4, (10, 14)), 4 * 14);
        assert_eq!(octile_length(0, 0, (10, 14)), 0);
    }

    #[test]
    fn every_edge_of_the_hierarchy_unpacks_into_graph_edges_of_its_length() {
        for f in [with_core(), without_core()] {
            let graph_edge = |u: u32, v: u32| {
                let (a, b) = (f.sg.first[u as usize], f.sg.first[u as usize + 1]);
                f.sg.edges[a as usize..b as usize].contains(&v)
            };
            let xy = |v: u32| {
                let (x, y) = f.sg.xy[v as usize];
                (x as i64, y as i64)
            };
            let mut shortcuts = 0;
            for u in 0..f.sg.subgoals() as u32 {
                for arc in f.h.arcs(u) {
                    let mut nodes = vec![u];
                    f.h.unpack(u, arc.to, &mut nodes);
                    assert_eq!(nodes.last(), Some(&arc.to));
                    let mut len = 0;
                    for p in nodes.windows(2) {
                        assert!(graph_edge(p[0], p[1]) || graph_edge(p[1], p[0]), "{p:?}");
                        len += f.h.length(xy(p[0]), xy(p[1]));
                    }
                    assert_eq!(len, arc.w, "{u} → {}", arc.to);
                    shortcuts += usize::from(arc.mid != NONE);
                }
            }
            assert!(shortcuts > 0);
        }
    }

    #[test]
    fn ends_in_sight_of_each_other_are_linked_directly() {
        let open = Fixture::random(1, 12, 10, 0);
        let mut search = HierarchySearch::new();
        search.begin(open.sg.subgoals(), open.h.core());
        let ends = Ends::new(&open.prepared, &open.sg, &Fixture::query((0, 0), (11, 9)));
        assert!(search.link(&open.prepared, &open.sg, &ends));
        // A wall between them: each end is linked to the subgoals at the wall's corners.
        let rows = ["S.....", "......", "####..", "......", ".....G"];
        let walled = Fixture::of(Grid::parse_text(rows).expect("a grid"));
        let q = Fixture::query((0, 0), (5, 4));
        let ends = Ends::new(&walled.prepared, &walled.sg, &q);
        assert_eq!(ends.id, [0, 0]);
        assert!(!search.link(&walled.prepared, &walled.sg, &ends));
        for side in [START, GOAL] {
            let corners: Vec<(usize, usize)> = search.links[side]
                .iter()
                .map(|&v| walled.cell_of(v))
                .collect();
            assert!(
                corners.contains(&(4, 1)) || corners.contains(&(4, 3)),
                "{corners:?}"
            );
        }
        // An end on a subgoal is linked to itself alone.
        let q = Fixture::query((4, 1), (5, 4));
        let ends = Ends::new(&walled.prepared, &walled.sg, &q);
        assert_ne!(ends.id[START], 0);
        search.link(&walled.prepared, &walled.sg, &ends);
        assert_eq!(search.links[START], [ends.id[START] - 1]);
    }

    #[test]
    fn without_a_core_the_climbs_meet_at_the_shortest_length() {
        let f = without_core();
        let mut search = HierarchySearch::new();
        let mut searched = 0;
        for (a, b) in f.pairs(80) {
            let Some((_, meeting)) = f.meet(&mut search, a, b) else {
                continue;
            };
            searched += 1;
            assert_eq!(meeting.core, NONE);
            assert!(search.entries.is_empty() && search.exits.is_empty());
            let len = (meeting.below != NONE).then_some(meeting.len);
            assert_eq!(len, f.distance(a, b), "{a:?} {b:?}");
        }
        assert!(searched > 40, "{searched}");
    }

    #[test]
    fn the_core_heuristic_never_overestimates() {
        let f = with_core();
        let mut search = HierarchySearch::new();
        let mut checked = 0;
        for (a, b) in f.pairs(6) {
            search.begin(f.sg.subgoals(), f.h.core());
            let ends = Ends::new(&f.prepared, &f.sg, &Fixture::query(a, b));
            if search.link(&f.prepared, &f.sg, &ends) {
                continue;
            }
            let heuristic = CoreHeuristic::new(&f.sg, &f.h, &search.links[GOAL], &ends);
            for (c, &v) in f.h.core_node.iter().enumerate() {
                if let Some(d) = f.distance(f.cell_of(v), b) {
                    assert!(heuristic.at(&f.h, c) <= d, "core {c} to {b:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn the_core_search_finishes_the_shortest_way() {
        let f = with_core();
        let mut search = HierarchySearch::new();
        let mut through_core = 0;
        for (a, b) in f.pairs(60) {
            let Some((_, meeting)) = f.meet(&mut search, a, b) else {
                continue;
            };
            let len = (meeting.core != NONE || meeting.below != NONE).then_some(meeting.len);
            assert_eq!(len, f.distance(a, b), "{a:?} {b:?}");
            through_core += usize::from(meeting.core != NONE);
        }
        assert!(through_core > 10, "{through_core}");
    }

    #[test]
    fn the_route_is_a_path_of_the_meeting_length() {
        let f = with_core();
        let mut search = HierarchySearch::new();
        for (a, b) in f.pairs(40) {
            let Some((ends, meeting)) = f.meet(&mut search, a, b) else {
                continue;
            };
            let Some(nodes) = search.route(&f.h, &meeting) else {
                assert_eq!(meeting, Meeting::NONE);
                continue;
            };
            let cells = cells_through(&f.sg, &ends, &nodes);
            assert_eq!(cells.first(), Some(&(ends.cell[START] as u32)));
            assert_eq!(cells.last(), Some(&(ends.cell[GOAL] as u32)));
            let s = solution(&f.prepared, &cells, Moves::EightInt);
            assert_eq!(s.cost, meeting.len as f64, "{a:?} {b:?}");
            assert_eq!((s.path.first(), s.path.last()), (Some(&a), Some(&b)));
            for p in s.path.windows(2) {
                let (dx, dy) = (p[0].0.abs_diff(p[1].0), p[0].1.abs_diff(p[1].1));
                assert!(dx <= 1 && dy <= 1 && dx + dy > 0, "{p:?}");
                assert!(f.grid.passable(p[1].0 as i64, p[1].1 as i64), "{p:?}");
            }
        }
    }

    #[test]
    fn a_query_after_the_generation_wraps_forgets_the_ones_before() {
        let f = with_core();
        let pairs = f.pairs(40);
        let mut fresh = HierarchySearch::new();
        let mut answers = Vec::new();
        for &(a, b) in &pairs {
            let s = fresh.solve(&f.prepared, &f.sg, &f.h, &Fixture::query(a, b));
            answers.push(s.solution.map(|s| s.cost));
        }
        // The same queries, each after the last generation before the counter wraps.
        let mut wrapped = HierarchySearch::new();
        for (&(a, b), answer) in pairs.iter().zip(&answers) {
            wrapped.generation = Generation::last();
            let s = wrapped.solve(&f.prepared, &f.sg, &f.h, &Fixture::query(a, b));
            assert_eq!(s.solution.map(|s| s.cost), *answer, "{a:?} {b:?}");
        }
    }
}
