//! The search methods, what each needs prepared, and the automatic choice between them.
//!
//! A `MapData` is a map read once: the grid, its bordered layout with step masks, a few cheap
//! statistics, and — built on first use and kept — the JPS+ jump table and the subgoal graph.
//! `Workspace` holds the reusable search memory of every method. `solve` runs one query with a
//! named method, `choose` names the method `auto` takes.

use super::astar::{Moves, Outcome, Prepared, Query, Solver};
use super::contract::{Hierarchy, HierarchySearch};
use super::forest::Forest;
use super::grid::Grid;
use super::jps::Jps;
use super::jpsplus::{JpsPlus, JumpTable};
use super::subgoal::{SubgoalGraph, SubgoalSearch};
use super::textbook::{self, Textbook};
use crate::host::Instant;
use std::sync::OnceLock;

/// A search method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Chosen from the map and the query (`choose`).
    Auto,
    /// A* with a bucket queue.
    Astar,
    /// Jump point search (8-connected, no energy).
    Jps,
    /// JPS+ with a precomputed jump table (8-connected, no energy).
    JpsPlus,
    /// A* on the simple subgoal graph (8-connected, no energy).
    Subgoal,
    /// Bidirectional upward search in a contraction hierarchy of the subgoal graph
    /// (8-connected, no energy).
    Hierarchy,
    /// Iterative-deepening depth-first search (moves 4; small maps).
    Iddfs,
    /// IDA* (small maps).
    IdaStar,
}

/// Every method but `Auto`, in the order reports list them.
pub const METHODS: [Method; 7] = [
    Method::Astar,
    Method::Jps,
    Method::JpsPlus,
    Method::Subgoal,
    Method::Hierarchy,
    Method::Iddfs,
    Method::IdaStar,
];

impl Method {
    /// The method named `name` (case-insensitive), if any.
    pub fn parse(name: &str) -> Option<Method> {
        Some(match name.to_ascii_lowercase().as_str() {
            "auto" => Method::Auto,
            "astar" | "a*" => Method::Astar,
            "jps" => Method::Jps,
            "jps+" | "jpsplus" => Method::JpsPlus,
            "subgoal" | "ssg" => Method::Subgoal,
            "ch" | "sub-ch" | "subgoal-ch" => Method::Hierarchy,
            "iddfs" => Method::Iddfs,
            "idastar" | "ida*" => Method::IdaStar,
            _ => return None,
        })
    }

    /// The method's name as `parse` takes it and reports print it.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Astar => "astar",
            Method::Jps => "jps",
            Method::JpsPlus => "jps+",
            Method::Subgoal => "subgoal",
            Method::Hierarchy => "ch",
            Method::Iddfs => "iddfs",
            Method::IdaStar => "idastar",
        }
    }

    /// Why the method cannot answer `q` on a map of `cells` cells, if it cannot.
    pub fn refusal(self, q: &Query, cells: usize) -> Option<String> {
        let eight = q.moves != Moves::Four && q.energy.is_none();
        match self {
            Method::Auto | Method::Astar => None,
            Method::Jps | Method::JpsPlus | Method::Subgoal | Method::Hierarchy if !eight => Some(
                format!("{} needs moves 8 or 8int and no energy budget", self.name()),
            ),
            Method::Iddfs if q.moves != Moves::Four => {
                Some("iddfs needs unit steps: moves 4".to_string())
            }
            Method::Iddfs | Method::IdaStar if cells > textbook::MAX_CELLS => Some(format!(
                "{} is for small maps: this one has {cells} cells, the limit is {} (use astar)",
                self.name(),
                textbook::MAX_CELLS
            )),
            Method::Iddfs | Method::IdaStar
                if cells * q.energy.map_or(1, |t| t as usize + 1) > textbook::MAX_STATES =>
            {
                Some(format!(
                    "{} is for small maps: energy {} gives more than {} states",
                    self.name(),
                    q.energy.unwrap_or(0),
                    textbook::MAX_STATES
                ))
            }
            _ => None,
        }
    }
}

/// A preparation and what it cost.
pub struct Built<T> {
    /// The structure.
    pub value: T,
    /// Milliseconds it took to build.
    pub ms: f64,
    /// Bytes it holds.
    pub bytes: usize,
}

fn build<T>(make: impl FnOnce() -> T, bytes: impl Fn(&T) -> usize) -> Built<T> {
    let t0 = Instant::now();
    let value = make();
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    Built {
        bytes: bytes(&value),
        value,
        ms,
    }
}

/// Cheap statistics of a map, one pass over it.
#[derive(Clone, Copy, Debug, Default)]
pub struct MapStats {
    /// Cells (width × height).
    pub cells: usize,
    /// Free cells.
    pub free: usize,
    /// Free cells at a convex obstacle corner (the subgoals).
    pub corners: usize,
}

impl MapStats {
    fn of(p: &Prepared, cells: usize) -> MapStats {
        let w = p.stride as isize;
        let mut s = MapStats {
            cells,
            ..MapStats::default()
        };
        for c in 0..p.cells.len() {
            if p.cells[c] == 0 {
                continue;
            }
            s.free += 1;
            let at = |o: isize| p.cells[(c as isize + o) as usize] != 0;
            if [(-1, -1), (1, -1), (-1, 1), (1, 1)]
                .iter()
                .any(|&(dx, dy)| !at(dx + dy * w) && at(dx) && at(dy * w))
            {
                s.corners += 1;
            }
        }
        s
    }

    /// Free cells per cell.
    pub fn free_fraction(&self) -> f64 {
        self.free as f64 / self.cells.max(1) as f64
    }

    /// Corners per free cell.
    pub fn corner_density(&self) -> f64 {
        self.corners as f64 / self.free.max(1) as f64
    }
}

/// A map read once, with what its searches need, built on first use.
pub struct MapData {
    /// The map.
    pub grid: Grid,
    /// Its bordered layout with step masks.
    pub prepared: Prepared,
    /// Its statistics.
    pub stats: MapStats,
    forest: OnceLock<Built<Forest>>,
    jumps: OnceLock<Built<JumpTable>>,
    subgoals: OnceLock<Built<SubgoalGraph>>,
    /// The hierarchies for moves 8 and 8int.
    hierarchies: [OnceLock<Built<Hierarchy>>; 2],
}

impl std::fmt::Debug for MapData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MapData")
            .field("width", &self.grid.width)
            .field("height", &self.grid.height)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl MapData {
    /// Prepares `grid` (the layout and statistics; the tables wait for their first use).
    pub fn new(grid: Grid) -> MapData {
        let prepared = Prepared::new(&grid);
        let stats = MapStats::of(&prepared, grid.width * grid.height);
        MapData {
            grid,
            prepared,
            stats,
            forest: OnceLock::new(),
            jumps: OnceLock::new(),
            subgoals: OnceLock::new(),
            hierarchies: [OnceLock::new(), OnceLock::new()],
        }
    }

    /// The dead-end trees and the core grid, built now if not yet.
    pub fn forest(&self) -> &Built<Forest> {
        self.forest
            .get_or_init(|| build(|| Forest::new(&self.prepared), Forest::bytes))
    }

    /// The JPS+ jump table of the core grid, built now if not yet.
    pub fn jumps(&self) -> &Built<JumpTable> {
        let core = &self.forest().value.core;
        self.jumps
            .get_or_init(|| build(|| JumpTable::new(core), JumpTable::bytes))
    }

    /// The subgoal graph of the core grid, built now if not yet.
    pub fn subgoals(&self) -> &Built<SubgoalGraph> {
        let core = &self.forest().value.core;
        self.subgoals
            .get_or_init(|| build(|| SubgoalGraph::new(core), SubgoalGraph::bytes))
    }

    /// The contraction hierarchy of the subgoal graph for `moves` (8 or 8int), built now if
    /// not yet.
    pub fn hierarchy(&self, moves: Moves) -> &Built<Hierarchy> {
        let graph = &self.subgoals().value;
        self.hierarchies[usize::from(moves == Moves::EightInt)]
            .get_or_init(|| build(|| Hierarchy::new(graph, moves), Hierarchy::bytes))
    }

    /// Whether the preparation `method` needs (for moves 8) is built already.
    pub fn is_prepared(&self, method: Method) -> bool {
        match method {
            Method::JpsPlus => self.jumps.get().is_some(),
            Method::Subgoal => self.subgoals.get().is_some(),
            Method::Hierarchy => self.hierarchies[0].get().is_some(),
            _ => true,
        }
    }

    /// Builds what `method` needs (for moves 8); returns (milliseconds it took when built,
    /// bytes held), the dead-end trees (and for `Hierarchy` the subgoal graph) included.
    pub fn prepare(&self, method: Method) -> (f64, usize) {
        let (ms, bytes) = match method {
            Method::JpsPlus => {
                let b = self.jumps();
                (b.ms, b.bytes)
            }
            Method::Subgoal => {
                let b = self.subgoals();
                (b.ms, b.bytes)
            }
            Method::Hierarchy => {
                let (h, g) = (self.hierarchy(Moves::Eight), self.subgoals());
                (h.ms + g.ms, h.bytes + g.bytes)
            }
            _ => return (0.0, 0),
        };
        let f = self.forest();
        (ms + f.ms, bytes + f.bytes)
    }

    /// `width W height H free F corners C corner_density D peeled P subgoals S edges E core K
    /// auto M`, K being the subgoals the contraction hierarchy leaves in its core (the peeled
    /// cells, the subgoal graph and the hierarchy for moves 8 are built for it if not yet).
    pub fn stats_line(&self) -> String {
        let s = &self.stats;
        let forest = &self.forest().value;
        let graph = &self.subgoals().value;
        let core = self.hierarchy(Moves::Eight).value.core();
        let q = Query {
            start: (0, 0),
            goal: (0, 0),
            moves: Moves::Eight,
            heuristic: super::astar::Heuristic::Octile,
            energy: None,
        };
        format!(
            "width {} height {} free {} corners {} corner_density {:.4} peeled {} subgoals {} edges {} core {} auto {}",
            self.grid.width,
            self.grid.height,
            s.free,
            s.corners,
            s.corner_density(),
            forest.peeled,
            graph.subgoals(),
            graph.edge_count(),
            core,
            self.choose(&q).name()
        )
    }

    /// The method `auto` takes for `q` on this map.
    pub fn choose(&self, q: &Query) -> Method {
        choose(&self.stats, q)
    }
}

/// Below this many free cells `auto` takes JPS+ rather than the contraction hierarchy.
pub const SMALL_MAP: usize = 10_000;

/// The automatic choice: A* where only it applies (moves 4, energy budgets); else the
/// contraction hierarchy over the subgoal graph, or JPS+ on small maps (under `SMALL_MAP` free
/// cells), where a query takes a microsecond or two either way and the jump table's lighter
/// expansions win.
///
/// Measured on the 15 benchmark maps (see docs/path.md).
pub fn choose(stats: &MapStats, q: &Query) -> Method {
    if q.moves == Moves::Four || q.energy.is_some() {
        Method::Astar
    } else if stats.free < SMALL_MAP {
        Method::JpsPlus
    } else {
        Method::Hierarchy
    }
}

/// Reusable search memory for every method.
#[derive(Default)]
pub struct Workspace {
    astar: Solver,
    jps: Jps,
    jpsplus: JpsPlus,
    subgoal: SubgoalSearch,
    hierarchy: HierarchySearch,
    textbook: Textbook,
}

impl Workspace {
    /// Empty memory.
    pub fn new() -> Workspace {
        Workspace::default()
    }

    /// Solves `q` on `map` with `method` (`Auto` resolved by `choose`). The caller has checked
    /// the query against the map and `Method::refusal`.
    pub fn solve(&mut self, map: &MapData, method: Method, q: &Query) -> Outcome {
        let method = if method == Method::Auto {
            map.choose(q)
        } else {
            method
        };
        let p = &map.prepared;
        match method {
            Method::Auto | Method::Astar => self.astar.solve_prepared(p, q),
            Method::Jps => self.jps.solve(p, q),
            Method::JpsPlus => {
                let (table, forest) = (&map.jumps().value, &map.forest().value);
                let search = &mut self.jpsplus;
                forest.solve(p, q, |cq| search.solve(&forest.core, table, cq))
            }
            Method::Subgoal => {
                let (graph, forest) = (&map.subgoals().value, &map.forest().value);
                let search = &mut self.subgoal;
                forest.solve(p, q, |cq| search.solve(&forest.core, graph, cq))
            }
            Method::Hierarchy => {
                let (graph, forest) = (&map.subgoals().value, &map.forest().value);
                let h = &map.hierarchy(q.moves).value;
                let search = &mut self.hierarchy;
                forest.solve(p, q, |cq| search.solve(&forest.core, graph, h, cq))
            }
            Method::Iddfs => self.textbook.iddfs(p, q),
            Method::IdaStar => self.textbook.idastar(p, q),
        }
    }
}
