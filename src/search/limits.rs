//! What a search may spend (`Limits`, filled from a `go` command) and the flags shared with the
//! thread that controls it (`Signals`: stop, ponder). How one running search watches both is
//! `watch`'s business.

use super::lag::Lag;
use crate::board::Move;
use crate::host::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

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
    /// The lag the GUI's clock has charged lately, beyond the engine's own time (`lag`).
    pub lag: Lag,
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
    /// Microseconds on the clock when the answer was written (`NOT_YET` until then).
    answered_us: AtomicU64,
    /// Microseconds of processor time the search thread had, and on the wall (`NOT_YET`).
    ran_us: [AtomicU64; 2],
}

/// `Signals::answered_us` before the answer is written, or when it was written unasked.
const NOT_YET: u64 = u64::MAX;

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
            answered_us: AtomicU64::new(NOT_YET),
            ran_us: [AtomicU64::new(NOT_YET), AtomicU64::new(NOT_YET)],
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

    /// Whether the search began as a ponder search.
    pub fn pondered(&self) -> bool {
        self.pondered
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

    /// The answer has just been written: remembers the time on the clock, unless the search
    /// still ponders (a ponder search stopped: the GUI's clock never ran for it).
    pub fn answer_written(&self) {
        if !self.pondering() {
            let origin_us = self.clock_origin_ms.load(Ordering::Relaxed) * 1000;
            let us = (self.start.elapsed().as_micros() as u64).saturating_sub(origin_us);
            self.answered_us
                .store(us.min(NOT_YET - 1), Ordering::SeqCst);
        }
    }

    /// Milliseconds on the clock when the answer was written, if it was written on the clock.
    pub fn answered_ms(&self) -> Option<f64> {
        let us = self.answered_us.load(Ordering::SeqCst);
        (us != NOT_YET).then(|| us as f64 / 1000.0)
    }

    /// The work's thread had `cpu` of processor time over `wall` on the wall.
    pub fn ran(&self, cpu: std::time::Duration, wall: std::time::Duration) {
        let us = |d: std::time::Duration| (d.as_micros() as u64).min(NOT_YET - 1);
        self.ran_us[0].store(us(cpu), Ordering::SeqCst);
        self.ran_us[1].store(us(wall), Ordering::SeqCst);
    }

    /// Milliseconds of processor time and on the wall the work's thread ran, if known.
    pub fn ran_ms(&self) -> Option<(f64, f64)> {
        let [cpu, wall] = [0, 1].map(|i| self.ran_us[i].load(Ordering::SeqCst));
        (cpu != NOT_YET && wall != NOT_YET).then(|| (cpu as f64 / 1000.0, wall as f64 / 1000.0))
    }
}
