//! Openings for matches: a file of FENs or of move sequences, one opening per line, a game
//! record (each game's main line an opening), and the built-in set (`positions/openings.txt`).
//!
//! Every opening is checked when read: the FEN must be a legal position and every move legal,
//! so a game never starts from a broken line. Game `i` of a match plays opening `i / 2`
//! (cycling), with the first engine Red in even games: each opening is played with both colours.

use crate::board::{FenError, Game, GameError, Move, Position, START_FEN};

/// The built-in openings: about a hundred balanced lines of common Xiangqi opening theory.
pub const DEFAULT_OPENINGS: &str = include_str!("../../positions/openings.txt");

/// One opening: a start position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position's FEN (normalised by the crate's FEN writer).
    pub fen: String,
    /// The opening moves, legal from `fen`.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position the engines start from, as a game that carries the opening's history.
    pub fn game(&self) -> Game {
        let start: Position = self.fen.parse().unwrap_or_default();
        let mut g = Game::new(start);
        for &m in &self.moves {
            if g.play(m).is_err() {
                break;
            }
        }
        g
    }

    /// Whether the opening starts from the standard start position.
    pub fn from_startpos(&self) -> bool {
        self.fen == START_FEN
    }
}

/// Why an openings text was refused; a bad line is named by its 1-based number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    /// A line's FEN is not a legal position.
    #[error("openings line {line}: {error}")]
    Fen {
        /// 1-based line number.
        line: usize,
        /// What is wrong with the FEN.
        error: FenError,
    },
    /// A line's moves are not legal from its position.
    #[error("openings line {line}: {error}")]
    Moves {
        /// 1-based line number.
        line: usize,
        /// The first bad move.
        error: GameError,
    },
    /// A game of a record file given as openings could not be read.
    #[error("openings {0}")]
    Record(crate::record::RecordError),
    /// No opening in the text.
    #[error("no openings")]
    Empty,
}

/// Reads an openings file's bytes: a game record (PGN with tags, XQF or DhtmlXQ, in any
/// notation), each game's start and main line one opening; else an openings text (`parse`).
pub fn read(bytes: &[u8]) -> Result<Vec<Opening>, OpeningsError> {
    use crate::record::{self, Format};
    let text = record::text::decode(bytes);
    let tagged = text.lines().any(|l| l.trim_start().starts_with('['));
    if Format::detect(bytes) == Format::Pgn && !tagged {
        return parse(&text);
    }
    let mut out = Vec::new();
    for game in record::read(bytes) {
        let r = game.map_err(OpeningsError::Record)?;
        out.push(Opening {
            fen: r.start.fen(),
            moves: r.mainline().collect(),
        });
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(out)
}

/// Parses an openings text. Each line is one of
/// - ICCS moves from the start position: `h2e2 h9g7 h0g2` (also `H2-E2`; move numbers like
///   `1.` are skipped; `startpos moves …` is accepted too);
/// - a FEN, optionally followed by `moves …` (a leading `fen` is allowed; anything after a `;`,
///   as in EPD, is ignored).
///
/// `#` starts a comment; blank lines are skipped. Errors name the line.
pub fn parse(text: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        let line = line.split(';').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        out.push(parse_line(line, n + 1)?);
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(out)
}

/// One opening line (comments cut off); `number` names it in errors.
fn parse_line(line: &str, number: usize) -> Result<Opening, OpeningsError> {
    let (fen_text, moves_text) = match line.split_once("moves") {
        Some((f, m)) => (f.trim(), m),
        None if line.contains('/') => (line, ""),
        None => ("", line),
    };
    let fen_text = fen_text.strip_prefix("fen").unwrap_or(fen_text).trim();
    let start: Position = if fen_text.is_empty() || fen_text == "startpos" {
        Position::startpos()
    } else {
        fen_text.parse().map_err(|error| OpeningsError::Fen {
            line: number,
            error,
        })?
    };
    let words: Vec<String> = moves_text
        .split_whitespace()
        .filter(|w| !w.ends_with('.'))
        .map(|w| w.replace('-', "").to_ascii_lowercase())
        .collect();
    let game = Game::from_moves(start.clone(), &words).map_err(|error| OpeningsError::Moves {
        line: number,
        error,
    })?;
    Ok(Opening {
        fen: start.fen(),
        moves: game.moves().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_forms() {
        let o = parse(
            "# comment\n\nh2e2 h9g7 # central cannon\n1. H2-E2 H9-G7\nstartpos moves h2e2\n\
             rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b0c2\n\
             fen 4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 3 9; id \"x\"\n",
        )
        .unwrap();
        assert_eq!(o.len(), 5);
        assert_eq!(o[0], o[1]);
        assert!(o[0].from_startpos());
        assert_eq!(o[2].moves.len(), 1);
        assert_eq!(o[3].moves[0].to_string(), "b0c2");
        assert!(!o[4].from_startpos());
        assert!(o[4].moves.is_empty());
        assert_eq!(o[4].game().position().halfmove_clock(), 3);
        assert_eq!(
            parse("h2e2 h2e2").unwrap_err().to_string(),
            "openings line 1: illegal move h2e2 at ply 2"
        );
        assert!(parse("\n9/9 w")
            .unwrap_err()
            .to_string()
            .starts_with("openings line 2: "));
        assert_eq!(parse("# nothing"), Err(OpeningsError::Empty));
    }
}
