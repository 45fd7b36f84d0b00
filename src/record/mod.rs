//! Game records: the files players keep, read and written. One model, `Record` (tags, a start
//! position, the main line with comments, marks and variations), and a module per format:
//!
//! - `pgn`: PGN with moves in ICCS, WXF or Chinese (`[Format "ICCS"|"WXF"]`, or none);
//! - `xqf`: XQStudio's binary format, read in 1.0 and the later keyed versions, written as 1.0;
//! - `dhtmlxq`: the `[DhtmlXQ]` text of Chinese game sites and forums;
//! - `text`: the text encodings of older files (GBK, Big5) told apart and decoded.
//!
//! Every move is checked as it is read, so a record that reads is a record of legal moves. A
//! file may hold several games: `read` gives each its own result, so one bad game does not
//! lose the others. This is the engine library (no `tools` feature): the page's module reads
//! and writes records too.

pub mod dhtmlxq;
pub mod json;
pub mod pgn;
pub mod text;
pub mod xqf;

use crate::board::{FenError, Game, Move, MoveError, Notation, PieceKind, Position};

/// The kind of the piece in each of a side's 16 slots, in the order XQF and DhtmlXQ both list
/// a side's pieces: R N B A K A B N R C C P P P P P.
pub(crate) const PIECE_SLOTS: [PieceKind; 16] = [
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Elephant,
    PieceKind::Advisor,
    PieceKind::King,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Rook,
    PieceKind::Cannon,
    PieceKind::Cannon,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
];

/// One game as a record holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Tag pairs in order, with PGN's names (`Event`, `Site`, `Date`, `Round`, `Red`,
    /// `Black`, `RedTeam`, `BlackTeam`, `Result`, `ECCO`, `Opening`, …). The start position is
    /// `start`, never a tag.
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    /// A comment before the first move.
    pub comment: Option<String>,
    /// The main line.
    pub moves: Vec<Node>,
}

/// A move of a line, with what the record says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The move, legal in the position before it.
    pub mv: Move,
    /// A comment after the move.
    pub comment: Option<String>,
    /// Numeric annotation glyphs (PGN's `$2`, or `?` written after the move): 1 !, 2 ?, 3 !!,
    /// 4 ??, 5 !?, 6 ?!.
    pub nags: Vec<u8>,
    /// Other moves in its place, each line starting from the position before this move.
    pub variations: Vec<Vec<Node>>,
}

impl Node {
    /// A move with nothing said of it.
    pub fn new(mv: Move) -> Node {
        Node {
            mv,
            comment: None,
            nags: Vec::new(),
            variations: Vec::new(),
        }
    }
}

impl Record {
    /// A record from `start` with no tags and no moves.
    pub fn new(start: Position) -> Record {
        Record {
            tags: Vec::new(),
            start,
            comment: None,
            moves: Vec::new(),
        }
    }

    /// A record of `game`'s moves.
    pub fn from_game(game: &Game) -> Record {
        let mut r = Record::new(game.start().clone());
        r.moves = game.moves().iter().map(|&m| Node::new(m)).collect();
        r
    }

    /// A tag's value (the first, if it is there twice).
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, in place if it is there, else at the end. An empty value removes it.
    pub fn set_tag(&mut self, key: &str, value: &str) {
        if value.is_empty() {
            self.tags.retain(|(k, _)| k != key);
        } else if let Some(slot) = self.tags.iter_mut().find(|(k, _)| k == key) {
            slot.1 = value.to_string();
        } else {
            self.tags.push((key.to_string(), value.to_string()));
        }
    }

    /// Red's name: the `Red` tag, or `White` as chess programs write it.
    pub fn red(&self) -> Option<&str> {
        self.tag("Red").or_else(|| self.tag("White"))
    }

    /// Black's name.
    pub fn black(&self) -> Option<&str> {
        self.tag("Black")
    }

    /// The result: `1-0`, `0-1`, `1/2-1/2`, or `*` when the record says none.
    pub fn result(&self) -> &str {
        match self.tag("Result") {
            Some(r @ ("1-0" | "0-1" | "1/2-1/2")) => r,
            _ => "*",
        }
    }

    /// The main line's moves.
    pub fn mainline(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves.iter().map(|n| n.mv)
    }

    /// The main line as a game (its moves were checked when the record was made).
    pub fn game(&self) -> Game {
        let mut g = Game::new(self.start.clone());
        for m in self.mainline() {
            // Every move of a record is legal where it stands: playing cannot fail.
            let _ = g.play(m);
        }
        g
    }

    /// Puts every line in one place beside the others: a variation's variations at its first
    /// move are other moves in the same place, so they move up into the list of the move the
    /// variation replaces (`(a (b))` is `(a) (b)`). Readers leave records in this form.
    pub fn normalize(&mut self) {
        fn flatten(line: &mut [Node]) {
            for node in line.iter_mut() {
                let mut i = 0;
                while i < node.variations.len() {
                    let lifted = node.variations[i]
                        .first_mut()
                        .map(|first| std::mem::take(&mut first.variations))
                        .unwrap_or_default();
                    let at = i + 1;
                    node.variations.splice(at..at, lifted);
                    i += 1;
                }
                node.variations.retain(|v| !v.is_empty());
                for v in &mut node.variations {
                    flatten(v);
                }
            }
        }
        flatten(&mut self.moves);
    }

    /// Whether any move of the main line has variations.
    pub fn has_variations(&self) -> bool {
        self.moves.iter().any(|n| !n.variations.is_empty())
    }
}

/// What is wrong with one game of a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Reason {
    /// A move that is malformed, illegal, or names no move or several.
    #[error("{0}")]
    Move(MoveError),
    /// The start position is not a legal position.
    #[error("bad start position: {0}")]
    Fen(FenError),
    /// The data ends inside the game.
    #[error("truncated")]
    Truncated,
    /// An XQF file's keys do not decrypt it to a legal game.
    #[error("bad key: the file does not decrypt to a game")]
    BadKey,
    /// Anything else that does not follow the format; says what.
    #[error("{0}")]
    Malformed(String),
}

/// One game of a record that could not be read: which game, which ply, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct RecordError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The ply (from 1) of the move that failed, when a move failed.
    pub ply: Option<usize>,
    /// What is wrong.
    pub reason: Reason,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.ply {
            Some(ply) => write!(f, "game {}, ply {}: {}", self.game, ply, self.reason),
            None => write!(f, "game {}: {}", self.game, self.reason),
        }
    }
}

/// The formats `read` tells apart and `write` writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// PGN text.
    Pgn,
    /// XQStudio's binary XQF.
    Xqf,
    /// DhtmlXQ text.
    DhtmlXq,
}

impl Format {
    /// The format of these bytes: XQF by its magic bytes, DhtmlXQ by its `[DhtmlXQ` tags
    /// (inside a saved web page too), PGN otherwise.
    pub fn detect(bytes: &[u8]) -> Format {
        if xqf::is_xqf(bytes) {
            Format::Xqf
        } else if dhtmlxq::is_dhtmlxq(bytes) {
            Format::DhtmlXq
        } else {
            Format::Pgn
        }
    }

    /// The format a file name's extension asks for: `.pgn`, `.xqf`, `.txt` (DhtmlXQ); any
    /// case.
    pub fn from_extension(path: &std::path::Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "pgn" => Some(Format::Pgn),
            "xqf" => Some(Format::Xqf),
            "txt" | "dhtmlxq" => Some(Format::DhtmlXq),
            _ => None,
        }
    }
}

/// Every game in `bytes`, whatever its format: each game read (`Record::normalize`d), or why
/// it could not be.
pub fn read(bytes: &[u8]) -> Vec<Result<Record, RecordError>> {
    let mut games = match Format::detect(bytes) {
        Format::Xqf => vec![xqf::read(bytes).map_err(|(ply, reason)| RecordError {
            game: 1,
            ply,
            reason,
        })],
        Format::DhtmlXq => dhtmlxq::read(&text::decode(bytes)),
        Format::Pgn => pgn::read(&text::decode(bytes)),
    };
    for r in games.iter_mut().flatten() {
        r.normalize();
    }
    games
}

/// `records` written in `format`, moves in `notation` where the format has a choice (PGN).
/// XQF holds one game: it takes the first.
pub fn write(records: &[Record], format: Format, notation: Notation) -> Vec<u8> {
    match format {
        Format::Pgn => records
            .iter()
            .map(|r| pgn::write(r, notation))
            .collect::<String>()
            .into_bytes(),
        Format::Xqf => records.first().map(xqf::write).unwrap_or_default(),
        Format::DhtmlXq => records
            .iter()
            .map(dhtmlxq::write)
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes(),
    }
}
