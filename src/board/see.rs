//! Static exchange evaluation: what a run of captures on one point wins, each side taking with
//! its least valuable piece and free to stop, told without playing the moves.
//!
//! The attackers are worked out afresh over the occupancy after each capture, because in
//! Xiangqi a capture can give a piece its attack on the point as well as take one away: a
//! rook behind the capturer comes in, a horse's leg or an elephant's eye is freed, and a
//! cannon gains a screen or loses the one it had. Pins are not seen (as in Stockfish's
//! `see_ge`), and a general captures only as the last piece, onto a point that nothing of the
//! other side attacks any more.

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::Move;
use super::piece::PieceKind;
use super::position::Position;
use super::square::{Color, Square};
use crate::psq::VALUES;

/// The capturers in the order they are spent: the least valuable first, the general last.
const ORDER: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Rook,
    PieceKind::King,
];

impl Position {
    /// The pieces of both sides in `occ` that attack `sq` over the occupancy `occ`: pawns,
    /// generals and advisors by their steps, elephants over an empty eye, horses over a free
    /// leg, rooks along open lines and cannons over exactly one screen.
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let i = sq.index();
        let kind = |k: PieceKind| self.kind_bb(k) & occ;
        let pawns = (attacks::PAWN_ATTACKERS[Color::Red.index()][i]
            & self.pieces(Color::Red, PieceKind::Pawn))
            | (attacks::PAWN_ATTACKERS[Color::Black.index()][i]
                & self.pieces(Color::Black, PieceKind::Pawn));
        let (rook, cannon) = attacks::rook_and_cannon(sq, occ);
        (pawns & occ)
            | (attacks::KING_STEPS[i] & kind(PieceKind::King))
            | (attacks::ADVISOR_STEPS[i] & kind(PieceKind::Advisor))
            | (attacks::elephant(sq, occ) & kind(PieceKind::Elephant))
            | (attacks::horse_attackers(sq, occ) & kind(PieceKind::Horse))
            | (rook & kind(PieceKind::Rook))
            | (cannon & kind(PieceKind::Cannon))
    }

    /// Whether the exchange that the legal move `m` starts on its target point wins at least
    /// `threshold` centipawns for the side to move (by `psq::VALUES`), each side recapturing
    /// with its least valuable attacker or stopping, whichever is better for it. A quiet move
    /// counts as a capture of nothing.
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let (from, to) = (m.from(), m.to());
        let value = |k: PieceKind| match k {
            PieceKind::King => 10_000,
            k => VALUES[k.index()],
        };
        let Some(mover) = self.piece_at(from) else {
            return false;
        };
        // `swap` is what the side to move stands to gain, less the threshold, if the other
        // side stops now (negated at each turn).
        let mut swap = self.piece_at(to).map_or(0, |v| value(v.kind())) - threshold;
        if swap < 0 {
            return false;
        }
        swap = value(mover.kind()) - swap;
        if swap <= 0 {
            return true;
        }
        let mut occ = self.occupied().without(from).with(to);
        let mut stm = self.side_to_move();
        // `res` is true while the exchange so far reaches the threshold for the side to move.
        let mut res = true;
        loop {
            stm = !stm;
            // No attack table holds its own point, so the victim on `to` is never an attacker.
            let attackers = self.attackers_to(to, occ);
            let ours = attackers & self.color_bb(stm);
            if ours.is_empty() {
                break;
            }
            res = !res;
            let Some((kind, sq)) = ORDER
                .iter()
                .find_map(|&k| (ours & self.kind_bb(k)).lsb().map(|sq| (k, sq)))
            else {
                break;
            };
            if kind == PieceKind::King {
                // The general may take only where nothing of the other side attacks any more.
                return if (attackers & self.color_bb(!stm)).any() {
                    !res
                } else {
                    res
                };
            }
            swap = value(kind) - swap;
            if swap < res as i32 {
                break;
            }
            occ = occ.without(sq);
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use crate::board::Position;

    /// `see_ge` of the move `uci` in `fen` at `threshold`.
    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_move(uci).unwrap();
        pos.see_ge(m, threshold)
    }

    /// The exchange's value by brute force: the side to move captures with each attacker in
    /// turn, on legal moves, and either side may stop.
    fn exchange(pos: &Position, to: crate::board::Square) -> i32 {
        let values = crate::psq::VALUES;
        let mut best = 0;
        for m in pos.legal_moves().iter().filter(|m| m.to() == to) {
            let gain = pos.piece_at(to).map_or(0, |p| values[p.kind().index()]);
            best = best.max(gain - exchange(&pos.play(m), to));
        }
        best
    }

    #[test]
    fn an_undefended_piece_is_won_and_a_defended_one_by_a_greater_piece_is_lost() {
        // A red rook takes a black horse on e6 that nothing defends: 420 won.
        let free = "4k4/9/9/4n4/9/9/9/9/9/4RK3 w - - 0 1";
        assert!(see(free, "e0e6", 420));
        assert!(!see(free, "e0e6", 421));
        // A horse on d8 defends it: the rook wins the horse and loses itself, 420 − 950.
        let held = "4k4/3n5/9/4n4/9/9/9/9/9/4RK3 w - - 0 1";
        assert!(see(held, "e0e6", 420 - 950));
        assert!(!see(held, "e0e6", 420 - 950 + 1));
    }

    #[test]
    fn a_cannon_behind_a_defender_joins_once_its_screen_is_there() {
        // A red rook takes a black pawn on e5. The horse on e6 does not defend e5, but it is
        // the screen of the cannon on e7, which does.
        let fen = "3k5/9/4c4/4n4/4p4/9/9/9/9/4RK3 w - - 0 1";
        // The rook takes the pawn (60) and the cannon takes the rook over the horse.
        assert!(see(fen, "e0e5", 60 - 950));
        assert!(!see(fen, "e0e5", 60 - 950 + 1));
    }

    #[test]
    fn a_rook_behind_the_capturer_recaptures() {
        // Two red rooks on the e-file; a black horse on e6 defended by a horse on d8. Rook
        // takes horse, horse takes rook, rook takes horse: 420 − 950 + 420.
        let fen = "3k5/3n5/9/4n4/9/9/9/9/4R4/4RK3 w - - 0 1";
        assert!(see(fen, "e1e6", 420 - 950 + 420));
        assert!(!see(fen, "e1e6", 420 - 950 + 421));
    }

    #[test]
    fn see_agrees_with_the_exchange_searched_by_brute_force() {
        // Random positions: for every capture, the threshold `see_ge` draws (the largest that
        // holds) against the legal exchange searched out, where pins and the general's
        // safety hold. They differ only where the legal search sees what SEE does not, so
        // the two must agree on nearly every capture.
        let positions = crate::board::random_walk_positions(5, 40, 120);
        let (mut agree, mut total) = (0, 0);
        for pos in positions.iter().step_by(7) {
            for m in pos.legal_moves().iter() {
                let Some(victim) = pos.piece_at(m.to()) else {
                    continue;
                };
                let gain = crate::psq::VALUES[victim.kind().index()];
                let searched = gain - exchange(&pos.play(m), m.to());
                total += 1;
                if pos.see_ge(m, searched) && !pos.see_ge(m, searched + 1) {
                    agree += 1;
                }
            }
        }
        assert!(total > 500, "{total} captures");
        assert!(agree * 100 >= total * 99, "{agree} of {total} agree");
    }
}
