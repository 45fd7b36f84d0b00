//! `chariot judge`: replays a game and says how the rules end it — the same referee
//! (`Game::outcome`) that `chariot match` applies after every ply.
//!
//! One line per game: `<result> <reason> at ply <n>` when the game is over (`1-0`, `0-1` or
//! `1/2-1/2`; the first rule that ended it and the ply it ended at, e.g. `0-1 perpetual chase by
//! red at ply 40`), or `* in progress at ply <n>` (`n` = the plies played) when it goes on. Moves
//! after the end are still checked for legality but do not change the verdict. With `--pgn`,
//! each game's line is prefixed `game <k>: ` and followed by ` (recorded <r>: disagrees)` when the
//! file records another result for a game the rules ended, or ` (recorded <r>: not by the
//! rules)` when the rules do not end it (resignation, time, adjudication); a last line counts the
//! disagreements.

use crate::board::rules::Outcome;
use crate::board::{Color, FenError, Game, GameError, Move, Position};
use crate::tools::pgn::{self, PgnError};
use std::fmt;

/// How the rules judge a game: its outcome, if any, and the ply it ended at (the plies played
/// when it goes on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The first rule that ended the game, or `None`.
    pub outcome: Option<Outcome>,
    /// The ply the game ended at (1-based count of moves from the start), or the plies played.
    pub ply: usize,
}

impl Judgement {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn result(&self) -> &'static str {
        match &self.outcome {
            Some(Outcome::Win(Color::Red, _)) => "1-0",
            Some(Outcome::Win(Color::Black, _)) => "0-1",
            Some(Outcome::Draw(_)) => "1/2-1/2",
            None => "*",
        }
    }
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            Some(Outcome::Win(_, r) | Outcome::Draw(r)) => {
                write!(f, "{} {r} at ply {}", self.result(), self.ply)
            }
            None => write!(f, "* in progress at ply {}", self.ply),
        }
    }
}

/// Judges the legal `moves` played from `start`: the first ply after which the referee ends the
/// game (no length cap).
pub fn judge(start: &Position, moves: &[Move]) -> Judgement {
    let mut game = Game::new(start.clone());
    if let Some(outcome) = game.outcome(usize::MAX) {
        return Judgement {
            outcome: Some(outcome),
            ply: 0,
        };
    }
    for (i, &m) in moves.iter().enumerate() {
        if game.play(m).is_err() {
            break;
        }
        if let Some(outcome) = game.outcome(usize::MAX) {
            return Judgement {
                outcome: Some(outcome),
                ply: i + 1,
            };
        }
    }
    Judgement {
        outcome: None,
        ply: game.moves().len(),
    }
}

/// Why a move list could not be judged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    /// The start position is not a legal position.
    #[error("invalid FEN: {0}")]
    Fen(FenError),
    /// A move is malformed or illegal (the error names its ply).
    #[error("{0}")]
    Move(GameError),
}

/// Judges a move list given as text: `fen` (the start position if `None`) and moves in any
/// notation (`h2e2`, `C2=5`, 炮二平五). An error names the bad FEN or the ply of the first
/// illegal or malformed move.
pub fn judge_text<S: AsRef<str>>(fen: Option<&str>, moves: &[S]) -> Result<Judgement, JudgeError> {
    let start = match fen {
        Some(f) => Position::from_fen(f).map_err(JudgeError::Fen)?,
        None => Position::startpos(),
    };
    let mut game = Game::new(start);
    for (i, text) in moves.iter().enumerate() {
        let m = game
            .position()
            .read_move(text.as_ref())
            .map_err(|error| JudgeError::Move(GameError { ply: i + 1, error }))?;
        // `read_move` checked the move: playing it cannot fail.
        let _ = game.play(m);
    }
    Ok(judge(game.start(), game.moves()))
}

/// Judges every game of a PGN text: one line per game and a last summary line; the number of
/// games whose recorded result disagrees with the rules' verdict.
pub fn judge_pgn(bytes: &[u8]) -> Result<(String, usize), PgnError> {
    let games = pgn::read(bytes)?;
    let mut out = String::new();
    let mut disagree = 0;
    for (k, g) in games.iter().enumerate() {
        let j = judge(g.game.start(), g.game.moves());
        let recorded = g
            .tag("Result")
            .filter(|r| !r.is_empty())
            .unwrap_or(g.result.as_str());
        out.push_str(&format!("game {}: {j}", k + 1));
        let known = ["1-0", "0-1", "1/2-1/2"].contains(&recorded);
        if j.outcome.is_some() && recorded != j.result() {
            disagree += 1;
            out.push_str(&format!(" (recorded {recorded}: disagrees)"));
        } else if j.outcome.is_none() && known {
            out.push_str(&format!(" (recorded {recorded}: not by the rules)"));
        }
        out.push('\n');
    }
    out.push_str(&format!("{} games, {disagree} disagree\n", games.len()));
    Ok((out, disagree))
}
