//! Reading the lag off the GUI's clock (`search::lag` says why): the controller tells the
//! meter of every `go` and of the answer it wrote, and the meter pairs each clocked move with
//! the clock of the next `go`.
//!
//! A pair counts only when the next `go` is the same game's next move: a clock was given both
//! times (`wtime`/`btime` or UCCI's `time`), nothing else ran between them, and the position
//! searched is two plies after the last one (the move played, then the opponent's; a UCCI GUI
//! that restarts the FEN after a capture still shows the position after the move). The
//! engine's own time runs from reading `go`, or from `ponderhit`; a ponder search that was
//! stopped, not hit, cost no time on the GUI's clock and is no sample. A new game forgets all
//! but the share of a core the searches had (`CoreShare`), which belongs to the machine.

use crate::board::{Game, Position};
use crate::search::lag::{sample, CoreShare, LagEstimate};
use crate::search::{Clock, Lag};

/// The last clocked move, waiting for the next `go`'s clock.
#[derive(Clone, Debug)]
struct Pending {
    /// The position searched.
    root: Position,
    /// Its clock.
    clock: Clock,
    /// The most the engine meant to spend (the budget's hard limit).
    hard: u64,
    /// Milliseconds on the engine's clock when the answer was written, once it was.
    spent: Option<f64>,
}

/// The lag learnt over one game, and the move it waits to hear the cost of.
#[derive(Clone, Debug, Default)]
pub struct LagMeter {
    estimate: LagEstimate,
    last: Option<Pending>,
    share: CoreShare,
}

impl LagMeter {
    /// A new game: nothing learnt of its clock.
    pub fn new_game(&mut self) {
        *self = LagMeter {
            share: self.share,
            ..LagMeter::default()
        };
    }

    /// A `go` in `game` with `clock`: learns what the last move cost if this one follows it
    /// and forgets the last move. Returns the lag to allow for in this search.
    pub fn go(&mut self, game: &Game, clock: Option<Clock>) -> Lag {
        if let (Some(last), Some(now)) = (self.last.take(), clock) {
            let spent = last.spent.filter(|_| follows(&last.root, game));
            let c = last.clock;
            if let Some((x, spent)) = spent.and_then(|spent| {
                sample(c.time, c.inc, now.time, spent, last.hard).zip(Some(spent))
            }) {
                log::debug!(
                    "lag sample {x:.1} ms (spent {spent:.1}, hard {})",
                    last.hard
                );
                self.estimate.add(x);
            }
        }
        Lag {
            taken: self.share.taken(),
            ..self.estimate.lag()
        }
    }

    /// The search of the `go` just seen started from `root` with `clock` and the hard limit
    /// `hard` (ms): its cost is learnt at the next `go`, once `answered`.
    pub fn started(&mut self, root: &Position, clock: Clock, hard: u64) {
        self.last = Some(Pending {
            root: root.clone(),
            clock,
            hard,
            spent: None,
        });
    }

    /// The search's answer was written `spent` ms after its clock started (`None`: not on
    /// the clock), and its thread `ran` so many ms of processor time in so many on the wall
    /// (`None`: not known here, or not to be learnt from). Only a clocked search teaches the
    /// share of a core: an analysis may wait for `stop` with its work done. Anything else that
    /// ran since the last `go` ends the pairing.
    pub fn answered(&mut self, spent: Option<f64>, ran: Option<(f64, f64)>) {
        let clocked = matches!(&self.last, Some(m) if m.spent.is_none());
        if let (true, Some((cpu, wall))) = (clocked, ran) {
            self.share.add(cpu, wall);
            log::debug!(
                "core share {cpu:.1} of {wall:.1} ms: {}% taken lately",
                self.share.taken()
            );
        }
        match (&mut self.last, spent) {
            (Some(m), Some(s)) if m.spent.is_none() => m.spent = Some(s),
            _ => self.last = None,
        }
    }
}

/// Whether `game` stands two plies after `root`: the position before its last move is one
/// move from `root`.
fn follows(root: &Position, game: &Game) -> bool {
    let p = game.positions();
    p.len() >= 2
        && root
            .legal_moves()
            .iter()
            .any(|m| root.key_after(m) == p[p.len() - 2].key())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[&str]) -> Game {
        Game::from_moves(Position::startpos(), moves).unwrap()
    }

    fn clock(time: u64) -> Option<Clock> {
        Some(Clock {
            time,
            inc: 10,
            movestogo: None,
        })
    }

    /// Plays one clocked move of `g` that the engine took `spent` ms over (hard limit 100).
    fn play(m: &mut LagMeter, g: &Game, time: u64, spent: Option<f64>) -> Lag {
        let lag = m.go(g, clock(time));
        m.started(g.position(), clock(time).unwrap(), 100);
        m.answered(spent, None);
        lag
    }

    #[test]
    fn the_next_move_of_the_game_learns_the_lag() {
        let mut m = LagMeter::default();
        assert_eq!(play(&mut m, &game(&[]), 1000, Some(20.0)), Lag::default());
        // 1000 + 10 − 960 = 50 charged for 20 spent: 30 ms of lag.
        let lag = play(&mut m, &game(&["h2e2", "h9g7"]), 960, Some(20.0));
        assert_eq!(lag.peak, 30);
        assert!(lag.typical > 0);
        m.new_game();
        assert_eq!(m.go(&game(&[]), clock(1000)), Lag::default());
    }

    #[test]
    fn the_share_of_a_core_outlives_the_game() {
        let mut m = LagMeter::default();
        for _ in 0..4 {
            m.go(&game(&[]), clock(1000));
            m.started(game(&[]).position(), clock(1000).unwrap(), 100);
            m.answered(Some(20.0), Some((10.0, 20.0)));
        }
        assert_eq!(m.go(&game(&[]), clock(1000)).taken, 50);
        // An analysis that waited for `stop` (no clocked search pending) teaches nothing.
        m.answered(None, Some((1.0, 5000.0)));
        assert_eq!(m.go(&game(&[]), clock(1000)).taken, 50);
        m.new_game();
        assert_eq!(m.go(&game(&[]), clock(1000)).taken, 50);
    }

    #[test]
    fn moves_that_do_not_follow_teach_nothing() {
        let mut m = LagMeter::default();
        play(&mut m, &game(&[]), 1000, Some(20.0));
        // Not two plies on (the same position searched again, say after `stop`).
        assert_eq!(m.go(&game(&["h2e2"]), clock(900)), Lag::default());
        // A ponder search stopped before `ponderhit` was not on the clock.
        play(&mut m, &game(&[]), 1000, None);
        assert_eq!(m.go(&game(&["h2e2", "h9g7"]), clock(900)), Lag::default());
        // No clock at the next `go` (analysis), or a clock from another game.
        play(&mut m, &game(&[]), 1000, Some(20.0));
        assert_eq!(m.go(&game(&["h2e2", "h9g7"]), None), Lag::default());
        play(&mut m, &game(&[]), 1000, Some(20.0));
        assert_eq!(m.go(&game(&["h2e2", "h9g7"]), clock(300)), Lag::default());
        // A second answer (a bench after the search) ends the pairing.
        play(&mut m, &game(&[]), 1000, Some(20.0));
        m.answered(Some(5.0), None);
        assert_eq!(m.go(&game(&["h2e2", "h9g7"]), clock(900)), Lag::default());
    }

    #[test]
    fn a_fen_restarted_after_a_capture_still_follows() {
        // b2b9 takes the horse; the GUI sends the FEN after it and the reply alone.
        let root = game(&["h2e2", "h9g7", "h0g2", "i9h9"]);
        let after = root
            .position()
            .play(root.position().parse_move("b2b9").unwrap());
        let next = Game::from_moves(after, &["a9a8"]).unwrap();
        assert!(follows(root.position(), &next));
        assert!(!follows(root.position(), &game(&["h2e2", "h9g7"])));
    }
}
