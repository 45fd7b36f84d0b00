//! Move and attack tables for every piece, built at compile time by `const fn`.
//!
//! Sliding pieces (rook, cannon) use rank- and file-occupancy lookup, for any occupancy: the 9
//! bits of a rank or the 10 bits of a file index a table of destination masks (`rook`,
//! `cannon`). Horse and elephant tables list the blocking point of every jump.

use super::bitboard::{self, Bitboard};
use super::square::{Color, Square};

/// "No square" marker inside the small per-square tables.
pub(crate) const NONE: u8 = 255;

const fn sq(i: usize) -> Square {
    Square::from_index_unchecked(i)
}

const fn bit(s: Square) -> u128 {
    1u128 << s.index()
}

const fn palace_of(s: Square) -> Option<Color> {
    if s.in_palace(Color::Red) {
        Some(Color::Red)
    } else if s.in_palace(Color::Black) {
        Some(Color::Black)
    } else {
        None
    }
}

const fn same_palace(a: Square, b: Square) -> bool {
    match (palace_of(a), palace_of(b)) {
        (Some(x), Some(y)) => x as u8 == y as u8,
        _ => false,
    }
}

const fn build_steps(diagonal: bool) -> [Bitboard; 90] {
    let mut t = [Bitboard::EMPTY; 90];
    let dirs: [(i8, i8); 4] = if diagonal {
        [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    } else {
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
    };
    let mut i = 0;
    while i < 90 {
        let s = sq(i);
        let mut acc = 0u128;
        let mut d = 0;
        while d < 4 {
            if let Some(to) = s.offset(dirs[d].0, dirs[d].1) {
                if same_palace(s, to) {
                    acc |= bit(to);
                }
            }
            d += 1;
        }
        t[i] = Bitboard::from_bits(acc);
        i += 1;
    }
    t
}

/// King steps: one point orthogonally, inside the palace the square belongs to.
pub static KING_STEPS: [Bitboard; 90] = build_steps(false);
/// Advisor steps: one point diagonally, inside the palace.
pub static ADVISOR_STEPS: [Bitboard; 90] = build_steps(true);

/// Per square, four (target, blocking point) pairs; `NONE` where the jump leaves the board.
type Jumps = [[(u8, u8); 4]; 90];

const fn build_elephant() -> Jumps {
    let mut t = [[(NONE, NONE); 4]; 90];
    let dirs: [(i8, i8); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
    let mut i = 0;
    while i < 90 {
        let s = sq(i);
        let mut d = 0;
        while d < 4 {
            if let Some(to) = s.offset(dirs[d].0, dirs[d].1) {
                // Elephants never cross the river: both ends on the same half.
                if (s.rank() <= 4) == (to.rank() <= 4) {
                    if let Some(eye) = s.offset(dirs[d].0 / 2, dirs[d].1 / 2) {
                        t[i][d] = (to.index() as u8, eye.index() as u8);
                    }
                }
            }
            d += 1;
        }
        i += 1;
    }
    t
}

/// Elephant jumps (±2, ±2) with their eye, never crossing the river.
pub static ELEPHANT_JUMPS: Jumps = build_elephant();

/// Horse jumps grouped by leg: per square, four (leg, unused) entries and the targets per leg.
const fn build_horse() -> ([u8; 360], [Bitboard; 360]) {
    let mut legs = [NONE; 360];
    let mut tgts = [Bitboard::EMPTY; 360];
    let legdirs: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let mut i = 0;
    while i < 90 {
        let s = sq(i);
        let mut d = 0;
        while d < 4 {
            let (lx, ly) = legdirs[d];
            if let Some(leg) = s.offset(lx, ly) {
                legs[i * 4 + d] = leg.index() as u8;
                let mut acc = 0u128;
                // Two targets: two steps along the leg direction and one sideways.
                let (a, b) = if lx == 0 {
                    ((1, 2 * ly), (-1, 2 * ly))
                } else {
                    ((2 * lx, 1), (2 * lx, -1))
                };
                if let Some(t1) = s.offset(a.0, a.1) {
                    acc |= bit(t1);
                }
                if let Some(t2) = s.offset(b.0, b.1) {
                    acc |= bit(t2);
                }
                tgts[i * 4 + d] = Bitboard::from_bits(acc);
            }
            d += 1;
        }
        i += 1;
    }
    (legs, tgts)
}

const HORSE: ([u8; 360], [Bitboard; 360]) = build_horse();
/// `HORSE_LEGS[sq * 4 + d]`: the leg point of the horse on `sq` for direction `d`, or `NONE`.
pub static HORSE_LEGS: [u8; 360] = HORSE.0;
/// `HORSE_TARGETS[sq * 4 + d]`: the two targets reached over that leg.
pub static HORSE_TARGETS: [Bitboard; 360] = HORSE.1;

/// Reverse horse table: for the square attacked and each of its four diagonal neighbours (the
/// leg of every horse attacking over it), the horse squares that attack through that leg.
const fn build_horse_attackers() -> ([u8; 360], [Bitboard; 360]) {
    let mut legs = [NONE; 360];
    let mut from = [Bitboard::EMPTY; 360];
    let diag: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut i = 0;
    while i < 90 {
        let s = sq(i);
        let mut d = 0;
        while d < 4 {
            let (a, b) = diag[d];
            if let Some(leg) = s.offset(a, b) {
                legs[i * 4 + d] = leg.index() as u8;
                let mut acc = 0u128;
                if let Some(h) = s.offset(a, 2 * b) {
                    acc |= bit(h);
                }
                if let Some(h) = s.offset(2 * a, b) {
                    acc |= bit(h);
                }
                from[i * 4 + d] = Bitboard::from_bits(acc);
            }
            d += 1;
        }
        i += 1;
    }
    (legs, from)
}

const HORSE_ATK: ([u8; 360], [Bitboard; 360]) = build_horse_attackers();
/// `HORSE_ATTACK_LEGS[sq * 4 + d]`: a diagonal neighbour of `sq`, the leg of horses attacking it.
pub static HORSE_ATTACK_LEGS: [u8; 360] = HORSE_ATK.0;
/// `HORSE_ATTACKERS[sq * 4 + d]`: the squares whose horse attacks `sq` over that leg.
pub static HORSE_ATTACKERS: [Bitboard; 360] = HORSE_ATK.1;

const fn build_horse_range() -> [Bitboard; 90] {
    let mut t = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        let mut acc = 0u128;
        let mut d = 0;
        while d < 4 {
            acc |= HORSE_ATK.1[i * 4 + d].bits();
            d += 1;
        }
        t[i] = Bitboard::from_bits(acc);
        i += 1;
    }
    t
}

/// Squares from which a horse attacks the square when no leg is blocked.
pub static HORSE_RANGE: [Bitboard; 90] = build_horse_range();
/// The diagonal neighbours of each square (the legs of horses that could attack it).
pub static DIAGONAL_NEIGHBOURS: [Bitboard; 90] =
    build_offsets([(1, 1), (1, -1), (-1, 1), (-1, -1)]);
/// The orthogonal neighbours of each square (the squares of horses with a leg on it).
pub static ORTHOGONAL_NEIGHBOURS: [Bitboard; 90] =
    build_offsets([(1, 0), (-1, 0), (0, 1), (0, -1)]);
/// Squares from which an elephant reaches the square when its eye is free (anywhere on the
/// board, sides of the river aside).
pub static ELEPHANT_RANGE: [Bitboard; 90] = build_offsets([(2, 2), (2, -2), (-2, 2), (-2, -2)]);

/// For each square, the squares `offsets` away (file, rank) that are on the board.
const fn build_offsets(offsets: [(i8, i8); 4]) -> [Bitboard; 90] {
    let mut t = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        let mut acc = 0u128;
        let mut d = 0;
        while d < 4 {
            if let Some(n) = sq(i).offset(offsets[d].0, offsets[d].1) {
                acc |= bit(n);
            }
            d += 1;
        }
        t[i] = Bitboard::from_bits(acc);
        i += 1;
    }
    t
}

const fn build_pawn_steps() -> [[Bitboard; 90]; 2] {
    let mut t = [[Bitboard::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd: i8 = if c == 0 { 1 } else { -1 };
        let mut i = 0;
        while i < 90 {
            let s = sq(i);
            let mut acc = 0u128;
            if let Some(f) = s.offset(0, fwd) {
                acc |= bit(f);
            }
            let crossed = if c == 0 { s.rank() >= 5 } else { s.rank() <= 4 };
            if crossed {
                if let Some(l) = s.offset(-1, 0) {
                    acc |= bit(l);
                }
                if let Some(r) = s.offset(1, 0) {
                    acc |= bit(r);
                }
            }
            t[c][i] = Bitboard::from_bits(acc);
            i += 1;
        }
        c += 1;
    }
    t
}

/// Pawn steps per colour: forward, and sideways once across the river.
pub static PAWN_STEPS: [[Bitboard; 90]; 2] = build_pawn_steps();

const fn build_pawn_attackers() -> [[Bitboard; 90]; 2] {
    let steps = build_pawn_steps();
    let mut t = [[Bitboard::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < 90 {
            let mut targets = steps[c][p].bits();
            while targets != 0 {
                let s = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                t[c][s] = Bitboard::from_bits(t[c][s].bits() | 1u128 << p);
            }
            p += 1;
        }
        c += 1;
    }
    t
}

/// `PAWN_ATTACKERS[c][sq]`: squares from which a pawn of colour `c` attacks `sq`.
pub static PAWN_ATTACKERS: [[Bitboard; 90]; 2] = build_pawn_attackers();

/// Rook and cannon destinations along one line of `len` points, for the piece at `pos` and the
/// line occupancy `occ` (bit `i` = point `i`; the piece's own bit is ignored). Returns (rook
/// mask: empty points up to and including the first blocker each way; cannon capture mask: the
/// second blocker each way).
const fn slide_line(pos: usize, occ: usize, len: usize) -> (u16, u16) {
    let mut rook = 0u16;
    let mut cannon = 0u16;
    // Upward.
    let mut j = pos + 1;
    let mut screens = 0;
    while j < len {
        if occ & (1 << j) != 0 {
            if screens == 0 {
                rook |= 1 << j;
                screens = 1;
            } else {
                cannon |= 1 << j;
                break;
            }
        } else if screens == 0 {
            rook |= 1 << j;
        }
        j += 1;
    }
    // Downward.
    let mut j = pos as isize - 1;
    screens = 0;
    while j >= 0 {
        if occ & (1 << j) != 0 {
            if screens == 0 {
                rook |= 1 << j;
                screens = 1;
            } else {
                cannon |= 1 << j;
                break;
            }
        } else if screens == 0 {
            rook |= 1 << j;
        }
        j -= 1;
    }
    (rook, cannon)
}

const fn build_rank_table() -> [[(u16, u16); 512]; 9] {
    let mut t = [[(0u16, 0u16); 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut o = 0;
        while o < 512 {
            t[f][o] = slide_line(f, o, 9);
            o += 1;
        }
        f += 1;
    }
    t
}

const fn build_file_table() -> [[(u16, u16); 1024]; 10] {
    let mut t = [[(0u16, 0u16); 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut o = 0;
        while o < 1024 {
            t[r][o] = slide_line(r, o, 10);
            o += 1;
        }
        r += 1;
    }
    t
}

/// `RANK_SLIDES[file][rank occupancy]` → (rook, cannon-capture) file masks along the rank.
pub static RANK_SLIDES: [[(u16, u16); 512]; 9] = build_rank_table();
/// `FILE_SLIDES[rank][file occupancy]` → (rook, cannon-capture) rank masks along the file.
pub static FILE_SLIDES: [[(u16, u16); 1024]; 10] = build_file_table();

/// `FILE_SPREAD[m]`: the bitboard on file a with rank `r` set for each bit `r` of `m`.
pub static FILE_SPREAD: [Bitboard; 1024] = {
    let mut t = [Bitboard::EMPTY; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut acc = 0u128;
        let mut r = 0;
        while r < 10 {
            if m & (1 << r) != 0 {
                acc |= 1u128 << (r * 9);
            }
            r += 1;
        }
        t[m] = Bitboard::from_bits(acc);
        m += 1;
    }
    t
};

/// The whole rank through each square, the square itself included.
pub static RANK_LINE: [Bitboard; 90] = {
    let mut t = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = Bitboard::from_bits(0x1FFu128 << ((i / 9) * 9));
        i += 1;
    }
    t
};

/// The whole file through each square, the square itself included.
pub static FILE_LINE: [Bitboard; 90] = {
    let mut t = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = Bitboard::from_bits(FILE_A.bits() << (i % 9));
        i += 1;
    }
    t
};

/// File a as a bitboard.
pub const FILE_A: Bitboard = {
    let mut acc = 0u128;
    let mut r = 0;
    while r < 10 {
        acc |= 1u128 << (r * 9);
        r += 1;
    }
    Bitboard::from_bits(acc)
};

/// Occupancy of `rank` in `occ` as 9 bits, bit `f` = file `f`.
#[inline(always)]
pub fn rank_occupancy(occ: Bitboard, rank: u8) -> usize {
    (bitboard::shr(occ.bits(), rank as u32 * 9) & 0x1FF) as usize
}

/// Occupancy of `file` in `occ` as 10 bits, bit `r` = rank `r`. Multiplying bits 9 apart by
/// `0x0101_0101_0101_0101` lands rank `r` of them on bit `56 + r` with no two partial products
/// on the same bit (nothing carries): ranks 0–6 are gathered so from the low word, ranks 7–9
/// from the word starting at bit 63.
#[inline(always)]
pub fn file_occupancy(occ: Bitboard, file: u8) -> usize {
    const GATHER: u64 = 0x0101_0101_0101_0101;
    let low = ((occ.bits() as u64) >> file) & 0x0040_2010_0804_0201;
    let high = (((occ.bits() >> 63) as u64) >> file) & 0x4_0201;
    (low.wrapping_mul(GATHER) >> 56 | (high.wrapping_mul(GATHER) >> 56) << 7) as usize
}

/// Rook and cannon attacks from `sq` along its rank over the occupancy `occ`, as in
/// `rook_and_cannon`.
#[inline(always)]
pub fn rank_slides(sq: Square, occ: Bitboard) -> (Bitboard, Bitboard) {
    let (f, r) = (sq.file(), sq.rank());
    let (rook, cannon) = RANK_SLIDES[f as usize][rank_occupancy(occ, r)];
    let shift = r as u32 * 9;
    (
        Bitboard::from_bits(bitboard::shl(rook as u128, shift)),
        Bitboard::from_bits(bitboard::shl(cannon as u128, shift)),
    )
}

/// Rook and cannon attacks from `sq` along its file over the occupancy `occ`, as in
/// `rook_and_cannon`.
#[inline(always)]
pub fn file_slides(sq: Square, occ: Bitboard) -> (Bitboard, Bitboard) {
    let (f, r) = (sq.file(), sq.rank());
    let (rook, cannon) = FILE_SLIDES[r as usize][file_occupancy(occ, f)];
    (
        Bitboard::from_bits(bitboard::shl(FILE_SPREAD[rook as usize].bits(), f as u32)),
        Bitboard::from_bits(bitboard::shl(FILE_SPREAD[cannon as usize].bits(), f as u32)),
    )
}

/// Rook and cannon attacks from `sq` over the occupancy `occ` (whatever stands on `sq`, whose
/// own bit is ignored): (rook: the empty points up to and including the first blocker each
/// way; cannon: the second blocker each way, the captures over a screen).
#[inline(always)]
pub fn rook_and_cannon(sq: Square, occ: Bitboard) -> (Bitboard, Bitboard) {
    let (rank_rook, rank_cannon) = rank_slides(sq, occ);
    let (file_rook, file_cannon) = file_slides(sq, occ);
    (rank_rook | file_rook, rank_cannon | file_cannon)
}

/// Rook attacks from `sq` over `occ`: the empty points up to and including the first blocker
/// each way (own pieces not excluded).
#[inline(always)]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    rook_and_cannon(sq, occ).0
}

/// Cannon attacks from `sq` over `occ`: the second blocker each way (the captures over a
/// screen; own pieces not excluded). Its quiet moves are the rook's empty points.
#[inline(always)]
pub fn cannon(sq: Square, occ: Bitboard) -> Bitboard {
    rook_and_cannon(sq, occ).1
}

/// Elephant destinations from `sq` with occupancy `occ`: the jumps whose eye is empty (own
/// pieces not excluded).
#[inline(always)]
pub fn elephant(sq: Square, occ: Bitboard) -> Bitboard {
    let mut t = 0u128;
    for &(to, eye) in &ELEPHANT_JUMPS[sq.index()] {
        if to != NONE && !bitboard::test(occ.bits(), eye as u32) {
            t |= bitboard::bit(to as u32);
        }
    }
    Bitboard::from_bits(t)
}

/// Horse destinations from `sq` with occupancy `occ`: the jumps whose leg (the point next to
/// the horse) is empty (own pieces not excluded).
#[inline(always)]
pub fn horse(sq: Square, occ: Bitboard) -> Bitboard {
    over_free_legs(&HORSE_LEGS, &HORSE_TARGETS, sq, occ)
}

/// The squares from which a horse attacks `sq` with occupancy `occ`: the leg that matters is
/// the one next to the horse, which is a diagonal neighbour of `sq`.
#[inline(always)]
pub fn horse_attackers(sq: Square, occ: Bitboard) -> Bitboard {
    over_free_legs(&HORSE_ATTACK_LEGS, &HORSE_ATTACKERS, sq, occ)
}

/// The union of `sets[sq * 4 + d]` over the directions `d` whose leg point is empty in `occ`.
#[inline(always)]
fn over_free_legs(legs: &[u8; 360], sets: &[Bitboard; 360], sq: Square, occ: Bitboard) -> Bitboard {
    let i = sq.index() * 4;
    let mut t = Bitboard::EMPTY;
    for d in 0..4 {
        let leg = legs[i + d];
        if leg != NONE && !bitboard::test(occ.bits(), leg as u32) {
            t |= sets[i + d];
        }
    }
    t
}

/// The points strictly between `a` and `b`, which share a rank or a file (empty when they are
/// neighbours).
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    let line = if a.rank() == b.rank() {
        RANK_LINE[a.index()]
    } else {
        FILE_LINE[a.index()]
    };
    let (lo, hi) = (a.index().min(b.index()), a.index().max(b.index()));
    line & Bitboard::from_bits(bitboard::bit(hi as u32) - bitboard::bit(lo as u32 + 1))
}
