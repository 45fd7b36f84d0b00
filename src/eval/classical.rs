//! Static evaluation in centipawns from the side to move's point of view.
//!
//! Terms (each symmetric between the colours; tables are written from Red's side and mirrored
//! for Black): material, each kind's worth shifting with the phase, and piece-square tables;
//! the king's place tapered by phase; rook, cannon and horse mobility (a horse with a hobbled
//! leg loses its jumps); the palace shape against the enemy's cannons and rooks (the
//! empty-headed cannon, a central cannon two screens away with a horse on the palace centre, the
//! bottom cannon, advisors lost against two rooks); king safety as missing advisors and
//! elephants weighed by the enemy's attacking pieces; side by side pawns across the river; a
//! tempo bonus. The tables and `WEIGHTS` are fitted to games by `chariot tune`
//! (`tools::fit::tune`); the palace terms and the tempo are set by hand.

use crate::board::{attacks, Bitboard, Color, PieceKind, Position, Square};
use crate::psq::{self, VALUES};
use crate::score::Score;

/// The king's place in its palace (files d–f, ranks 0–2 from its own side), in the middlegame:
/// at home on the centre file, leaving the back rank costs about a horse's jump or more.
#[rustfmt::skip]
const KING_MIDGAME: [[i32; 3]; 3] = [
    [-67, 77, -67],
    [-106, -27, -106],
    [-101, -65, -101],
];

/// The king's place in the endgame: a side file, where it holds the file for its own attack.
#[rustfmt::skip]
const KING_ENDGAME: [[i32; 3]; 3] = [
    [41, -66, 41],
    [68, 40, 68],
    [47, -29, 47],
];

/// The king tables by rank as (side file, centre file): middlegame, endgame (for the tuner).
pub fn king_tables() -> ([[i32; 2]; 3], [[i32; 2]; 3]) {
    let fold = |t: [[i32; 3]; 3]| t.map(|row| [row[0], row[1]]);
    (fold(KING_MIDGAME), fold(KING_ENDGAME))
}

/// Piece-square value of `kind` of `color` on `sq`.
#[inline]
fn pst(kind: PieceKind, color: Color, sq: Square) -> i32 {
    let s = sq.relative(color);
    psq::TABLES[kind.index()][s.rank() as usize][s.file() as usize]
}

/// The evaluation terms of one colour.
#[derive(Clone, Copy, Debug, Default)]
pub struct Terms {
    /// Material.
    pub material: i32,
    /// Piece-square tables.
    pub placement: i32,
    /// Rook and horse mobility.
    pub mobility: i32,
    /// Palace shape against the enemy's cannons and rooks (a penalty).
    pub palace: i32,
    /// Missing advisors and elephants against attackers.
    pub king_safety: i32,
    /// Pawns across the river side by side.
    pub pawns: i32,
}

impl Terms {
    fn total(&self) -> i32 {
        self.material + self.placement + self.mobility + self.palace + self.king_safety + self.pawns
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

/// Weights of the counted terms (`Counts`); `chariot tune` fits them with the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per rook move beyond six.
    pub rook_mobility: i32,
    /// Per horse jump beyond three.
    pub horse_mobility: i32,
    /// Per horse with at most one jump.
    pub horse_trapped: i32,
    /// Per cannon move beyond six (not counting captures).
    pub cannon_mobility: i32,
    /// Per piece of each kind, times (phase - 33) / 66: how a kind's worth shifts between the
    /// full board and the endgame (cannons need screens; rooks and pawns gain in the endgame).
    pub phase_values: [i32; 7],
    /// Per missing advisor, times the enemy's attackers.
    pub advisor_shield: i32,
    /// Per missing elephant, times the enemy's attackers.
    pub elephant_shield: i32,
    /// Per pair of side-by-side pawns across the river.
    pub pawn_pair: i32,
    /// For the side to move.
    pub tempo: i32,
}

/// The weights in use.
pub const WEIGHTS: Weights = Weights {
    rook_mobility: 11,
    horse_mobility: 3,
    horse_trapped: -39,
    cannon_mobility: 0,
    advisor_shield: -9,
    elephant_shield: -8,
    pawn_pair: -1,
    tempo: 10,
    phase_values: [0, 67, 73, 33, -64, 146, -55],
};

/// What the evaluation counts for one colour beyond material and piece-square values; the
/// evaluation weighs it with `WEIGHTS`, the tuner reads it as features.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    /// Material on the board, 0 (bare) to 66 (everything).
    pub phase: i32,
    /// Middlegame weight for the king's terms, 0 to 66, on the quadratic curve the classic
    /// engines use: it falls off only when little is left.
    pub midgame: i32,
    /// Pieces of each kind.
    pub pieces: [i32; 7],
    /// The king's rank from its back rank and file within the palace (0 to 2).
    pub king: (usize, usize),
    /// Sum over rooks of moves minus six.
    pub rook_moves: i32,
    /// Sum over horses of jumps minus three.
    pub horse_moves: i32,
    /// Horses with at most one jump.
    pub horses_trapped: i32,
    /// Sum over cannons of quiet moves minus six.
    pub cannon_moves: i32,
    /// Palace-shape penalty (`palace_threats`).
    pub palace: i32,
    /// Missing advisors times the enemy's attackers.
    pub advisor_gaps: i32,
    /// Missing elephants times the enemy's attackers.
    pub elephant_gaps: i32,
    /// Side-by-side pawn pairs across the river.
    pub pawn_pairs: i32,
}

/// The counts of `us`.
#[inline(always)]
pub fn counts(pos: &Position, us: Color) -> Counts {
    let them = !us;
    let own = pos.color_bb(us);
    let occ = pos.occupied();
    let mut c = Counts::default();
    let midgame = 6 * pos.kind_bb(PieceKind::Rook).count() as i32
        + 3 * (pos.kind_bb(PieceKind::Horse) | pos.kind_bb(PieceKind::Cannon)).count() as i32
        + (pos.kind_bb(PieceKind::Advisor)
            | pos.kind_bb(PieceKind::Elephant)
            | pos.kind_bb(PieceKind::Pawn))
        .count() as i32;
    c.phase = midgame.min(66);
    c.midgame = (2 * 66 - c.phase) * c.phase / 66;
    for kind in PieceKind::ALL {
        c.pieces[kind.index()] = pos.pieces(us, kind).count() as i32;
    }
    let king = pos.king(us).relative(us);
    c.king = (king.rank() as usize, king.file() as usize - 3);
    for sq in pos.pieces(us, PieceKind::Rook) {
        c.rook_moves += (pos.slides(sq).0 & !own).count() as i32 - 6;
    }
    for sq in pos.pieces(us, PieceKind::Cannon) {
        c.cannon_moves += (pos.slides(sq).0 & !occ).count() as i32 - 6;
    }
    for sq in pos.pieces(us, PieceKind::Horse) {
        let moves = (attacks::horse(sq, occ) & !own).count() as i32;
        c.horse_moves += moves - 3;
        c.horses_trapped += i32::from(moves <= 1);
    }
    c.palace = palace_threats(pos, us, c.midgame);
    let attackers = 2 * pos.pieces(them, PieceKind::Rook).count() as i32
        + pos.pieces(them, PieceKind::Horse).count() as i32
        + pos.pieces(them, PieceKind::Cannon).count() as i32
        + (pos.pieces(them, PieceKind::Pawn) & own_half(us)).count() as i32;
    c.advisor_gaps = (2 - pos.pieces(us, PieceKind::Advisor).count() as i32) * attackers;
    c.elephant_gaps = (2 - pos.pieces(us, PieceKind::Elephant).count() as i32) * attackers;
    let crossed = pos.pieces(us, PieceKind::Pawn) & !own_half(us);
    for sq in crossed {
        if sq.offset(1, 0).is_some_and(|right| crossed.has(right)) {
            c.pawn_pairs += 1;
        }
    }
    c
}

/// The king's place in the palace, tapered between the middlegame and endgame tables.
#[inline(always)]
fn king_place(c: &Counts) -> i32 {
    let (r, f) = c.king;
    (KING_MIDGAME[r][f] * c.midgame + KING_ENDGAME[r][f] * (66 - c.midgame)) / 66
}

/// The terms of `us` apart from the fixed material and piece-square values (which
/// `Position::psq` keeps).
#[inline(always)]
fn dynamic_terms(pos: &Position, us: Color) -> Terms {
    let c = counts(pos, us);
    let w = &WEIGHTS;
    Terms {
        material: (0..7)
            .map(|k| c.pieces[k] * (c.phase - 33) * w.phase_values[k] / 66)
            .sum(),
        placement: king_place(&c),
        mobility: w.rook_mobility * c.rook_moves
            + w.cannon_mobility * c.cannon_moves
            + w.horse_mobility * c.horse_moves
            + w.horse_trapped * c.horses_trapped,
        palace: -c.palace,
        king_safety: w.advisor_shield * c.advisor_gaps + w.elephant_shield * c.elephant_gaps,
        pawns: w.pawn_pair * c.pawn_pairs,
    }
}

/// How far `them` presses on `us`'s half, 0 to 8: two for each rook or horse and one for each
/// cannon or pawn across the river, two for each spare piece (a rook counting two) beyond ours.
fn pressure(pos: &Position, us: Color) -> i32 {
    let them = !us;
    let ours = own_half(us);
    let across = |k: PieceKind| (pos.pieces(them, k) & ours).count() as i32;
    let mut p = 2 * (across(PieceKind::Rook) + across(PieceKind::Horse))
        + across(PieceKind::Cannon)
        + across(PieceKind::Pawn);
    let simple = |c: Color| {
        2 * pos.pieces(c, PieceKind::Rook).count() as i32
            + (pos.pieces(c, PieceKind::Horse) | pos.pieces(c, PieceKind::Cannon)).count() as i32
    };
    p += 2 * (simple(them) - simple(us)).max(0);
    p.min(8)
}

/// `us`'s square at `file` and `rank` counted from its own back rank.
fn home_square(us: Color, file: u8, rank: u8) -> Square {
    Square::new(file, rank).expect("on the board").relative(us)
}

/// Rank of `sq` counted from `us`'s back rank.
fn home_rank(us: Color, sq: Square) -> usize {
    sq.relative(us).rank() as usize
}

/// Pieces strictly between `sq` and `king` on the king's file.
fn screens(pos: &Position, sq: Square, king: Square) -> u32 {
    let (lo, hi) = (sq.rank().min(king.rank()), sq.rank().max(king.rank()));
    let between = ((1usize << hi) - 1) & !((1usize << (lo + 1)) - 1);
    (attacks::file_occupancy(pos.occupied(), king.file()) & between).count_ones()
}

/// Threat of an empty-headed cannon (nothing between it and the king), by the cannon's rank
/// from the defender's back rank.
const HOLLOW_THREAT: [i32; 10] = [0, 0, 0, 240, 260, 280, 300, 320, 320, 320];
/// Threat of a central cannon over two screens, one of them a horse on the palace centre, by
/// the cannon's rank from the defender's back rank.
const CENTRAL_THREAT: [i32; 10] = [0, 0, 0, 200, 180, 160, 140, 120, 120, 120];
/// Threat of a cannon on the defender's back rank with a clear line to the king, by file.
const BOTTOM_THREAT: [i32; 9] = [160, 120, 0, 0, 0, 0, 0, 120, 160];
/// Cost of a missing advisor against two rooks at full pressure.
const ADVISOR_LEAKAGE: i32 = 320;

/// Penalty for the shape of `us`'s palace against the enemy's cannons and rooks, as the classic
/// engines judge it: with the king at home and both advisors, advisors on the back rank fear the
/// empty-headed cannon and a cannon two screens away with a horse on the palace centre (one move
/// from a pin); an advisor on the palace centre leaves a corner open to the bottom cannon, and a
/// central cannon two screens away then pins it.
/// Without both advisors the palace leaks against two rooks. `m` is the middlegame weight
/// (0 to 66).
fn palace_threats(pos: &Position, us: Color, m: i32) -> i32 {
    let them = !us;
    let king = pos.king(us);
    let advisors = pos.pieces(us, PieceKind::Advisor);
    if advisors.count() < 2 {
        return if pos.pieces(them, PieceKind::Rook).count() >= 2 {
            ADVISOR_LEAKAGE * pressure(pos, us) / 8
        } else {
            0
        };
    }
    if king != home_square(us, 4, 0) {
        return if king == home_square(us, 4, 1) { 80 } else { 0 };
    }
    let (left, right, centre) = (
        home_square(us, 3, 0),
        home_square(us, 5, 0),
        home_square(us, 4, 1),
    );
    let cannons = pos.pieces(them, PieceKind::Cannon);
    let mut penalty = 0;
    if advisors.has(left) && advisors.has(right) {
        let horse_on_centre = pos.pieces(us, PieceKind::Horse).has(centre);
        for sq in cannons.into_iter().filter(|s| s.file() == 4) {
            let r = home_rank(us, sq);
            match screens(pos, sq, king) {
                0 => penalty += HOLLOW_THREAT[r] * (m + 66) / 132,
                2 if horse_on_centre => penalty += CENTRAL_THREAT[r],
                _ => {}
            }
        }
    } else if advisors.has(centre) {
        let open_corner = if advisors.has(left) { right } else { left };
        for sq in cannons {
            if sq.file() == 4 {
                // Two screens, one of them the advisor: the cannon pins the palace centre.
                if screens(pos, sq, king) == 2 {
                    penalty += CENTRAL_THREAT[home_rank(us, sq)] / 4;
                    if pos.is_attacked(open_corner, them) {
                        penalty += 80;
                    }
                    // A rook guarding the king along the back rank is tied to it.
                    for rook in pos.pieces(us, PieceKind::Rook) {
                        if home_rank(us, rook) == 0 && pos.slides(rook).0.has(king) {
                            penalty += 320;
                        }
                    }
                }
            } else if home_rank(us, sq) == 0 && pos.slides(sq).0.has(king) {
                penalty += BOTTOM_THREAT[sq.file() as usize] * pressure(pos, us) / 8;
            }
        }
    }
    penalty
}

fn own_half(c: Color) -> Bitboard {
    match c {
        Color::Red => Bitboard::from_bits((1u128 << 45) - 1),
        Color::Black => !Bitboard::from_bits((1u128 << 45) - 1),
    }
}

/// Evaluation from the side to move's point of view.
///
/// The terms count bits a lot; on x86-64 processors with the `popcnt` instruction (checked
/// once at run time) the same code runs compiled for it, about a third faster.
#[inline]
pub fn evaluate(pos: &Position) -> Score {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor supports `popcnt`, the only feature the function enables.
        return unsafe { evaluate_popcnt(pos) };
    }
    evaluate_portable(pos)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_popcnt(pos: &Position) -> Score {
    evaluate_portable(pos)
}

#[inline(always)]
fn evaluate_portable(pos: &Position) -> Score {
    let red = pos.psq() + dynamic_terms(pos, Color::Red).total()
        - dynamic_terms(pos, Color::Black).total();
    let v = if pos.side_to_move() == Color::Red {
        red
    } else {
        -red
    };
    Score::cp(v + WEIGHTS.tempo).clamp(-Score::EVAL_LIMIT, Score::EVAL_LIMIT)
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
        ("palace", r.palace, b.palace),
        ("king safety", r.king_safety, b.king_safety),
        ("pawns", r.pawns, b.pawns),
        ("total", r.total(), b.total()),
    ];
    for (name, x, y) in rows {
        out.push_str(&format!("{name:<11} {x:>6} {y:>6} {:>6}\n", x - y));
    }
    out.push_str(&format!(
        "evaluation (side to move, with tempo): {}\n",
        evaluate(pos).get()
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
    fn palace_shape() {
        let black_palace = |fen: &str| terms(&fen.parse().unwrap(), Color::Black).palace;
        // An empty-headed central cannon costs the defender more than a screened one.
        let hollow = "rnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P3P1P/1C2C4/9/RNBAKABNR w";
        let screened = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w";
        assert!(black_palace(hollow) <= -200, "{}", black_palace(hollow));
        assert_eq!(black_palace(screened), 0);
        let red: Position = hollow.parse().unwrap();
        assert_eq!(terms(&red, Color::Red).palace, 0);
        // A central cannon over a horse on the palace centre.
        let pinned_horse = "r1bakabr1/4n4/1c5c1/p1p1p1p1p/9/9/P1P3P1P/1C2C4/9/RNBAKABNR w";
        assert!(black_palace(pinned_horse) < 0);
        // Advisor at the palace centre: a cannon on the back rank with a clear line to the
        // king, under pressure from rooks across the river.
        let bottom = "3ak3C/4a4/9/9/2R1R4/9/9/9/9/4K4 w";
        let covered = "3akrn1C/4a4/9/9/2R1R4/9/9/9/9/4K4 w";
        assert!(black_palace(bottom) < 0);
        assert_eq!(black_palace(covered), 0);
        // A lost advisor against two rooks leaks.
        let leak = "4k4/4a4/9/9/2R1R4/9/9/9/9/4K4 w";
        assert!(black_palace(leak) < 0);
    }

    #[test]
    fn symmetric() {
        for fen in [
            crate::board::START_FEN,
            "2bakab2/9/2c6/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/2BAKAB2 w",
        ] {
            let p: Position = fen.parse().unwrap();
            let flipped = p.colour_flipped().unwrap();
            assert_eq!(evaluate(&p), evaluate(&flipped), "{fen}");
        }
        assert_eq!(evaluate(&Position::startpos()).get(), WEIGHTS.tempo);
    }
}
