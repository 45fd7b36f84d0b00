//! Chinese notation: 炮二平五, 马８进７, 前车平三, 中兵进一, 一兵平五.
//!
//! Written in simplified characters: Red's pieces 帅仕相马车炮兵 and numbers 一…九, Black's
//! 将士象马车炮卒 and full-width digits １…９; 进 forward, 退 backward, 平 sideways. Two pieces
//! of a kind on one file are 前 and 后 (front and back); three pawns on one file 前, 中, 后;
//! four or five on one file, or pawns crowded on two files, are numbered 一二三四五 from the
//! front, file by file from the mover's right (ElephantEye's rule).
//!
//! Read besides: traditional and variant characters (帥將 俥車伡硨 傌馬 砲包 進 後), numbers in
//! any of the three forms for either side, 前/中/后 with a file number instead of the piece
//! (前七进一), the five-character form 前兵七进一, and marks after the move.

use super::{half_width, Described, Dir, Place, Query, Sel};
use crate::board::piece::PieceKind;
use crate::board::square::Color;

const RED_PIECES: [char; 7] = ['帅', '仕', '相', '马', '车', '炮', '兵'];
const BLACK_PIECES: [char; 7] = ['将', '士', '象', '马', '车', '炮', '卒'];
const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The canonical Chinese text of a described move.
pub(super) fn write(d: &Described) -> String {
    let (pieces, numbers) = match d.color {
        Color::Red => (&RED_PIECES, &NUMERALS),
        Color::Black => (&BLACK_PIECES, &DIGITS),
    };
    let piece = pieces[d.kind.index()];
    let number = |n: u8| numbers[usize::from(n.clamp(1, 9) - 1)];
    let tandem = !matches!(
        d.kind,
        PieceKind::King | PieceKind::Advisor | PieceKind::Elephant
    ) && d.on_file >= 2;
    let (a, b) = if !tandem {
        (piece, number(d.file))
    } else if d.crowded_files >= 2 || d.on_file >= 4 {
        (NUMERALS[usize::from(d.nth.min(4))], piece)
    } else if d.index == 0 {
        ('前', piece)
    } else if d.index + 1 == d.on_file {
        ('后', piece)
    } else {
        ('中', piece)
    };
    let way = match d.dir {
        Dir::Forward => '进',
        Dir::Backward => '退',
        Dir::Sideways => '平',
    };
    [a, b, way, number(d.arg)].iter().collect()
}

/// One character's meaning.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Word {
    Piece(PieceKind),
    /// 1–9; 一…五 are also ordinals before a piece.
    Number(u8),
    Way(Dir),
    Place(Place),
}

fn word(c: char) -> Option<Word> {
    use PieceKind::*;
    Some(match c {
        '帅' | '帥' | '将' | '將' => Word::Piece(King),
        '仕' | '士' => Word::Piece(Advisor),
        '相' | '象' => Word::Piece(Elephant),
        '马' | '馬' | '傌' | '䭾' => Word::Piece(Horse),
        '车' | '車' | '俥' | '伡' | '硨' | '砗' => Word::Piece(Rook),
        '炮' | '砲' | '包' => Word::Piece(Cannon),
        '兵' | '卒' => Word::Piece(Pawn),
        '进' | '進' => Word::Way(Dir::Forward),
        '退' => Word::Way(Dir::Backward),
        '平' => Word::Way(Dir::Sideways),
        '前' => Word::Place(Place::Front),
        '中' => Word::Place(Place::Middle),
        '后' | '後' => Word::Place(Place::Back),
        '1'..='9' => Word::Number(c as u8 - b'0'),
        _ => {
            let n = NUMERALS.iter().position(|&x| x == c)?;
            Word::Number(n as u8 + 1)
        }
    })
}

/// What a Chinese text says, or `None` if it is not Chinese notation.
pub(super) fn parse(text: &str) -> Option<Query> {
    let mut w = [Word::Number(0); 5];
    let mut n = 0;
    for c in text.chars().map(half_width) {
        if c.is_whitespace() {
            continue;
        }
        if matches!(c, '!' | '?' | '#' | '+' | '。' | '，' | '、') {
            break;
        }
        if n == 5 {
            return None;
        }
        w[n] = word(c)?;
        n += 1;
    }
    use Word::*;
    let (kind, sel, way, arg) = match w[..n] {
        [Piece(k), Number(f), Way(d), Number(a)] => (k, Sel::File(f), d, a),
        [Place(p), Piece(k), Way(d), Number(a)] => (k, Sel::At(p), d, a),
        [Number(i), Piece(k), Way(d), Number(a)] if (1..=5).contains(&i) => {
            (k, Sel::Nth(i - 1), d, a)
        }
        [Place(p), Number(f), Way(d), Number(a)] => (PieceKind::Pawn, Sel::OnFile(f, p), d, a),
        [Place(p), Piece(k), Number(f), Way(d), Number(a)] => (k, Sel::OnFile(f, p), d, a),
        _ => return None,
    };
    Some(Query {
        kind,
        sel,
        dir: way,
        arg,
    })
}
