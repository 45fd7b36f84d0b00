//! Static evaluation in centipawns from the side to move's point of view.
//!
//! Terms (each symmetric between the colours; tables are written from Red's side and mirrored
//! for Black): material and piece-square tables; rook and horse mobility (a horse with a
//! hobbled leg loses its jumps); cannons on the enemy king's file (the "empty cannon" with no
//! screen, or a loaded central cannon with one); king safety as missing advisors and elephants
//! weighed by the enemy's attacking pieces; side by side pawns across the river; a tempo bonus.

use crate::board::{attacks, Bitboard, Color, PieceKind, Position, Square};
use crate::search::score::EVAL_LIMIT;

/// Material value of each kind in centipawns (king 0).
pub const VALUES: [i32; 7] = [0, 120, 120, 420, 950, 430, 60];

/// Bonus for the side to move.
const TEMPO: i32 = 10;

type Table = [[i32; 9]; 10];

#[rustfmt::skip]
const PAWN: Table = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, -2, 0, 6, 0, -2, 0, 0],
    [2, 0, 8, 0, 12, 0, 8, 0, 2],
    [40, 50, 60, 60, 65, 60, 60, 50, 40],
    [50, 65, 80, 90, 100, 90, 80, 65, 50],
    [55, 75, 100, 120, 140, 120, 100, 75, 55],
    [55, 80, 110, 140, 160, 140, 110, 80, 55],
    [10, 15, 20, 25, 30, 25, 20, 15, 10],
];

#[rustfmt::skip]
const HORSE: Table = [
    [0, -4, 0, 0, 0, 0, 0, -4, 0],
    [0, 2, 4, 4, -2, 4, 4, 2, 0],
    [4, 2, 8, 8, 4, 8, 8, 2, 4],
    [2, 6, 8, 6, 10, 6, 8, 6, 2],
    [4, 12, 16, 14, 12, 14, 16, 12, 4],
    [6, 16, 14, 18, 16, 18, 14, 16, 6],
    [8, 24, 18, 24, 20, 24, 18, 24, 8],
    [12, 14, 16, 20, 18, 20, 16, 14, 12],
    [4, 10, 28, 16, 8, 16, 28, 10, 4],
    [4, 8, 16, 12, 4, 12, 16, 8, 4],
];

#[rustfmt::skip]
const ROOK: Table = [
    [-2, 10, 6, 14, 12, 14, 6, 10, -2],
    [8, 4, 8, 16, 8, 16, 8, 4, 8],
    [4, 8, 6, 14, 12, 14, 6, 8, 4],
    [6, 10, 8, 14, 14, 14, 8, 10, 6],
    [12, 16, 14, 20, 20, 20, 14, 16, 12],
    [12, 14, 12, 18, 18, 18, 12, 14, 12],
    [12, 18, 16, 22, 22, 22, 16, 18, 12],
    [12, 12, 12, 18, 18, 18, 12, 12, 12],
    [16, 20, 18, 24, 26, 24, 18, 20, 16],
    [14, 14, 12, 18, 16, 18, 12, 14, 14],
];

#[rustfmt::skip]
const CANNON: Table = [
    [0, 0, 2, 6, 6, 6, 2, 0, 0],
    [0, 2, 4, 6, 6, 6, 4, 2, 0],
    [4, 0, 8, 6, 10, 6, 8, 0, 4],
    [0, 0, 0, 2, 4, 2, 0, 0, 0],
    [-2, 0, 4, 2, 6, 2, 4, 0, -2],
    [0, 0, 0, 2, 8, 2, 0, 0, 0],
    [0, 0, -2, 4, 10, 4, -2, 0, 0],
    [2, 2, 0, -10, -8, -10, 0, 2, 2],
    [2, 2, 0, -4, -14, -4, 0, 2, 2],
    [6, 4, 0, -10, -12, -10, 0, 4, 6],
];

#[rustfmt::skip]
const GUARD: Table = [
    [0, 0, 0, 0, 5, 0, 0, 0, 0],
    [0, 0, 0, 0, 3, 0, 0, 0, 0],
    [-2, 0, 0, -1, 3, -1, 0, 0, -2],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, -2, 0, 0, 0, -2, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
];

#[rustfmt::skip]
const KING: Table = [
    [0, 0, 0, 0, 5, 0, 0, 0, 0],
    [0, 0, 0, -8, -5, -8, 0, 0, 0],
    [0, 0, 0, -15, -15, -15, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
];

/// The table of each kind, in `PieceKind` order.
const TABLES: [Table; 7] = [KING, GUARD, GUARD, HORSE, ROOK, CANNON, PAWN];

/// Piece-square value of `kind` of `color` on `sq`.
#[inline]
fn pst(kind: PieceKind, color: Color, sq: Square) -> i32 {
    let s = if color == Color::Red {
        sq
    } else {
        sq.flip_rank()
    };
    TABLES[kind.index()][s.rank() as usize][s.file() as usize]
}

/// Material plus piece-square value of each piece (by `Piece::index`) on each square, positive
/// for Red and negative for Black; `Position` keeps the sum incrementally (`Position::psq`).
pub const PSQ: [[i32; 90]; 14] = {
    let mut t = [[0; 90]; 14];
    let mut k = 0;
    while k < 7 {
        let mut sq = 0;
        while sq < 90 {
            let (rank, file) = (sq / 9, sq % 9);
            t[k][sq] = VALUES[k] + TABLES[k][rank][file];
            t[7 + k][sq] = -(VALUES[k] + TABLES[k][9 - rank][file]);
            sq += 1;
        }
        k += 1;
    }
    t
};

/// The evaluation terms of one colour.
#[derive(Clone, Copy, Debug, Default)]
pub struct Terms {
    /// Material.
    pub material: i32,
    /// Piece-square tables.
    pub placement: i32,
    /// Rook and horse mobility.
    pub mobility: i32,
    /// Cannons aimed at the enemy king.
    pub cannons: i32,
    /// Missing advisors and elephants against attackers.
    pub king_safety: i32,
    /// Pawns across the river side by side.
    pub pawns: i32,
}

impl Terms {
    fn total(&self) -> i32 {
        self.material
            + self.placement
            + self.mobility
            + self.cannons
            + self.king_safety
            + self.pawns
    }
}

/// The terms of `us`.
pub fn terms(pos: &Position, us: Color) -> Terms {
    let mut t = dynamic_terms(pos, us);
    for kind in PieceKind::ALL {
        for sq in pos.pieces(us, kind) {
            t.material += VALUES[kind.index()];
            t.placement += pst(kind, us, sq);
        }
    }
    t
}

/// The terms of `us` apart from the fixed material and piece-square values (which
/// `Position::psq` keeps).
#[inline(always)]
fn dynamic_terms(pos: &Position, us: Color) -> Terms {
    let them = !us;
    let own = pos.color_bb(us);
    let occ = pos.occupied();
    let mut t = Terms::default();
    // Cannons need screens: worth more with many pieces, horses more in the endgame.
    let midgame = 6 * pos.kind_bb(PieceKind::Rook).count() as i32
        + 3 * (pos.kind_bb(PieceKind::Horse) | pos.kind_bb(PieceKind::Cannon)).count() as i32
        + (pos.kind_bb(PieceKind::Advisor)
            | pos.kind_bb(PieceKind::Elephant)
            | pos.kind_bb(PieceKind::Pawn))
        .count() as i32;
    let phase = midgame.min(66); // 66 = everything on the board
    t.material += pos.pieces(us, PieceKind::Cannon).count() as i32 * (phase - 33) * 60 / 66;
    t.material -= pos.pieces(us, PieceKind::Horse).count() as i32 * (phase - 33) * 60 / 66;
    for sq in pos.pieces(us, PieceKind::Rook) {
        let moves = (pos.slides(sq).0 & !own).count() as i32;
        t.mobility += 3 * (moves - 6);
    }
    for sq in pos.pieces(us, PieceKind::Horse) {
        let mut moves = 0;
        for d in 0..4 {
            let leg = attacks::HORSE_LEGS[sq.index() * 4 + d];
            if leg != attacks::NONE && (occ.0 >> leg) & 1 == 0 {
                moves += (attacks::HORSE_TARGETS[sq.index() * 4 + d] & !own).count() as i32;
            }
        }
        t.mobility += 5 * (moves - 3) - if moves <= 1 { 15 } else { 0 };
    }
    let king = pos.king(them);
    for sq in pos.pieces(us, PieceKind::Cannon) {
        if sq.file() == king.file() {
            let between = between_on_file(sq, king) & occ;
            t.cannons += match between.count() {
                0 => 60,
                1 => 20,
                _ => 0,
            };
        }
    }
    let attackers = 2 * pos.pieces(them, PieceKind::Rook).count() as i32
        + pos.pieces(them, PieceKind::Horse).count() as i32
        + pos.pieces(them, PieceKind::Cannon).count() as i32
        + (pos.pieces(them, PieceKind::Pawn) & own_half(us)).count() as i32;
    let missing_advisors = 2 - pos.pieces(us, PieceKind::Advisor).count() as i32;
    let missing_elephants = 2 - pos.pieces(us, PieceKind::Elephant).count() as i32;
    t.king_safety = -(missing_advisors * 6 + missing_elephants * 4) * attackers;
    let crossed = pos.pieces(us, PieceKind::Pawn) & !own_half(us);
    for sq in crossed {
        if let Some(right) = sq.offset(1, 0) {
            if crossed.has(right) {
                t.pawns += 12;
            }
        }
    }
    t
}

fn own_half(c: Color) -> Bitboard {
    match c {
        Color::Red => Bitboard((1u128 << 45) - 1),
        Color::Black => Bitboard::ALL & !Bitboard((1u128 << 45) - 1),
    }
}

/// Squares strictly between two squares of one file.
fn between_on_file(a: Square, b: Square) -> Bitboard {
    let (lo, hi) = (a.rank().min(b.rank()), a.rank().max(b.rank()));
    (lo + 1..hi)
        .filter_map(|r| Square::new(a.file(), r))
        .collect()
}

/// Evaluation from the side to move's point of view.
///
/// The terms count bits a lot; on x86-64 processors with the `popcnt` instruction (checked
/// once at run time) the same code runs compiled for it, about a third faster.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor supports `popcnt`, the only feature the function enables.
        return unsafe { evaluate_popcnt(pos) };
    }
    evaluate_portable(pos)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_popcnt(pos: &Position) -> i32 {
    evaluate_portable(pos)
}

#[inline(always)]
fn evaluate_portable(pos: &Position) -> i32 {
    let red = pos.psq() + dynamic_terms(pos, Color::Red).total()
        - dynamic_terms(pos, Color::Black).total();
    let v = if pos.side_to_move() == Color::Red {
        red
    } else {
        -red
    };
    (v + TEMPO).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// A readable breakdown of the evaluation (for the `eval` command).
pub fn breakdown(pos: &Position) -> String {
    let r = terms(pos, Color::Red);
    let b = terms(pos, Color::Black);
    let mut out = String::from("term          red  black   diff\n");
    let rows = [
        ("material", r.material, b.material),
        ("placement", r.placement, b.placement),
        ("mobility", r.mobility, b.mobility),
        ("cannons", r.cannons, b.cannons),
        ("king safety", r.king_safety, b.king_safety),
        ("pawns", r.pawns, b.pawns),
        ("total", r.total(), b.total()),
    ];
    for (name, x, y) in rows {
        out.push_str(&format!("{name:<11} {x:>6} {y:>6} {:>6}\n", x - y));
    }
    out.push_str(&format!(
        "evaluation (side to move, with tempo): {}\n",
        evaluate(pos)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_psq_matches_terms() {
        use rand::{rngs::StdRng, Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..50 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let full = |p: &Position, c| {
                    let t = terms(p, c);
                    let d = dynamic_terms(p, c);
                    t.material + t.placement - d.material - d.placement
                };
                assert_eq!(pos.psq(), full(&pos, Color::Red) - full(&pos, Color::Black));
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves.get(rng.random_range(0..moves.len())));
            }
        }
    }

    #[test]
    fn symmetric() {
        for fen in [
            crate::board::START_FEN,
            "2bakab2/9/2c6/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/2BAKAB2 w",
        ] {
            let p: Position = fen.parse().unwrap();
            let flipped: Position = flip(&p).parse().unwrap();
            assert_eq!(evaluate(&p), evaluate(&flipped), "{fen}");
        }
        assert_eq!(evaluate(&Position::startpos()), TEMPO);
    }

    /// The colour-swapped position (board turned, colours exchanged, other side to move).
    fn flip(p: &Position) -> String {
        let fen = p.fen();
        let mut parts = fen.split(' ');
        let board: Vec<String> = parts
            .next()
            .unwrap()
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if p.side_to_move() == Color::Red {
            "b"
        } else {
            "w"
        };
        format!("{} {side}", board.join("/"))
    }
}
