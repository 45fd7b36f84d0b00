//! The referee's rules (the rules document §5.3): how a game ends by position or by rule.
//!
//! After each ply, in order: no legal move loses for the side to move (checkmate or stalemate);
//! the third occurrence of a position since the last capture ends the game — over the moves
//! from the first of the three occurrences, a side that gave check with every move (while the
//! other did not) loses; otherwise a side that chased one same piece with every move (while the
//! other did not) loses (`chase`); otherwise it is a draw; 120 plies without a capture draw;
//! no rook, horse, cannon or pawn left draws; and a length cap draws.

use super::chase::{judge_cycle, Verdict};
use super::game::Game;
use super::piece::PieceKind;
use super::position::Position;
use super::square::Color;

/// The 60-move rule in plies: this many plies without a capture draw (checked after a
/// repetition verdict, which outranks it).
pub const MOVE_LIMIT_PLIES: u16 = 120;

/// Whether neither side has a rook, horse, cannon or pawn left: nobody can mate, a draw.
#[inline]
pub fn bare_material(pos: &Position) -> bool {
    (pos.kind_bb(PieceKind::Rook)
        | pos.kind_bb(PieceKind::Horse)
        | pos.kind_bb(PieceKind::Cannon)
        | pos.kind_bb(PieceKind::Pawn))
    .is_empty()
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `Color` won.
    Win(Color, Reason),
    /// Drawn.
    Draw(Reason),
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (a loss in Xiangqi).
    Stalemate,
    /// A side checked with every move of a repeated cycle.
    PerpetualCheck,
    /// This side chased one same piece with every move of a repeated cycle (and nobody checked
    /// throughout).
    PerpetualChase(Color),
    /// A position occurred for the third time with no perpetual check or chase.
    Repetition,
    /// 120 plies without a capture.
    MoveLimit,
    /// No rook, horse, cannon or pawn left.
    BareMaterial,
    /// The game reached the length cap.
    LengthCap,
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Reason::PerpetualChase(Color::Red) => "perpetual chase by red",
            Reason::PerpetualChase(Color::Black) => "perpetual chase by black",
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual check",
            Reason::Repetition => "threefold repetition",
            Reason::MoveLimit => "60-move rule",
            Reason::BareMaterial => "insufficient material",
            Reason::LengthCap => "length cap",
        })
    }
}

impl Game {
    /// The result if the game is over in its current position, judging plies after the start
    /// only; `max_plies` caps the game's length (moves played from the start).
    pub fn outcome(&self, max_plies: usize) -> Option<Outcome> {
        let pos = self.position();
        let us = pos.side_to_move();
        if pos.legal_moves().is_empty() {
            let why = if pos.in_check() {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            };
            return Some(Outcome::Win(!us, why));
        }
        let positions = self.positions();
        let n = positions.len() - 1;
        let window = (pos.halfmove_clock() as usize).min(n);
        let mut count = 1;
        let mut first = n;
        for back in (4..=window).step_by(2) {
            if positions[n - back].key() == pos.key() {
                count += 1;
                first = n - back;
                if count == 3 {
                    break;
                }
            }
        }
        if count >= 3 {
            return Some(
                match judge_cycle(&positions[first], &self.moves()[first..n]) {
                    Verdict::PerpetualCheck(c) => Outcome::Win(!c, Reason::PerpetualCheck),
                    Verdict::PerpetualChase(c) => Outcome::Win(!c, Reason::PerpetualChase(c)),
                    Verdict::Draw => Outcome::Draw(Reason::Repetition),
                },
            );
        }
        if pos.halfmove_clock() >= MOVE_LIMIT_PLIES {
            return Some(Outcome::Draw(Reason::MoveLimit));
        }
        if bare_material(pos) {
            return Some(Outcome::Draw(Reason::BareMaterial));
        }
        if self.moves().len() >= max_plies {
            return Some(Outcome::Draw(Reason::LengthCap));
        }
        None
    }
}
