//! Move text in the three notations players and programs use, written and read back:
//!
//! - **ICCS** (`h2e2`), the engines' coordinates (`Move`'s `Display`, `Move::parse_iccs`);
//! - **WXF** (`C2=5`, `H8+7`, `R+=3`), the World Xiangqi Federation's letters (`wxf`);
//! - **Chinese** (炮二平五, 马８进７, 前车平三), as Chinese game records write it (`chinese`).
//!
//! WXF and Chinese describe a move from the mover's own side: a piece, which one (its file,
//! counted 1–9 from the mover's right, or its place among pieces of its kind on one file), a
//! direction (forward, backward, sideways) and a number (steps along a file, or the file
//! reached). Both notations share that description: writing describes the move (`Described`)
//! and renders it; reading parses the text into a `Query`, finds the pieces it can name,
//! computes each one's destination and keeps the legal moves. Exactly one must remain. No move
//! list is generated either way, so reading a record costs one legality check a move.
//!
//! Writing has one canonical form per notation; reading takes the variants real files use
//! (docs/records.md lists both).

mod chinese;
mod wxf;

use super::bitboard::Bitboard;
use super::moves::{truncate, Move, MoveError};
use super::piece::PieceKind;
use super::position::Position;
use super::square::{Color, Square};
use std::fmt;
use std::str::FromStr;

/// A notation for move text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Notation {
    /// Coordinates, `h2e2`.
    #[default]
    Iccs,
    /// WXF letters, `C2=5`.
    Wxf,
    /// Chinese characters, 炮二平五.
    Chinese,
}

impl Notation {
    /// All three, in the order `--notation` lists them.
    pub const ALL: [Notation; 3] = [Notation::Iccs, Notation::Wxf, Notation::Chinese];

    /// The name as a command line or a PGN `Format` tag takes it: `iccs`, `wxf`, `chinese`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "iccs",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A notation name that is not `iccs`, `wxf` or `chinese`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown notation '{0}' (iccs, wxf or chinese)")]
pub struct NotationError(pub String);

impl FromStr for Notation {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Notation, NotationError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "iccs" => Ok(Notation::Iccs),
            "wxf" => Ok(Notation::Wxf),
            "chinese" | "cn" | "zh" => Ok(Notation::Chinese),
            _ => Err(NotationError(truncate(s))),
        }
    }
}

impl Position {
    /// Parses ICCS text (`h2e2`, any case) and checks that the move is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.checked(Move::parse_iccs(text)?)
    }

    /// `m` (a legal move here) in `notation`: `h2e2`, `C2=5` or 炮二平五.
    pub fn move_text(&self, m: Move, notation: Notation) -> String {
        match notation {
            Notation::Iccs => m.to_string(),
            Notation::Wxf => wxf::write(&Described::new(self, m)),
            Notation::Chinese => chinese::write(&Described::new(self, m)),
        }
    }

    /// Reads a legal move written in any of the three notations, telling them apart by their
    /// form: ICCS (`h2e2`, `H2-E2`), WXF (`C2=5`, also in full-width forms) or Chinese. Marks
    /// after the move (`!`, `?`, a check's `+`) are ignored.
    pub fn read_move(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        if let Some(m) = iccs_form(text) {
            return self.checked(m);
        }
        if text.is_ascii() || text.chars().all(|c| c.is_ascii() || is_full_width_ascii(c)) {
            self.read_move_in(text, Notation::Wxf)
        } else {
            self.read_move_in(text, Notation::Chinese)
        }
    }

    /// Reads a legal move written in `notation` (its variants included).
    pub fn read_move_in(&self, text: &str, notation: Notation) -> Result<Move, MoveError> {
        let query = match notation {
            Notation::Iccs => {
                return match iccs_form(text.trim()) {
                    Some(m) => self.checked(m),
                    None => Err(MoveError::Syntax(truncate(text))),
                }
            }
            Notation::Wxf => wxf::parse(text),
            Notation::Chinese => chinese::parse(text),
        }
        .ok_or_else(|| MoveError::Unreadable(cut(text)))?;
        self.resolve(&query).map_err(|found| match found {
            0 => MoveError::NoSuchMove(cut(text)),
            _ => MoveError::Ambiguous(cut(text)),
        })
    }

    /// `m` if it is legal here.
    fn checked(&self, m: Move) -> Result<Move, MoveError> {
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(m.to_string()))
        }
    }

    /// The one legal move `query` names, or the number of legal moves it names (0 or 2+).
    fn resolve(&self, query: &Query) -> Result<Move, usize> {
        let us = self.side_to_move();
        let files = Files::new(self.pieces(us, query.kind), us);
        let mut found = None;
        let mut count = 0;
        for from in files.select(query.sel).iter() {
            let Some(to) = destination(from, us, query) else {
                continue;
            };
            let m = Move::new(from, to);
            if self.is_legal(m) {
                count += 1;
                found = Some(m);
            }
        }
        match (count, found) {
            (1, Some(m)) => Ok(m),
            _ => Err(count),
        }
    }
}

/// At most 16 characters of `text`, as written (records name their moves in Chinese too; the
/// protocol, whose output is ASCII, reads ICCS only).
fn cut(text: &str) -> String {
    text.trim().chars().take(16).collect()
}

/// The move `text` names if it has the ICCS form `h2e2` or `H2-E2` (marks after it dropped)
/// and two different squares, else `None`.
fn iccs_form(text: &str) -> Option<Move> {
    let t = text.trim_end_matches(['!', '?', '+', '#']);
    let square = |f: u8, r: u8| match (f.to_ascii_lowercase(), r) {
        (f @ b'a'..=b'i', r @ b'0'..=b'9') => Square::new(f - b'a', r - b'0'),
        _ => None,
    };
    match *t.as_bytes() {
        [f1, r1, f2, r2] | [f1, r1, b'-', f2, r2] => {
            let (from, to) = (square(f1, r1)?, square(f2, r2)?);
            (from != to).then(|| Move::new(from, to))
        }
        _ => None,
    }
}

/// Whether `c` is a full-width form of a printable ASCII character (`Ｃ`, `２`, `＝`).
fn is_full_width_ascii(c: char) -> bool {
    ('\u{FF01}'..='\u{FF5E}').contains(&c)
}

/// `c` with a full-width ASCII form made ASCII, and the ideographic space a space.
pub(crate) fn half_width(c: char) -> char {
    if is_full_width_ascii(c) {
        char::from_u32(c as u32 - 0xFEE0).unwrap_or(c)
    } else if c == '\u{3000}' {
        ' '
    } else {
        c
    }
}

/// Which way a move goes, from the mover's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Dir {
    /// Towards the other side (`+`, 进).
    Forward,
    /// Towards the mover's own back rank (`-`, 退).
    Backward,
    /// Along the rank (`=`, 平).
    Sideways,
}

/// A place among the pieces of one kind on one file, front (furthest forward) first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Place {
    /// The foremost.
    Front,
    /// The middle one of three (or five).
    Middle,
    /// The rearmost.
    Back,
}

/// Which pieces of a kind a text names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Sel {
    /// The piece on this file (1–9 from the mover's right). Of three or five on the file, the
    /// middle one (the WXF rule); of two or four, any (legality decides).
    File(u8),
    /// On each file holding several: the piece at this place (前, 中, 后).
    At(Place),
    /// The nth (0-based) of every piece on files holding several, file by file from the
    /// mover's right and front first within a file (一二三四五 before a piece).
    Nth(u8),
    /// WXF `+` on a file holding several: the front one, or the second of four or five.
    Plus,
    /// WXF `-`: the back one, or the second last of four or five.
    Minus,
    /// The place on a given file (WXF `3+`, `33`, `3-` when two files hold several pawns).
    OnFile(u8, Place),
    /// The nth (0-based) from the front on a given file (Fairy-Stockfish's `15+1`).
    NthOnFile(u8, u8),
}

/// What a WXF or Chinese text says: the piece, which one, the direction and the number.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Query {
    pub kind: PieceKind,
    pub sel: Sel,
    pub dir: Dir,
    /// Steps along the file for a straight move (king, rook, cannon, pawn going forward or
    /// backward), else the file reached, 1–9 from the mover's right.
    pub arg: u8,
}

/// A legal move as WXF and Chinese describe it; `sel` is the canonical choice, and the
/// counts let each notation render it its own way.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Described {
    pub color: Color,
    pub kind: PieceKind,
    /// The piece's file, 1–9 from the mover's right.
    pub file: u8,
    pub dir: Dir,
    pub arg: u8,
    /// How many pieces of the kind stand on its file.
    pub on_file: u8,
    /// Its index among them, 0 = front.
    pub index: u8,
    /// How many files hold two or more of the kind.
    pub crowded_files: u8,
    /// Its index among all the pieces on such files (see `Sel::Nth`).
    pub nth: u8,
}

impl Described {
    /// The description of `m`, which moves a piece of the side to move in `pos`.
    pub(crate) fn new(pos: &Position, m: Move) -> Described {
        let us = pos.side_to_move();
        let (from, to) = (m.from(), m.to());
        let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind());
        let files = Files::new(pos.pieces(us, kind), us);
        let file = file_number(from, us);
        let (ahead_from, ahead_to) = (ahead(from, us), ahead(to, us));
        let dir = match ahead_to.cmp(&ahead_from) {
            std::cmp::Ordering::Greater => Dir::Forward,
            std::cmp::Ordering::Less => Dir::Backward,
            std::cmp::Ordering::Equal => Dir::Sideways,
        };
        let arg = if straight(kind) && dir != Dir::Sideways {
            ahead_to.abs_diff(ahead_from)
        } else {
            file_number(to, us)
        };
        let column = files.column(file);
        let index = column.iter().position(|&s| s == from).unwrap_or(0) as u8;
        let nth = files
            .crowded()
            .position(|s| s == from)
            .map_or(0, |i| i as u8);
        Described {
            color: us,
            kind,
            file,
            dir,
            arg,
            on_file: column.len() as u8,
            index,
            crowded_files: files.crowded_files(),
            nth,
        }
    }
}

/// Kinds that move along lines, whose forward and backward moves count steps.
const fn straight(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::King | PieceKind::Rook | PieceKind::Cannon | PieceKind::Pawn
    )
}

/// The file of `sq` counted 1–9 from `color`'s right.
fn file_number(sq: Square, color: Color) -> u8 {
    match color {
        Color::Red => 9 - sq.file(),
        Color::Black => sq.file() + 1,
    }
}

/// The board file (0 = a) of file number `n` (1–9 from `color`'s right).
fn board_file(n: u8, color: Color) -> u8 {
    match color {
        Color::Red => 9 - n,
        Color::Black => n - 1,
    }
}

/// How far `sq` is from `color`'s back rank (0–9).
fn ahead(sq: Square, color: Color) -> u8 {
    sq.relative(color).rank()
}

/// The pieces of one kind and side, file by file (1–9 from the side's right), front first.
struct Files {
    /// Per file number (index 0 = file 1): the squares, front first.
    columns: [[Square; 5]; 9],
    lens: [u8; 9],
}

impl Files {
    fn new(pieces: Bitboard, color: Color) -> Files {
        let mut columns = [[Square::from_index_unchecked(0); 5]; 9];
        let mut lens = [0u8; 9];
        for sq in pieces {
            let f = usize::from(file_number(sq, color) - 1);
            let n = usize::from(lens[f]);
            if n < 5 {
                columns[f][n] = sq;
                lens[f] += 1;
            }
        }
        for f in 0..9 {
            if lens[f] >= 2 {
                columns[f][..usize::from(lens[f])]
                    .sort_unstable_by_key(|&s| std::cmp::Reverse(ahead(s, color)));
            }
        }
        Files { columns, lens }
    }

    /// The pieces on file number `n` (1–9), front first.
    fn column(&self, n: u8) -> &[Square] {
        match usize::from(n).checked_sub(1) {
            Some(f) if f < 9 => &self.columns[f][..usize::from(self.lens[f])],
            _ => &[],
        }
    }

    /// Every file holding two or more, from the right.
    fn crowded_columns(&self) -> impl Iterator<Item = &[Square]> {
        (1..=9).map(|n| self.column(n)).filter(|c| c.len() >= 2)
    }

    fn crowded_files(&self) -> u8 {
        self.crowded_columns().count() as u8
    }

    /// The pieces on files holding two or more, file by file from the right, front first.
    fn crowded(&self) -> impl Iterator<Item = Square> + '_ {
        self.crowded_columns().flatten().copied()
    }

    /// The squares `sel` may name (at most five).
    fn select(&self, sel: Sel) -> Picked {
        let at = |c: &[Square], place: Place| -> Option<Square> {
            match place {
                Place::Front => c.first().copied(),
                Place::Back => c.last().copied(),
                Place::Middle if c.len() % 2 == 1 && c.len() >= 3 => Some(c[c.len() / 2]),
                Place::Middle => None,
            }
        };
        let mut out = Picked::default();
        match sel {
            Sel::File(n) => {
                let c = self.column(n);
                if c.len() == 3 || c.len() == 5 {
                    out.push(c[c.len() / 2]);
                } else {
                    c.iter().for_each(|&s| out.push(s));
                }
            }
            Sel::At(place) => self
                .crowded_columns()
                .filter_map(|c| at(c, place))
                .for_each(|s| out.push(s)),
            Sel::Nth(i) => out.extend(self.crowded().nth(usize::from(i))),
            Sel::Plus => self
                .crowded_columns()
                .for_each(|c| out.push(if c.len() >= 4 { c[1] } else { c[0] })),
            Sel::Minus => self
                .crowded_columns()
                .for_each(|c| out.push(c[c.len() - if c.len() >= 4 { 2 } else { 1 }])),
            Sel::OnFile(n, place) => out.extend(at(self.column(n), place)),
            Sel::NthOnFile(n, i) => out.extend(self.column(n).get(usize::from(i)).copied()),
        }
        out
    }
}

/// At most five squares, without allocating.
#[derive(Default)]
struct Picked {
    squares: [Option<Square>; 5],
    len: usize,
}

impl Picked {
    fn push(&mut self, s: Square) {
        if let Some(slot) = self.squares.get_mut(self.len) {
            *slot = Some(s);
            self.len += 1;
        }
    }

    fn extend(&mut self, s: Option<Square>) {
        if let Some(s) = s {
            self.push(s);
        }
    }

    fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.squares[..self.len].iter().flatten().copied()
    }
}

/// Where the piece on `from` goes under `query`, if that is on the board (legality is
/// checked by the caller).
fn destination(from: Square, us: Color, q: &Query) -> Option<Square> {
    if !(1..=9).contains(&q.arg) {
        return None;
    }
    // Ranks forward for the mover, and board files.
    let up: i8 = if us == Color::Red { 1 } else { -1 };
    let sign = match q.dir {
        Dir::Forward => up,
        Dir::Backward => -up,
        Dir::Sideways => 0,
    };
    if straight(q.kind) {
        return match q.dir {
            Dir::Sideways => {
                let df = board_file(q.arg, us) as i8 - from.file() as i8;
                if df == 0 {
                    None
                } else {
                    from.offset(df, 0)
                }
            }
            _ => from.offset(0, sign * q.arg as i8),
        };
    }
    if q.dir == Dir::Sideways {
        return None;
    }
    let df = board_file(q.arg, us) as i8 - from.file() as i8;
    let dr = match (q.kind, df.abs()) {
        (PieceKind::Advisor, 1) => 1,
        (PieceKind::Elephant, 2) => 2,
        (PieceKind::Horse, 1) => 2,
        (PieceKind::Horse, 2) => 1,
        _ => return None,
    };
    from.offset(df, sign * dr)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    /// Every legal move of `p` in both notations, read back to itself.
    fn round_trip(p: &Position) {
        for m in p.legal_moves().iter() {
            for n in Notation::ALL {
                let text = p.move_text(m, n);
                assert_eq!(p.read_move(&text), Ok(m), "{n} {text} in {p}");
                assert_eq!(p.read_move_in(&text, n), Ok(m), "{n} {text} in {p}");
            }
        }
    }

    #[test]
    fn start_position_in_every_notation() {
        let p = Position::startpos();
        let m = |s: &str| p.parse_move(s).unwrap();
        assert_eq!(p.move_text(m("h2e2"), Notation::Wxf), "C2=5");
        assert_eq!(p.move_text(m("h2e2"), Notation::Chinese), "炮二平五");
        assert_eq!(p.move_text(m("h0g2"), Notation::Wxf), "H2+3");
        assert_eq!(p.move_text(m("d0e1"), Notation::Wxf), "A6+5");
        assert_eq!(p.move_text(m("c0e2"), Notation::Chinese), "相七进五");
        assert_eq!(p.move_text(m("h2h9"), Notation::Wxf), "C2+7");
        let b = p.play(m("h2e2"));
        let mb = |s: &str| b.parse_move(s).unwrap();
        assert_eq!(b.move_text(mb("h9g7"), Notation::Wxf), "H8+7");
        assert_eq!(b.move_text(mb("h9g7"), Notation::Chinese), "马８进７");
        assert_eq!(b.move_text(mb("c9e7"), Notation::Chinese), "象３进５");
        round_trip(&p);
        round_trip(&b);
    }

    #[test]
    fn tandem_pieces_and_pawns() {
        // Two rooks on one file, each side.
        let p = pos("3k5/9/9/9/9/9/4R4/9/4R4/4K4 w - - 0 1");
        let m = |s: &str| p.parse_move(s).unwrap();
        assert_eq!(p.move_text(m("e3e5"), Notation::Wxf), "R++2");
        assert_eq!(p.move_text(m("e1d1"), Notation::Wxf), "R-=6");
        assert_eq!(p.move_text(m("e3d3"), Notation::Chinese), "前车平六");
        assert_eq!(p.read_move("+R=6"), Ok(m("e3d3")));
        round_trip(&p);
        // Three pawns on one file: front, middle by its file, back.
        let p = pos("3k5/9/9/4P4/4P4/4P4/9/9/9/4K4 w - - 0 1");
        let m = |s: &str| p.parse_move(s).unwrap();
        assert_eq!(p.move_text(m("e6e7"), Notation::Wxf), "P++1");
        assert_eq!(p.move_text(m("e5d5"), Notation::Wxf), "P5=6");
        assert_eq!(p.move_text(m("e5d5"), Notation::Chinese), "中兵平六");
        assert_eq!(p.move_text(m("e6d6"), Notation::Chinese), "前兵平六");
        // Fairy-Stockfish's numbering reads too.
        assert_eq!(p.read_move("25=6"), Ok(m("e5d5")));
        round_trip(&p);
        // Two files of pawns: WXF by file, Chinese numbered across both from the right.
        let p = pos("3k5/9/4P4/2P1P4/2P1P4/9/9/9/9/4K4 w - - 0 1");
        let m = |s: &str| p.parse_move(s).unwrap();
        assert_eq!(p.move_text(m("e7e8"), Notation::Wxf), "5++1");
        assert_eq!(p.move_text(m("e6d6"), Notation::Wxf), "55=6");
        assert_eq!(p.move_text(m("c5b5"), Notation::Wxf), "7-=8");
        assert_eq!(p.move_text(m("e7e8"), Notation::Chinese), "一兵进一");
        assert_eq!(p.move_text(m("e6d6"), Notation::Chinese), "二兵平六");
        assert_eq!(p.move_text(m("c5b5"), Notation::Chinese), "五兵平八");
        round_trip(&p);
        // Five pawns on one file (Black's front is nearest Red): ++, P+, P<file>, P-, --.
        let p = pos("3k5/9/9/9/4p4/4p4/4p4/4p4/4p4/5K3 b - - 0 1");
        let m = |s: &str| p.parse_move(s).unwrap();
        assert_eq!(p.move_text(m("e1d1"), Notation::Wxf), "++=4");
        assert_eq!(p.move_text(m("e2d2"), Notation::Wxf), "P+=4");
        assert_eq!(p.move_text(m("e3d3"), Notation::Wxf), "P5=4");
        assert_eq!(p.move_text(m("e4d4"), Notation::Wxf), "P-=4");
        assert_eq!(p.move_text(m("e1d1"), Notation::Chinese), "一卒平４");
        assert_eq!(p.move_text(m("e4f4"), Notation::Chinese), "四卒平６");
        round_trip(&p);
    }

    #[test]
    fn readers_take_the_variants() {
        let p = Position::startpos();
        let h2e2 = p.parse_move("h2e2").unwrap();
        for text in [
            "C2=5",
            "C2.5",
            "c2=5",
            "Ｃ２＝５",
            "C2=5!",
            "炮二平五",
            "砲二平五",
            "炮2平5",
            "炮２平５",
            "H2-E2",
            "h2e2",
        ] {
            assert_eq!(p.read_move(text), Ok(h2e2), "{text}");
        }
        let b = p.play(h2e2);
        let h9g7 = b.parse_move("h9g7").unwrap();
        for text in ["H8+7", "N8+7", "马8进7", "馬８進７", "马八进七", "h8+7"] {
            assert_eq!(b.read_move(text), Ok(h9g7), "{text}");
        }
        assert_eq!(
            b.read_move("k5-1"),
            Err(MoveError::NoSuchMove("k5-1".into()))
        );
        assert!(matches!(
            p.read_move("炮二平"),
            Err(MoveError::Unreadable(_))
        ));
        assert!(matches!(p.read_move("C2=0"), Err(MoveError::Unreadable(_))));
        assert!(matches!(p.read_move("R1+9"), Err(MoveError::NoSuchMove(_))));
        // Two rooks on one file named by their file: legality decides, or it is ambiguous.
        let t = pos("3k5/9/9/9/9/9/4R4/9/4R4/4K4 w - - 0 1");
        assert_eq!(
            t.read_move("R5=6"),
            Err(MoveError::Ambiguous("R5=6".into()))
        );
        assert_eq!(t.read_move("R5+2"), t.parse_move("e3e5"));
    }

    #[test]
    fn every_move_of_random_games_round_trips() {
        for p in super::super::random_walk_positions(7, 40, 120) {
            round_trip(&p);
        }
    }
}
