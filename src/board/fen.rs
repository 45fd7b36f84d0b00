//! FEN in and out, with full validation of the position.
//!
//! Read: `<board> [<side> [<f3> <f4> [<halfmove> [<fullmove>]]]]`; ranks 9→0, files a→i,
//! `KABNRCP` Red / `kabnrcp` Black (`E`/`H` accepted), side `w`/`r` = Red, `b` = Black.
//! Write: all six fields, `KABNRCP` only.

use super::bitboard::Bitboard;
use super::piece::{Piece, PieceKind};
use super::position::Position;
use super::square::{Color, Square};
use std::fmt;
use std::str::FromStr;

/// Why a FEN was rejected. `Display` names the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing but white space.
    #[error("empty FEN")]
    Empty,
    /// Not exactly 10 ranks.
    #[error("FEN has {0} ranks, expected 10")]
    RankCount(usize),
    /// A rank (counted from rank 9 down) covering other than 9 files.
    #[error("FEN rank {rank} does not cover exactly 9 files")]
    RankLength {
        /// Rank number 0–9 as on the board.
        rank: u8,
    },
    /// A character that is no piece letter or digit.
    #[error("unknown piece letter '{}' in FEN", .0.escape_default())]
    UnknownPiece(char),
    /// A side field other than `w`, `r`, `b`.
    #[error("bad side to move '{0}' in FEN")]
    BadSide(String),
    /// A colour has no king.
    #[error("{} king missing", colour(*.0))]
    MissingKing(Color),
    /// A colour has more than one king.
    #[error("more than one {} king", colour(*.0))]
    DuplicateKing(Color),
    /// Too many pieces of a kind.
    #[error("too many {} {:?}s", colour(*.0), .1)]
    TooMany(Color, PieceKind),
    /// A piece on a point it can never reach.
    #[error("{} {:?} on {}, a point it can never reach", colour(.0.color()), .0.kind(), .1)]
    BadSquare(Piece, Square),
    /// The side not to move is in check (its king could be captured).
    #[error("side not to move is in check (kings facing or king en prise)")]
    OpponentInCheck,
}

/// The colour's name in error messages.
fn colour(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// Whether a piece may stand on `sq` in a legal game.
fn reachable(p: Piece, sq: Square) -> bool {
    let c = p.color();
    // View every square from Red's side.
    let s = sq.relative(c);
    let (f, r) = (s.file(), s.rank());
    match p.kind() {
        PieceKind::King => s.in_palace(Color::Red),
        PieceKind::Advisor => s.in_palace(Color::Red) && (f + r) % 2 == 1,
        PieceKind::Elephant => {
            matches!(
                (f, r),
                (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
            )
        }
        PieceKind::Pawn => r >= 5 || (r >= 3 && f % 2 == 0),
        _ => true,
    }
}

impl FromStr for Position {
    type Err = FenError;

    fn from_str(s: &str) -> Result<Position, FenError> {
        let mut fields = s.split_ascii_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut pos = Position::empty();
        let mut kings = [0u32; 2];
        let mut counts = [[0u32; 7]; 2];
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0u8;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(FenError::UnknownPiece(c));
                    }
                    file += d as u8;
                    if file > 9 {
                        return Err(FenError::RankLength { rank });
                    }
                    continue;
                }
                let p = Piece::from_fen_char(c).ok_or(FenError::UnknownPiece(c))?;
                let sq = Square::new(file, rank).ok_or(FenError::RankLength { rank })?;
                let (ci, ki) = (p.color().index(), p.kind().index());
                counts[ci][ki] += 1;
                if p.kind() == PieceKind::King {
                    kings[ci] += 1;
                    if kings[ci] > 1 {
                        return Err(FenError::DuplicateKing(p.color()));
                    }
                } else if counts[ci][ki] > p.kind().max_count() {
                    return Err(FenError::TooMany(p.color(), p.kind()));
                }
                if !reachable(p, sq) {
                    return Err(FenError::BadSquare(p, sq));
                }
                pos.put(sq, p);
                file += 1;
            }
            if file != 9 {
                return Err(FenError::RankLength { rank });
            }
        }
        for c in Color::ALL {
            if kings[c.index()] == 0 {
                return Err(FenError::MissingKing(c));
            }
        }
        let side = match fields.next() {
            None => Color::Red,
            Some(t) => match t {
                "w" | "W" | "r" | "R" => Color::Red,
                "b" | "B" => Color::Black,
                _ => return Err(FenError::BadSide(super::moves::shown(t, 8))),
            },
        };
        let _ = fields.next();
        let _ = fields.next();
        let halfmove = fields
            .next()
            .and_then(|t| t.parse::<i64>().ok())
            .unwrap_or(0)
            .clamp(0, 119) as u16;
        let fullmove = fields
            .next()
            .and_then(|t| t.parse::<i64>().ok())
            .unwrap_or(1)
            .clamp(1, 9999) as u16;
        pos.set_state(side, halfmove, fullmove);
        if pos.king_in_check(!side) {
            return Err(FenError::OpponentInCheck);
        }
        Ok(pos)
    }
}

impl Position {
    /// Parses and validates a FEN.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        fen.parse()
    }

    /// The FEN of this position, all six fields.
    pub fn fen(&self) -> String {
        self.to_string()
    }

    /// The position seen from the other side: the board turned, colours exchanged, the other
    /// side to move (counters zero). An evaluation, or a network's inputs, must see the two
    /// alike. Fails only where the position itself would not validate.
    pub fn colour_flipped(&self) -> Result<Position, FenError> {
        let board = placement(|sq| {
            self.piece_at(sq.flip_rank())
                .map(|p| Piece::new(!p.color(), p.kind()))
        });
        let side = match self.side_to_move() {
            Color::Red => "b",
            Color::Black => "w",
        };
        format!("{board} {side}").parse()
    }
}

/// The placement field of a FEN (ranks 9 down to 0, digits for empty runs) of the board that
/// `piece_at` describes.
pub fn placement(piece_at: impl Fn(Square) -> Option<Piece>) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            let sq = Square::new(file, rank).expect("on board");
            match piece_at(sq) {
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

impl fmt::Display for Position {
    /// Writes the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = placement(|sq| self.piece_at(sq));
        let side = if self.side_to_move() == Color::Red {
            'w'
        } else {
            'b'
        };
        write!(
            f,
            "{s} {side} - - {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        )
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

/// A readable diagram of the board (rank 9 at the top), for the `d` command.
pub fn diagram(pos: &Position) -> String {
    let mut out = String::new();
    for rank in (0..10u8).rev() {
        out.push_str(&format!("{rank}  "));
        for file in 0..9u8 {
            let sq = Square::new(file, rank).expect("on board");
            let c = pos.piece_at(sq).map_or('.', |p| p.fen_char());
            out.push(c);
            if file < 8 {
                out.push(' ');
            }
        }
        out.push('\n');
        if rank == 5 {
            out.push_str("   ~~~~~ river ~~~~~\n");
        }
    }
    out.push_str("   a b c d e f g h i\n");
    out
}

/// The squares of pieces giving check to the side to move (for the `d` command).
pub fn checkers(pos: &Position) -> Bitboard {
    let us = pos.side_to_move();
    let k = pos.king(us);
    let mut found = Bitboard::EMPTY;
    for sq in pos.color_bb(!us) {
        // A piece gives check if the king is attacked with it and not without it.
        let without = pos.occupied().without(sq);
        let mask = !Bitboard::from_square(sq);
        let attacked_with = pos.king_attacked(k, !us, pos.occupied(), Bitboard::ALL);
        let attacked_without = pos.king_attacked(k, !us, without, mask);
        if attacked_with && !attacked_without {
            found = found.with(sq);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_texts() {
        let cases = [
            (FenError::Empty, "empty FEN"),
            (FenError::RankCount(11), "FEN has 11 ranks, expected 10"),
            (
                FenError::RankLength { rank: 3 },
                "FEN rank 3 does not cover exactly 9 files",
            ),
            (
                FenError::UnknownPiece('\t'),
                "unknown piece letter '\\t' in FEN",
            ),
            (FenError::BadSide("x".into()), "bad side to move 'x' in FEN"),
            (FenError::MissingKing(Color::Black), "black king missing"),
            (
                FenError::DuplicateKing(Color::Red),
                "more than one red king",
            ),
            (
                FenError::TooMany(Color::Red, PieceKind::Rook),
                "too many red Rooks",
            ),
            (
                FenError::BadSquare(
                    Piece::new(Color::Black, PieceKind::Elephant),
                    "e5".parse().unwrap(),
                ),
                "black Elephant on e5, a point it can never reach",
            ),
            (
                FenError::OpponentInCheck,
                "side not to move is in check (kings facing or king en prise)",
            ),
        ];
        for (e, text) in cases {
            assert_eq!(e.to_string(), text);
        }
    }
}
