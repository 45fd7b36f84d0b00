//! PGN out and in: `chariot match` writes its games with it and `chariot tune` reads them back.
//! The writer puts the seven standard tags (White = the Red engine), `FEN` and
//! `SetUp` when the game does not start from the start position, `Termination` with the
//! referee's reason, moves in ICCS coordinates (`h2e2`) with the engines' score, depth and time
//! as comments.
//!
//! The reader replays every move through the crate's legality check, so a file that reads back
//! is a file of legal games; it accepts the writer's output and the common variants (`Red` for
//! `White`, `H2-E2` moves, move numbers glued to moves, comments, NAGs and variations skipped).

use crate::board::{Color, FenError, Game, Move, MoveError, Position, START_FEN};

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

/// A game read back from PGN.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// Tag pairs in order.
    pub tags: Vec<(String, String)>,
    /// The game replayed from its `FEN` tag (or the start), every move checked.
    pub game: Game,
    /// The result token at the end of the movetext (empty if none).
    pub result: String,
    /// The first comment after each move, if any (the engines' score, depth and time).
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

    /// Red's points from the result token: 1 (`1-0`), 0.5 (`1/2-1/2`), 0 (`0-1`); `None` for
    /// an unfinished game (`*` or no token).
    pub fn red_points(&self) -> Option<f32> {
        match self.result.as_str() {
            "1-0" => Some(1.0),
            "1/2-1/2" => Some(0.5),
            "0-1" => Some(0.0),
            _ => None,
        }
    }

    /// Red's name: the `White` tag, or `Red` as some Xiangqi programs write it.
    pub fn red(&self) -> Option<&str> {
        self.tag("White").or_else(|| self.tag("Red"))
    }
}

fn parse_tag(inner: &str) -> Option<(String, String)> {
    let (k, v) = inner.split_once(char::is_whitespace)?;
    let v = v.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    Some((k.to_string(), out))
}

/// Splits movetext into tokens, dropping `;` comments and variations; a `{…}` comment becomes
/// one token starting with `{`.
fn tokens(movetext: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut comment = String::new();
    let (mut brace, mut paren, mut semicolon) = (false, 0usize, false);
    let flush = |word: &mut String, out: &mut Vec<String>| {
        if !word.is_empty() {
            out.push(std::mem::take(word));
        }
    };
    for c in movetext.chars() {
        if semicolon {
            semicolon = c != '\n';
            continue;
        }
        if brace {
            if c == '}' {
                brace = false;
                if paren == 0 {
                    out.push(format!("{{{}", comment.trim()));
                }
                comment.clear();
            } else {
                comment.push(if c.is_whitespace() { ' ' } else { c });
            }
            continue;
        }
        match c {
            '{' => {
                flush(&mut word, &mut out);
                brace = true;
            }
            ';' => {
                flush(&mut word, &mut out);
                semicolon = true;
            }
            '(' => {
                flush(&mut word, &mut out);
                paren += 1;
            }
            ')' => {
                word.clear();
                paren = paren.saturating_sub(1);
            }
            c if c.is_whitespace() => flush(&mut word, &mut out),
            c if paren == 0 => word.push(c),
            _ => {}
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Why a PGN text could not be read; each names the game by its `Round` tag (`?` if none).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// The `FEN` tag is not a legal position.
    #[error("round {round}: bad FEN tag: {error}")]
    Fen {
        /// The game's `Round` tag.
        round: String,
        /// What is wrong with the FEN.
        error: FenError,
    },
    /// A move is malformed or illegal.
    #[error("round {round}, ply {ply}: {error}")]
    Move {
        /// The game's `Round` tag.
        round: String,
        /// 1-based ply of the move from the game's start.
        ply: usize,
        /// What is wrong with the move.
        error: MoveError,
    },
}

/// A replayed game: the game, its result token and the comment after each move.
type Replayed = (Game, String, Vec<Option<String>>);

fn replay(tags: &[(String, String)], movetext: &str) -> Result<Replayed, PgnError> {
    let round = tags
        .iter()
        .find(|(k, _)| k == "Round")
        .map(|(_, v)| v.as_str())
        .unwrap_or("?");
    let fen = tags
        .iter()
        .find(|(k, _)| k == "FEN")
        .map(|(_, v)| v.as_str())
        .unwrap_or(START_FEN);
    let start: Position = fen.parse().map_err(|error| PgnError::Fen {
        round: round.to_string(),
        error,
    })?;
    let mut game = Game::new(start);
    let mut result = String::new();
    let mut comments: Vec<Option<String>> = Vec::new();
    for tok in tokens(movetext) {
        if let Some(text) = tok.strip_prefix('{') {
            if let Some(last @ None) = comments.last_mut() {
                *last = Some(text.to_string());
            }
            continue;
        }
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&tok.as_str()) {
            result = tok;
            continue;
        }
        if tok.starts_with('$') {
            continue;
        }
        // Move numbers, alone (`12.`, `12...`) or glued to the move (`12.h2e2`).
        let mv = tok.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if mv.is_empty() {
            continue;
        }
        let text: String = mv
            .trim_end_matches(['!', '?', '+', '#'])
            .chars()
            .filter(|&c| c != '-')
            .collect();
        let m = game
            .position()
            .parse_move(&text)
            .map_err(|error| PgnError::Move {
                round: round.to_string(),
                ply: game.moves().len() + 1,
                error,
            })?;
        // `parse_move` checked the move: playing it cannot fail.
        let _ = game.play(m);
        comments.push(None);
    }
    Ok((game, result, comments))
}

/// Reads every game of a PGN text, replaying and checking the moves.
pub fn read(text: &str) -> Result<Vec<Parsed>, PgnError> {
    let mut out = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    let mut flush = |tags: &mut Vec<(String, String)>, movetext: &mut String| {
        if tags.is_empty() && movetext.trim().is_empty() {
            return Ok::<(), PgnError>(());
        }
        let (game, result, comments) = replay(tags, movetext)?;
        out.push(Parsed {
            tags: std::mem::take(tags),
            game,
            result,
            comments,
        });
        movetext.clear();
        Ok(())
    };
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('%') {
            continue;
        }
        if let Some(inner) = trimmed.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if !movetext.trim().is_empty() {
                flush(&mut tags, &mut movetext)?;
            }
            if let Some(kv) = parse_tag(inner) {
                tags.push(kv);
            }
        } else {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    flush(&mut tags, &mut movetext)?;
    Ok(out)
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
        // the termination comment after the last move's own comment is not taken for it.
        assert_eq!(games[0].comments.len(), 40);
        assert_eq!(games[0].comments[0], None);
        assert_eq!(games[0].comments[7].as_deref(), Some("+0.7/5 0.10s"));
        assert_eq!(games[0].comments[39].as_deref(), Some("+0.39/5 0.10s"));
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
            "round 7, ply 2: illegal move h2e2"
        );
        let e = read("[FEN \"nonsense\"]\n\n*\n").unwrap_err();
        assert!(e.to_string().starts_with("round ?: bad FEN tag: "), "{e}");
    }
}
