//! PGN out and in for the tools: `chariot match` writes its games with it, and `judge`,
//! `tally`, `tune`, `wdl-fit`, `mates --harvest` and `datagen --pgn` read game records back
//! through it (any format `crate::record` reads).
//! The writer puts the seven standard tags (White = the Red engine), `FEN` and
//! `SetUp` when the game does not start from the start position, `Termination` with the
//! referee's reason, moves in ICCS coordinates (`h2e2`) with the engines' score, depth and time
//! as comments.
//!
//! The reader is `crate::record`'s: every move is replayed through the crate's legality check,
//! so a file that reads back is a file of legal games, in ICCS, WXF or Chinese moves.

use crate::board::{Color, Game, Move, Position, START_FEN};
use crate::record::{Record as RecordGame, RecordError};

/// A finished game as recorded.
#[derive(Clone, Debug)]
pub struct Record {
    /// Round number (1-based game number in the match).
    pub round: usize,
    /// Red's name (the `White` tag).
    pub red: String,
    /// Black's name.
    pub black: String,
    /// Start FEN.
    pub fen: String,
    /// Moves played, opening moves included.
    pub moves: Vec<Move>,
    /// One comment per move (`None` for opening moves).
    pub comments: Vec<Option<String>>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why the game ended.
    pub termination: String,
    /// Each side's PGN `TimeControl` value (Red, Black) where it played on a clock: written
    /// as one `TimeControl` tag when equal, as `RedTimeControl` and `BlackTimeControl` when not
    /// (time odds).
    pub time_control: [Option<String>; 2],
}

fn tag(s: &mut String, k: &str, v: &str) {
    let v = v.replace('\\', "\\\\").replace('"', "\\\"");
    s.push_str(&format!("[{k} \"{v}\"]\n"));
}

/// Writes one game as PGN text (ending with a blank line). `date` is `YYYY.MM.DD`.
pub fn write(r: &Record, event: &str, date: &str) -> String {
    let mut s = String::new();
    tag(&mut s, "Event", event);
    tag(&mut s, "Site", "?");
    tag(&mut s, "Date", date);
    tag(&mut s, "Round", &r.round.to_string());
    tag(&mut s, "White", &r.red);
    tag(&mut s, "Black", &r.black);
    tag(&mut s, "Result", &r.result);
    if r.fen != START_FEN {
        tag(&mut s, "FEN", &r.fen);
        tag(&mut s, "SetUp", "1");
    }
    match &r.time_control {
        [Some(red), Some(black)] if red == black => tag(&mut s, "TimeControl", red),
        [red, black] => {
            for (name, tc) in [("RedTimeControl", red), ("BlackTimeControl", black)] {
                if let Some(tc) = tc {
                    tag(&mut s, name, tc);
                }
            }
        }
    }
    tag(&mut s, "Termination", &r.termination);
    tag(&mut s, "PlyCount", &r.moves.len().to_string());
    s.push('\n');
    let (black_first, first_number) = r
        .fen
        .parse::<Position>()
        .map(|p| {
            (
                p.side_to_move() == Color::Black,
                usize::from(p.fullmove_number().max(1)),
            )
        })
        .unwrap_or((false, 1));
    let mut words: Vec<String> = Vec::new();
    for (i, m) in r.moves.iter().enumerate() {
        let ply = i + usize::from(black_first);
        if ply % 2 == 0 {
            words.push(format!("{}.", first_number + ply / 2));
        } else if i == 0 {
            words.push(format!("{}...", first_number + ply / 2));
        }
        words.push(m.to_string());
        if let Some(Some(c)) = r.comments.get(i) {
            words.push(format!("{{{}}}", c.replace('}', ")")));
        }
    }
    words.push(format!("{{{}}}", r.termination.replace('}', ")")));
    words.push(r.result.clone());
    // Wrap at 80 columns (a comment may be split over lines; readers join them).
    let mut line = String::new();
    for w in words {
        for piece in w.split(' ') {
            if !line.is_empty() && line.len() + piece.len() + 1 > 80 {
                s.push_str(&line);
                s.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(piece);
        }
    }
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// A game read back from a record file (PGN, XQF or DhtmlXQ: `crate::record` reads them).
#[derive(Clone, Debug)]
pub struct Parsed {
    /// Tag pairs in order (with `FEN` last when the game does not start from the start).
    pub tags: Vec<(String, String)>,
    /// The main line replayed from the record's start position, every move checked.
    pub game: Game,
    /// The result: `1-0`, `0-1`, `1/2-1/2`, or `*` for an unfinished game.
    pub result: String,
    /// The comment after each main-line move, if any (the engines' score, depth and time).
    pub comments: Vec<Option<String>>,
}

impl Parsed {
    /// A tag's value.
    pub fn tag(&self, k: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    }

    /// Red's points from the result: 1 (`1-0`), 0.5 (`1/2-1/2`), 0 (`0-1`); `None` for an
    /// unfinished game.
    pub fn red_points(&self) -> Option<f32> {
        match self.result.as_str() {
            "1-0" => Some(1.0),
            "1/2-1/2" => Some(0.5),
            "0-1" => Some(0.0),
            _ => None,
        }
    }

    /// Red's name: the `White` tag, or `Red` as Xiangqi programs write it.
    pub fn red(&self) -> Option<&str> {
        self.tag("White").or_else(|| self.tag("Red"))
    }
}

impl From<RecordGame> for Parsed {
    fn from(mut r: RecordGame) -> Parsed {
        // The tools read a game's start from its `FEN` tag, as the match writer wrote it.
        let fen = r.start.fen();
        if fen != START_FEN {
            r.tags.push(("FEN".to_string(), fen));
        }
        Parsed {
            game: r.game(),
            result: r.result().to_string(),
            // Comments wrapped over lines are one line again.
            comments: r
                .moves
                .iter()
                .map(|n| {
                    let c = n.comment.as_deref()?;
                    Some(c.split_whitespace().collect::<Vec<_>>().join(" "))
                })
                .collect(),
            tags: r.tags,
        }
    }
}

/// A game of a record file that could not be read: its number, the ply and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct PgnError(pub RecordError);

/// Every game of a record file's bytes (PGN in any notation and encoding, XQF or DhtmlXQ),
/// each read or not.
pub fn read_each(bytes: &[u8]) -> Vec<Result<Parsed, PgnError>> {
    crate::record::read(bytes)
        .into_iter()
        .map(|g| g.map(Parsed::from).map_err(PgnError))
        .collect()
}

/// Every game of a record file's bytes; the first game that cannot be read fails the whole.
pub fn read(bytes: impl AsRef<[u8]>) -> Result<Vec<Parsed>, PgnError> {
    read_each(bytes.as_ref()).into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(fen: &str, moves: &[&str]) -> Record {
        let g = Game::from_moves(fen.parse::<Position>().unwrap(), moves).unwrap();
        Record {
            round: 3,
            red: "A \"quoted\" name".into(),
            black: "B".into(),
            fen: fen.into(),
            moves: g.moves().to_vec(),
            comments: (0..moves.len())
                .map(|i| (i > 0).then(|| format!("+0.{i}/5 0.10s")))
                .collect(),
            result: "1/2-1/2".into(),
            termination: "threefold repetition".into(),
            time_control: [Some("1+0.01".into()), Some("1+0.01".into())],
        }
    }

    #[test]
    fn round_trip() {
        let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
        let moves: Vec<&str> = cycle.iter().cycle().take(40).copied().collect();
        let mut text = write(&record(START_FEN, &moves), "test", "2026.01.01");
        let fen = "4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 3 9";
        text.push_str(&write(
            &record(fen, &["e9f9", "d0d1"]),
            "test",
            "2026.01.01",
        ));
        assert!(text.lines().all(|l| l.len() <= 80), "{text}");
        assert!(text.contains("[FEN \"4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 3 9\"]"));
        assert!(text.contains("9... e9f9"), "{text}");
        let games = read(&text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].red(), Some("A \"quoted\" name"));
        assert_eq!(games[0].game.moves().len(), 40);
        assert_eq!(games[0].result, "1/2-1/2");
        assert_eq!(games[0].tag("Termination"), Some("threefold repetition"));
        // Comments come back with their moves (a comment wrapped over lines joined again);
        // the termination comment after the last move's own comment is joined to it.
        assert_eq!(games[0].comments.len(), 40);
        assert_eq!(games[0].comments[0], None);
        assert_eq!(games[0].comments[7].as_deref(), Some("+0.7/5 0.10s"));
        assert_eq!(
            games[0].comments[39].as_deref(),
            Some("+0.39/5 0.10s threefold repetition")
        );
        assert_eq!(games[1].game.moves().len(), 2);
        assert_eq!(games[1].game.position().side_to_move(), Color::Black);
    }

    #[test]
    fn reader_variants_and_errors() {
        let text =
            "[Event \"x\"]\n[Red \"R\"]\n\n1.H2-E2 {c} H9-G7 (1... h7e7) $1 2. h0g2 ; eol\n*\n";
        let g = read(text).unwrap();
        assert_eq!(g[0].red(), Some("R"));
        assert_eq!(g[0].game.moves().len(), 3);
        assert_eq!(g[0].result, "*");
        assert_eq!(g[0].comments, [Some("c".to_string()), None, None]);
        let bad = "[Round \"7\"]\n\n1. h2e2 h2e2 1-0\n";
        assert_eq!(
            read(bad).unwrap_err().to_string(),
            "game 1, ply 2: illegal move h2e2"
        );
        let e = read("[FEN \"nonsense\"]\n\n*\n").unwrap_err();
        assert!(
            e.to_string().starts_with("game 1: bad start position: "),
            "{e}"
        );
    }
}
