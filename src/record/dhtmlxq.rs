//! DhtmlXQ, the game text of Chinese game sites and forums (dpxq.com's viewer and the many
//! players that copy it): `[DhtmlXQ]…[/DhtmlXQ]` around fields
//! `[DhtmlXQ_name]value[/DhtmlXQ_name]`.
//!
//! Coordinates: a point is two digits `xy`, `x` the file 0–8 from Red's left and `y` the row
//! 0–9 from the top (Black's back rank), so rank = 9 − y. A move is four digits, from and to
//! (`7747` is 炮二平五, ICCS `h2e2`). `binit` is the start position, 32 points in the order
//! 车马相仕帅仕相马车炮炮兵兵兵兵兵 for Red and the same for Black; a point with `x` = 9 (`99`)
//! is a piece off the board. Without `binit` (or an empty one) the game starts from the start
//! position. A `fen` field (written by vschess) is read when there is no `binit`, and otherwise
//! lends its side to move and counters when it agrees with `binit`. The side to move is the
//! colour of the piece the first move moves; with no moves, Red unless that leaves Black in
//! check (then Black), or the `fen` field's side.
//!
//! Lines: `movelist` (or `move_0_1_0`) is the main line, numbered 0. `move_A_B_C` is line C,
//! whose first move replaces ply B (counted from the game's start, from 1) of line A: an
//! alternative to that move. Line C's own plies keep that absolute numbering. A line that
//! branches at its parent's first ply is, as the viewer shows it, an alternative to that same
//! move, so it joins its parent's siblings. Siblings keep the order the text gives them.
//! Comments: `commentN` (or `comment0_N`) follows ply N of the main line (`comment0` comes
//! before the first move); `commentC_N` follows ply N of line C.
//!
//! Text: every value is decoded the way the viewer shows it: `||` is a line break; HTML line
//! breaks (`<br>`, `</p>`, `</div>`) become line breaks and other tags go; the entities
//! `&amp; &lt; &gt; &quot; &apos; &nbsp; &#N; &#xH;` and dpxq's `\uXXXX` escapes are decoded;
//! ends are trimmed. Empty fields count as absent.
//!
//! Tags take PGN's names (`title`→`Title`, `place`→`Site`, `open`→`Opening`,
//! `author`→`Annotator`, …); `result` becomes `1-0`, `0-1` or `1/2-1/2` (红胜, 黑负, 和棋, …)
//! (another result, such as 未知, stays `DhtmlXQ_result`), and `date` `YYYY-MM-DD` becomes
//! `YYYY.MM.DD`. Any other field is kept as a tag `DhtmlXQ_<name>` and written back as it came.
//! Written, a PGN tag of no DhtmlXQ name becomes a field of its own name.
//!
//! Read: every game of a text, a saved page or a forum post: from each wrapper
//! (`[DhtmlXQ]`, `[DhtmlXQiFrame]`, … to its close), or from fields standing outside any
//! wrapper (a new such game starts when `movelist` or `binit` comes again). Field names in any
//! case. Tolerated: a field whose closing tag is missing or misspelt ends at the next DhtmlXQ
//! tag (`[DhtmlXQ_blacktime][/DhtmlXQ_time]` is an empty field); white space inside digit
//! fields; the first of two fields of one name wins; comments for plies a line does not have
//! are dropped. Errors: a digit field that is not digits, or not whole moves, or `binit` not 64
//! digits, or two pieces on a point, is `Malformed`; `binit` that is no legal position is
//! `Fen`; a move that is not legal is `Move(Illegal)` at its ply (variations too); a line that
//! branches from no line, or outside its parent's plies, is `Malformed`; a move field that runs
//! to the end of the text unclosed is `Truncated`; variations nested deeper than 400 are
//! `Malformed`. Nothing here is recursive and every loop is bounded by the text.
//!
//! Written: one `[DhtmlXQ]` block, a field a line: the tags, `binit` and `fen` when the start
//! is not the start position, `movelist`, the variations numbered breadth first, the comments.
//! Line breaks are written `||`; text is escaped only where reading would change it (`&#124;`
//! for a `|` beside a line break or another `|`, `&amp;` for a `&` that starts an entity,
//! `&#92;` for a `\` that starts a `\uXXXX`, `&lt;` for a `<` that may start a tag, `&#91;`
//! for the `[` of `[DhtmlXQ`). So `read(write(r))` gives `r` back, but for NAGs (DhtmlXQ has
//! none), the outer white space of comments and tags, and variations on a variation's first
//! move, which are written as alternatives beside that variation, as the viewer has them.

use super::{Node, Reason, Record, RecordError};
use crate::board::fen::placement;
use crate::board::{Color, Move, MoveError, Piece, PieceKind, Position, Square, START_FEN};
use std::collections::{HashMap, VecDeque};
use std::fmt::Write;

/// Whether the bytes hold a `[DhtmlXQ` tag.
pub fn is_dhtmlxq(bytes: &[u8]) -> bool {
    // A field is `[DhtmlXQ…]` with its name closed at once; a PGN tag named so
    // (`[DhtmlXQ_Game "…"]`, kept from a DhtmlXQ record) is not one.
    bytes.windows(8).enumerate().any(|(i, w)| {
        w.eq_ignore_ascii_case(b"[DhtmlXQ")
            && bytes[i + 8..]
                .iter()
                .find(|b| !(b.is_ascii_alphanumeric() || **b == b'_'))
                == Some(&b']')
    })
}

/// DhtmlXQ field names and the PGN tag names they are read as.
const TAG_NAMES: [(&str, &str); 16] = [
    ("title", "Title"),
    ("event", "Event"),
    ("date", "Date"),
    ("place", "Site"),
    ("round", "Round"),
    ("red", "Red"),
    ("black", "Black"),
    ("redteam", "RedTeam"),
    ("blackteam", "BlackTeam"),
    ("result", "Result"),
    ("open", "Opening"),
    ("ecco", "ECCO"),
    ("author", "Annotator"),
    ("remark", "Remark"),
    ("redtime", "RedTime"),
    ("blacktime", "BlackTime"),
];

/// The prefix of the tags that keep other DhtmlXQ fields.
const KEEP: &str = "DhtmlXQ_";

/// The kind of the piece in each of a side's 16 slots.
const SLOT_KINDS: [PieceKind; 16] = super::PIECE_SLOTS;

/// The longest field name the reader takes as one (longer is text).
const MAX_NAME: usize = 64;

/// The deepest nesting of variations read (the model's nodes are dropped, compared and
/// written recursively).
const MAX_DEPTH: usize = 400;

// ---------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------

/// A DhtmlXQ tag in the text.
#[derive(Clone, Copy, Debug)]
enum Mark<'a> {
    /// `[DhtmlXQ]`, `[DhtmlXQiFrame]`, …: a game begins.
    Open,
    /// `[/DhtmlXQ]`, …: a game ends.
    Close,
    /// `[DhtmlXQ_name]`.
    Field(&'a str),
    /// `[/DhtmlXQ_name]`.
    FieldEnd(&'a str),
}

/// A tag and where it stands: bytes `start..end` of the text.
#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    mark: Mark<'a>,
    start: usize,
    end: usize,
}

/// Whether `b` (which starts with `[`) starts `[DhtmlXQ` or `[/DhtmlXQ`, any case.
fn opens_tag(b: &[u8]) -> bool {
    let word = 1 + usize::from(b.get(1) == Some(&b'/'));
    b.get(word..word + 7)
        .is_some_and(|w| w.eq_ignore_ascii_case(b"dhtmlxq"))
}

/// Every DhtmlXQ tag of the text, in order.
fn tokens(text: &str) -> Vec<Token<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = bytes
        .get(i..)
        .and_then(|b| b.iter().position(|&c| c == b'['))
    {
        let at = i + off;
        i = at + 1;
        if !opens_tag(bytes.get(at..).unwrap_or_default()) {
            continue;
        }
        let close = bytes.get(at + 1) == Some(&b'/');
        let name_start = at + 1 + usize::from(close) + 7;
        let name_len = bytes
            .get(name_start..)
            .unwrap_or_default()
            .iter()
            .take(MAX_NAME + 1)
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        let name_end = name_start + name_len;
        if name_len > MAX_NAME || bytes.get(name_end) != Some(&b']') {
            continue;
        }
        // Every byte from `at` to `name_end` is ASCII: the slice is on character boundaries.
        let name = &text[name_start..name_end];
        let mark = match (name.strip_prefix('_'), close) {
            (Some(""), _) => continue,
            (Some(field), false) => Mark::Field(field),
            (Some(field), true) => Mark::FieldEnd(field),
            (None, false) => Mark::Open,
            (None, true) => Mark::Close,
        };
        out.push(Token {
            mark,
            start: at,
            end: name_end + 1,
        });
        i = name_end + 1;
    }
    out
}

/// One field of a game as the text has it.
#[derive(Clone, Copy, Debug)]
struct Field<'a> {
    name: &'a str,
    value: &'a str,
    /// The value runs to the end of the text with no closing tag.
    cut: bool,
}

/// The fields of each game of the text, in order.
fn games<'a>(text: &'a str) -> Vec<Vec<Field<'a>>> {
    let toks = tokens(text);
    let mut out: Vec<Vec<Field<'a>>> = Vec::new();
    // The game being read, and whether a wrapper opened it.
    let mut current: Option<(bool, Vec<Field<'a>>)> = None;
    let mut finish = |current: &mut Option<(bool, Vec<Field<'a>>)>| {
        if let Some((_, fields)) = current.take() {
            if !fields.is_empty() {
                out.push(fields);
            }
        }
    };
    let mut k = 0;
    while let Some(tok) = toks.get(k) {
        match tok.mark {
            Mark::Open => {
                finish(&mut current);
                current = Some((true, Vec::new()));
                k += 1;
            }
            Mark::Close => {
                finish(&mut current);
                k += 1;
            }
            Mark::FieldEnd(_) => k += 1,
            Mark::Field(name) => {
                let next = toks.get(k + 1);
                let closes = |t: &Token<'_>| match t.mark {
                    Mark::FieldEnd(n) => n.eq_ignore_ascii_case(name),
                    _ => false,
                };
                let (end, step) = match next {
                    Some(t) if closes(t) => (t.start, 2),
                    Some(t) => (t.start, 1),
                    None => (text.len(), 1),
                };
                let field = Field {
                    name,
                    value: text.get(tok.end..end).unwrap_or_default(),
                    cut: next.is_none(),
                };
                let restart = match &current {
                    None => true,
                    Some((false, fields)) => {
                        let again = |n: &str| {
                            name.eq_ignore_ascii_case(n)
                                && fields.iter().any(|f| f.name.eq_ignore_ascii_case(n))
                        };
                        again("movelist") || again("binit")
                    }
                    Some((true, _)) => false,
                };
                if restart {
                    finish(&mut current);
                    current = Some((false, Vec::new()));
                }
                if let Some((_, fields)) = &mut current {
                    fields.push(field);
                }
                k += step;
            }
        }
    }
    finish(&mut current);
    out
}

/// A decimal number of at most six digits.
fn number(s: &str) -> Option<usize> {
    if s.is_empty() || s.len() > 6 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `(A, B, C)` of a field name `move_A_B_C` (any case).
fn move_name(name: &str) -> Option<(usize, usize, usize)> {
    let rest = name
        .get(..5)?
        .eq_ignore_ascii_case("move_")
        .then(|| &name[5..])?;
    let mut parts = rest.split('_');
    let a = number(parts.next()?)?;
    let b = number(parts.next()?)?;
    let c = number(parts.next()?)?;
    parts.next().is_none().then_some((a, b, c))
}

/// `(line, ply)` of a field name `commentN` (line 0) or `commentC_N` (any case).
fn comment_name(name: &str) -> Option<(usize, usize)> {
    let rest = name
        .get(..7)?
        .eq_ignore_ascii_case("comment")
        .then(|| &name[7..])?;
    match rest.split_once('_') {
        Some((c, n)) => Some((number(c)?, number(n)?)),
        None => Some((0, number(rest)?)),
    }
}

/// Whether a field name is one the reader takes into the model, not into the tags.
fn structural(name: &str) -> bool {
    ["binit", "movelist", "fen"]
        .iter()
        .any(|n| name.eq_ignore_ascii_case(n))
        || move_name(name).is_some()
        || comment_name(name).is_some()
}

/// The entity at the start of `s` (which starts with `&`): the character and its length.
fn entity_at(s: &str) -> Option<(char, usize)> {
    let body_end = s.get(1..)?.find(';')? + 1;
    if body_end > 10 {
        return None;
    }
    let body = &s[1..body_end];
    let c = if let Some(num) = body.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                u32::from_str_radix(hex, 16).ok()?
            }
            None if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) => {
                num.parse().ok()?
            }
            _ => return None,
        };
        char::from_u32(code)?
    } else {
        match body.to_ascii_lowercase().as_str() {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            "nbsp" => ' ',
            _ => return None,
        }
    };
    Some((c, body_end + 1))
}

/// The `\uXXXX` escape at the start of `s` (which starts with `\`): the character and its
/// length (a surrogate pair is one escape of 12).
fn escape_at(s: &str) -> Option<(char, usize)> {
    let unit = |s: &str| -> Option<u32> {
        let hex = s.strip_prefix("\\u")?.get(..4)?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(hex, 16).ok()
    };
    let hi = unit(s)?;
    if (0xD800..0xDC00).contains(&hi) {
        let lo = s
            .get(6..)
            .and_then(unit)
            .filter(|lo| (0xDC00..0xE000).contains(lo))?;
        let c = char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))?;
        return Some((c, 12));
    }
    Some((char::from_u32(hi)?, 6))
}

/// Whether the text at `s` (which starts with `<`) is an HTML tag to the reader: its length,
/// and whether it breaks the line.
fn tag_at(s: &str) -> Option<(usize, bool)> {
    let b = s.as_bytes();
    let first = *b.get(1)?;
    if !(first.is_ascii_alphabetic() || first == b'/' || first == b'!') {
        return None;
    }
    let len = b
        .iter()
        .take(512)
        .skip(1)
        .position(|&c| c == b'>' || c == b'<')
        .map(|p| p + 1)
        .filter(|&p| b.get(p) == Some(&b'>'))?;
    let inner = &s[1..len];
    let closing = inner.starts_with('/');
    let name: String = inner
        .trim_start_matches('/')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    let breaks = name == "br" || (closing && matches!(name.as_str(), "p" | "div" | "li" | "tr"));
    Some((len + 1, breaks))
}

/// A field's text as the viewer shows it (see the module's documentation), trimmed.
fn decode_text(raw: &str) -> String {
    let lines = raw
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace("||", "\n");
    let mut untagged = String::with_capacity(lines.len());
    let mut rest = lines.as_str();
    while let Some(p) = rest.find('<') {
        untagged.push_str(&rest[..p]);
        rest = &rest[p..];
        match tag_at(rest) {
            Some((len, breaks)) => {
                if breaks {
                    untagged.push('\n');
                }
                rest = rest.get(len..).unwrap_or_default();
            }
            None => {
                untagged.push('<');
                rest = &rest[1..];
            }
        }
    }
    untagged.push_str(rest);
    let mut out = String::with_capacity(untagged.len());
    let mut rest = untagged.as_str();
    while let Some(p) = rest.find(['&', '\\']) {
        out.push_str(&rest[..p]);
        rest = &rest[p..];
        let found = if rest.starts_with('&') {
            entity_at(rest)
        } else {
            escape_at(rest)
        };
        match found {
            Some((c, len)) => {
                out.push(c);
                rest = rest.get(len..).unwrap_or_default();
            }
            None => {
                // `&` and `\` are one byte each.
                out.push_str(&rest[..1]);
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out.trim().to_string()
}

/// The digits of a move or position field: decoded, white space dropped; `None` if anything
/// else is left.
fn digit_field(raw: &str) -> Option<String> {
    let s: String = decode_text(raw)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    s.bytes().all(|b| b.is_ascii_digit()).then_some(s)
}

/// The point of two digits `xy`, or `None` for a piece off the board (`x` = 9).
fn point(x: u8, y: u8) -> Option<Square> {
    Square::new(x, 9u8.checked_sub(y)?)
}

/// The moves of a line's digits, its first move being ply `first_ply`.
fn parse_moves(digits: &str, first_ply: usize) -> Result<Vec<Move>, (usize, Reason)> {
    let d = digits.as_bytes();
    let mut out = Vec::with_capacity(d.len() / 4);
    for (i, m) in d.chunks(4).enumerate() {
        let ply = first_ply + i;
        let text = String::from_utf8_lossy(m).into_owned();
        let [x1, y1, x2, y2] = [0, 1, 2, 3].map(|j| m.get(j).map(|b| b.wrapping_sub(b'0')));
        let (Some(x1), Some(y1), Some(x2), Some(y2)) = (x1, y1, x2, y2) else {
            return Err((
                ply,
                Reason::Malformed(format!("move {text} is not four digits")),
            ));
        };
        match (point(x1, y1), point(x2, y2)) {
            (Some(from), Some(to)) => out.push(Move::new(from, to)),
            _ => return Err((ply, Reason::Move(MoveError::Syntax(text)))),
        }
    }
    Ok(out)
}

/// The board of a `binit` field.
fn parse_binit(digits: &str) -> Result<[Option<Piece>; 90], Reason> {
    let d = digits.as_bytes();
    if d.len() != 64 {
        return Err(Reason::Malformed(format!(
            "binit has {} digits, not 64",
            d.len()
        )));
    }
    let mut board = [None; 90];
    for (slot, xy) in d.chunks(2).enumerate() {
        let (&[x, y], Some(&kind)) = (xy, SLOT_KINDS.get(slot % 16)) else {
            continue;
        };
        let Some(sq) = point(x.wrapping_sub(b'0'), y.wrapping_sub(b'0')) else {
            continue;
        };
        let color = if slot < 16 { Color::Red } else { Color::Black };
        let piece = Piece::new(color, kind);
        match board.get_mut(sq.index()) {
            Some(cell @ None) => *cell = Some(piece),
            _ => return Err(Reason::Malformed(format!("binit puts two pieces on {sq}"))),
        }
    }
    Ok(board)
}

/// The start position: the board of `binit` (or of `fen`, or the start position), the side
/// to move as the module's documentation says.
fn start_position(
    binit: Option<&str>,
    fen: Option<&str>,
    first: Option<Move>,
) -> Result<Position, Reason> {
    let fen_pos = fen.map(|f| f.parse::<Position>());
    let board = match binit {
        Some(digits) => parse_binit(digits)?,
        None => match &fen_pos {
            Some(pos) => return pos.clone().map_err(Reason::Fen),
            None => {
                let start = Position::startpos();
                let mut board = [None; 90];
                for sq in Square::all() {
                    board[sq.index()] = start.piece_at(sq);
                }
                board
            }
        },
    };
    let piece_at = |sq: Square| board.get(sq.index()).copied().flatten();
    let agreeing = fen_pos
        .and_then(Result::ok)
        .filter(|p| Square::all().all(|sq| p.piece_at(sq) == piece_at(sq)));
    let side = match first {
        Some(m) => Some(piece_at(m.from()).map_or(Color::Red, |p| p.color())),
        None => agreeing.as_ref().map(|p| p.side_to_move()),
    };
    let counters = agreeing
        .as_ref()
        .filter(|p| side == Some(p.side_to_move()))
        .map_or((0, 1), |p| (p.halfmove_clock(), p.fullmove_number()));
    let board_text = placement(piece_at);
    let at = |side: Color| {
        let s = if side == Color::Red { 'w' } else { 'b' };
        format!("{board_text} {s} - - {} {}", counters.0, counters.1).parse::<Position>()
    };
    match side {
        Some(side) => at(side).map_err(Reason::Fen),
        None => match at(Color::Red) {
            Err(crate::board::FenError::OpponentInCheck) => at(Color::Black).map_err(Reason::Fen),
            other => other.map_err(Reason::Fen),
        },
    }
}

/// The PGN result of a DhtmlXQ result, if it names one.
fn result_code(value: &str) -> Option<&'static str> {
    let t: String = value
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase();
    match t.as_str() {
        "1-0" | "红胜" | "紅勝" | "红方胜" | "紅方勝" | "红先胜" | "紅先勝" | "先胜" | "先勝"
        | "黑负" | "黑負" | "黑方负" | "黑方負" | "黑先负" | "黑先負" | "redwin" | "redwins"
        | "redwon" => Some("1-0"),
        "0-1" | "黑胜" | "黑勝" | "黑方胜" | "黑方勝" | "黑先胜" | "黑先勝" | "红负" | "紅負"
        | "红方负" | "紅方負" | "红先负" | "紅先負" | "先负" | "先負" | "blackwin"
        | "blackwins" | "blackwon" => Some("0-1"),
        "1/2-1/2" | "½-½" | "和" | "和棋" | "和局" | "红先和" | "紅先和" | "黑先和" | "先和"
        | "双和" | "雙和" | "议和" | "議和" | "draw" | "drawn" => Some("1/2-1/2"),
        _ => None,
    }
}

/// Whether `s` is `dddd<sep>dd<sep>dd`.
fn is_date(s: &str, sep: u8) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, &c)| match i {
            4 | 7 => c == sep,
            _ => c.is_ascii_digit(),
        })
}

/// The tag a DhtmlXQ field is read as, or `None` for an empty one.
fn read_tag(name: &str, raw: &str) -> Option<(String, String)> {
    let value = decode_text(raw);
    if value.is_empty() {
        return None;
    }
    let lower = name.to_ascii_lowercase();
    if lower == "result" {
        return Some(match result_code(&value) {
            Some(code) => ("Result".to_string(), code.to_string()),
            None => (format!("{KEEP}{name}"), value),
        });
    }
    if lower == "date" && is_date(&value, b'-') {
        return Some(("Date".to_string(), value.replace('-', ".")));
    }
    Some(match TAG_NAMES.iter().find(|(d, _)| *d == lower) {
        Some((_, pgn)) => (pgn.to_string(), value),
        None => (format!("{KEEP}{name}"), value),
    })
}

/// A line of moves as read: line `id` branching from line `parent` at ply `start`.
struct Line {
    id: usize,
    parent: usize,
    start: usize,
    moves: Vec<Move>,
    /// The line and the index of the move this line's first move is an alternative to
    /// (unused for the main line).
    at: (usize, usize),
}

/// A game's fields sorted by what they hold.
struct Sorted<'a> {
    tags: Vec<(String, String)>,
    binit: Option<Field<'a>>,
    movelist: Option<Field<'a>>,
    fen: Option<Field<'a>>,
    /// `move_0_1_0`, the main line under another name.
    main_alt: Option<Field<'a>>,
    /// `move_A_B_C` for C > 0.
    variations: Vec<((usize, usize, usize), Field<'a>)>,
    /// (line, ply) and the text; the first of each kept.
    comments: Vec<((usize, usize), String)>,
}

/// Sorts a game's fields: the first non-empty `binit`, `movelist` and `fen`, the variations,
/// the comments and the tags.
fn sort_fields<'a>(fields: &[Field<'a>]) -> Sorted<'a> {
    let mut tags = Vec::new();
    let (mut binit, mut movelist, mut fen, mut main_alt) = (None, None, None, None);
    let mut variations = Vec::new();
    let mut comments: Vec<((usize, usize), String)> = Vec::new();
    for f in fields {
        let slot = if f.name.eq_ignore_ascii_case("binit") {
            &mut binit
        } else if f.name.eq_ignore_ascii_case("movelist") {
            &mut movelist
        } else if f.name.eq_ignore_ascii_case("fen") {
            &mut fen
        } else if let Some((a, b, c)) = move_name(f.name) {
            if (a, b, c) == (0, 1, 0) {
                &mut main_alt
            } else {
                if c != 0 {
                    variations.push(((a, b, c), *f));
                }
                continue;
            }
        } else if let Some(key) = comment_name(f.name) {
            let text = decode_text(f.value);
            if !text.is_empty() && !comments.iter().any(|(k, _)| *k == key) {
                comments.push((key, text));
            }
            continue;
        } else {
            tags.extend(read_tag(f.name, f.value));
            continue;
        };
        if slot.is_none() && !f.value.trim().is_empty() {
            *slot = Some(*f);
        }
    }
    Sorted {
        tags,
        binit,
        movelist,
        fen,
        main_alt,
        variations,
        comments,
    }
}

/// One game from its fields; `number` is its place in the text (from 1).
fn game(number: usize, fields: &[Field<'_>]) -> Result<Record, RecordError> {
    let err = |ply, reason| RecordError {
        game: number,
        ply,
        reason,
    };
    let Sorted {
        tags,
        binit,
        movelist,
        fen,
        main_alt,
        variations,
        comments,
    } = sort_fields(fields);
    let cut = |f: &Field<'_>, ply| {
        if f.cut {
            Err(err(ply, Reason::Truncated))
        } else {
            Ok(())
        }
    };
    let digits = |f: &Field<'_>, what: &str, ply| -> Result<String, RecordError> {
        cut(f, ply)?;
        digit_field(f.value).ok_or_else(|| {
            err(
                ply,
                Reason::Malformed(format!("{what} holds other than digits")),
            )
        })
    };

    // The main line and the start position.
    let main_digits = match movelist.or(main_alt) {
        Some(f) => digits(&f, "movelist", None)?,
        None => String::new(),
    };
    let main = parse_moves(&main_digits, 1).map_err(|(p, r)| err(Some(p), r))?;
    let binit_digits = match binit {
        Some(f) => Some(digits(&f, "binit", None)?).filter(|d| !d.is_empty()),
        None => None,
    };
    let fen_text = fen.map(|f| decode_text(f.value)).filter(|t| !t.is_empty());
    let start = start_position(
        binit_digits.as_deref(),
        fen_text.as_deref(),
        main.first().copied(),
    )
    .map_err(|r| err(None, r))?;

    // The lines, each with the move it is an alternative to.
    let mut lines = vec![Line {
        id: 0,
        parent: 0,
        start: 1,
        moves: main,
        at: (0, 0),
    }];
    let mut index: HashMap<usize, usize> = HashMap::from([(0, 0)]);
    for ((a, b, c), f) in variations {
        if index.contains_key(&c) {
            continue;
        }
        let d = digits(&f, "a variation", Some(b))?;
        if d.is_empty() {
            continue;
        }
        let moves = parse_moves(&d, b).map_err(|(p, r)| err(Some(p), r))?;
        index.insert(c, lines.len());
        lines.push(Line {
            id: c,
            parent: a,
            start: b,
            moves,
            at: (0, 0),
        });
    }
    for i in 1..lines.len() {
        let (id, start_ply) = (lines[i].id, lines[i].start);
        let name = format!("move_{}_{}_{}", lines[i].parent, start_ply, id);
        let mut a = lines[i].parent;
        let mut steps = 0;
        lines[i].at = loop {
            steps += 1;
            let p = match index.get(&a) {
                Some(&p) if steps <= lines.len() => p,
                _ => {
                    return Err(err(
                        Some(start_ply),
                        Reason::Malformed(format!("{name} branches from no line")),
                    ))
                }
            };
            let parent = &lines[p];
            if start_ply < parent.start || start_ply >= parent.start + parent.moves.len() {
                return Err(err(
                    Some(start_ply),
                    Reason::Malformed(format!(
                        "{name} branches at ply {start_ply}, which line {a} does not have"
                    )),
                ));
            }
            if start_ply == parent.start && p != 0 {
                a = parent.parent;
                continue;
            }
            break (p, start_ply - parent.start);
        };
    }

    check_lines(&lines, &start).map_err(|(ply, reason)| err(ply, reason))?;
    let (comment, moves) = nodes(&lines, &index, comments);
    Ok(Record {
        tags,
        start,
        comment,
        moves,
    })
}

/// Checks every move of every line, parents before children (a child starts later than its
/// parent); the ply of the first illegal move and why, or lines nested too deep.
fn check_lines(lines: &[Line], start: &Position) -> Result<(), (Option<usize>, Reason)> {
    let err = |ply, reason| (ply, reason);
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by_key(|&i| lines[i].start);
    let mut depth = vec![0usize; lines.len()];
    for &i in order.iter().skip(1) {
        depth[i] = depth[lines[i].at.0] + 1;
        if depth[i] > MAX_DEPTH {
            return Err(err(
                Some(lines[i].start),
                Reason::Malformed(format!("variations nest deeper than {MAX_DEPTH}")),
            ));
        }
    }
    let mut has_child = vec![false; lines.len()];
    for line in lines.iter().skip(1) {
        has_child[line.at.0] = true;
    }
    let mut positions: Vec<Vec<Position>> = vec![Vec::new(); lines.len()];
    for &i in &order {
        let line = &lines[i];
        let mut pos = if i == 0 {
            start.clone()
        } else {
            match positions.get(line.at.0).and_then(|ps| ps.get(line.at.1)) {
                Some(p) => p.clone(),
                None => return Err(err(None, Reason::Malformed("lost line".to_string()))),
            }
        };
        let mut before = Vec::new();
        for (j, &m) in line.moves.iter().enumerate() {
            if !pos.is_legal(m) {
                return Err(err(
                    Some(line.start + j),
                    Reason::Move(MoveError::Illegal(m.to_string())),
                ));
            }
            let next = pos.play(m);
            if has_child[i] {
                before.push(std::mem::replace(&mut pos, next));
            } else {
                pos = next;
            }
        }
        positions[i] = before;
    }

    Ok(())
}

/// The main line's nodes with their comments and the game comment: each line moved into the
/// node it is an alternative to, the latest-starting lines first so that a line holds its own
/// variations when it moves.
fn nodes(
    lines: &[Line],
    index: &HashMap<usize, usize>,
    comments: Vec<((usize, usize), String)>,
) -> (Option<String>, Vec<Node>) {
    let mut nodes: Vec<Vec<Node>> = lines
        .iter()
        .map(|l| l.moves.iter().map(|&m| Node::new(m)).collect())
        .collect();
    let mut comment = None;
    for ((c, n), text) in comments {
        if (c, n) == (0, 0) {
            comment = Some(text);
            continue;
        }
        let Some(&i) = index.get(&c) else { continue };
        let first = lines[i].start;
        if let Some(node) = n
            .checked_sub(first)
            .and_then(|k| nodes.get_mut(i).and_then(|ns| ns.get_mut(k)))
        {
            node.comment = Some(text);
        }
    }
    // Latest start first; siblings (one start) in the order the text gives them.
    let mut nesting: Vec<usize> = (1..lines.len()).collect();
    nesting.sort_by_key(|&i| std::cmp::Reverse(lines[i].start));
    for i in nesting {
        let line = std::mem::take(&mut nodes[i]);
        let (p, k) = lines[i].at;
        if let Some(node) = nodes.get_mut(p).and_then(|ns| ns.get_mut(k)) {
            node.variations.push(line);
        }
    }
    (comment, std::mem::take(&mut nodes[0]))
}

/// Every `[DhtmlXQ]…[/DhtmlXQ]` game in the text: each read, or why not.
pub fn read(text: &str) -> Vec<Result<Record, RecordError>> {
    games(text)
        .iter()
        .enumerate()
        .map(|(i, fields)| game(i + 1, fields))
        .collect()
}

// ---------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------

/// A field's text so that reading it gives `text` back (see the module's documentation).
fn encode_text(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(text.len());
    let mut prev = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let rest = &text[i..];
        let next = chars.peek().map(|&(_, n)| n);
        match c {
            '\n' => out.push_str("||"),
            '|' if matches!(prev, Some('|' | '\n')) || matches!(next, Some('|' | '\n')) => {
                out.push_str("&#124;")
            }
            '&' if entity_at(rest).is_some() => out.push_str("&amp;"),
            '\\' if escape_at(rest).is_some() => out.push_str("&#92;"),
            '<' if next.is_some_and(|n| n.is_ascii_alphabetic() || n == '/' || n == '!') => {
                out.push_str("&lt;")
            }
            '[' if opens_tag(rest.as_bytes()) => out.push_str("&#91;"),
            _ => out.push(c),
        }
        prev = Some(c);
    }
    out
}

/// The DhtmlXQ field a tag is written as: its name and value, or `None` for a tag DhtmlXQ
/// cannot hold.
fn write_tag(key: &str, value: &str) -> Option<(String, String)> {
    if value.is_empty() {
        return None;
    }
    match key {
        "Result" => {
            let v = match value {
                "1-0" => "红胜",
                "0-1" => "黑胜",
                "1/2-1/2" => "和棋",
                _ => return None,
            };
            return Some(("result".to_string(), v.to_string()));
        }
        "Date" if is_date(value, b'.') => {
            return Some(("date".to_string(), value.replace('.', "-")));
        }
        _ => {}
    }
    if let Some((d, _)) = TAG_NAMES.iter().find(|(_, p)| *p == key) {
        return Some((d.to_string(), value.to_string()));
    }
    let name = key.strip_prefix(KEEP).unwrap_or(key);
    let word = !name.is_empty()
        && name.len() <= MAX_NAME
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    // A PGN tag of another name is kept under its own name (read back as `DhtmlXQ_<name>`),
    // unless that name means something else to DhtmlXQ.
    let clash =
        key.len() == name.len() && TAG_NAMES.iter().any(|(d, _)| d.eq_ignore_ascii_case(name));
    (word && !clash && !structural(name)).then(|| (name.to_string(), value.to_string()))
}

/// The `binit` digits of a position.
fn binit(pos: &Position) -> String {
    let mut slots = [None; 32];
    for (base, color) in [(0, Color::Red), (16, Color::Black)] {
        for kind in PieceKind::ALL {
            let mut codes: Vec<u8> = Square::all()
                .filter(|&sq| pos.piece_at(sq) == Some(Piece::new(color, kind)))
                .map(|sq| sq.file() * 10 + (9 - sq.rank()))
                .collect();
            // As the viewer orders them: Red's from the right, Black's from the left.
            codes.sort_unstable();
            if color == Color::Red {
                codes.reverse();
            }
            let free = (0..16).filter(|&s| SLOT_KINDS[s] == kind).map(|s| base + s);
            for (slot, code) in free.zip(codes) {
                slots[slot] = Some(code);
            }
        }
    }
    slots
        .iter()
        .map(|s| s.map_or_else(|| "99".to_string(), |c| format!("{c:02}")))
        .collect()
}

/// The digits of a line of moves.
fn move_digits(line: &[Node]) -> String {
    let mut s = String::with_capacity(line.len() * 4);
    for n in line {
        let (f, t) = (n.mv.from(), n.mv.to());
        let _ = write!(
            s,
            "{}{}{}{}",
            f.file(),
            9 - f.rank(),
            t.file(),
            9 - t.rank()
        );
    }
    s
}

/// One field, on a line of its own.
fn field(s: &mut String, name: &str, value: &str) {
    let _ = writeln!(s, "[{KEEP}{name}]{value}[/{KEEP}{name}]");
}

/// The record as DhtmlXQ text: one `[DhtmlXQ]` block.
pub fn write(r: &Record) -> String {
    let mut s = String::from("[DhtmlXQ]\n");
    for (k, v) in &r.tags {
        if let Some((name, value)) = write_tag(k, v) {
            field(&mut s, &name, &encode_text(&value));
        }
    }
    let fen = r.start.to_string();
    if fen != START_FEN {
        field(&mut s, "binit", &binit(&r.start));
        field(&mut s, "fen", &fen);
    }
    field(&mut s, "movelist", &move_digits(&r.moves));
    let mut comments = Vec::new();
    if let Some(c) = r.comment.as_deref().filter(|c| !c.trim().is_empty()) {
        comments.push(("comment0".to_string(), c));
    }
    // Breadth first: (line id, its first ply, its moves, the line its first move's
    // alternatives are listed under).
    let mut queue = VecDeque::from([(0usize, 1usize, r.moves.as_slice(), 0usize)]);
    let mut next_id = 1;
    while let Some((id, first, line, up)) = queue.pop_front() {
        for (i, node) in line.iter().enumerate() {
            let ply = first + i;
            if let Some(c) = node.comment.as_deref().filter(|c| !c.trim().is_empty()) {
                let name = if id == 0 {
                    format!("comment{ply}")
                } else {
                    format!("comment{id}_{ply}")
                };
                comments.push((name, c));
            }
            let parent = if i == 0 && id != 0 { up } else { id };
            for v in node.variations.iter().filter(|v| !v.is_empty()) {
                let vid = next_id;
                next_id += 1;
                field(
                    &mut s,
                    &format!("move_{parent}_{ply}_{vid}"),
                    &move_digits(v),
                );
                queue.push_back((vid, ply, v.as_slice(), parent));
            }
        }
    }
    for (name, c) in comments {
        field(&mut s, &name, &encode_text(c));
    }
    s.push_str("[/DhtmlXQ]\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Notation;
    use rand::{Rng, SeedableRng};

    /// The sample files of `tests/data/records/dhtmlxq/`, by name.
    fn sample(name: &str) -> String {
        let path = format!(
            "{}/tests/data/records/dhtmlxq/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// Every sample: (file, its text).
    fn samples() -> Vec<(String, String)> {
        let dir = format!("{}/tests/data/records/dhtmlxq", env!("CARGO_MANIFEST_DIR"));
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !n.ends_with(".tsv") && !n.ends_with(".md") && !n.ends_with(".moves.txt"))
            .collect();
        names.sort();
        names.into_iter().map(|n| (n.clone(), sample(&n))).collect()
    }

    fn iccs(line: &[Node]) -> String {
        line.iter()
            .map(|n| n.mv.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn only(text: &str) -> Record {
        let games = read(text);
        assert_eq!(games.len(), 1, "{games:?}");
        games.into_iter().next().unwrap().unwrap()
    }

    fn round_trips(r: &Record) {
        let text = write(r);
        let back = read(&text);
        assert_eq!(back.len(), 1, "{text}");
        assert_eq!(back[0].as_ref(), Ok(r), "{text}");
    }

    /// A line of `picks.len()` legal moves from `pos`, move `i` the `picks[i]`-th legal one
    /// (modulo their number).
    fn line(pos: &Position, picks: &[usize]) -> Vec<Node> {
        let mut pos = pos.clone();
        let mut out = Vec::new();
        for &k in picks {
            let legal = pos.legal_moves();
            let m = legal.get(k % legal.len());
            out.push(Node::new(m));
            pos = pos.play(m);
        }
        out
    }

    /// The position before move `i` of `line` from `pos`.
    fn before(pos: &Position, line: &[Node], i: usize) -> Position {
        line[..i].iter().fold(pos.clone(), |p, n| p.play(n.mv))
    }

    #[test]
    fn round_trip_with_tags_position_comments_and_nested_variations() {
        // Black to move in a middle game, the sixth move.
        let start: Position =
            "2bakab2/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/4C1N2/9/1RBAKAB2 b - - 3 6"
                .parse()
                .unwrap();
        let mut r = Record::new(start.clone());
        for (k, v) in [
            ("Title", "红方 先负 黑方"),
            ("Event", "全国象棋个人赛"),
            ("Date", "2021.12.05"),
            ("Site", "北京"),
            ("Round", "第07轮"),
            ("Red", "湖北 洪智"),
            ("Black", "江苏 徐天红"),
            ("RedTeam", "湖北"),
            ("Result", "0-1"),
            ("Opening", "E10 仙人指路对卒底炮"),
            ("ECCO", "E10"),
            ("Annotator", "A & B <i>"),
            ("DhtmlXQ_owner", "东萍公司"),
            ("DhtmlXQ_refer", "http%3A//www.dpxq.com/%0D%0Ahttp%3A//x"),
        ] {
            r.tags.push((k.to_string(), v.to_string()));
        }
        r.comment = Some("开局\n第二行 &amp; <br> [DhtmlXQ_x] \\u0041 a||b|c|\nd".to_string());
        r.moves = line(&start, &[3, 1, 4, 1, 5, 9, 2, 6]);
        r.moves[0].comment = Some("黑先".to_string());
        r.moves[5].comment = Some("两行\n\n注解".to_string());
        // Two alternatives to the third move, the first with an alternative of its own at its
        // second move, which has a comment and an alternative at its third.
        let p2 = before(&start, &r.moves, 2);
        let mut v1 = line(&p2, &[7, 7, 7, 7]);
        let p = before(&p2, &v1, 1);
        let mut v11 = line(&p, &[2, 2, 2]);
        v11[0].comment = Some("变着中的变着".to_string());
        let p = before(&p, &v11, 2);
        v11[2].variations.push(line(&p, &[5]));
        v1[1].variations.push(v11);
        v1[3].comment = Some("红方优势。".to_string());
        let v2 = line(&p2, &[11, 0]);
        r.moves[2].variations = vec![v1, v2];
        // An alternative to the last move.
        let p7 = before(&start, &r.moves, 7);
        r.moves[7].variations.push(line(&p7, &[0, 0, 0]));
        // An alternative to the first move.
        r.moves[0].variations.push(line(&start, &[8]));
        assert!(r.has_variations());
        round_trips(&r);

        let text = write(&r);
        assert!(text.starts_with("[DhtmlXQ]\n[DhtmlXQ_title]红方 先负 黑方[/DhtmlXQ_title]\n"));
        assert!(
            text.contains("[DhtmlXQ_date]2021-12-05[/DhtmlXQ_date]"),
            "{text}"
        );
        assert!(
            text.contains("[DhtmlXQ_place]北京[/DhtmlXQ_place]"),
            "{text}"
        );
        assert!(
            text.contains("[DhtmlXQ_result]黑胜[/DhtmlXQ_result]"),
            "{text}"
        );
        assert!(
            text.contains("[DhtmlXQ_author]A & B &lt;i>[/DhtmlXQ_author]"),
            "{text}"
        );
        assert!(
            text.contains("[DhtmlXQ_owner]东萍公司[/DhtmlXQ_owner]"),
            "{text}"
        );
        assert!(text.contains(&format!("[DhtmlXQ_fen]{start}[/DhtmlXQ_fen]")));
        // Lines numbered breadth first: the main line's alternatives, then theirs.
        for name in ["0_1_1", "0_3_2", "0_3_3", "0_8_4", "2_4_5", "5_6_6"] {
            assert!(
                text.contains(&format!("[DhtmlXQ_move_{name}]")),
                "{name}: {text}"
            );
        }
        assert!(text.contains("[DhtmlXQ_comment5_4]变着中的变着[/DhtmlXQ_comment5_4]"));
        assert!(text.contains("[DhtmlXQ_comment2_6]红方优势。[/DhtmlXQ_comment2_6]"));
        assert!(text.contains("[DhtmlXQ_comment6]两行||||注解[/DhtmlXQ_comment6]"));
        assert!(
            text.contains(
                "[DhtmlXQ_comment0]开局||第二行 &amp;amp; &lt;br> &#91;DhtmlXQ_x] &#92;u0041 \
                 a&#124;&#124;b|c&#124;||d[/DhtmlXQ_comment0]"
            ),
            "{text}"
        );

        // NAGs are not in DhtmlXQ: dropped.
        let mut marked = r.clone();
        marked.moves[1].nags.push(2);
        assert_eq!(only(&write(&marked)), r);
    }

    #[test]
    fn writes_the_form_sites_use() {
        let start = Position::startpos();
        let mut r = Record::new(start.clone());
        r.tags.push(("Red".to_string(), "许银川".to_string()));
        r.comment = Some("中炮".to_string());
        r.moves = ["h2e2", "h9g7", "h0g2"]
            .iter()
            .scan(start.clone(), |p, m| {
                let mv = p.read_move(m).unwrap();
                *p = p.play(mv);
                Some(Node::new(mv))
            })
            .collect();
        r.moves[1].comment = Some("跳马".to_string());
        let alt = start.play(r.moves[0].mv).read_move("b7e7").unwrap();
        r.moves[1].variations.push(vec![Node::new(alt)]);
        assert_eq!(
            write(&r),
            "[DhtmlXQ]\n\
             [DhtmlXQ_red]许银川[/DhtmlXQ_red]\n\
             [DhtmlXQ_movelist]774770627967[/DhtmlXQ_movelist]\n\
             [DhtmlXQ_move_0_2_1]1242[/DhtmlXQ_move_0_2_1]\n\
             [DhtmlXQ_comment0]中炮[/DhtmlXQ_comment0]\n\
             [DhtmlXQ_comment2]跳马[/DhtmlXQ_comment2]\n\
             [/DhtmlXQ]\n"
        );
        round_trips(&r);
        // The standard start's `binit` is the start position, not written back.
        let text = write(&r).replace(
            "[DhtmlXQ_movelist]",
            "[DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383\
             [/DhtmlXQ_binit]\n[DhtmlXQ_movelist]",
        );
        assert_eq!(only(&text), r);
        // A variation on a variation's first move is written as an alternative beside it.
        let mut nested = r.clone();
        let alt = nested.moves[1].variations[0][0].mv;
        let p1 = start.play(r.moves[0].mv);
        let other = p1.read_move("h7e7").unwrap();
        assert_ne!(alt, other);
        nested.moves[1].variations[0][0]
            .variations
            .push(vec![Node::new(other)]);
        let back = only(&write(&nested));
        assert_eq!(back.moves[1].variations.len(), 2);
        assert_eq!(back.moves[1].variations[1][0].mv, other);
        assert!(back.moves[1].variations[0][0].variations.is_empty());
    }

    #[test]
    fn real_samples_read_to_the_expected_main_lines() {
        let expected = sample("expected.tsv");
        let mut seen = 0;
        for row in expected.lines().filter(|l| !l.starts_with('#')) {
            let cols: Vec<&str> = row.split('\t').collect();
            let [file, game, fen, moves] = cols[..] else {
                panic!("bad row {row}")
            };
            let n: usize = game.parse().unwrap();
            let games = read(&sample(file));
            let r = games[n - 1]
                .as_ref()
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(r.start.to_string(), fen, "{file}");
            assert_eq!(iccs(&r.moves), moves, "{file} game {n}");
            // Every game written and read again is the same game.
            round_trips(r);
            seen += 1;
        }
        assert_eq!(seen, 7);
    }

    #[test]
    fn real_samples_keep_their_tags_comments_and_variations() {
        let r = only(&sample("dpxq_hongzhi_xutianhong_2021.txt"));
        assert_eq!(r.red(), Some("湖北 洪智"));
        assert_eq!(r.black(), Some("江苏 徐天红"));
        assert_eq!(r.result(), "1-0");
        assert_eq!(r.tag("Date"), Some("2021.12.05"));
        assert_eq!(r.tag("Site"), Some("顺德碧桂园度假村"));
        assert_eq!(r.tag("Round"), Some("第01轮"));
        assert_eq!(r.tag("Opening"), Some("E10 仙人指路对卒底炮"));
        assert_eq!(r.tag("RedTeam"), Some("湖北"));
        assert_eq!(r.tag("DhtmlXQ_redname"), Some("洪智"));
        assert_eq!(r.tag("DhtmlXQ_timerule"), Some("10分＋10秒"));
        assert_eq!(r.tag("DhtmlXQ_owner"), Some("东萍公司"));
        // Empty fields are absent.
        assert_eq!(r.tag("DhtmlXQ_generator"), None);
        assert_eq!(r.comment.as_deref(), Some("第3局"));
        assert_eq!(r.moves.len(), 73);

        // 23 variations, nested two deep, with their comments.
        let r = only(&sample("dpxq_yilin_xinbian_c84_variations.txt"));
        fn count(line: &[Node]) -> usize {
            line.iter()
                .map(|n| n.variations.iter().map(|v| 1 + count(v)).sum::<usize>())
                .sum()
        }
        assert_eq!(count(&r.moves), 23);
        assert_eq!(r.moves.len(), 63);
        assert_eq!(r.result(), "1-0");
        let c0 = r.comment.as_deref().unwrap();
        assert!(c0.starts_with("《弈林新编》杨官璘编著\n\n\n中炮巡河炮对屏风马\n\n中炮巡河炮"));
        assert_eq!(
            r.moves[18].comment.as_deref().map(|c| &c[..12]),
            Some("如图局势")
        );
        // move_0_20_13 and move_0_20_18 are alternatives to ply 20, in that order.
        let at20 = &r.moves[19].variations;
        assert_eq!(at20.len(), 2);
        assert_eq!(iccs(&at20[0][..2]), "a9b9 a0b0");
        assert_eq!(iccs(&at20[1][..2]), "c6c5 c4c5");
        // move_13_22_17 is an alternative to ply 22 of line 13 (its third move); its
        // comment17_27 follows its sixth move.
        let v13 = &at20[0];
        assert_eq!(v13[2].variations.len(), 1);
        let v17 = &v13[2].variations[0];
        assert_eq!(iccs(&v17[..2]), "c6c5 c4c5");
        assert_eq!(v17[5].comment.as_deref(), Some("红方先手。"));
        // move_1_52_2 inside move_0_48_1.
        let v1 = &r.moves[47].variations[0];
        assert_eq!(v1[4].variations.len(), 1);
        assert_eq!(iccs(&v1[4].variations[0]), "b0b8 g8h6");
        assert_eq!(v1[13].comment.as_deref(), Some("红方优势。"));

        // The endgame: a composed position, Red to move, no moves.
        let r = only(&sample("dpxq_qitun_guanyou_endgame.txt"));
        assert!(r.moves.is_empty());
        assert_eq!(r.tag("Title"), Some("第001局 气吞关右"));
        assert_eq!(r.comment.as_deref(), Some("红弃双车、兵，马炮胜"));
        assert_eq!(r.tag("DhtmlXQ_class"), Some("象棋谱大全-古谱残局"));
        let text = write(&r);
        assert!(text.contains("[DhtmlXQ_binit]"), "{text}");

        // Red's pieces listed from the left in `binit`: still the start position.
        let r = only(&sample("sea_games_2023_binit_from_left.txt"));
        assert_eq!(r.start, Position::startpos());
        assert!(!write(&r).contains("binit"));
        assert_eq!(r.tag("ECCO"), Some("E03"));
        assert_eq!(r.tag("Annotator"), Some("刘亿豪"));
        assert_eq!(r.tag("DhtmlXQ_group"), Some("Men Single Standard"));
    }

    #[test]
    fn a_page_holds_the_game_twice_and_an_applet_agrees() {
        let page = sample("ccbridge_chen_jianyu_wang_weizhong_2018.blade.php");
        let games = read(&page);
        assert_eq!(games.len(), 2);
        let (a, b) = (games[0].as_ref().unwrap(), games[1].as_ref().unwrap());
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.result(), "1-0");
        // `[DhtmlXQ_blacktime][/DhtmlXQ_time]` is an empty field, not the rest of the game.
        assert_eq!(a.tag("Black"), Some("王韋中"));
        assert_eq!(a.tag("BlackTime"), None);
        assert_eq!(b.tag("DhtmlXQ_generator"), Some("www.dpxq.com"));
        // The page's Java applet gives the game in its own coordinates ("87-57": file 1-9
        // from Red's left, row 0-9 from the top): the same moves.
        let list = page
            .split("name=\"movelist\" value=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .unwrap();
        let applet: Vec<String> = list
            .split_whitespace()
            .map(|m| {
                let d: Vec<u8> = m
                    .bytes()
                    .filter(u8::is_ascii_digit)
                    .map(|c| c - b'0')
                    .collect();
                let sq = |f: u8, row: u8| Square::new(f - 1, 9 - row).unwrap();
                Move::new(sq(d[0], d[1]), sq(d[2], d[3])).to_string()
            })
            .collect();
        assert_eq!(iccs(&a.moves), applet.join(" "));
    }

    #[test]
    fn a_sample_agrees_with_its_chinese_text() {
        let r = only(&sample("dpxq_liuyongfu_zhangyongsheng.txt"));
        assert_eq!(r.result(), "0-1");
        let text = sample("dpxq_liuyongfu_zhangyongsheng.moves.txt");
        let words: Vec<&str> = text
            .lines()
            .flat_map(|l| l.split_once('.').map_or("", |(_, m)| m).split_whitespace())
            .collect();
        assert_eq!(words.len(), r.moves.len());
        let mut pos = r.start.clone();
        for (w, n) in words.iter().zip(&r.moves) {
            assert_eq!(pos.read_move(w), Ok(n.mv), "{w}");
            assert_eq!(
                pos.read_move(&pos.move_text(n.mv, Notation::Chinese)),
                Ok(n.mv)
            );
            pos = pos.play(n.mv);
        }
    }

    /// A `binit` with the given points for the given slots, the others off the board.
    fn binit_with(points: &[(usize, &str)]) -> String {
        let mut slots = vec!["99"; 32];
        for &(s, p) in points {
            slots[s] = p;
        }
        slots.concat()
    }

    #[test]
    fn binit_gives_the_position_and_the_side_to_move() {
        // Red: king d0, rook a0. Black: king e9, rook i9 (slots 4, 0, 20, 24).
        let b = binit_with(&[(4, "39"), (0, "09"), (20, "40"), (24, "80")]);
        let r = only(&format!(
            "[DhtmlXQ][DhtmlXQ_binit]{b}[/DhtmlXQ_binit][/DhtmlXQ]"
        ));
        assert_eq!(r.start.to_string(), "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
        // The first move is Black's: Black moves first.
        let r = only(&format!(
            "[DhtmlXQ][DhtmlXQ_binit]{b}[/DhtmlXQ_binit][DhtmlXQ_movelist]80810908[/DhtmlXQ_movelist][/DhtmlXQ]"
        ));
        assert_eq!(r.start.to_string(), "4k3r/9/9/9/9/9/9/9/9/R2K5 b - - 0 1");
        assert_eq!(iccs(&r.moves), "i9i8 a0a1");
        round_trips(&r);
        // No moves, Black in check: Black to move.
        let b2 = binit_with(&[(4, "49"), (0, "48"), (20, "40")]);
        let r = only(&format!("[DhtmlXQ_binit]{b2}[/DhtmlXQ_binit]"));
        assert_eq!(r.start.to_string(), "4k4/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1");
        // No moves: a `fen` field that agrees gives the side and counters.
        let r = only(&format!(
            "[DhtmlXQ_binit]{b}[/DhtmlXQ_binit][DhtmlXQ_fen]4k3r/9/9/9/9/9/9/9/9/R2K5 b - - 7 40[/DhtmlXQ_fen]"
        ));
        assert_eq!(r.start.to_string(), "4k3r/9/9/9/9/9/9/9/9/R2K5 b - - 7 40");
        round_trips(&r);
        // A `fen` field alone.
        let r = only("[DhtmlXQ_fen]4k3r/9/9/9/9/9/9/9/9/R2K5 b - - 0 1[/DhtmlXQ_fen]");
        assert_eq!(r.start.to_string(), "4k3r/9/9/9/9/9/9/9/9/R2K5 b - - 0 1");
        // Groups of digits with white space, as some pages print them.
        let spaced: String = b
            .as_bytes()
            .chunks(8)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join(" \n");
        let r = only(&format!("[DhtmlXQ_binit]{spaced}[/DhtmlXQ_binit]"));
        assert_eq!(r.start.to_string(), "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    }

    /// The error of a text's only game.
    fn error(text: &str) -> RecordError {
        let games = read(text);
        assert_eq!(games.len(), 1, "{games:?}");
        games.into_iter().next().unwrap().unwrap_err()
    }

    #[test]
    fn errors_name_the_game_the_ply_and_the_fault() {
        let b = binit_with(&[(4, "49"), (0, "09"), (20, "40"), (24, "80")]);
        // Two pieces on one point.
        let two = binit_with(&[(4, "49"), (0, "49"), (20, "40")]);
        let e = error(&format!("[DhtmlXQ_binit]{two}[/DhtmlXQ_binit]"));
        assert_eq!(
            e.reason,
            Reason::Malformed("binit puts two pieces on e0".to_string())
        );
        // Not 64 digits; not digits.
        let e = error(&format!("[DhtmlXQ_binit]{}[/DhtmlXQ_binit]", &b[2..]));
        assert!(matches!(e.reason, Reason::Malformed(_)), "{e}");
        let e = error("[DhtmlXQ_binit]89796959493929190977178666462606001020304050607080127203234363xy[/DhtmlXQ_binit]");
        assert!(matches!(e.reason, Reason::Malformed(_)), "{e}");
        // No Red king.
        let nok = binit_with(&[(0, "09"), (20, "40")]);
        let e = error(&format!("[DhtmlXQ_binit]{nok}[/DhtmlXQ_binit]"));
        assert!(matches!(e.reason, Reason::Fen(_)), "{e}");
        assert_eq!(e.ply, None);
        // An illegal move, at its ply; one in a variation, at its own.
        let e = error("[DhtmlXQ][DhtmlXQ_movelist]774770627947[/DhtmlXQ_movelist][/DhtmlXQ]");
        assert_eq!(e.to_string(), "game 1, ply 3: illegal move h0e2");
        let e = error(
            "[DhtmlXQ_movelist]774770627967[/DhtmlXQ_movelist][DhtmlXQ_move_0_3_1]79671927[/DhtmlXQ_move_0_3_1]",
        );
        assert_eq!(e.ply, Some(4));
        // A point off the board.
        let e = error("[DhtmlXQ_movelist]77479062[/DhtmlXQ_movelist]");
        assert_eq!(
            (e.ply, e.reason),
            (Some(2), Reason::Move(MoveError::Syntax("9062".to_string())))
        );
        // Half a move; letters (an old version's move list).
        let e = error("[DhtmlXQ_movelist]7747706[/DhtmlXQ_movelist]");
        assert_eq!(e.ply, Some(2));
        let e = error("[DhtmlXQ_movelist]7747Z0[/DhtmlXQ_movelist]");
        assert!(matches!(e.reason, Reason::Malformed(_)), "{e}");
        // A variation from no line, or from a ply its parent does not have.
        let e = error("[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][DhtmlXQ_move_4_1_1]7242[/DhtmlXQ_move_4_1_1]");
        assert!(matches!(e.reason, Reason::Malformed(_)), "{e}");
        let e = error("[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][DhtmlXQ_move_0_2_1]7242[/DhtmlXQ_move_0_2_1]");
        assert!(matches!(e.reason, Reason::Malformed(_)), "{e}");
        // Lines that name each other: no line to branch from.
        let e = error(
            "[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][DhtmlXQ_move_2_2_1]1242[/DhtmlXQ_move_2_2_1][DhtmlXQ_move_1_2_2]1242[/DhtmlXQ_move_1_2_2]",
        );
        assert!(matches!(e.reason, Reason::Malformed(_)), "{e}");
        // Variations nested beyond reason: refused, not a deep stack.
        let mut deep = String::from("[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]");
        for k in 1..=2000 {
            let m = if k % 2 == 1 { "7242" } else { "7747" };
            let _ = write!(
                deep,
                "[DhtmlXQ_move_{}_{}_{k}]{m}{m}[/DhtmlXQ_move_{}_{}_{k}]",
                k - 1,
                k,
                k - 1,
                k
            );
        }
        let e = error(&deep);
        assert!(
            e.to_string().ends_with("variations nest deeper than 400"),
            "{e}"
        );
        // The text ends inside the move list.
        let e = error("[DhtmlXQ]\n[DhtmlXQ_movelist]77477062");
        assert_eq!(e.reason, Reason::Truncated);
        // One bad game does not lose the others.
        let games = read(
            "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]\
             [DhtmlXQ][DhtmlXQ_movelist]7740[/DhtmlXQ_movelist][/DhtmlXQ]\
             [DhtmlXQ][DhtmlXQ_movelist]7062[/DhtmlXQ_movelist][/DhtmlXQ]",
        );
        assert_eq!(games.len(), 3);
        assert!(games[0].is_ok());
        assert_eq!(
            games[1].as_ref().unwrap_err().to_string(),
            "game 2, ply 1: illegal move h2e9"
        );
        // Black moves first from the start position: read so; e.g. a set-up exercise.
        assert!(games[2].is_ok());
    }

    #[test]
    fn web_pages_and_forum_posts() {
        // A forum post: UBB with HTML line breaks, entities, names in lower case, `\uXXXX`
        // escapes as dpxq exports them, and comments with HTML in them.
        let post = "<p>看这局：</p>[DhtmlXQ]<br />\n[dhtmlxq_title]A &amp; B \\u0026 C[/dhtmlxq_title]<br />\
                    [DhtmlXQ_MOVELIST]7747 7242[/DhtmlXQ_MOVELIST]<br />\
                    [DhtmlXQ_comment1]第一行<br>第二行&nbsp;&lt;好&gt;||第三行 <b>粗</b>[/DhtmlXQ_comment1]<br />\
                    [DhtmlXQ_comment0_2]&#39069;&#x5916;[/DhtmlXQ_comment0_2]<br />\
                    [DhtmlXQ_result]红先负[/DhtmlXQ_result][/DhtmlXQ]<br />再见";
        let r = only(post);
        assert_eq!(r.tag("Title"), Some("A & B & C"));
        assert_eq!(iccs(&r.moves), "h2e2 h7e7");
        assert_eq!(
            r.moves[0].comment.as_deref(),
            Some("第一行\n第二行 <好>\n第三行 粗")
        );
        assert_eq!(r.moves[1].comment.as_deref(), Some("额外"));
        assert_eq!(r.result(), "0-1");
        round_trips(&r);

        // Fields with no wrapper, two games of them, and one in an iframe's name.
        let page = "<div>[DhtmlXQ_title]一[/DhtmlXQ_title][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\
                    [DhtmlXQ_title]二[/DhtmlXQ_title][DhtmlXQ_movelist]1747[/DhtmlXQ_movelist]</div>\
                    <iframe name='NoFile_[DhtmlXQiFrame][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQiFrame]'></iframe>";
        let games = read(page);
        assert_eq!(games.len(), 3);
        let lines: Vec<String> = games
            .iter()
            .map(|g| iccs(&g.as_ref().unwrap().moves))
            .collect();
        assert_eq!(lines, ["h2e2", "b2e2", "h2e2"]);
        // Bare text, and a wrapper with nothing in it, hold no game.
        assert!(read("no game here [DhtmlXQ][/DhtmlXQ] [DhtmlXQ_] [DhtmlXQ").is_empty());
        assert!(is_dhtmlxq(b"xx [dhtmlxq_movelist]"));
        assert!(!is_dhtmlxq(b"[Event \"x\"]"));
        // Results in their many words.
        for (word, code) in [
            ("红胜", "1-0"),
            ("黑负", "1-0"),
            ("紅勝", "1-0"),
            ("黑胜", "0-1"),
            ("和棋", "1/2-1/2"),
            ("红先和", "1/2-1/2"),
            ("Draw", "1/2-1/2"),
        ] {
            let r = only(&format!("[DhtmlXQ_result]{word}[/DhtmlXQ_result]"));
            assert_eq!(r.result(), code, "{word}");
        }
        let r = only("[DhtmlXQ_result]未知[/DhtmlXQ_result]");
        assert_eq!(r.result(), "*");
        assert_eq!(r.tag("DhtmlXQ_result"), Some("未知"));
        round_trips(&r);
    }

    /// Random edits of real text: reading never panics, and every game it reads writes and
    /// reads back the same.
    #[test]
    fn mutated_and_truncated_text_never_panics() {
        let texts: Vec<String> = samples().into_iter().map(|(_, t)| t).collect();
        let pieces = [
            "[DhtmlXQ]",
            "[/DhtmlXQ]",
            "[DhtmlXQ_movelist]",
            "[/DhtmlXQ_movelist]",
            "[DhtmlXQ_move_0_3_1]",
            "[/DhtmlXQ_move_0_3_1]",
            "[DhtmlXQ_move_1_3_2]",
            "[DhtmlXQ_binit]",
            "[/DhtmlXQ_binit]",
            "[DhtmlXQ_comment1_4]",
            "[DhtmlXQ_fen]",
            "[DhtmlXQ_comment0]",
            "||",
            "|",
            "&amp;",
            "&#",
            ";",
            "<br>",
            "<",
            ">",
            "\\u00",
            "\\ud83d\\ude00",
            "99",
            "7747",
            "0",
            "9",
            "中",
            "[",
            "]",
            "_",
            "\n",
        ];
        let mut rng = rand::rngs::StdRng::seed_from_u64(0xD47_1A1);
        let mut read_ok = 0;
        for _ in 0..1200 {
            let mut chars: Vec<char> = texts[rng.random_range(0..texts.len())].chars().collect();
            for _ in 0..rng.random_range(1..8) {
                let len = chars.len();
                let at = rng.random_range(0..=len);
                match rng.random_range(0..6) {
                    0 => {
                        let end = (at + rng.random_range(0..40)).min(len);
                        chars.drain(at..end);
                    }
                    1 => {
                        let p = pieces[rng.random_range(0..pieces.len())];
                        chars.splice(at..at, p.chars());
                    }
                    2 if at < len => {
                        chars[at] = char::from(b'0' + rng.random_range(0..10u8));
                    }
                    3 => {
                        let end = (at + rng.random_range(0..200)).min(len);
                        let copy: Vec<char> = chars[at..end].to_vec();
                        let to = rng.random_range(0..=len);
                        chars.splice(to..to, copy);
                    }
                    4 => chars.truncate(at),
                    _ => {}
                }
            }
            let text: String = chars.into_iter().collect();
            for r in read(&text).into_iter().flatten() {
                round_trips(&r);
                read_ok += 1;
            }
        }
        assert!(read_ok > 100, "{read_ok}");
    }
}
