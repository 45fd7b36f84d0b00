//! One soak game, move by move: seat the two processes (restarted now and then), then for each
//! move an option change now and then, the search (a `ponderhit` when the engine pondered the
//! move played), another change now and then in its middle, the answer checked against the
//! referee and the clock, and a ponder search on the predicted reply; at the end, both
//! processes alive, ready and within their memory.

use super::deck::{Deck, Toggle};
use super::engine::{Fault, Proc};
use super::{Report, Shared};
use crate::board::rules::Outcome;
use crate::board::{Color, Game, Move, MoveError, Position};
use crate::protocol::Dialect;
use crate::tools::matches::engine::Go;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// The two processes of a worker, kept from game to game.
pub(super) type Pair = [Proc; 2];

/// What is wrong with an engine's terminal line.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    /// No move, while the position has legal moves.
    #[error("no move ('{0}') with legal moves on the board")]
    NoMove(String),
    /// The move is not legal in the position searched.
    #[error("'{line}': {error} in {fen}")]
    Illegal {
        /// The line.
        line: String,
        /// Why the move is refused.
        error: MoveError,
        /// The position searched.
        fen: String,
    },
    /// The ponder move is not legal after the move.
    #[error("'{line}': ponder move {ponder} illegal after {mv} in {fen}")]
    Ponder {
        /// The line.
        line: String,
        /// The ponder move as written.
        ponder: String,
        /// The move.
        mv: Move,
        /// The position searched.
        fen: String,
    },
    /// Words after the move (and its ponder move): `draw` and `resign` are never offered here.
    #[error("'{0}': unexpected words after the move")]
    Trailing(String),
}

/// Plays game `index` with a worker's processes; a fault abandons the game and ends both.
pub(super) fn game(shared: &Shared, index: usize, procs: &mut Option<Pair>, rep: &mut Report) {
    let seed = shared.cfg.seed;
    let mut rng = StdRng::seed_from_u64(seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    match play(shared, index, procs, rep, &mut rng) {
        Ok(()) => rep.games += 1,
        Err(f) => {
            rep.abandoned += 1;
            rep.faults
                .push(format!("game {} (seed {seed}): {f}", index + 1));
            // Dropping a process kills it.
            *procs = None;
        }
    }
}

/// One game under way: the moves, the clocks, who plays which side, and each process's deck.
struct Play<'a> {
    shared: &'a Shared,
    rep: &'a mut Report,
    rng: &'a mut StdRng,
    procs: &'a mut Pair,
    game: Game,
    /// The process of Red, of Black.
    order: [usize; 2],
    /// Red's and Black's clocks, ms.
    clocks: [f64; 2],
    decks: [Deck; 2],
}

fn play(
    shared: &Shared,
    index: usize,
    procs: &mut Option<Pair>,
    rep: &mut Report,
    rng: &mut StdRng,
) -> Result<(), Fault> {
    let procs = seat(shared, procs, rep, rng)?;
    let opening = &shared.openings[(index / 2) % shared.openings.len().max(1)];
    let mut play = Play {
        shared,
        rep,
        rng,
        procs,
        game: opening.game(),
        order: if index.is_multiple_of(2) {
            [0, 1]
        } else {
            [1, 0]
        },
        clocks: [shared.cfg.base_ms as f64; 2],
        decks: Default::default(),
    };
    let ending = loop {
        if let Some(out) = play.game.outcome(shared.cfg.maxplies) {
            break match out {
                Outcome::Win(c, r) => format!("{} won: {r}", colour(c)),
                Outcome::Draw(r) => format!("draw: {r}"),
            };
        }
        play.turn()?;
    };
    *play.rep.endings.entry(ending).or_default() += 1;
    play.finish()
}

/// The worker's processes for the next game, both told a new game starts: replaced now and
/// then (after `quit`), started when there are none.
fn seat<'a>(
    shared: &Shared,
    procs: &'a mut Option<Pair>,
    rep: &mut Report,
    rng: &mut StdRng,
) -> Result<&'a mut Pair, Fault> {
    let restart = rng.random_bool(shared.cfg.restart_rate.clamp(0.0, 1.0));
    let pair = match procs.take() {
        Some(mut pair) if !restart => {
            for p in pair.iter_mut() {
                new_game(p, rep, rng)?;
            }
            pair
        }
        old => {
            for p in old.into_iter().flatten() {
                p.quit(rep)?;
            }
            [fresh(shared, rep, rng)?, fresh(shared, rep, rng)?]
        }
    };
    Ok(procs.insert(pair))
}

/// A new process in the configured dialect (or a random one), told a new game starts.
fn fresh(shared: &Shared, rep: &mut Report, rng: &mut StdRng) -> Result<Proc, Fault> {
    let d = shared.cfg.dialect.unwrap_or(if rng.random_bool(0.5) {
        Dialect::Uci
    } else {
        Dialect::Ucci
    });
    let mut p = Proc::start(shared, d, rep)?;
    new_game(&mut p, rep, rng)?;
    Ok(p)
}

/// A new game, in one of the ways the dialect has, then `isready`.
fn new_game(p: &mut Proc, rep: &mut Report, rng: &mut StdRng) -> Result<(), Fault> {
    let line = match p.dialect {
        Dialect::Uci => "ucinewgame",
        Dialect::Ucci => ["setoption newgame", "newgame", "uccinewgame"][rng.random_range(0..3)],
    };
    p.send(line)?;
    p.isready(rep)
}

impl Play<'_> {
    /// One move: a change between moves now and then, the search, the move checked and
    /// played, then pondering on the predicted reply.
    fn turn(&mut self) -> Result<(), Fault> {
        if self.rng.random_bool(self.shared.cfg.toggle_rate) {
            // To either process (the other may be pondering).
            let k = self.rng.random_range(0..2);
            self.toggle(k)?;
        }
        let side = self.game.position().side_to_move();
        let go_at = self.start_search(side)?;
        let (line, at) = self.await_answer(side, go_at)?;
        self.take_move(side, go_at, &line, at)?;
        self.ponder(side, &line)
    }

    /// Makes the next change of process `k`'s deck.
    fn toggle(&mut self, k: usize) -> Result<(), Fault> {
        let kind: Toggle = self.decks[k].draw(self.rng);
        self.procs[k].toggle(kind, self.shared, self.rng, self.rep)
    }

    /// The `go` line of the clocks now, with `side` to move.
    fn clock_go(&self, side: Color) -> Go {
        Go::Clock {
            red: self.clocks[0].max(1.0) as u64,
            black: self.clocks[1].max(1.0) as u64,
            incs: [self.shared.cfg.inc_ms; 2],
            movestogo: None,
            side,
        }
    }

    /// Starts the mover's search: `ponderhit` when it pondered the move just played, else
    /// (after stopping a ponder search on another move) the position and `go`. Returns when.
    fn start_search(&mut self, side: Color) -> Result<Instant, Fault> {
        let go = self.clock_go(side);
        let last = self.game.moves().last().copied();
        let p = &mut self.procs[self.order[side.index()]];
        let pondered = p.search.as_ref().and_then(|s| s.ponder);
        if pondered.is_some() && pondered == last {
            p.send("ponderhit")?;
            self.rep.ponderhits += 1;
            if let Some(s) = p.search.as_mut() {
                s.ponder = None;
            }
        } else {
            if pondered.is_some() {
                p.stop_ponder(self.rep)?;
            }
            p.position(&self.game)?;
            p.isready(self.rep)?;
            p.go(&go.line(p.dialect), None)?;
        }
        Ok(Instant::now())
    }

    /// Waits for the mover's terminal line, making a change in the middle of the search now
    /// and then; a fault when none comes within its clock and a second.
    fn await_answer(&mut self, side: Color, go_at: Instant) -> Result<(String, Instant), Fault> {
        let cfg = &self.shared.cfg;
        let (si, mover) = (side.index(), self.order[side.index()]);
        let clock = self.clocks[si];
        let hard = go_at + Duration::from_millis(clock.max(0.0) as u64 + cfg.margin_ms + 1000);
        let mut toggle_at = self.rng.random_bool(cfg.toggle_rate).then(|| {
            let budget = (clock / 30.0 + cfg.inc_ms as f64).max(1.0);
            go_at + Duration::from_micros((self.rng.random_range(0.0..budget) * 1000.0) as u64)
        });
        loop {
            let p = &mut self.procs[mover];
            if let Some(t) = p.terminal.take() {
                return Ok(t);
            }
            let now = Instant::now();
            if now >= hard {
                return Err(p.fault(format!(
                    "no bestmove within {:.0} ms ({clock:.0} ms on its clock)",
                    (now - go_at).as_secs_f64() * 1000.0,
                )));
            }
            match toggle_at {
                Some(t) if now >= t => {
                    toggle_at = None;
                    self.toggle(mover)?;
                }
                _ => {
                    p.pump(toggle_at.map_or(hard, |t| t.min(hard)), self.rep)?;
                    p.check_bad()?;
                }
            }
        }
    }

    /// Checks the answer (time used, `info` lines, a legal move) and plays its move.
    fn take_move(
        &mut self,
        side: Color,
        go_at: Instant,
        line: &str,
        at: Instant,
    ) -> Result<(), Fault> {
        let (si, margin) = (side.index(), self.shared.cfg.margin_ms as f64);
        let p = &mut self.procs[self.order[si]];
        let Some(started) = p.search.take() else {
            return Err(p.fault("a terminal line without a search"));
        };
        let used = at.saturating_duration_since(go_at).as_secs_f64() * 1000.0;
        if used > self.clocks[si] + margin {
            return Err(p.fault(format!(
                "lost on time: {used:.0} ms used with {:.0} ms on its clock",
                self.clocks[si]
            )));
        }
        self.clocks[si] = (self.clocks[si] - used).max(0.0) + self.shared.cfg.inc_ms as f64;
        p.check_infos(&started)?;
        let m = check_answer(line, self.game.position()).map_err(|e| p.fault(e))?;
        self.game
            .play(m)
            .map_err(|e| p.fault(format!("referee refused {m}: {e}")))?;
        self.rep.plies += 1;
        Ok(())
    }

    /// When the mover has `Ponder` on: `go ponder` on the reply its answer predicted (unless
    /// that reply ends the game).
    fn ponder(&mut self, side: Color, line: &str) -> Result<(), Fault> {
        let go = self.clock_go(side);
        let p = &mut self.procs[self.order[side.index()]];
        if !p.opts.ponder {
            return Ok(());
        }
        let predicted = line
            .split_whitespace()
            .skip_while(|&w| w != "ponder")
            .nth(1)
            .and_then(|t| self.game.position().parse_move(t).ok());
        let Some(reply) = predicted else {
            return Ok(());
        };
        let mut g = self.game.clone();
        if g.play(reply).is_ok() && g.outcome(self.shared.cfg.maxplies).is_none() {
            p.position(&g)?;
            p.isready(self.rep)?;
            let go = go.line(p.dialect);
            p.go(&go.replacen("go ", "go ponder ", 1), Some(reply))?;
            self.rep.ponders += 1;
        }
        Ok(())
    }

    /// After the game: ponder searches stopped, both processes alive, ready and within their
    /// memory.
    fn finish(&mut self) -> Result<(), Fault> {
        for p in self.procs.iter_mut() {
            if p.search.is_some() {
                p.stop_ponder(self.rep)?;
            }
            p.isready(self.rep)?;
            if !p.alive() {
                return Err(p.fault("engine process gone"));
            }
            p.memory(self.shared.cfg.memory_slack_mb, self.rep)?;
        }
        Ok(())
    }
}

/// Checks a terminal line against the position searched: a legal move (never a missing one
/// while moves exist), a legal ponder move, and no `draw`/`resign` (no offer was made).
/// Returns the move.
pub(super) fn check_answer(line: &str, root: &Position) -> Result<Move, AnswerError> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let Some(&text) = w.get(1).filter(|_| w[0] == "bestmove") else {
        return Err(AnswerError::NoMove(line.to_string()));
    };
    let m = root
        .parse_move(text)
        .map_err(|error| AnswerError::Illegal {
            line: line.to_string(),
            error,
            fen: root.fen(),
        })?;
    let mut rest = &w[2..];
    if let ["ponder", p, tail @ ..] = rest {
        if root.play(m).parse_move(p).is_err() {
            return Err(AnswerError::Ponder {
                line: line.to_string(),
                ponder: p.to_string(),
                mv: m,
                fen: root.fen(),
            });
        }
        rest = tail;
    }
    if !rest.is_empty() {
        return Err(AnswerError::Trailing(line.to_string()));
    }
    Ok(m)
}

fn colour(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_checked() {
        let start = Position::startpos();
        assert!(check_answer("bestmove h2e2 ponder h9g7", &start).is_ok());
        assert!(check_answer("bestmove h2e2", &start).is_ok());
        assert!(check_answer("bestmove a0a9", &start).is_err());
        assert!(check_answer("bestmove h2e2 ponder h2e2", &start).is_err());
        assert!(check_answer("nobestmove", &start).is_err());
        assert!(check_answer("bestmove (none)", &start).is_err());
        assert!(check_answer("bestmove h2e2 resign", &start).is_err());
    }
}
