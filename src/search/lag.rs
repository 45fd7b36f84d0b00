//! The lag a clock is charged beyond what the engine meant to spend, learnt over a game.
//!
//! Why: on a loaded machine a move costs more on the GUI's clock than the engine allowed
//! itself. The GUI's own latency, the pipes and the wake-ups of both processes are charged to
//! the engine but never seen by it, and a search thread held off its core for a few dozen
//! milliseconds passes its hard limit before it next looks at the clock. A fixed reserve sized
//! for a quiet machine then loses games on time. But the GUI's clock says what each move
//! really cost: between two `go`s of one game, the clock fell by `before + inc − now`. A move's
//! *excess* is that charge less what the engine meant to spend at most: its own time from
//! reading `go` (or `ponderhit`) to writing the move, or the hard limit if that is less. On a
//! quiet machine the excess is about nothing, and the budget is what it was without any of
//! this (`time::budget` with `Lag::default()`).
//!
//! Two numbers are kept: `typical`, a moving average, is paid out of the increment (a clock
//! whose every move costs that much more has that much less increment to spend); and `peak`, a
//! maximum that decays by `DECAY` a move, of which `time_lag_mul` times is kept back on top of
//! the fixed reserve, so the next stall as long as the worst lately finds a clock that covers
//! it. Samples that cannot be a lag are dropped (`sample`).
//!
//! But the worst stalls come without warning: on a machine with more work than cores, a move
//! the engine spent 10 ms on is now and then charged 80–170 ms, in games whose moves before
//! were charged a few milliseconds more than they took. What does warn is the share of a core
//! the machine leaves the search (`CoreShare`): the processor time the search thread had
//! against the time on the wall. Near all of it on a quiet machine, two games at once on two
//! cores included; two thirds beside one busy process, half beside two. Once others take more
//! than `time_busy_taken` per cent of it, a clock keeps back `time_busy_reserve` more (`taken`).

/// What the GUI's clock has charged beyond the engine's own plan per move, in milliseconds:
/// zero when nothing was learnt (a quiet machine, the first move of a game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lag {
    /// A move's usual excess: paid out of the increment.
    pub typical: u64,
    /// The worst excess lately: a multiple of it is kept back.
    pub peak: u64,
    /// The percentage of a core that other work took from the last searches (0 until known).
    pub taken: u32,
}

/// How much of the peak is left after one more move (half-life: about 69 moves, most of a game).
pub const DECAY: f64 = 0.99;
/// The weight of a new sample in the moving average.
pub const WEIGHT: f64 = 0.125;
/// Milliseconds below zero a sample may fall by the GUI's and the engine's rounding (0 then).
const ROUNDING: f64 = 2.0;

/// The estimate over one game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LagEstimate {
    typical: f64,
    peak: f64,
}

impl LagEstimate {
    /// Learns from one move's excess (ms).
    pub fn add(&mut self, excess: f64) {
        let x = excess.max(0.0);
        self.typical += WEIGHT * (x - self.typical);
        self.peak = (self.peak * DECAY).max(x);
    }

    /// The lag to allow for, rounded to the millisecond (a fraction is the clocks' rounding);
    /// the machine's share of a core is the meter's to add (`taken` 0 here).
    pub fn lag(&self) -> Lag {
        Lag {
            typical: self.typical.round() as u64,
            peak: self.peak.round() as u64,
            taken: 0,
        }
    }
}

/// How much of a core the machine has left the search lately: the processor time of the
/// search thread against the time on the wall, in sums that decay by `SHARE_DECAY` a search.
/// It describes the machine rather than a game, so it outlives one.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CoreShare {
    cpu: f64,
    wall: f64,
}

/// How much of the sums is left after one more search (about the last four count).
const SHARE_DECAY: f64 = 0.75;
/// Milliseconds on the wall below which a search says nothing (a tick of the scheduler is
/// most of it).
const SHARE_MIN_WALL: f64 = 2.0;
/// Milliseconds on the wall the sums need before they are trusted.
const SHARE_KNOWN: f64 = 20.0;

impl CoreShare {
    /// A search ran `wall` ms and its thread had `cpu` ms of a core. A search too short to
    /// say anything still ages what was learnt: the reserve a busy verdict keeps back makes
    /// the searches that follow that short, and a verdict that only longer searches could
    /// overturn would hold for the rest of the game on a machine that was busy for a moment.
    pub fn add(&mut self, cpu: f64, wall: f64) {
        if cpu.is_nan() || cpu < 0.0 {
            return;
        }
        let (cpu, wall) = if wall < SHARE_MIN_WALL {
            (0.0, 0.0)
        } else {
            (cpu.min(wall), wall)
        };
        self.cpu = self.cpu * SHARE_DECAY + cpu;
        self.wall = self.wall * SHARE_DECAY + wall;
    }

    /// The percentage of a core other work took (0 until enough is known).
    pub fn taken(&self) -> u32 {
        if self.wall < SHARE_KNOWN {
            return 0;
        }
        (100.0 * (1.0 - self.cpu / self.wall))
            .round()
            .clamp(0.0, 100.0) as u32
    }
}

/// One move's excess (ms): the clock was `before` ms at its `go`, the increment `inc`, it is
/// `now` at the next `go`, and the engine took `spent` ms by its own clock where it meant to
/// take at most `hard`. `None` for what cannot be a lag: a clock that grew (a new time
/// control, a GUI that reset it), or a charge of more than half the clock (a clock from
/// another game).
pub fn sample(before: u64, inc: u64, now: u64, spent: f64, hard: u64) -> Option<f64> {
    let charged = before as f64 + inc as f64 - now as f64;
    let excess = charged - spent.min(hard as f64);
    if excess < -ROUNDING || charged > before as f64 / 2.0 + inc as f64 {
        return None;
    }
    Some(excess.max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quiet_machine_learns_no_lag() {
        let mut e = LagEstimate::default();
        assert_eq!(e.lag(), Lag::default());
        // Charged what the engine took, give or take the clocks' rounding.
        for (before, now, spent) in [(1000, 990, 20.3), (990, 975, 24.6), (975, 960, 26.0)] {
            e.add(sample(before, 10, now, spent, 50).unwrap());
        }
        assert_eq!(e.lag(), Lag::default(), "{e:?}");
    }

    #[test]
    fn the_excess_counts_the_gui_and_a_late_hard_limit() {
        // 1000 + 10 − 950 = 60 charged; the engine took 45 of it: 15 the GUI's.
        assert_eq!(sample(1000, 10, 950, 45.0, 100), Some(15.0));
        // The engine passed its hard limit of 30 by 15: that counts too.
        assert_eq!(sample(1000, 10, 950, 45.0, 30), Some(30.0));
        // Rounding a millisecond the wrong way is no lag; a clock that grew is no sample.
        assert_eq!(sample(1000, 10, 971, 40.0, 100), Some(0.0));
        assert_eq!(sample(1000, 10, 1500, 40.0, 100), None);
        // Half the clock gone at once is another game's clock.
        assert_eq!(sample(1000, 10, 400, 40.0, 100), None);
    }

    #[test]
    fn a_stall_is_kept_in_mind_and_forgotten_slowly() {
        let mut e = LagEstimate::default();
        e.add(60.0);
        let first = e.lag();
        assert_eq!(first.peak, 60);
        assert!(first.typical >= 7 && first.typical <= 8, "{first:?}");
        for _ in 0..10 {
            e.add(0.0);
        }
        let later = e.lag();
        assert!(later.peak < 60 && later.peak >= 45, "{later:?}");
        assert!(later.typical < first.typical, "{later:?}");
        // A larger stall takes over at once; negative samples count as none.
        e.add(90.0);
        assert_eq!(e.lag().peak, 90);
        let before = e.lag();
        e.add(-5.0);
        assert!(e.lag().typical <= before.typical);
    }

    #[test]
    fn the_share_of_a_core_is_learnt_from_long_enough_searches() {
        let mut s = CoreShare::default();
        assert_eq!(s.taken(), 0);
        // Too little on the wall to say anything yet.
        s.add(5.0, 10.0);
        assert_eq!(s.taken(), 0);
        s.add(10.0, 20.0);
        assert_eq!(s.taken(), 50);
        // A broken clock counts for nothing; a search shorter than a tick says nothing of
        // the share, but ages the sums.
        s.add(f64::NAN, 30.0);
        assert_eq!(s.taken(), 50);
        s.add(0.0, 1.0);
        assert_eq!(s.taken(), 50);
        // A quiet machine wins it back within a few searches; more than the wall is the wall.
        for _ in 0..12 {
            s.add(40.0, 30.0);
        }
        assert!(s.taken() <= 2, "{s:?}");
        // Beside busy work it shows again as fast.
        for _ in 0..6 {
            s.add(20.0, 30.0);
        }
        assert!(s.taken() >= 25, "{s:?}");
    }

    #[test]
    fn a_busy_verdict_fades_over_searches_too_short_to_measure() {
        // A moment's stall on a quiet machine: a sixth of a core taken over two searches.
        let mut s = CoreShare::default();
        for (cpu, wall) in [(17.8, 21.4), (9.0, 10.5)] {
            s.add(cpu, wall);
        }
        assert!(s.taken() > 15, "{s:?}");
        // The busy reserve then leaves the clock 1 ms searches, which tell nothing of the
        // machine: the verdict must not outlive them.
        for _ in 0..3 {
            s.add(1.0, 1.1);
        }
        assert_eq!(s.taken(), 0, "{s:?}");
        // A machine that is really busy says so again within a few searches of any length.
        for _ in 0..3 {
            s.add(6.0, 10.0);
        }
        assert!(s.taken() >= 30, "{s:?}");
    }
}
