//! Perpetual chase: which enemy pieces a move chases, and who chased one same piece with every
//! move of a repeated cycle (the rules document §4.2, §4.4 and §5.3).
//!
//! An attack of one of the mover's pieces on an enemy piece is a *chase* when the capture is
//! legal for the attacker (so a pinned attacker only threatens its pinner) and
//! - the target is a rook attacked by a horse or a cannon, or a rook, horse or cannon attacked by
//!   an advisor or an elephant (an attack on a stronger piece), protected or not; or
//! - the target is not protected: after the capture no legal recapture exists; and, when
//!   attacker and target are of the same kind, the target cannot take the attacker first (a
//!   hobbled horse, a pinned target): a mutual attack is an offer to exchange, not a chase.
//!
//! Never the general, never a pawn that has not crossed the river; generals and pawns never
//! chase (as Pikafish and Fairy-Stockfish rule; the Asian rulebooks let them).
//!
//! A move chases the pieces it attacks anew: attacks by the moved piece from its new square,
//! and attacks uncovered by the move (a line opened, a leg or eye freed, a screen placed). On
//! its line of travel a rook or cannon attacks anew what its old square would have hidden (a
//! rook backing away from a piece still attacks it anew), as Fairy-Stockfish counts. A piece
//! of the mover that comes to shield the enemy general from a check threatens every piece it
//! attacks, since its capture gives a discovered check: those count when no legal recapture
//! exists. Over a cycle, each piece keeps its identity as it moves; a side chases perpetually
//! when one same enemy piece is chased by every one of its moves.
//!
//! Everything here works on copies of positions and is meant to run only when a position has
//! repeated, not at every node of a search.

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::Move;
use super::piece::{Piece, PieceKind};
use super::position::Position;
use super::square::{Color, Square};

/// The squares the piece on `sq` attacks (could capture on) over the occupancy `occ`; empty if
/// `sq` is empty. A general also attacks the other general when nothing stands between them on
/// their file (the flying-general rule).
pub fn attacks(pos: &Position, sq: Square, occ: Bitboard) -> Bitboard {
    match pos.piece_at(sq) {
        Some(piece) => attacks_of(pos, piece, sq, occ),
        None => Bitboard::EMPTY,
    }
}

/// The squares `piece`, standing on `sq`, attacks over the occupancy `occ`, as `attacks`.
#[inline(always)]
pub fn attacks_of(pos: &Position, piece: Piece, sq: Square, occ: Bitboard) -> Bitboard {
    match piece.kind() {
        PieceKind::King => {
            // The first piece each way along the file, if it is the other general.
            let facing = attacks::rook(sq, occ) & attacks::FILE_LINE[sq.index()] & occ;
            attacks::KING_STEPS[sq.index()] | (facing & pos.kind_bb(PieceKind::King))
        }
        PieceKind::Advisor => attacks::ADVISOR_STEPS[sq.index()],
        PieceKind::Elephant => attacks::elephant(sq, occ),
        PieceKind::Horse => attacks::horse(sq, occ),
        PieceKind::Rook => attacks::rook(sq, occ),
        PieceKind::Cannon => attacks::cannon(sq, occ),
        PieceKind::Pawn => attacks::PAWN_STEPS[piece.color().index()][sq.index()],
    }
}

/// The whole file or rank through `a` and `b`, or nothing if they share neither.
fn line(a: Square, b: Square) -> Bitboard {
    Square::all()
        .filter(|s| {
            (a.file() == b.file() && s.file() == a.file())
                || (a.rank() == b.rank() && s.rank() == a.rank())
        })
        .collect()
}

/// The pieces of `by` (among those on `occ`) that attack `target` over the occupancy `occ`.
pub fn attackers(pos: &Position, target: Square, by: Color, occ: Bitboard) -> Bitboard {
    (pos.color_bb(by) & occ)
        .filter(|&s| attacks(pos, s, occ).has(target))
        .collect()
}

/// Whether the piece on `from` may take on `to` (or move there) without leaving its own
/// general attacked, whichever side is to move.
fn legal(pos: &Position, from: Square, to: Square) -> bool {
    match pos.piece_at(from) {
        Some(p) => !pos.play(Move::new(from, to)).king_in_check(p.color()),
        None => false,
    }
}

/// The enemy pieces that pin the piece on `sq` to its general: those that would attack the
/// general if `sq` were empty and do not already.
fn pinners(pos: &Position, sq: Square, color: Color) -> Bitboard {
    let king = pos.king(color);
    let occ = pos.occupied();
    attackers(pos, king, !color, occ.without(sq)) & !attackers(pos, king, !color, occ)
}

/// Whether a capture by `kind` of a piece of `target` is a chase whatever the protection (an
/// attack on a stronger piece).
fn stronger(kind: PieceKind, target: PieceKind) -> bool {
    use PieceKind::*;
    match kind {
        Horse | Cannon => target == Rook,
        Advisor | Elephant => matches!(target, Rook | Horse | Cannon),
        _ => false,
    }
}

/// The enemy pieces that a chasing piece may threaten: all but the general and the pawns that
/// have not crossed the river.
fn targets(pos: &Position, them: Color) -> Bitboard {
    let uncrossed: Bitboard = pos
        .pieces(them, PieceKind::Pawn)
        .filter(|s| s.on_own_side(them))
        .collect();
    pos.color_bb(them) & !pos.pieces(them, PieceKind::King) & !uncrossed
}

/// Whether the attack of the piece on `from` on the enemy piece on `to` is a chase in `pos`
/// (whichever side is to move): see the module documentation.
fn chases(pos: &Position, from: Square, to: Square) -> bool {
    let (Some(attacker), Some(target)) = (pos.piece_at(from), pos.piece_at(to)) else {
        return false;
    };
    let (by, kind, victim) = (attacker.color(), attacker.kind(), target.kind());
    let pinned_by = pinners(pos, from, by);
    if (pinned_by.any() && !pinned_by.has(to)) || !legal(pos, from, to) {
        return false;
    }
    if stronger(kind, victim) {
        return true;
    }
    let after = pos.play(Move::new(from, to));
    let mut defenders = attackers(&after, to, !by, after.occupied());
    if Iterator::any(&mut defenders, |s| legal(&after, s, to)) {
        return false;
    }
    // Same kinds: only a one-sided attack (the target cannot take back) is a chase.
    victim != kind || !attacks(pos, to, pos.occupied()).has(from) || !legal(pos, to, from)
}

/// The enemy pieces that the move `m` (legal in `before`) chases: the attacks that the moved
/// piece or a piece it uncovered makes after the move and did not make before, kept when they
/// are chases.
pub fn chased_by(before: &Position, m: Move) -> Bitboard {
    let by = before.side_to_move();
    let after = before.play(m);
    let (occ_before, occ_after) = (before.occupied(), after.occupied());
    let targets = targets(&after, !by);
    let chasers =
        after.color_bb(by) & !after.pieces(by, PieceKind::King) & !after.kind_bb(PieceKind::Pawn);
    let mut set = Bitboard::EMPTY;
    for sq in chasers {
        let seen = if sq == m.to() {
            // The moved piece: on its line of travel, what its old square would have hidden.
            line(m.from(), m.to()) & attacks(&after, sq, occ_after.with(m.from()))
        } else {
            attacks(before, sq, occ_before)
        };
        let fresh = attacks(&after, sq, occ_after) & !seen & targets;
        for to in fresh & !set {
            if chases(&after, sq, to) {
                set = set.with(to);
            }
        }
    }
    // A piece that now shields the enemy general from a check (and did not before the move)
    // threatens whatever it attacks: its capture comes with a discovered check, so only a
    // legal recapture (one that also answers the check) protects the target.
    let mover = after.color_bb(by) & !after.pieces(by, PieceKind::King);
    for sq in mover {
        let was = if sq == m.to() { None } else { Some(sq) };
        if !shields(&after, sq) || was.is_some_and(|w| shields(before, w)) {
            continue;
        }
        for to in attacks(&after, sq, occ_after) & targets & !set {
            if !legal(&after, sq, to) {
                continue;
            }
            let taken = after.play(Move::new(sq, to));
            let mut defenders = attackers(&taken, to, !by, taken.occupied());
            if !Iterator::any(&mut defenders, |s| legal(&taken, s, to)) {
                set = set.with(to);
            }
        }
    }
    set
}

/// Whether the piece on `sq` shields the enemy general: without it on the board, a piece of its
/// side would attack the enemy general that does not now.
fn shields(pos: &Position, sq: Square) -> bool {
    let Some(p) = pos.piece_at(sq) else {
        return false;
    };
    let (by, occ) = (p.color(), pos.occupied());
    let king = pos.king(!by);
    (attackers(pos, king, by, occ.without(sq)) & !attackers(pos, king, by, occ)).any()
}

/// For the cycle of quiet moves `moves` played from `start`, whether each side (indexed by
/// `Color::index`) chased one same enemy piece with every one of its moves. A side that made no
/// move in `moves` did not chase.
pub fn perpetual_chasers(start: &Position, moves: &[Move]) -> [bool; 2] {
    // Per side: the enemy pieces chased by every move of that side so far, on their current
    // squares (each follows its piece when it moves).
    let mut candidates = [Bitboard::ALL; 2];
    let mut moved = [false; 2];
    let mut pos = start.clone();
    for &m in moves {
        let us = pos.side_to_move();
        let next = pos.play(m);
        let (u, t) = (us.index(), (!us).index());
        if candidates[u].any() {
            candidates[u] &= chased_by(&pos, m);
        }
        moved[u] = true;
        candidates[u] = candidates[u].without(m.to());
        if candidates[t].has(m.from()) {
            candidates[t] = candidates[t].without(m.from()).with(m.to());
        }
        pos = next;
        if candidates[0].is_empty() && candidates[1].is_empty() {
            break;
        }
    }
    [
        moved[0] && candidates[0].any(),
        moved[1] && candidates[1].any(),
    ]
}

/// The position before the quiet moves `moves` that led to `pos` (each undone in turn). Only
/// placement and side to move are restored: enough for `perpetual_chasers`.
pub fn unwind(pos: &Position, moves: &[Move]) -> Position {
    moves
        .iter()
        .rev()
        .fold(pos.clone(), |p, m| p.play(Move::new(m.to(), m.from())))
}

/// How a repeated cycle ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Nobody loses (neither side forbidden, or both).
    Draw,
    /// This side gave check with every move of the cycle (the other did not): it loses.
    PerpetualCheck(Color),
    /// This side chased one same piece with every move (nobody checked throughout, the other
    /// side did not chase throughout): it loses.
    PerpetualChase(Color),
}

/// Judges a repeated cycle: the quiet `moves` played from `start` back to the same position.
/// Check outranks chase; both sides forbidden alike is a draw.
pub fn judge_cycle(start: &Position, moves: &[Move]) -> Verdict {
    let mut checks = [true; 2];
    let mut moved = [false; 2];
    let mut pos = start.clone();
    for &m in moves {
        let us = pos.side_to_move();
        pos = pos.play(m);
        moved[us.index()] = true;
        checks[us.index()] &= pos.in_check();
    }
    let checker = [moved[0] && checks[0], moved[1] && checks[1]];
    verdict(checker, || perpetual_chasers(start, moves))
}

/// The verdict from who checked throughout and, when that settles nothing, who chased
/// throughout (computed only then).
pub fn verdict(checker: [bool; 2], chasers: impl FnOnce() -> [bool; 2]) -> Verdict {
    match checker {
        [true, false] => Verdict::PerpetualCheck(Color::Red),
        [false, true] => Verdict::PerpetualCheck(Color::Black),
        [true, true] => Verdict::Draw,
        [false, false] => match chasers() {
            [true, false] => Verdict::PerpetualChase(Color::Red),
            [false, true] => Verdict::PerpetualChase(Color::Black),
            _ => Verdict::Draw,
        },
    }
}
