//! Time allocation: how long one move may take, from the limits of `go`.
//!
//! Per the protocol document §5.7 (T own time, I increment, M moves to go, O move overhead, all
//! ms): with M = 1 the whole of T − O; otherwise target = T / min(M or 30, 50) + 3I/4 and
//! hard = min(5·target, T/2 + I/2, T − O). `movetime X` gives X − O for both. The search starts
//! no new iteration past 60 % of the (instability-scaled) target and aborts at hard.

use super::limits::Limits;

/// Milliseconds the search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Normal spend.
    pub target: u64,
    /// Never exceed.
    pub hard: u64,
}

/// The budget for `limits`, or `None` when time does not limit the search.
pub fn budget(limits: &Limits) -> Option<Budget> {
    let o = limits.move_overhead;
    if let Some(x) = limits.movetime {
        let t = x.saturating_sub(o).max(1);
        return Some(Budget { target: t, hard: t });
    }
    let c = limits.clock?;
    let avail = c.time.saturating_sub(o).max(1);
    if c.movestogo == Some(1) {
        return Some(Budget {
            target: avail,
            hard: avail,
        });
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
        assert_eq!(
            budget(&l),
            Some(Budget {
                target: 490,
                hard: 490
            })
        );
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
        assert_eq!(budget(&l).unwrap().hard, 2990);
        l.clock = Some(Clock {
            time: 0,
            inc: 0,
            movestogo: None,
        });
        assert!(budget(&l).unwrap().hard >= 1);
        assert_eq!(budget(&Limits::default()), None);
    }
}
