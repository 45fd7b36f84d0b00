//! Time allocation: how long one move may take, from the limits of `go`.
//!
//! T own time, I increment, M moves to go, O the user's `Move Overhead`, R = `RESERVE_MS` (all
//! ms). Every clock first loses O + R: R covers the process's own latency on a loaded machine
//! (waking the search thread, being scheduled, writing the move), O the GUI's or the network's.
//! R is large enough that a short clock settles above it: a game at 1 s + 10 ms lives on about
//! 110 ms, which absorbs the scheduling delays of a busy two-core machine (50 ms was not enough:
//! one move in some 20 000 came 70 ms late).
//! With A = T − O − R: nothing left (A = 0) means move at once (1 ms); M = 1 spends A; otherwise
//! target = T / min(M or 30, 50) + 3I/4 and hard = min(5·target, T/2 + I/2, A), so a short clock
//! lives on its increment. `movetime X` gives X − O for both (no clock to lose). The search starts no new
//! iteration past 60 % of the (instability-scaled) target and aborts at hard.

use super::limits::Limits;

/// Milliseconds kept back from every clock for the engine process's own latency, on top of the
/// user's `Move Overhead`.
pub const RESERVE_MS: u64 = 100;

/// Milliseconds the search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Normal spend.
    pub target: u64,
    /// Never exceed.
    pub hard: u64,
}

impl Budget {
    fn fixed(ms: u64) -> Budget {
        let ms = ms.max(1);
        Budget {
            target: ms,
            hard: ms,
        }
    }
}

/// The budget for `limits`, or `None` when time does not limit the search.
pub fn budget(limits: &Limits) -> Option<Budget> {
    if let Some(x) = limits.movetime {
        return Some(Budget::fixed(x.saturating_sub(limits.move_overhead)));
    }
    let keep = limits.move_overhead + RESERVE_MS;
    let c = limits.clock?;
    let avail = c.time.saturating_sub(keep);
    if avail == 0 || c.movestogo == Some(1) {
        return Some(Budget::fixed(avail));
    }
    let mtg = c.movestogo.unwrap_or(30).clamp(1, 50) as u64;
    let target = c.time / mtg + c.inc * 3 / 4;
    let hard = (5 * target).min(c.time / 2 + c.inc / 2).min(avail).max(1);
    Some(Budget {
        target: target.min(hard).max(1),
        hard,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    #[test]
    fn budgets() {
        let mut l = Limits {
            movetime: Some(500),
            move_overhead: 10,
            ..Default::default()
        };
        assert_eq!(budget(&l), Some(Budget::fixed(500 - 10)));
        l.movetime = None;
        l.clock = Some(Clock {
            time: 1000,
            inc: 10,
            movestogo: None,
        });
        let b = budget(&l).unwrap();
        assert!(
            b.target <= b.hard && b.hard <= 505 && b.target >= 30,
            "{b:?}"
        );
        l.clock = Some(Clock {
            time: 3000,
            inc: 0,
            movestogo: Some(1),
        });
        assert_eq!(budget(&l).unwrap().hard, 3000 - 10 - RESERVE_MS);
        l.clock = Some(Clock {
            time: 0,
            inc: 0,
            movestogo: None,
        });
        assert_eq!(budget(&l).unwrap(), Budget::fixed(1));
        assert_eq!(budget(&Limits::default()), None);
    }

    #[test]
    fn a_short_clock_lives_on_its_increment() {
        let l = Limits {
            move_overhead: 10,
            clock: Some(Clock {
                time: 200,
                inc: 10,
                movestogo: None,
            }),
            ..Default::default()
        };
        let b = budget(&l).unwrap();
        assert!(b.hard <= 200 - 10 - RESERVE_MS, "{b:?}");
        assert!(b.target <= 200 / 30 + 10, "{b:?}");
    }
}
