//! Legal move generation.
//!
//! Pseudo-legal destinations come from the tables in `attacks`; legality is decided without
//! playing the move. When the side to move is not in check, only moves that touch a
//! "sensitive" square can expose the king: a square on a king line (rank or file) that holds an
//! enemy rook, cannon or king, or a diagonal neighbour of the king when an enemy horse could
//! attack over it. Every other move is legal as generated; sensitive moves, king moves and all
//! moves in check get the full test (`leaves_king_safe`). In check, a move of another piece is
//! tested only if it lands where it could answer a check (on a checker, between a line checker
//! and the king, on a horse's leg) or moves a checking cannon's screen away.

use super::attacks;
use super::bitboard::{bit, test, Bitboard};
use super::check::CheckInfo;
use super::moves::{Move, MoveList};
use super::piece::PieceKind;
use super::position::Position;
use super::square::{Color, Square};

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        self.legal_moves_with(self.in_check())
    }

    /// `legal_moves` for a caller that knows whether the side to move is in check
    /// (`in_check`, as [`Position::in_check`] tells it): the search knows it from the move
    /// before, and generation need not find it out again.
    pub fn legal_moves_with(&self, in_check: bool) -> MoveList {
        let mut list = MoveList::new();
        self.generate_with::<false, _>(&mut list, in_check);
        list
    }

    /// Legal captures only (for quiescence).
    pub fn legal_captures(&self) -> MoveList {
        self.legal_captures_with(self.in_check())
    }

    /// `legal_captures`, the side to move's check known (`in_check`, see `legal_moves_with`).
    pub fn legal_captures_with(&self, in_check: bool) -> MoveList {
        let mut list = MoveList::new();
        self.generate_with::<true, _>(&mut list, in_check);
        list
    }

    /// Legal quiet moves that give check (quiescence's checks), in `legal_moves`' order. Only
    /// the destinations where a check is possible are looked at (`CheckInfo::candidates`), the
    /// check is told first and legality only for the moves that pass it, which makes this much
    /// cheaper than filtering `legal_moves`.
    pub fn legal_quiet_checks(&self) -> MoveList {
        self.legal_quiet_checks_with(self.in_check())
    }

    /// `legal_quiet_checks`, the side to move's check known (`in_check`, see
    /// `legal_moves_with`).
    pub fn legal_quiet_checks_with(&self, in_check: bool) -> MoveList {
        let mut sink = QuietChecks {
            pos: self,
            info: self.check_info(),
            quiet: !self.occupied(),
            list: MoveList::new(),
        };
        self.generate_with::<false, _>(&mut sink, in_check);
        sink.list
    }

    /// Number of legal moves (perft's last ply), counted without listing them.
    pub fn count_legal(&self) -> usize {
        let mut counter = Counter(0);
        self.generate_into::<false, _>(&mut counter);
        counter.0
    }

    /// Whether `m` is a legal move in this position.
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.leaves_king_safe(m)
    }

    /// Whether `m` follows the movement rules for a piece of the side to move (the king may be
    /// left in check). Accepts any `Move`, e.g. one read from the hash table.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let us = self.side_to_move();
        match self.piece_at(from) {
            Some(p) if p.color() == us => self.destinations(from, p.kind()).has(to),
            _ => false,
        }
    }

    /// Pseudo-legal destinations of the side-to-move piece of `kind` on `from` (own pieces
    /// excluded).
    #[inline]
    fn destinations(&self, from: Square, kind: PieceKind) -> Bitboard {
        let us = self.side_to_move();
        let own = self.color_bb(us);
        let occ = self.occupied();
        let enemy = self.color_bb(!us);
        let i = from.index();
        let t = match kind {
            PieceKind::King => attacks::KING_STEPS[i],
            PieceKind::Advisor => attacks::ADVISOR_STEPS[i],
            PieceKind::Elephant => attacks::elephant(from, occ),
            PieceKind::Horse => attacks::horse(from, occ),
            PieceKind::Rook => self.slides(from).0,
            PieceKind::Cannon => {
                let (r, c) = self.slides(from);
                return (r & !occ) | (c & enemy);
            }
            PieceKind::Pawn => attacks::PAWN_STEPS[us.index()][i],
        };
        t & !own
    }

    /// Generates legal moves (captures only if `CAPTURES`) into `list`.
    pub fn generate<const CAPTURES: bool>(&self, list: &mut MoveList) {
        self.generate_into::<CAPTURES, _>(list);
    }

    fn generate_into<const CAPTURES: bool, S: Sink>(&self, list: &mut S) {
        self.generate_with::<CAPTURES, S>(list, self.in_check());
    }

    /// `generate_into`, told whether the side to move is in check.
    fn generate_with<const CAPTURES: bool, S: Sink>(&self, list: &mut S, in_check: bool) {
        debug_assert_eq!(in_check, self.in_check(), "{self:?}");
        let us = self.side_to_move();
        let them = !us;
        let own = self.color_bb(us);
        let enemy = self.color_bb(them);
        let occ = self.occupied();
        let target = if CAPTURES { enemy } else { !own };
        let k = self.king(us);
        let sensitive = if in_check {
            Bitboard::ALL
        } else {
            self.sensitive_squares(k)
        };
        // In check, a piece other than the king must land on `evade` or be a cannon's screen.
        let (evade, screens) = if in_check {
            self.evasion_squares(k, them, occ)
        } else {
            (Bitboard::ALL, Bitboard::EMPTY)
        };

        // King: every step is tested.
        for to in attacks::KING_STEPS[k.index()] & target {
            let m = Move::new(k, to);
            if list.wants(m) && self.leaves_king_safe(m) {
                list.push(m);
            }
        }

        let mut add = |from: Square, targets: Bitboard| {
            let targets = if screens.has(from) {
                targets
            } else {
                targets & evade
            };
            let (checked, free) = if sensitive.has(from) {
                (targets, Bitboard::EMPTY)
            } else {
                (targets & sensitive, targets & !sensitive)
            };
            list.push_all(from, free);
            for to in checked {
                let m = Move::new(from, to);
                if list.wants(m) && self.leaves_king_safe(m) {
                    list.push(m);
                }
            }
        };

        for from in self.pieces(us, PieceKind::Rook) {
            add(from, self.slides(from).0 & target);
        }
        for from in self.pieces(us, PieceKind::Cannon) {
            let (r, c) = self.slides(from);
            let t = if CAPTURES {
                c & enemy
            } else {
                (r & !occ) | (c & enemy)
            };
            add(from, t);
        }
        for from in self.pieces(us, PieceKind::Horse) {
            add(from, attacks::horse(from, occ) & target);
        }
        for from in self.pieces(us, PieceKind::Pawn) {
            add(from, attacks::PAWN_STEPS[us.index()][from.index()] & target);
        }
        for from in self.pieces(us, PieceKind::Elephant) {
            add(from, attacks::elephant(from, occ) & target);
        }
        for from in self.pieces(us, PieceKind::Advisor) {
            add(from, attacks::ADVISOR_STEPS[from.index()] & target);
        }
    }

    /// In check on `k` by `them` over `occ`: the squares a non-king move must land on to answer
    /// some check (a checker, a point between a rook, king or cannon and the king, a horse's
    /// leg), and the cannons' screens, whose leaving answers a check. A necessary condition
    /// only: the moves that pass still get the full legality test.
    fn evasion_squares(&self, k: Square, them: Color, occ: Bitboard) -> (Bitboard, Bitboard) {
        let mut evade =
            attacks::PAWN_ATTACKERS[them.index()][k.index()] & self.pieces(them, PieceKind::Pawn);
        let horses = self.pieces(them, PieceKind::Horse);
        if (attacks::HORSE_RANGE[k.index()] & horses).any() {
            for d in 0..4 {
                let leg = attacks::HORSE_ATTACK_LEGS[k.index() * 4 + d];
                if leg == attacks::NONE || test(occ.bits(), leg as u32) {
                    continue;
                }
                let checkers = attacks::HORSE_ATTACKERS[k.index() * 4 + d] & horses;
                if checkers.any() {
                    evade |= checkers | Bitboard::from_bits(bit(leg as u32));
                }
            }
        }
        let (rook_k, cannon_k) = attacks::rook_and_cannon(k, occ);
        let lines = self.pieces(them, PieceKind::Rook) | self.pieces(them, PieceKind::King);
        for c in rook_k & lines {
            evade |= Bitboard::from_square(c) | (rook_k & attacks::rook(c, occ));
        }
        let mut screens = Bitboard::EMPTY;
        for c in cannon_k & self.pieces(them, PieceKind::Cannon) {
            let screen = rook_k & attacks::rook(c, occ) & occ;
            let open = occ & !screen;
            screens |= screen;
            evade |= Bitboard::from_square(c) | (attacks::rook(k, open) & attacks::rook(c, open));
        }
        (evade, screens)
    }

    /// Squares where leaving or arriving might expose the own king on `k` (not in check).
    #[inline]
    fn sensitive_squares(&self, k: Square) -> Bitboard {
        let them = !self.side_to_move();
        let line_attackers = self.pieces(them, PieceKind::Rook)
            | self.pieces(them, PieceKind::Cannon)
            | self.pieces(them, PieceKind::King);
        let mut s = Bitboard::EMPTY;
        let rank = attacks::RANK_LINE[k.index()];
        if (rank & line_attackers).any() {
            s |= rank;
        }
        let file = attacks::FILE_LINE[k.index()];
        if (file & line_attackers).any() {
            s |= file;
        }
        if (attacks::HORSE_RANGE[k.index()] & self.pieces(them, PieceKind::Horse)).any() {
            s |= attacks::DIAGONAL_NEIGHBOURS[k.index()];
        }
        s
    }
}

/// Where generated moves go: a list, a count, or a filtered list.
trait Sink {
    /// Whether the (pseudo-legal) move `m` is wanted at all: asked before its legality test.
    #[inline(always)]
    fn wants(&self, _m: Move) -> bool {
        true
    }
    fn push(&mut self, m: Move);
    /// Pushes the wanted moves from `from` to `targets`, all of them legal.
    fn push_all(&mut self, from: Square, targets: Bitboard);
}

/// Keeps the quiet moves that give check.
struct QuietChecks<'a> {
    pos: &'a Position,
    info: CheckInfo,
    quiet: Bitboard,
    list: MoveList,
}

impl Sink for QuietChecks<'_> {
    #[inline(always)]
    fn wants(&self, m: Move) -> bool {
        self.quiet.has(m.to()) && self.pos.gives_check_with(m, &self.info)
    }
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.list.push(m);
    }
    #[inline(always)]
    fn push_all(&mut self, from: Square, targets: Bitboard) {
        let Some(piece) = self.pos.piece_at(from) else {
            return;
        };
        for to in targets & self.quiet & self.info.candidates(from, piece.kind()) {
            let m = Move::new(from, to);
            if self.wants(m) {
                self.list.push(m);
            }
        }
    }
}

impl Sink for MoveList {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
    #[inline(always)]
    fn push_all(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            MoveList::push(self, Move::new(from, to));
        }
    }
}

struct Counter(usize);

impl Sink for Counter {
    #[inline(always)]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn push_all(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as usize;
    }
}
