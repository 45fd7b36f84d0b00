//! PGN for Xiangqi: tags, then moves in ICCS, WXF or Chinese notation, with comments, marks
//! and variations.
//!
//! Written: the record's tags in order, `FEN` when the game does not start from the start
//! position, `Format` (`ICCS` or `WXF`; Chinese moves have none, as Chinese PGN has it), then
//! the moves numbered, `{comments}` verbatim, marks glued to their move (`?!`, or `$n` past
//! the six common ones) and `(variations)`, wrapped at 80 columns between tokens.
//!
//! Read: each move in whichever notation it is written (`Position::read_move` tells them
//! apart, so a `Format` tag is not needed and a wrong one does no harm); `;` comments; `$n`
//! and glued marks; move numbers alone or glued to the move (`12.`, `12...`, `12.h2e2`); the
//! result token; `%` escape lines. Games are split at a tag line that follows moves. `FEN`,
//! `SetUp` and `Format` are read into the record's start position and dropped from its tags.

use super::{Node, Reason, Record, RecordError};
use crate::board::{Color, Notation, Position, START_FEN};
use std::fmt::Write;

/// Tags the model holds elsewhere: never kept as tags, written from the model.
const MODEL_TAGS: [&str; 3] = ["FEN", "SetUp", "Format"];

/// One game as PGN text, ending with a blank line.
pub fn write(r: &Record, notation: Notation) -> String {
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| {
        // A tag is one line: line breaks inside a value become spaces.
        let v = v
            .replace(['\r', '\n'], " ")
            .replace('\\', "\\\\")
            .replace('"', "\\\"");
        let _ = writeln!(s, "[{k} \"{v}\"]");
    };
    for (k, v) in &r.tags {
        if !MODEL_TAGS.contains(&k.as_str()) {
            tag(&mut s, k, v);
        }
    }
    let fen = r.start.to_string();
    if fen != START_FEN {
        tag(&mut s, "FEN", &fen);
    }
    match notation {
        Notation::Iccs => tag(&mut s, "Format", "ICCS"),
        Notation::Wxf => tag(&mut s, "Format", "WXF"),
        Notation::Chinese => {}
    }
    s.push('\n');
    let mut words = Vec::new();
    if let Some(c) = &r.comment {
        words.push(comment(c));
    }
    line_words(&r.start, &r.moves, notation, &mut words);
    words.push(r.result().to_string());
    let mut column = 0;
    for w in words {
        if column > 0 && column + 1 + w.chars().count() > 80 {
            s.push('\n');
            column = 0;
        } else if column > 0 {
            s.push(' ');
            column += 1;
        }
        column += w.chars().count();
        s.push_str(&w);
    }
    s.push_str("\n\n");
    s
}

fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace('}', ")"))
}

/// The mark glued to a move for NAG `n`, if it has one.
fn mark(n: u8) -> Option<&'static str> {
    ["!", "?", "!!", "??", "!?", "?!"]
        .get(usize::from(n).wrapping_sub(1))
        .copied()
}

/// The words of `line` from `pos`: numbers, moves, comments, variations.
fn line_words(pos: &Position, line: &[Node], notation: Notation, out: &mut Vec<String>) {
    let mut pos = pos.clone();
    let mut number_due = true;
    for node in line {
        let number = usize::from(pos.fullmove_number().max(1));
        let red = pos.side_to_move() == Color::Red;
        let mut word = String::new();
        if red {
            let _ = write!(word, "{number}. ");
        } else if number_due {
            let _ = write!(word, "{number}... ");
        }
        word.push_str(&pos.move_text(node.mv, notation));
        for &n in &node.nags {
            match mark(n) {
                Some(m) if node.nags.len() == 1 => word.push_str(m),
                _ => {
                    let _ = write!(word, " ${n}");
                }
            }
        }
        // A number and its move stay on one line: the space inside is not a break.
        out.push(word);
        number_due = false;
        if let Some(c) = &node.comment {
            out.push(comment(c));
            number_due = true;
        }
        for v in &node.variations {
            let mut inner = Vec::new();
            line_words(&pos, v, notation, &mut inner);
            if let Some(first) = inner.first_mut() {
                first.insert(0, '(');
            }
            if let Some(last) = inner.last_mut() {
                last.push(')');
            }
            out.extend(inner);
            number_due = true;
        }
        pos = pos.play(node.mv);
    }
}

/// A token of movetext.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Token<'a> {
    Word(&'a str),
    Comment(&'a str),
    Open,
    Close,
}

/// Splits movetext into tokens.
fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = c.len_utf8();
        match c {
            '{' => {
                let end = rest.find('}').unwrap_or(rest.len());
                out.push(Token::Comment(rest[1..end].trim()));
                rest = &rest[(end + 1).min(rest.len())..];
            }
            // A `;` comment, or a `%` escape line, runs to the end of the line.
            ';' | '%'
                if c == ';'
                    || text.len() == rest.len()
                    || text[..text.len() - rest.len()].ends_with('\n') =>
            {
                let end = rest.find('\n').unwrap_or(rest.len());
                rest = &rest[end..];
            }
            '(' => {
                out.push(Token::Open);
                rest = &rest[len..];
            }
            ')' => {
                out.push(Token::Close);
                rest = &rest[len..];
            }
            c if c.is_whitespace() => rest = &rest[len..],
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || matches!(c, '{' | '(' | ')' | ';'))
                    .unwrap_or(rest.len());
                out.push(Token::Word(&rest[..end]));
                rest = &rest[end..];
            }
        }
    }
    out
}

/// Whether `w` is a result token.
fn is_result(w: &str) -> bool {
    matches!(w, "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½")
}

/// `w` without a leading move number (`12.`, `12...`, full-width dots too).
fn strip_number(w: &str) -> &str {
    let t = w.trim_start_matches(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c));
    if t.len() == w.len() {
        return w;
    }
    let u = t.trim_start_matches(['.', '．', '。', '…']);
    if u.len() == t.len() {
        w
    } else {
        u
    }
}

/// A word of WXF or Chinese moves written without spaces, as its moves of four characters
/// each; any other word as itself.
fn run_together(w: &str) -> impl Iterator<Item = &str> {
    let chars = w.chars().count();
    let glued = chars > 4 && chars.is_multiple_of(4) && !w.is_ascii();
    let mut rest = w;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = if glued {
            rest.char_indices().nth(4).map_or(rest.len(), |(i, _)| i)
        } else {
            rest.len()
        };
        let (part, tail) = rest.split_at(end);
        rest = tail;
        Some(part)
    })
}

/// Splits glued marks off a move word: the move, and the NAG of its mark (if any).
fn split_mark(w: &str) -> (&str, Option<u8>) {
    let t = w.trim_end_matches(['!', '?', '！', '？']);
    let nag = match &w[t.len()..] {
        "" => None,
        "!" | "！" => Some(1),
        "?" | "？" => Some(2),
        "!!" => Some(3),
        "??" => Some(4),
        "!?" => Some(5),
        "?!" => Some(6),
        _ => None,
    };
    (t, nag)
}

/// Reads a line of moves from `pos` until its closing `)` or the end; `ply` counts from the
/// game's start.
struct LineReader<'t, 'a> {
    tokens: &'t [Token<'a>],
    at: usize,
    result: Option<&'a str>,
}

impl<'a> LineReader<'_, 'a> {
    fn line(
        &mut self,
        start: &Position,
        first_ply: usize,
        lead: &mut Option<String>,
    ) -> Result<Vec<Node>, (usize, Reason)> {
        let mut pos = start.clone();
        let mut before = start.clone();
        let mut nodes: Vec<Node> = Vec::new();
        while let Some(&tok) = self.tokens.get(self.at) {
            self.at += 1;
            match tok {
                Token::Close => return Ok(nodes),
                Token::Open => {
                    let ply = first_ply + nodes.len().saturating_sub(1);
                    let mut ignored = None;
                    let v = self.line(&before, ply, &mut ignored)?;
                    match nodes.last_mut() {
                        Some(last) if !v.is_empty() => last.variations.push(v),
                        _ => {}
                    }
                }
                Token::Comment(c) => {
                    let slot = match nodes.last_mut() {
                        Some(n) => &mut n.comment,
                        None => &mut *lead,
                    };
                    match slot {
                        Some(s) => {
                            s.push(' ');
                            s.push_str(c);
                        }
                        None => *slot = Some(c.to_string()),
                    }
                }
                Token::Word(w) => {
                    if is_result(w) {
                        // The game ends at its result: text after it is not moves.
                        self.result = Some(w);
                        self.at = self.tokens.len();
                        return Ok(nodes);
                    }
                    if let Some(n) = w.strip_prefix('$') {
                        if let (Ok(n), Some(last)) = (n.parse::<u8>(), nodes.last_mut()) {
                            last.nags.push(n);
                        }
                        continue;
                    }
                    let (mv, nag) = split_mark(strip_number(w));
                    if mv.is_empty() || mv.chars().all(|c| matches!(c, '.' | '…' | '．')) {
                        // A move number alone, or a mark alone.
                        if let (Some(n), Some(last)) = (nag, nodes.last_mut()) {
                            last.nags.push(n);
                        }
                        continue;
                    }
                    // Moves in four characters may run together (炮二平五马８进７).
                    for (k, part) in run_together(mv).enumerate() {
                        let ply = first_ply + nodes.len();
                        let m = pos.read_move(part).map_err(|e| (ply, Reason::Move(e)))?;
                        let mut node = Node::new(m);
                        if k == 0 {
                            node.nags.extend(nag);
                        }
                        nodes.push(node);
                        let next = pos.play(m);
                        before = std::mem::replace(&mut pos, next);
                    }
                }
            }
        }
        Ok(nodes)
    }
}

fn parse_tag(inner: &str) -> Option<(String, String)> {
    let (k, v) = inner.split_once(|c: char| c.is_whitespace())?;
    let v = v.trim();
    let v = v.strip_prefix('"').unwrap_or(v);
    let v = v.strip_suffix('"').unwrap_or(v);
    let mut out = String::with_capacity(v.len());
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
    Some((k.trim().to_string(), out))
}

/// One game from its tags and movetext; `number` is its place in the file (from 1).
fn game(number: usize, tags: Vec<(String, String)>, movetext: &str) -> Result<Record, RecordError> {
    let err = |ply, reason| RecordError {
        game: number,
        ply,
        reason,
    };
    let fen = tags
        .iter()
        .find(|(k, _)| k == "FEN")
        .map(|(_, v)| v.as_str());
    let start = match fen {
        Some(f) if !f.trim().is_empty() => f.parse::<Position>().or_else(|e| {
            // Some files write Red to move as `r`.
            let mut fields: Vec<&str> = f.split_whitespace().collect();
            match fields.get_mut(1) {
                Some(side) if side.eq_ignore_ascii_case("r") => *side = "w",
                _ => return Err(err(None, Reason::Fen(e))),
            }
            fields
                .join(" ")
                .parse::<Position>()
                .map_err(|_| err(None, Reason::Fen(e)))
        })?,
        _ => Position::startpos(),
    };
    let toks = tokens(movetext);
    let mut reader = LineReader {
        tokens: &toks,
        at: 0,
        result: None,
    };
    let mut lead = None;
    let mut moves = Vec::new();
    // A stray `)` ends a line early: read on, the rest belongs to the main line.
    while reader.at < toks.len() {
        let more = reader
            .line(&line_end(&start, &moves), moves.len() + 1, &mut lead)
            .map_err(|(ply, reason)| err(Some(ply), reason))?;
        moves.extend(more);
    }
    let mut r = Record {
        tags: tags
            .into_iter()
            .filter(|(k, _)| !MODEL_TAGS.contains(&k.as_str()))
            .collect(),
        start,
        comment: lead,
        moves,
    };
    if r.tag("Result").is_none() {
        if let Some(res) = reader.result {
            let res = if res == "½-½" { "1/2-1/2" } else { res };
            r.set_tag("Result", res);
        }
    }
    Ok(r)
}

/// The position after `line` from `start`.
fn line_end(start: &Position, line: &[Node]) -> Position {
    line.iter().fold(start.clone(), |p, n| p.play(n.mv))
}

/// Every game of a PGN text: each read, or why not.
pub fn read(text: &str) -> Vec<Result<Record, RecordError>> {
    let mut out = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    // The current game's movetext: a slice of `text` from `from` to `to`, never copied.
    let (mut from, mut to) = (0, 0);
    let mut flush = |tags: &mut Vec<(String, String)>, movetext: &str| {
        if tags.is_empty() && movetext.trim().is_empty() {
            return;
        }
        let n = out.len() + 1;
        out.push(game(n, std::mem::take(tags), movetext));
    };
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let trimmed = line.trim();
        if let Some(inner) = trimmed.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if !text[from..to].trim().is_empty() {
                flush(&mut tags, &text[from..to]);
            }
            if let Some(kv) = parse_tag(inner) {
                tags.push(kv);
            }
            (from, to) = (at, at);
        } else {
            if to == from {
                from = start;
            }
            to = at;
        }
    }
    flush(&mut tags, &text[from..to]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = r#"[Game "Chinese Chess"]
[Event "全国个人赛"]
[Red "胡荣华"]
[Black "杨官璘"]
[Result "1-0"]
[ECCO "C45"]

{开局} 1. 炮二平五 马８进７ {跳马} 2. 马二进三 车９平８ (2... 卒７进１ 3. 车一平二) 3. 车一平二?!
马２进３ $2 4. 兵七进一 1-0
"#;

    #[test]
    fn chinese_pgn_reads_and_writes_in_every_notation() {
        let games = read(GAME);
        assert_eq!(games.len(), 1);
        let r = games[0].as_ref().unwrap();
        assert_eq!(r.red(), Some("胡荣华"));
        assert_eq!(r.result(), "1-0");
        assert_eq!(r.comment.as_deref(), Some("开局"));
        assert_eq!(r.moves.len(), 7);
        assert_eq!(r.moves[1].comment.as_deref(), Some("跳马"));
        assert_eq!(r.moves[3].variations.len(), 1);
        assert_eq!(r.moves[3].variations[0].len(), 2);
        assert_eq!(r.moves[4].nags, [6]);
        assert_eq!(r.moves[5].nags, [2]);
        let iccs: Vec<String> = r.mainline().map(|m| m.to_string()).collect();
        assert_eq!(iccs[..3], ["h2e2", "h9g7", "h0g2"]);
        for n in Notation::ALL {
            let text = write(r, n);
            let back = read(&text);
            assert_eq!(back.len(), 1, "{text}");
            assert_eq!(back[0].as_ref().unwrap(), r, "{n}:\n{text}");
        }
        let wxf = write(r, Notation::Wxf);
        assert!(wxf.contains("[Format \"WXF\"]"), "{wxf}");
        assert!(
            wxf.contains("1. C2=5 H8+7 {跳马} 2. H2+3 R9=8 (2... P7+1 3. R1=2) 3. R1=2?!"),
            "{wxf}"
        );
    }

    #[test]
    fn errors_name_the_game_and_the_ply() {
        let text = "[Round \"1\"]\n\n1. h2e2 h9g7 *\n\n[Round \"2\"]\n\n1. C2=5 K5+2 *\n\n[FEN \"x\"]\n\n*\n";
        let games = read(text);
        assert_eq!(games.len(), 3);
        assert!(games[0].is_ok());
        let e = games[1].as_ref().unwrap_err();
        assert_eq!(e.to_string(), "game 2, ply 2: no legal move is K5+2");
        let e = games[2].as_ref().unwrap_err();
        assert!(
            e.to_string().starts_with("game 3: bad start position"),
            "{e}"
        );
    }
}
