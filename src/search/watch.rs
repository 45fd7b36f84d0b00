//! One running search's watch over its limits: the time budget (`time`), the node limit and
//! the flags of the controlling thread (`limits`), and the state of its decision to stop.

use super::limits::{Limits, Signals};
use super::time::{self, Budget};
use super::Params;
use std::sync::Arc;

/// Nodes between two checks of the limits.
pub(super) const POLL_NODES: u64 = 1024;

/// One search's limits as the search watches them, and the state of its stop decision.
pub(super) struct Watch {
    /// The controlling thread's flags.
    pub signals: Arc<Signals>,
    /// The time this search may spend, if the clock limits it.
    pub budget: Option<Budget>,
    /// The node limit (of every thread together).
    pub node_limit: Option<u64>,
    /// The node count at which `check_limits` runs next.
    pub next_poll: u64,
    /// Enough iterations are complete for the node limit to apply (`Limits::min_depth`).
    pub can_abort: bool,
    /// An iteration is complete: a timed search may stop without losing its answer.
    pub completed: bool,
    /// A timed search with one root move: answer once an iteration is complete.
    pub single_move: bool,
    /// `go mate N`: a root move proved to mate in at most N moves ends the search.
    pub mate_limit: Option<u32>,
    /// Set by the root search when it proved the mate `mate_limit` asks for.
    pub mate_proven: bool,
}

impl Watch {
    /// The watch of a search within `limits` with `root_moves` moves to choose from, its
    /// budget by the time numbers of `p`.
    pub fn new(signals: &Arc<Signals>, limits: &Limits, root_moves: usize, p: &Params) -> Watch {
        let budget = time::budget(limits, p);
        Watch {
            signals: Arc::clone(signals),
            budget,
            node_limit: limits.nodes,
            next_poll: POLL_NODES,
            can_abort: false,
            completed: false,
            single_move: budget.is_some() && root_moves == 1,
            mate_limit: limits.mate,
            mate_proven: false,
        }
    }

    /// Whether a timed search must end now (never while pondering): at the hard limit, which
    /// holds even before the first iteration completes (the answer is then the hash move or
    /// the first move: never lose on time); or, once an iteration is complete, with a single
    /// move, or after a `ponderhit` that came when the target had passed (pondering counts).
    pub fn out_of_time(&self) -> bool {
        let Some(b) = self.budget else {
            return false;
        };
        if self.signals.pondering() {
            return false;
        }
        if self.signals.clock_ms() >= b.hard {
            return true;
        }
        let late_hit = !b.exact && self.signals.ponderhit_ms().is_some_and(|t| t >= b.target);
        self.completed && (late_hit || self.single_move)
    }
}
