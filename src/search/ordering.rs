//! Move ordering: hash move, captures by MVV-LVA (captures that lose material by static
//! exchange last), killers, counter-moves, then quiet moves by history (and, with
//! `threat_order`, by the attacks of lesser pieces they escape or walk into).

use crate::board::{attacks, chase, Bitboard, Move, MoveList, Piece, PieceKind, Position};
use crate::large::Large;
use crate::psq::VALUES;

/// History scores are kept within ±`HISTORY_MAX`.
pub const HISTORY_MAX: i32 = 16_384;

/// The ordering score of the hash move: above every other band.
pub const HASH_MOVE: i32 = 2_000_000;
/// The base of the winning and even captures' band (MVV-LVA plus an eighth of the capture
/// history on top).
pub const GOOD_CAPTURE: i32 = 1_000_000;
/// The first killer's score; the second killer's is one thousand less.
pub const KILLER: i32 = 900_000;
/// The second killer's score.
pub const KILLER_2: i32 = KILLER - 1_000;
/// The counter-move's score: the bottom of the refutations' band. Quiet moves score their
/// history and continuations below it (within ±3·`HISTORY_MAX`), losing captures far below.
pub const COUNTER_MOVE: i32 = KILLER - 2_000;
/// Taken off the MVV-LVA score of a capture that loses material by static exchange.
pub const LOSING_CAPTURE: i32 = 200_000;
/// The score of a non-capture (an evasion) in the quiescence ordering.
const QUIET_IN_QUIESCENCE: i32 = -1_000_000;

/// Whether an ordering score from `Picker::new` is a killer's or the counter-move's.
#[inline]
pub fn is_refutation(order: i32) -> bool {
    (COUNTER_MOVE..=KILLER).contains(&order)
}

/// Learnt ordering knowledge, kept between searches of one game.
pub struct Heuristics {
    /// `history[piece][to]`: how often a quiet move of that piece to that square cut off.
    pub history: Box<[[i32; 90]; 14]>,
    /// `counter[piece][to]` of the previous move: the reply that refuted it.
    pub counter: Box<[[Option<Move>; 90]; 14]>,
    /// Two killer moves per ply.
    pub killers: Vec<[Option<Move>; 2]>,
    /// Continuation history, `[piece][to]` of a move one or two plies back, then `[piece][to]`
    /// of the quiet move that followed it: flattened, indexed by [`cont_index`].
    pub cont: Large<i16>,
    /// `captures[piece][to][victim kind]`: how often a capture cut off.
    pub captures: Box<[[[i16; 7]; 90]; 14]>,
}

/// Squares times piece indices: the size of one `[piece][to]` table.
const PIECE_TO: usize = 14 * 90;

/// The start of the continuation table that follows a move of `piece` to `to`.
#[inline]
pub fn cont_index(piece: usize, to: usize) -> usize {
    (piece * 90 + to) * PIECE_TO
}

impl Heuristics {
    /// Empty tables for `plies` plies.
    pub fn new(plies: usize) -> Heuristics {
        Heuristics {
            history: Box::new([[0; 90]; 14]),
            counter: Box::new([[None; 90]; 14]),
            killers: vec![[None; 2]; plies],
            cont: Large::from_fn(PIECE_TO * PIECE_TO, |_| 0),
            captures: Box::new([[[0; 7]; 90]; 14]),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self.history = [[0; 90]; 14];
        *self.counter = [[None; 90]; 14];
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.cont.fill(0);
        *self.captures = [[[0; 7]; 90]; 14];
    }

    /// Adds `bonus` (negative for a malus) to a quiet move's history, with gravity.
    pub fn update_history(&mut self, pos: &Position, m: Move, bonus: i32) {
        if let Some(p) = pos.piece_at(m.from()) {
            let h = &mut self.history[p.index()][m.to().index()];
            let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
            *h += b - *h * b.abs() / HISTORY_MAX;
        }
    }

    /// Adds `bonus` to a quiet move's entries in the continuation tables at `bases`.
    pub fn update_cont(&mut self, bases: &[Option<usize>; 2], pos: &Position, m: Move, bonus: i32) {
        if let Some(p) = pos.piece_at(m.from()) {
            let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
            for base in bases.iter().flatten() {
                let h = &mut self.cont[base + p.index() * 90 + m.to().index()];
                let v = *h as i32;
                *h = (v + b - v * b.abs() / HISTORY_MAX) as i16;
            }
        }
    }

    /// The ordering score of a quiet move: history and both continuations.
    #[inline]
    pub fn quiet_score(&self, bases: &[Option<usize>; 2], pos: &Position, m: Move) -> i32 {
        pos.piece_at(m.from()).map_or(0, |p| {
            let pt = p.index() * 90 + m.to().index();
            let mut s = self.history[p.index()][m.to().index()];
            for base in bases.iter().flatten() {
                s += self.cont[base + pt] as i32;
            }
            s
        })
    }

    /// Adds `bonus` to a capture's history.
    pub fn update_capture(&mut self, pos: &Position, m: Move, bonus: i32) {
        if let (Some(p), Some(v)) = (pos.piece_at(m.from()), pos.piece_at(m.to())) {
            let h = &mut self.captures[p.index()][m.to().index()][v.kind().index()];
            let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
            let x = *h as i32;
            *h = (x + b - x * b.abs() / HISTORY_MAX) as i16;
        }
    }

    /// A capture's history.
    #[inline]
    fn capture_history(&self, pos: &Position, m: Move) -> i32 {
        match (pos.piece_at(m.from()), pos.piece_at(m.to())) {
            (Some(p), Some(v)) => self.captures[p.index()][m.to().index()][v.kind().index()] as i32,
            _ => 0,
        }
    }

    /// Records a quiet move that caused a cut-off at `ply`.
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }
}

/// Whether `m` captures.
#[inline(always)]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    pos.piece_at(m.to()).is_some()
}

/// MVV-LVA score of a capture, or a large negative score if the capture loses material by
/// static exchange (`Position::see_ge`; only a capture by a more valuable piece can).
fn capture_score(pos: &Position, m: Move) -> i32 {
    let victim = pos.piece_at(m.to()).map_or(0, |p| VALUES[p.kind().index()]);
    let attacker_value = match pos.piece_at(m.from()).map(|p| p.kind()) {
        Some(PieceKind::King) | None => 0,
        Some(k) => VALUES[k.index()],
    };
    let mvv_lva = victim * 16 - attacker_value / 16;
    if attacker_value > victim && !pos.see_ge(m, 0) {
        mvv_lva - LOSING_CAPTURE
    } else {
        mvv_lva
    }
}

/// Moves with ordering scores, picked best first.
pub struct Picker {
    moves: MoveList,
    scores: [i32; 128],
    next: usize,
    stage: Stage,
}

/// How far a `Picker` made by [`Picker::hash_first`] has come.
#[derive(Clone, Copy)]
enum Stage {
    /// The hash move is next; nothing is generated yet.
    HashMove(Move),
    /// The hash move was handed out; the other moves are generated on the next call.
    Generate(Move),
    /// The moves are generated and scored.
    Picking,
}

/// Context for scoring quiet moves.
pub struct Context {
    /// Hash move.
    pub tt_move: Option<Move>,
    /// Killers at this ply.
    pub killers: [Option<Move>; 2],
    /// Counter-move to the previous move.
    pub counter: Option<Move>,
    /// The continuation tables of the moves one and two plies back.
    pub cont: [Option<usize>; 2],
    /// Whether the side to move is in check (so that generation need not find it out).
    pub in_check: bool,
    /// The ordering bonus of a rook's quiet move out of the attack of a lesser piece, and its
    /// malus into one (`Threats`; 0: quiet moves by history alone).
    pub threat_order: i32,
}

/// The points the enemy of the side to move attacks, by the kind of its least valuable
/// attacker: what a quiet move escapes or walks into, as Pikafish's move picker weighs it.
struct Threats {
    /// The points a pawn attacks.
    pawn: Bitboard,
    /// …or a pawn, an advisor or an elephant.
    defender: Bitboard,
    /// …or any of those, a horse or a cannon.
    minor: Bitboard,
}

impl Threats {
    /// The enemy's attacks in `pos`. A cannon's count on empty points too: those past its
    /// screen, up to and including the next piece.
    fn of(pos: &Position) -> Threats {
        let them = !pos.side_to_move();
        let occ = pos.occupied();
        let attacks_by = |kind: PieceKind| {
            let piece = Piece::new(them, kind);
            (pos.pieces(them, kind)).fold(Bitboard::EMPTY, |acc, s| {
                acc | chase::attacks_of(pos, piece, s, occ)
            })
        };
        let pawn = attacks_by(PieceKind::Pawn);
        let defender = pawn | attacks_by(PieceKind::Advisor) | attacks_by(PieceKind::Elephant);
        let cannons = pos
            .pieces(them, PieceKind::Cannon)
            .fold(Bitboard::EMPTY, |acc, s| {
                let near = attacks::rook(s, occ);
                acc | (attacks::rook(s, occ & !(near & occ)) & !near)
            });
        let minor = defender | attacks_by(PieceKind::Horse) | cannons;
        Threats {
            pawn,
            defender,
            minor,
        }
    }

    /// The ordering bonus of the quiet move `m` (`full` for a rook, half of it for a horse or a
    /// cannon, a quarter for the others): gained by a piece that leaves a point a lesser piece
    /// attacks for one none does, lost by a piece that moves to such a point.
    #[inline]
    fn bonus(&self, pos: &Position, m: Move, full: i32) -> i32 {
        let Some(piece) = pos.piece_at(m.from()) else {
            return 0;
        };
        let (lesser, value) = match piece.kind() {
            PieceKind::King => return 0,
            PieceKind::Rook => (self.minor, full),
            PieceKind::Horse | PieceKind::Cannon => (self.defender, full / 2),
            _ => (self.pawn, full / 4),
        };
        if lesser.has(m.to()) {
            -value
        } else if lesser.has(m.from()) {
            value
        } else {
            0
        }
    }
}

impl Picker {
    /// Scores `moves` in `pos`.
    pub fn new(pos: &Position, moves: MoveList, ctx: &Context, h: &Heuristics) -> Picker {
        let mut picker = Picker {
            moves,
            scores: [0; 128],
            next: 0,
            stage: Stage::Picking,
        };
        picker.score(pos, ctx, h);
        picker
    }

    /// Scores the listed moves.
    fn score(&mut self, pos: &Position, ctx: &Context, h: &Heuristics) {
        let threats = (ctx.threat_order > 0).then(|| Threats::of(pos));
        for (i, m) in self.moves.iter().enumerate() {
            self.scores[i] = if Some(m) == ctx.tt_move {
                HASH_MOVE
            } else if is_capture(pos, m) {
                let s = capture_score(pos, m) + h.capture_history(pos, m) / 8;
                if s >= 0 {
                    GOOD_CAPTURE + s
                } else {
                    s
                }
            } else if Some(m) == ctx.killers[0] {
                KILLER
            } else if Some(m) == ctx.killers[1] {
                KILLER_2
            } else if Some(m) == ctx.counter {
                COUNTER_MOVE
            } else {
                let escape = threats
                    .as_ref()
                    .map_or(0, |t| t.bonus(pos, m, ctx.threat_order));
                h.quiet_score(&ctx.cont, pos, m) + escape
            };
        }
    }

    /// Hands out `tt_move`, a legal move, before generating the others: a node that the hash
    /// move cuts off never generates or scores the rest. The moves after it come in the order
    /// of `Picker::new`, scored once the hash move's search is over.
    pub fn hash_first(tt_move: Move) -> Picker {
        Picker {
            moves: MoveList::new(),
            scores: [0; 128],
            next: 0,
            stage: Stage::HashMove(tt_move),
        }
    }

    /// The next move of a node's search and its ordering score: the hash move first when the
    /// picker was made by [`Picker::hash_first`], then the legal moves of `pos`, scored by `ctx`
    /// (whose hash move is that move) and `h`.
    pub fn next_move(
        &mut self,
        pos: &Position,
        ctx: &Context,
        h: &Heuristics,
    ) -> Option<(Move, i32)> {
        match self.stage {
            Stage::HashMove(m) => {
                self.stage = Stage::Generate(m);
                return Some((m, HASH_MOVE));
            }
            Stage::Generate(m) => {
                self.moves = pos.legal_moves_with(ctx.in_check);
                self.score(pos, ctx, h);
                self.stage = Stage::Picking;
                // The hash move scores highest, so it is the first pick: it was searched.
                let first = self.pick();
                debug_assert_eq!(first.map(|(f, _)| f), Some(m));
            }
            Stage::Picking => {}
        }
        self.pick()
    }

    /// Orders captures only (quiescence): MVV-LVA, after `tt_move` when it is listed.
    pub fn captures(pos: &Position, moves: MoveList, tt_move: Option<Move>) -> Picker {
        let mut scores = [0i32; 128];
        for (i, m) in moves.iter().enumerate() {
            scores[i] = if Some(m) == tt_move {
                HASH_MOVE
            } else if is_capture(pos, m) {
                capture_score(pos, m)
            } else {
                QUIET_IN_QUIESCENCE
            };
        }
        Picker {
            moves,
            scores,
            next: 0,
            stage: Stage::Picking,
        }
    }

    /// The next best move and its ordering score.
    pub fn pick(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        // The best score is kept in hand while scanning (the first of equals wins, as before).
        let (mut best, mut top) = (self.next, self.scores[self.next]);
        for (i, &s) in self.scores[..n].iter().enumerate().skip(self.next + 1) {
            if s > top {
                (best, top) = (i, s);
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let r = (self.moves.get(self.next), self.scores[self.next]);
        self.next += 1;
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::{Context, Heuristics, Picker, Threats, HASH_MOVE};
    use crate::board::{random_walk_positions, Move, Position};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Every move a picker hands out, in order, with `next_move`.
    fn drain(mut p: Picker, pos: &Position, ctx: &Context, h: &Heuristics) -> Vec<(Move, i32)> {
        std::iter::from_fn(|| p.next_move(pos, ctx, h)).collect()
    }

    #[test]
    fn the_hash_move_first_then_the_same_order_as_a_full_list() {
        let mut rng = StdRng::seed_from_u64(11);
        let h = Heuristics::new(8);
        let positions = random_walk_positions(11, 20, 80);
        for (i, pos) in positions.iter().enumerate() {
            let legal = pos.legal_moves();
            let tt = legal.get(rng.random_range(0..legal.len()));
            let ctx = Context {
                tt_move: Some(tt),
                killers: [None; 2],
                counter: None,
                cont: [None; 2],
                in_check: pos.in_check(),
                // Every other position with the threats in the quiet moves' order.
                threat_order: if i % 2 == 0 { 0 } else { 16000 },
            };
            let full = drain(Picker::new(pos, legal.clone(), &ctx, &h), pos, &ctx, &h);
            let staged = drain(Picker::hash_first(tt), pos, &ctx, &h);
            assert_eq!(staged[0], (tt, HASH_MOVE));
            assert_eq!(staged, full, "{pos:?}");
            assert_eq!(staged.len(), legal.len());
        }
        assert!(positions.len() > 1000, "{} positions", positions.len());
    }

    #[test]
    fn quiescence_hands_out_a_listed_hash_move_first_then_mvv_lva() {
        let mut rng = StdRng::seed_from_u64(12);
        let mut tested = 0;
        for pos in random_walk_positions(12, 20, 80) {
            let captures = pos.legal_captures_with(false);
            if captures.len() < 2 {
                continue;
            }
            let tt = captures.get(rng.random_range(0..captures.len()));
            let mut with = Picker::captures(&pos, captures.clone(), Some(tt));
            assert_eq!(with.pick(), Some((tt, HASH_MOVE)), "{pos:?}");
            // The rest best first, with the scores they have without a hash move.
            let rest: Vec<(Move, i32)> = std::iter::from_fn(|| with.pick()).collect();
            assert!(rest.windows(2).all(|w| w[0].1 >= w[1].1), "{pos:?}");
            let mut without = Picker::captures(&pos, captures.clone(), None);
            let mut plain: Vec<(Move, i32)> = std::iter::from_fn(|| without.pick())
                .filter(|&(m, _)| m != tt)
                .collect();
            let mut sorted = rest.clone();
            sorted.sort_by_key(|&(m, _)| m.raw());
            plain.sort_by_key(|&(m, _)| m.raw());
            assert_eq!(sorted, plain, "{pos:?}");
            // A hash move that is not listed (a quiet one) changes nothing.
            let quiet = pos.legal_moves().iter().find(|&m| !captures.contains(m));
            if let Some(q) = quiet {
                let mut other = Picker::captures(&pos, captures.clone(), Some(q));
                let all: Vec<Move> = std::iter::from_fn(|| other.pick())
                    .map(|(m, _)| m)
                    .collect();
                assert_eq!(all.len(), captures.len());
                assert!(!all.contains(&q));
            }
            tested += 1;
        }
        assert!(tested > 200, "{tested} positions with captures");
    }

    #[test]
    fn a_rook_gains_by_leaving_a_horses_attack_and_loses_by_walking_into_a_cannons() {
        // A black horse on b7 attacks the red rook on a5 (and c5); a black cannon on i9 aims
        // over the pawn on i6 at i5 down to i0.
        let pos = Position::from_fen("5k2c/9/1n7/8p/R8/9/7R1/9/9/3K5 w").unwrap();
        let t = Threats::of(&pos);
        let bonus = |text: &str| t.bonus(&pos, pos.parse_move(text).unwrap(), 1000);
        assert_eq!(bonus("a5a4"), 1000, "out of the horse's attack");
        assert_eq!(bonus("a5b5"), 1000);
        assert_eq!(bonus("a5c5"), -1000, "from one attack into another");
        assert_eq!(bonus("h3i3"), -1000, "past the cannon's screen");
        assert_eq!(bonus("h3h4"), 0);
        assert_eq!(bonus("d0e0"), 0, "the general never");
    }
}
