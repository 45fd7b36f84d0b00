//! Time allocation: how long one move may take, from the limits of `go`.
//!
//! T own time, I increment, M moves to go, O the user's `Move Overhead`, R = `time_reserve` (30;
//! all ms). The numbers below are `Params`' defaults (`time_*`), which a tuner may change. Every
//! clock first loses O + R: R covers the process's own latency on a loaded machine
//! (waking the search thread, being scheduled, writing the move), O the GUI's or the network's.
//! R absorbs the scheduling delays of a busy two-core machine: at 1 s + 10 ms beside a busy
//! process the worst of some 20 000 moves left 24 ms of the clock, 16 ms into O + R.
//! With A = T − O − R and the increment's share B = min(I · min(1, T/(O + R)), T/4):
//! nothing to spend (A = B = 0) means move at once (1 ms); M = 1 spends A; otherwise
//! target = A / min(M or 30, 50) + B and hard = min(5·target, T/2 + I/2, max(A + B, T/8)), so a
//! short clock lives on its increment (T/8: a search held up by a busy machine may still finish
//! an iteration). Inside the reserve (T < O + R) the share B shrinks with the
//! clock instead of falling to nothing: a clock that drifts into the reserve still thinks a few
//! milliseconds a move (a one-ply move at a 0.3 s clock threw away won games, one move in three
//! at a thirtieth of a peer's clock, see docs/strength/stage3.md), and the clock climbs back because
//! B is less than the increment. The search starts no new iteration past 60 % of the target
//! (stretched by 1 + the best move's instability, at most 1.5, and by how far the score fell
//! since the last move, `fall_scale`, and shrunk when the best move took most of the nodes,
//! `effort_scale`), once iteration `time_min_depth` (5) is done, and aborts at hard; time
//! spent pondering counts towards the target (the search is that much deeper), the hard limit
//! runs from `ponderhit` (the clock does), and a `ponderhit` that comes after the target has
//! passed is answered at once.
//!
//! On a loaded machine the GUI's clock charges more than the engine spends (`search::lag`):
//! with the lag learnt over the game (`Limits::lag`), R grows by `time_lag_mul` (4) times its
//! peak and I shrinks by its typical size, everything else as above. Once other work takes
//! more than `time_busy_taken` (15) per cent of the search's core, R grows by
//! `time_busy_reserve` (200) more, and the eighth of the clock a search may always spend is
//! an eighth of the clock above that reserve. With no lag learnt and a core to itself (a
//! quiet machine, `bench`, fixed nodes) the budget is the one above.
//!
//! `movetime X` is different: think X − O (no clock to lose, no reserve), no less. It is `exact`:
//! no early stop after an iteration, only the hard limit (or a proven mate, or a single move).

use super::limits::Limits;
use super::Params;

/// Milliseconds the search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Normal spend.
    pub target: u64,
    /// Never exceed.
    pub hard: u64,
    /// Think until `hard` (`movetime`): no early stop after an iteration.
    pub exact: bool,
}

impl Budget {
    fn fixed(ms: u64) -> Budget {
        let ms = ms.max(1);
        Budget {
            target: ms,
            hard: ms,
            exact: false,
        }
    }

    fn exact(ms: u64) -> Budget {
        Budget {
            exact: true,
            ..Budget::fixed(ms)
        }
    }

    /// Whether to start no new iteration after iteration `depth` and `elapsed_ms` of thinking
    /// (pondering included), given how unstable the best move has been (0 = stable, counted up
    /// to `time_instability_max`), how many centipawns the score `fell` since the last
    /// move (see `fall_scale`) and the percentage of the nodes the best move took (`effort`,
    /// see `effort_scale`). Below `time_min_depth` only the hard limit stops the search.
    pub fn soft_stop(
        &self,
        depth: u32,
        elapsed_ms: u64,
        instability: f64,
        fell: i32,
        effort: u64,
        p: &Params,
    ) -> bool {
        if self.exact || depth < p.time_min_depth.max(1) as u32 {
            return false;
        }
        let scale = (1.0 + instability.clamp(0.0, p.time_instability_max))
            * fall_scale(fell, p)
            * effort_scale(effort, p);
        let soft = (self.target as f64 * p.time_soft * scale) as u64;
        elapsed_ms >= soft.min(self.hard)
    }
}

/// How much a score that `fell` centipawns since the last move stretches the time target:
/// `1 + time_fall` per pawn fallen, within `time_fall_max` either way (a rising score shrinks
/// it). Trouble found late wants the time to find the way out; a game going well can keep it.
pub fn fall_scale(fell: i32, p: &Params) -> f64 {
    let max = p.time_fall_max.max(1.0);
    (1.0 + p.time_fall * fell as f64 / 100.0).clamp(1.0 / max, max)
}

/// How much the time target shrinks when the best move took `effort` per cent of the
/// search's nodes: to `time_effort_scale` from `time_effort` per cent up (when that is on). A
/// move the search hardly doubts needs no more iterations to be found.
pub fn effort_scale(effort: u64, p: &Params) -> f64 {
    if p.time_effort > 0 && effort >= p.time_effort as u64 {
        p.time_effort_scale
    } else {
        1.0
    }
}

/// Milliseconds every clock keeps back: the user's `move_overhead` and `p.time_reserve`.
pub fn kept(move_overhead: u64, p: &Params) -> u64 {
    move_overhead + p.time_reserve.max(0) as u64
}

/// Milliseconds the clock of `limits` keeps back: `kept`, `time_lag_mul` times the peak of the
/// lag learnt, and `time_busy_reserve` once other work takes more than `time_busy_taken` per
/// cent of the search's core.
pub fn kept_with_lag(limits: &Limits, p: &Params) -> u64 {
    let lag = (p.time_lag_mul.max(0.0) * limits.lag.peak as f64).round() as u64;
    kept(limits.move_overhead, p)
        .saturating_add(lag)
        .saturating_add(busy_reserve(limits, p))
}

/// Milliseconds kept back for a busy machine's stalls: `time_busy_reserve` once other work
/// takes more than `time_busy_taken` per cent of the search's core, else none.
pub fn busy_reserve(limits: &Limits, p: &Params) -> u64 {
    if limits.lag.taken as i64 > p.time_busy_taken as i64 {
        p.time_busy_reserve.max(0) as u64
    } else {
        0
    }
}

/// The budget for `limits` by the numbers of `p`, or `None` when time does not limit the search.
pub fn budget(limits: &Limits, p: &Params) -> Option<Budget> {
    if let Some(x) = limits.movetime {
        return Some(Budget::exact(x.saturating_sub(limits.move_overhead)));
    }
    let keep = kept_with_lag(limits, p);
    let mut c = limits.clock?;
    // Each move costs the typical lag on top of what it spends: that much less to spend.
    c.inc = c.inc.saturating_sub(limits.lag.typical);
    let avail = c.time.saturating_sub(keep);
    if c.movestogo == Some(1) {
        return Some(Budget::fixed(avail));
    }
    let share = increment_share(c.time, c.inc, keep, p);
    if avail == 0 && share == 0 {
        return Some(Budget::fixed(0));
    }
    let moves = |n: i32| n.max(1) as u32;
    let mtg = c
        .movestogo
        .unwrap_or(moves(p.time_moves))
        .clamp(1, moves(p.time_max_moves)) as u64;
    let target = (avail / mtg).saturating_add(share);
    // An eighth of the clock may always go into the reserve to finish an iteration: on a
    // machine shared with the opponent the search can be held up a few milliseconds. Not the
    // busy machine's reserve, though: spent a little every move, it would be gone before the
    // stall it is kept for.
    let div = |d: i32| d.max(1) as u64;
    let floor = c.time.saturating_sub(busy_reserve(limits, p)) / div(p.time_floor_div);
    let hard = target
        .saturating_mul(p.time_hard_mul.max(1) as u64)
        .min(c.time / div(p.time_hard_div) + c.inc / div(p.time_hard_div))
        .min(avail.saturating_add(share).max(floor))
        .max(1);
    Some(Budget {
        target: target.min(hard).max(1),
        hard,
        exact: false,
    })
}

/// The part of the increment a move may spend on a clock of `time` ms: all of it
/// (`time_inc_pct`), in proportion to the clock once the clock is inside the reserve `keep`, and
/// never more than a quarter of the clock (`time_inc_div`).
fn increment_share(time: u64, inc: u64, keep: u64, p: &Params) -> u64 {
    let inside = time.min(keep) as u128;
    let pct = p.time_inc_pct.clamp(0, 100) as u128;
    let share = pct * inc as u128 * inside / (100 * keep.max(1) as u128);
    (share as u64).min(time / p.time_inc_div.max(1) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Clock, Lag};

    /// The shallowest iteration the target may stop after, by default.
    fn min_depth() -> u32 {
        Params::default().time_min_depth as u32
    }

    /// The budget at the default numbers.
    fn budget(limits: &Limits) -> Option<Budget> {
        super::budget(limits, &Params::default())
    }

    #[test]
    fn budgets() {
        let p = Params::default();
        let mut l = Limits {
            movetime: Some(500),
            move_overhead: 10,
            ..Default::default()
        };
        let b = budget(&l).unwrap();
        assert_eq!((b.target, b.hard, b.exact), (490, 490, true));
        // movetime never stops early, however long ago the last iteration ended.
        assert!(!b.soft_stop(20, 489, 0.0, 0, 0, &p));
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
        // A clock budget stops after an iteration past 60 % of its target, later when the
        // best move is unstable.
        assert!(!b.exact);
        assert!(b.soft_stop(min_depth(), b.target * 6 / 10 + 1, 0.0, 0, 0, &p));
        assert!(!b.soft_stop(min_depth(), b.target * 6 / 10 + 1, 1.0, 0, 0, &p));
        // Below the shallowest stopping depth only the hard limit ends the search.
        assert!(!b.soft_stop(min_depth() - 1, b.hard, 0.0, 0, 0, &p));
        l.clock = Some(Clock {
            time: 3000,
            inc: 0,
            movestogo: Some(1),
        });
        assert_eq!(
            budget(&l).unwrap().hard,
            3000 - kept(10, &Params::default())
        );
        l.clock = Some(Clock {
            time: 0,
            inc: 0,
            movestogo: None,
        });
        assert_eq!(budget(&l).unwrap(), Budget::fixed(1));
        assert_eq!(budget(&Limits::default()), None);
    }

    #[test]
    fn a_falling_score_stretches_the_target() {
        // Off, the target is the same whatever the score did.
        let off = Params {
            time_fall: 0.0,
            ..Default::default()
        };
        assert_eq!(fall_scale(300, &off), 1.0);
        let p = Params {
            time_fall: 1.0,
            time_fall_max: 1.5,
            ..Default::default()
        };
        assert_eq!(fall_scale(0, &p), 1.0);
        assert!((fall_scale(30, &p) - 1.3).abs() < 1e-9);
        // Capped both ways: a collapse or a windfall moves the target at most 1.5 times.
        assert_eq!(fall_scale(1000, &p), 1.5);
        assert!((fall_scale(-1000, &p) - 1.0 / 1.5).abs() < 1e-9);
        let b = Budget {
            target: 100,
            hard: 500,
            exact: false,
        };
        // 60 ms passes 60 % of the target, not 60 % of the target stretched by a fall.
        assert!(b.soft_stop(min_depth(), 61, 0.0, 0, 0, &p));
        assert!(!b.soft_stop(min_depth(), 61, 0.0, 50, 0, &p));
        assert!(b.soft_stop(min_depth(), 41, 0.0, -50, 0, &p));
    }

    #[test]
    fn a_best_move_that_took_most_nodes_shrinks_the_target_when_asked_to() {
        let b = Budget {
            target: 100,
            hard: 500,
            exact: false,
        };
        let off = Params::default();
        assert_eq!(effort_scale(99, &off), 1.0, "off by default");
        assert!(!b.soft_stop(min_depth(), 50, 0.0, 0, 99, &off));
        let on = Params {
            time_effort: 90,
            time_effort_scale: 0.75,
            ..Default::default()
        };
        assert_eq!(effort_scale(89, &on), 1.0);
        assert_eq!(effort_scale(90, &on), 0.75);
        // 60 % of the target is 60 ms; shrunk by the effort, 45 ms.
        assert!(!b.soft_stop(min_depth(), 46, 0.0, 0, 89, &on));
        assert!(b.soft_stop(min_depth(), 46, 0.0, 0, 95, &on));
        assert!(!b.soft_stop(min_depth(), 44, 0.0, 0, 95, &on));
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
        assert!(b.hard <= 200 - kept(10, &Params::default()), "{b:?}");
        let moves = Params::default().time_moves as u64;
        assert!(b.target <= 200 / moves + 10, "{b:?}");
    }

    /// The budget of a clock of `time` + `inc` ms with `lag` learnt.
    fn with_lag(time: u64, inc: u64, lag: Lag) -> Budget {
        budget(&Limits {
            move_overhead: 10,
            clock: Some(Clock {
                time,
                inc,
                movestogo: None,
            }),
            lag,
            ..Default::default()
        })
        .unwrap()
    }

    #[test]
    fn a_learnt_lag_keeps_more_back_and_spends_less() {
        let lag = Lag {
            typical: 3,
            peak: 15,
            taken: 0,
        };
        for time in [50, 100, 300, 1000, 10_000] {
            let (quiet, busy) = (with_lag(time, 10, Lag::default()), with_lag(time, 10, lag));
            assert!(
                busy.target < quiet.target && busy.hard < quiet.hard,
                "{time}: {quiet:?} {busy:?}"
            );
        }
        // 100 ms keep 10 + 30 + 4 × 15 back (`time_lag_mul` 4): nothing left but 7 ms of the
        // increment (3 ms of each move go to the lag), and the hard limit is an eighth of the
        // clock.
        assert_eq!(
            with_lag(100, 10, lag),
            Budget {
                target: 7,
                hard: 12,
                exact: false
            }
        );
        // Inside that reserve, a move spends less than the increment less the lag: the clock
        // climbs back.
        assert!(with_lag(80, 10, lag).target < 7);
        // A lag as large as the increment leaves it nothing; an absurd one overflows nothing.
        let all = Lag {
            typical: 10,
            peak: 30,
            taken: 0,
        };
        assert_eq!(with_lag(100, 10, all).target, 1);
        let absurd = Lag {
            typical: u64::MAX,
            peak: u64::MAX,
            taken: 100,
        };
        assert_eq!(with_lag(u64::MAX, u64::MAX, absurd).hard, 1);
    }

    #[test]
    fn a_busy_machine_keeps_more_back() {
        let p = Params::default();
        let busy = |taken| Lag {
            taken,
            ..Lag::default()
        };
        let limits = |lag| Limits {
            move_overhead: 10,
            lag,
            ..Default::default()
        };
        // Up to `time_busy_taken` per cent taken, nothing more is kept; above it, the reserve.
        let quiet = kept_with_lag(&limits(busy(p.time_busy_taken as u32)), &p);
        assert_eq!(quiet, kept(10, &p));
        let more = kept_with_lag(&limits(busy(p.time_busy_taken as u32 + 1)), &p);
        assert_eq!(more, quiet + p.time_busy_reserve as u64);
        // A second at 10 ms a move: the clock is spent down to that reserve, and inside it a
        // move spends less than the increment (no eighth of the clock to finish an iteration),
        // so that the clock climbs back.
        for time in [200, 400, 1000] {
            let (a, b) = (with_lag(time, 10, busy(0)), with_lag(time, 10, busy(50)));
            assert!(
                b.target < a.target && b.hard < a.hard,
                "{time}: {a:?} {b:?}"
            );
            let above = time.saturating_sub(more);
            assert!(b.hard <= (above + 10).max(above / 8), "{time}: {b:?}");
        }
        for time in [50, 100, 150] {
            assert!(with_lag(time, 10, busy(50)).hard < 10, "{time}");
        }
    }

    #[test]
    fn no_cliff_at_the_reserve() {
        // The budget grows with the clock, step by step: no clock makes the next move much
        // poorer than a clock a millisecond longer, with or without a lag learnt.
        let lags = [
            Lag::default(),
            Lag {
                typical: 3,
                peak: 30,
                taken: 0,
            },
            Lag {
                typical: 3,
                peak: 30,
                taken: 50,
            },
        ];
        for (inc, lag) in [0u64, 3, 10, 100]
            .into_iter()
            .flat_map(|inc| lags.map(|l| (inc, l)))
        {
            let at = |time| with_lag(time, inc, lag);
            let mut last = at(0);
            for time in 1..2000 {
                let b = at(time);
                assert!(
                    b.target >= last.target && b.hard >= last.hard,
                    "{time}+{inc} {lag:?}"
                );
                assert!(
                    b.target <= last.target + 2,
                    "{time}+{inc} {lag:?}: {last:?} -> {b:?}"
                );
                last = b;
            }
        }
        // Inside the reserve a clock with an increment still thinks, and spends less than
        // its increment, so the clock climbs back.
        let time = kept(10, &Params::default()) * 3 / 4;
        let b = budget(&Limits {
            move_overhead: 10,
            clock: Some(Clock {
                time,
                inc: 10,
                movestogo: None,
            }),
            ..Default::default()
        })
        .unwrap();
        assert!(
            b.target >= 5 && b.target < 10 && b.hard <= b.target.max(time / 8),
            "{b:?}"
        );
        // Absurd clocks are spent like large ones, without overflow.
        let b = budget(&Limits {
            clock: Some(Clock {
                time: u64::MAX,
                inc: u64::MAX,
                movestogo: None,
            }),
            ..Default::default()
        })
        .unwrap();
        assert!(b.target <= b.hard && b.hard < u64::MAX, "{b:?}");
    }
}
