//! PGN out and in: tags, ICCS moves, result and termination reason.

use crate::board::{Color, Game, Move, Position, START_FEN};

/// A finished game as recorded.
#[derive(Clone, Debug)]
pub struct Record {
    /// Round number (1-based).
    pub round: usize,
    /// Red's name.
    pub red: String,
    /// Black's name.
    pub black: String,
    /// Start FEN.
    pub fen: String,
    /// Moves played (opening moves included).
    pub moves: Vec<Move>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why the game ended.
    pub termination: String,
}

/// Writes one game as PGN text.
pub fn write(r: &Record, date: &str) -> String {
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| {
        s.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
    };
    tag(&mut s, "Event", "chariot match");
    tag(&mut s, "Site", "local");
    tag(&mut s, "Date", date);
    tag(&mut s, "Round", &r.round.to_string());
    tag(&mut s, "Red", &r.red);
    tag(&mut s, "Black", &r.black);
    tag(&mut s, "Result", &r.result);
    if r.fen != START_FEN {
        tag(&mut s, "FEN", &r.fen);
        tag(&mut s, "SetUp", "1");
    }
    tag(&mut s, "Termination", &r.termination);
    tag(&mut s, "PlyCount", &r.moves.len().to_string());
    s.push('\n');
    let black_first = r
        .fen
        .parse::<Position>()
        .map(|p| p.side_to_move() == Color::Black)
        .unwrap_or(false);
    let mut body = String::new();
    for (i, m) in r.moves.iter().enumerate() {
        let ply = i + usize::from(black_first);
        if ply % 2 == 0 {
            body.push_str(&format!("{}. ", ply / 2 + 1));
        } else if i == 0 {
            body.push_str(&format!("{}... ", ply / 2 + 1));
        }
        body.push_str(&m.to_string());
        body.push(' ');
    }
    body.push_str(&format!("{{{}}} {}", r.termination, r.result));
    // Wrap at about 80 columns.
    let mut line = String::new();
    for word in body.split(' ') {
        if line.len() + word.len() + 1 > 80 && !line.is_empty() {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
        line.push_str(word);
        line.push(' ');
    }
    s.push_str(line.trim_end());
    s.push_str("\n\n");
    s
}

/// A game read back from PGN.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// Tag pairs in order.
    pub tags: Vec<(String, String)>,
    /// The game replayed (every move checked for legality).
    pub game: Game,
    /// The result token.
    pub result: String,
}

impl Parsed {
    /// A tag's value.
    pub fn tag(&self, k: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads every game of a PGN text, replaying the moves.
pub fn read(text: &str) -> Result<Vec<Parsed>, String> {
    let mut out = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    let flush = |tags: &mut Vec<(String, String)>,
                 movetext: &mut String,
                 out: &mut Vec<Parsed>|
     -> Result<(), String> {
        if tags.is_empty() {
            return Ok(());
        }
        let fen = tags
            .iter()
            .find(|(k, _)| k == "FEN")
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| START_FEN.to_string());
        let start: Position = fen.parse().map_err(|e| format!("bad FEN tag: {e}"))?;
        let mut game = Game::new(start);
        let mut result = String::new();
        let mut in_comment = false;
        for tok in movetext.split_whitespace() {
            if in_comment {
                in_comment = !tok.ends_with('}');
                continue;
            }
            if tok.starts_with('{') {
                in_comment = !tok.ends_with('}');
                continue;
            }
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&tok) {
                result = tok.to_string();
                continue;
            }
            if tok.ends_with('.') {
                continue;
            }
            let m = game
                .position()
                .parse_move(tok)
                .map_err(|e| format!("round {:?}: {e}", tags.iter().find(|(k, _)| k == "Round")))?;
            game.play(m).map_err(|e| e.to_string())?;
        }
        out.push(Parsed {
            tags: std::mem::take(tags),
            game,
            result,
        });
        movetext.clear();
        Ok(())
    };
    for line in text.lines() {
        let line = line.trim();
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if !movetext.trim().is_empty() {
                flush(&mut tags, &mut movetext, &mut out)?;
            }
            if let Some((k, v)) = inner.split_once(' ') {
                tags.push((k.to_string(), v.trim().trim_matches('"').to_string()));
            }
        } else {
            movetext.push_str(line);
            movetext.push(' ');
        }
    }
    flush(&mut tags, &mut movetext, &mut out)?;
    Ok(out)
}
