//! What a search may spend (`Limits`, filled from a `go` command), the flags shared with the
//! thread that controls it (`Signals`: stop, ponder), and how one search watches both
//! (`Watch`: its budget, node limit and the state of its stop decision).

use super::time::{self, Budget};
use crate::board::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The side to move's clock, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub time: u64,
    /// Increment per move.
    pub inc: u64,
    /// Moves until the next time control, if given.
    pub movestogo: Option<u32>,
}

/// Search limits from `go`. The first limit reached ends the search; none at all means search
/// to the maximum depth.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Iteration limit in plies.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Think exactly this long (ms).
    pub movetime: Option<u64>,
    /// Stop once a mate in at most this many moves is proved.
    pub mate: Option<u32>,
    /// The side to move's clock.
    pub clock: Option<Clock>,
    /// Search until stopped; the result is held until `stop`.
    pub infinite: bool,
    /// Safety margin subtracted from every time budget (ms).
    pub move_overhead: u64,
    /// Iterations completed before the node limit applies (weaker settings); 1 if `None`.
    pub min_depth: Option<u32>,
    /// Root moves to consider (empty = all legal moves). Already checked to be legal.
    pub root_moves: Vec<Move>,
}

/// Flags shared between the search thread and the thread that controls it.
#[derive(Debug)]
pub struct Signals {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Whether the search began as a ponder search.
    pondered: bool,
    start: Instant,
    /// Milliseconds after `start` from which the clock runs (set at `ponderhit`).
    clock_origin_ms: AtomicU64,
}

impl Signals {
    /// New flags; the clock starts now. `pondering`: a `go ponder` search (no time limit and the
    /// result is held until `ponderhit` or `stop`).
    pub fn new(pondering: bool) -> Signals {
        Signals::started_at(pondering, Instant::now())
    }

    /// New flags with the clock running since `start` (when the `go` was read).
    pub fn started_at(pondering: bool, start: Instant) -> Signals {
        Signals {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            pondered: pondering,
            start,
            clock_origin_ms: AtomicU64::new(0),
        }
    }

    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was requested.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: from now on the limits apply, measured from now.
    pub fn ponderhit(&self) {
        self.ponderhit_at(Instant::now());
    }

    /// `ponderhit` read at `at` (it may have waited behind other work): the limits apply,
    /// measured from then.
    pub fn ponderhit_at(&self, at: Instant) {
        let origin = at.saturating_duration_since(self.start).as_millis() as u64;
        self.clock_origin_ms.store(origin, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether the search is still pondering. (Acquire: once it reads false, the clock origin
    /// stored by `ponderhit` is visible.)
    #[inline]
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Milliseconds after the start at which `ponderhit` came, if this was a ponder search
    /// and it came.
    pub fn ponderhit_ms(&self) -> Option<u64> {
        (self.pondered && !self.pondering()).then(|| self.clock_origin_ms.load(Ordering::Relaxed))
    }

    /// Milliseconds since the search started.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Milliseconds on the clock: since the start, or since `ponderhit`.
    pub fn clock_ms(&self) -> u64 {
        self.elapsed_ms()
            .saturating_sub(self.clock_origin_ms.load(Ordering::Relaxed))
    }
}

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
    /// The watch of a search within `limits` with `root_moves` moves to choose from.
    pub fn new(signals: &Arc<Signals>, limits: &Limits, root_moves: usize) -> Watch {
        let budget = time::budget(limits);
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
