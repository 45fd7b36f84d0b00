//! From a `go` command to the search's `Limits`: a pure function of the arguments, the side to
//! move and the options, so every clock rule can be tested without a running engine.
//!
//! UCI sends both clocks (`wtime`/`btime`, `winc`/`binc`) and the side to move picks one; UCCI
//! sends the mover's own (`time`, `increment`), in milliseconds or, after
//! `setoption usemillisec false`, in seconds. How much of the clock a move may use is the time
//! manager's business (`search::time`).

use super::command::GoArgs;
use super::options::Options;
use crate::board::{Color, Move};
use crate::search::{Clock, Lag, Limits};

/// The limits of one `go`. `root_moves` are the moves the search may play (empty: all legal
/// moves).
pub fn limits(args: &GoArgs, side: Color, options: &Options, root_moves: Vec<Move>) -> Limits {
    let ucci_ms = |v: u64| {
        if options.usemillisec {
            v
        } else {
            v.saturating_mul(1000)
        }
    };
    let to_u32 = |v: u64| v.min(u32::MAX as u64) as u32;
    let movestogo = args.movestogo.map(to_u32);
    let clock = if let Some(t) = args.time {
        Some(Clock {
            time: ucci_ms(t),
            inc: args.increment.map_or(0, ucci_ms),
            movestogo,
        })
    } else {
        let (time, inc) = match side {
            Color::Red => (args.wtime, args.winc),
            Color::Black => (args.btime, args.binc),
        };
        time.map(|time| Clock {
            time,
            inc: inc.unwrap_or(0),
            movestogo,
        })
    };
    let mut limits = Limits {
        depth: args.depth.map(|d| to_u32(d).max(1)),
        nodes: args.nodes,
        min_depth: None,
        movetime: args.movetime,
        mate: args.mate.map(to_u32),
        clock,
        infinite: args.infinite,
        move_overhead: options.move_overhead.max(0) as u64,
        root_moves,
        lag: Lag::default(),
    };
    options.skill().restrict(&mut limits);
    limits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::{parse, Command};
    use crate::search::time::Budget;

    /// The budget of `l` at the default search numbers.
    fn budget(l: &Limits) -> Option<Budget> {
        crate::search::time::budget(l, &crate::search::Params::default())
    }

    fn go(line: &str) -> GoArgs {
        match parse(line) {
            Ok(Command::Go(args)) => *args,
            other => panic!("{line}: {other:?}"),
        }
    }

    fn of(line: &str, side: Color) -> Limits {
        limits(&go(line), side, &Options::new(), Vec::new())
    }

    #[test]
    fn uci_clocks_follow_the_side_to_move() {
        let line = "go wtime 60000 btime 30000 winc 1000 binc 500 movestogo 20";
        let red = of(line, Color::Red).clock.unwrap();
        assert_eq!((red.time, red.inc, red.movestogo), (60_000, 1000, Some(20)));
        let black = of(line, Color::Black).clock.unwrap();
        assert_eq!(
            (black.time, black.inc, black.movestogo),
            (30_000, 500, Some(20))
        );
        // Only the other side's clock: no clock for the mover.
        assert_eq!(of("go btime 5000", Color::Red).clock, None);
    }

    #[test]
    fn ucci_clocks_in_milliseconds_or_seconds() {
        let line = "go time 120 increment 2 movestogo 10 opptime 90";
        let ms = of(line, Color::Black).clock.unwrap();
        assert_eq!((ms.time, ms.inc, ms.movestogo), (120, 2, Some(10)));
        let options = Options {
            usemillisec: false,
            ..Options::new()
        };
        let s = limits(&go(line), Color::Black, &options, Vec::new())
            .clock
            .unwrap();
        assert_eq!((s.time, s.inc), (120_000, 2000));
    }

    #[test]
    fn other_limits_and_overhead() {
        let l = of("go depth 0 nodes 5000 mate 3 movetime 250", Color::Red);
        assert_eq!(l.depth, Some(1), "depth 0 searches one ply");
        assert_eq!(
            (l.nodes, l.mate, l.movetime),
            (Some(5000), Some(3), Some(250))
        );
        assert!(!l.infinite && l.clock.is_none());
        assert!(of("go infinite", Color::Red).infinite);
        let options = Options {
            move_overhead: 75,
            ..Options::new()
        };
        let l = limits(&go("go movetime 1000"), Color::Red, &options, Vec::new());
        assert_eq!(l.move_overhead, 75);
        assert_eq!(budget(&l).unwrap().hard, 1000 - 75);
    }

    #[test]
    fn bad_values_are_dropped_not_guessed() {
        let args = go("go wtime abc btime -5 depth 4");
        assert!(!args.warnings.is_empty());
        let l = limits(&args, Color::Red, &Options::new(), Vec::new());
        assert_eq!(l.clock, None);
        assert_eq!(l.depth, Some(4));
        // A negative clock (the flag has fallen) is an empty clock: move at once.
        let l = limits(&args, Color::Black, &Options::new(), Vec::new());
        assert_eq!(l.clock.map(|c| c.time), Some(0));
        assert_eq!(budget(&l).unwrap().hard, 1);
    }

    #[test]
    fn ponder_searches_have_the_clock_of_the_move_pondered() {
        let args = go("go ponder wtime 10000 btime 10000 winc 100 binc 100");
        assert!(args.ponder);
        let l = limits(&args, Color::Black, &Options::new(), Vec::new());
        assert_eq!(l.clock.unwrap().time, 10_000);
    }

    #[test]
    fn short_clocks_always_leave_a_reserve() {
        for time in [0u64, 1, 3, 5, 10, 20, 26, 40, 60, 100, 200, 500, 1000] {
            for inc in [0u64, 10, 100] {
                for mtg in ["", " movestogo 1", " movestogo 5"] {
                    let line = format!("go wtime {time} btime {time} winc {inc} binc {inc}{mtg}");
                    let l = of(&line, Color::Red);
                    let b = budget(&l).unwrap();
                    assert!(b.target <= b.hard, "{line}: {b:?}");
                    // The hard limit stays inside the clock less the process's latency, plus
                    // the part of the increment a move may spend (at most the increment, never
                    // more than a quarter of the clock), or within an eighth of the clock.
                    let reserve = crate::search::time::kept(
                        l.move_overhead,
                        &crate::search::Params::default(),
                    );
                    let share = inc.min(time / 4);
                    let avail = time.saturating_sub(reserve);
                    assert!(
                        b.hard <= (avail + share).max(time / 8).max(1),
                        "{line}: {b:?}"
                    );
                }
            }
        }
    }
}
