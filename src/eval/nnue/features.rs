//! Input features, in four sets.
//!
//! - `Features::Plain`: one input per (piece kind, colour relative to the perspective, square
//!   as the perspective sees it), 7 · 2 · 90 = 1260 per perspective. No input depends on the
//!   general's square, so no move ever needs a refresh.
//! - `Features::KingBuckets`: the same 1260 inputs once per bucket of the perspective's own
//!   general, 6 · 1260 = 7560, in the spirit of HalfKA. The general has nine palace squares;
//!   the board is symmetric left to right, so a general on file f is seen mirrored (on file d),
//!   which leaves files d and e times three ranks: six buckets. Every move of a general changes
//!   its bucket (no palace step keeps both its rank and its file class), so it refreshes that
//!   perspective's accumulator.
//!
//! - `Features::Threats`: the king-bucket inputs, and beside them one input per attack on an
//!   enemy piece: (attacker's colour relative to the perspective, attacker's kind, attacked
//!   kind, attacked square as the perspective sees it), 2 · 7 · 7 · 90 = 8820 more, in the
//!   spirit of Pikafish's "FullThreats". A piece attacks what it could capture, pins aside (as
//!   `chase::attacks` has it: a cannon over its screen, a horse or elephant whose leg or eye is
//!   free, the generals facing each other). The threat inputs are not mirrored and do not
//!   depend on the general's square, so a move of the general refreshes only the king-bucket
//!   part. A game position has at most 136 of them (68 a side); the positions `bench`
//!   evaluates have 3.4 on average.
//! - `Features::ThreatKinds`: the same attacks without the attacked square, (relative colour,
//!   attacker's kind, attacked kind), 2 · 7 · 7 = 98 inputs beside the king-bucket ones, each
//!   active once per attack of its kind (two pawns attacking two horses make one input count
//!   twice). Its rows are few enough to stay in the processor's nearest caches, where the
//!   square-wise rows (8820 of them) are read from far memory at every update. Its threats
//!   are counted afresh by kind at each evaluated position (`KindCounts`), with no list to
//!   carry over the moves: finding the threats, not adding their rows, is what costs.
//!
//! Black's view is the board with its ranks flipped (`Square::relative`), so both perspectives
//! see their own pieces at the bottom and their own pieces first: the network is the same for
//! both sides.

use crate::board::{attacks, chase, Bitboard, Color, Piece, PieceKind, Position, Square};

/// Inputs per perspective of the plain set (and per bucket of the king-bucket set).
pub const INPUTS: usize = 7 * 2 * 90;

/// Buckets of the king-bucket set: files d and e (f mirrored onto d) times three ranks.
pub const KING_BUCKETS: usize = 6;

/// Threat inputs per perspective: (relative colour, attacker kind, attacked kind, square).
pub const THREAT_INPUTS: usize = 2 * 7 * 7 * 90;

/// Threat inputs per perspective of `ThreatKinds`: (relative colour, attacker kind, attacked
/// kind).
pub const THREAT_KIND_INPUTS: usize = 2 * 7 * 7;

/// Room for the threats of one position: at most 68 a side in a game (two rooks, cannons,
/// horses, elephants and advisors, a general and five pawns); a set-up position with more
/// pieces keeps its first `MAX_THREATS`, the same way every time.
pub const MAX_THREATS: usize = 256;

/// Which input features a network reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Features {
    /// (piece kind, relative colour, square): 1260 inputs.
    Plain,
    /// The plain inputs per bucket of the perspective's own general: 7560 inputs.
    KingBuckets,
    /// The king-bucket inputs and the threat inputs: 7560 + 8820 = 16380 inputs.
    Threats,
    /// The king-bucket inputs and the threats by kind alone: 7560 + 98 = 7658 inputs.
    ThreatKinds,
}

impl Features {
    /// Every feature set, in the order of their ids.
    pub const ALL: [Features; 4] = [
        Features::Plain,
        Features::KingBuckets,
        Features::Threats,
        Features::ThreatKinds,
    ];

    /// Inputs per perspective.
    pub const fn inputs(self) -> usize {
        match self {
            Features::Plain => INPUTS,
            Features::KingBuckets => KING_BUCKETS * INPUTS,
            Features::Threats => KING_BUCKETS * INPUTS + THREAT_INPUTS,
            Features::ThreatKinds => KING_BUCKETS * INPUTS + THREAT_KIND_INPUTS,
        }
    }

    /// Inputs per perspective that stand for pieces (all but the threats).
    pub const fn piece_inputs(self) -> usize {
        match self {
            Features::Plain => INPUTS,
            Features::KingBuckets | Features::Threats | Features::ThreatKinds => {
                KING_BUCKETS * INPUTS
            }
        }
    }

    /// Whether the set has threat inputs.
    pub const fn has_threats(self) -> bool {
        matches!(self, Features::Threats | Features::ThreatKinds)
    }

    /// The id written in a network file's header.
    pub const fn id(self) -> u16 {
        match self {
            Features::Plain => 0,
            Features::KingBuckets => 1,
            Features::Threats => 2,
            Features::ThreatKinds => 3,
        }
    }

    /// The set of a header's id.
    pub fn from_id(id: u16) -> Option<Features> {
        Features::ALL.into_iter().find(|f| f.id() == id)
    }

    /// The name used on the command line (`plain`, `king`, `threats`, `threat-kinds`).
    pub const fn name(self) -> &'static str {
        match self {
            Features::Plain => "plain",
            Features::KingBuckets => "king",
            Features::Threats => "threats",
            Features::ThreatKinds => "threat-kinds",
        }
    }

    /// Whether a move of the perspective's own general needs a refresh.
    pub const fn king_relative(self) -> bool {
        !matches!(self, Features::Plain)
    }

    /// How `perspective` sees the board when its own general stands on `king`.
    #[inline(always)]
    pub fn view(self, perspective: Color, king: Square) -> View {
        match self {
            Features::Plain => View {
                perspective,
                base: 0,
                mirror: false,
                threat_squares: false,
            },
            Features::KingBuckets | Features::Threats | Features::ThreatKinds => {
                let k = king.relative(perspective);
                let mirror = k.file() > 4;
                let file = if mirror { 8 - k.file() } else { k.file() };
                // A general stays in its palace (files d–f, ranks 0–2 of its side); clamping
                // keeps a position set up with it elsewhere in range.
                let bucket = (k.rank().min(2) as usize) * 2 + (file == 4) as usize;
                View {
                    perspective,
                    base: bucket * INPUTS,
                    mirror,
                    threat_squares: self == Features::Threats,
                }
            }
        }
    }

    /// The view of `perspective` in `pos`.
    #[inline(always)]
    pub fn view_of(self, pos: &Position, perspective: Color) -> View {
        self.view(perspective, pos.king(perspective))
    }
}

/// One perspective's way of numbering the inputs: its colour, its bucket's first input,
/// whether files are mirrored and whether a threat's input tells the attacked square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    perspective: Color,
    base: usize,
    mirror: bool,
    threat_squares: bool,
}

impl View {
    /// The input index of `piece` on `sq`.
    #[inline(always)]
    pub fn index(self, piece: Piece, sq: Square) -> usize {
        let theirs = (piece.color() != self.perspective) as usize;
        let rel = sq.relative(self.perspective).index();
        let rel = if self.mirror {
            rel + 8 - 2 * (rel % 9)
        } else {
            rel
        };
        self.base + (theirs * 7 + piece.kind().index()) * 90 + rel
    }

    /// A number for the view's bucket and mirror, below `2 · inputs / INPUTS`.
    #[inline(always)]
    pub fn slot(self) -> usize {
        self.base / INPUTS * 2 + self.mirror as usize
    }

    /// The active piece inputs of `pos` in this view, in ascending square order.
    pub fn active(self, pos: &Position) -> impl Iterator<Item = usize> + '_ {
        Square::all().filter_map(move |sq| pos.piece_at(sq).map(|p| self.index(p, sq)))
    }

    /// The input index of `threat` in this view (a threat set's view).
    #[inline(always)]
    pub fn threat_index(self, threat: Threat) -> usize {
        let attacker = threat.attacker();
        let (ours, kind) = if attacker < 7 {
            (self.perspective == Color::Red, attacker)
        } else {
            (self.perspective == Color::Black, attacker - 7)
        };
        let kinds = (!ours as usize * 7 + kind) * 7 + threat.victim();
        if !self.threat_squares {
            return KING_BUCKETS * INPUTS + kinds;
        }
        let sq = Square::from_index_unchecked(threat.to())
            .relative(self.perspective)
            .index();
        KING_BUCKETS * INPUTS + kinds * 90 + sq
    }
}

/// One attack on an enemy piece, the same for both perspectives, packed as
/// `(attacker colour · 7 + attacker kind, attacker square, attacked square, attacked kind)`
/// from the high bits down: the order in which `Threats::compute` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Threat(u32);

impl Threat {
    #[inline(always)]
    fn new(attacker: usize, from: Square, to: Square, victim: usize) -> Threat {
        Threat((attacker << 17 | from.index() << 10 | to.index() << 3 | victim) as u32)
    }

    /// The attacker as `colour · 7 + kind`.
    #[inline(always)]
    fn attacker(self) -> usize {
        (self.0 >> 17) as usize
    }

    /// The attacker's square index.
    #[inline(always)]
    fn from(self) -> usize {
        (self.0 >> 10 & 0x7F) as usize
    }

    /// The attacked square's index.
    #[inline(always)]
    fn to(self) -> usize {
        (self.0 >> 3 & 0x7F) as usize
    }

    /// The attacked piece's kind index.
    #[inline(always)]
    fn victim(self) -> usize {
        (self.0 & 7) as usize
    }

    /// A threat of the given `kinds`, `attacker << 3 | attacked kind` (the attacker as
    /// `colour · 7 + kind`), its squares left zero: what a `ThreatKinds` input tells.
    #[inline(always)]
    fn of_kinds(kinds: u32) -> Threat {
        Threat(kinds >> 3 << 17 | kinds & 7)
    }
}

/// The `ThreatKinds` inputs of a position with their counts: how many attacks each attacker
/// (colour and kind) makes on each kind of enemy piece, `[colour · 7 + kind][attacked kind]`
/// (the eighth column is padding). Counted afresh from the pieces' attack sets, with no list:
/// the same counts as `Threats::compute`'s list, which a game position never fills.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct KindCounts([[u8; 8]; 14]);

impl KindCounts {
    /// The counts of `pos`: each piece's attacks on enemy pieces (as `chase::attacks_of` has
    /// them), a horse's or an elephant's looked up only when an enemy piece stands in its
    /// reach.
    #[inline]
    pub fn of(pos: &Position) -> KindCounts {
        use PieceKind::*;
        let mut counts = [[0u8; 8]; 14];
        let occ = pos.occupied();
        for color in [Color::Red, Color::Black] {
            let enemy = pos.color_bb(!color);
            let rows = &mut counts[color.index() * 7..color.index() * 7 + 7];
            let mut count = |kind: PieceKind, targets: Bitboard| {
                for to in targets & enemy {
                    if let Some(victim) = pos.piece_at(to) {
                        rows[kind.index()][victim.kind().index()] += 1;
                    }
                }
            };
            let pieces = |kind| pos.pieces(color, kind);
            for from in pieces(Rook) {
                count(Rook, attacks::rook(from, occ));
            }
            for from in pieces(Cannon) {
                count(Cannon, attacks::cannon(from, occ));
            }
            for from in pieces(Horse) {
                if (attacks::HORSE_RANGE[from.index()] & enemy).any() {
                    count(Horse, attacks::horse(from, occ));
                }
            }
            for from in pieces(Elephant) {
                if (attacks::ELEPHANT_RANGE[from.index()] & enemy).any() {
                    count(Elephant, attacks::elephant(from, occ));
                }
            }
            for from in pieces(Advisor) {
                count(Advisor, attacks::ADVISOR_STEPS[from.index()]);
            }
            for from in pieces(Pawn) {
                count(Pawn, attacks::PAWN_STEPS[color.index()][from.index()]);
            }
            for from in pieces(King) {
                count(
                    King,
                    chase::attacks_of(pos, Piece::new(color, King), from, occ),
                );
            }
        }
        KindCounts(counts)
    }

    /// For each kind of threat that `self` counts more of than `before`, that many threats of
    /// the kind (`Threat::of_kinds`) go to `added`; the other way, to `removed`.
    #[inline]
    pub fn diff(&self, before: &KindCounts, added: &mut Vec<Threat>, removed: &mut Vec<Threat>) {
        if self == before {
            return;
        }
        for (attacker, (new, old)) in self.0.iter().zip(&before.0).enumerate() {
            if new == old {
                continue;
            }
            for (victim, (&n, &o)) in new.iter().zip(old).enumerate() {
                let t = Threat::of_kinds((attacker << 3 | victim) as u32);
                (o..n).for_each(|_| added.push(t));
                (n..o).for_each(|_| removed.push(t));
            }
        }
    }
}

/// The threats of one position, in the order of their packing.
#[derive(Clone)]
pub struct Threats {
    len: usize,
    list: [Threat; MAX_THREATS],
}

impl Default for Threats {
    fn default() -> Threats {
        Threats {
            len: 0,
            list: [Threat::default(); MAX_THREATS],
        }
    }
}

impl Threats {
    /// The threats of `pos`.
    pub fn of(pos: &Position) -> Threats {
        let mut t = Threats::default();
        t.compute(pos);
        t
    }

    /// Fills this list with the threats of `pos`: by attacker colour, kind and square, then
    /// by attacked square.
    pub fn compute(&mut self, pos: &Position) {
        self.len = 0;
        for color in [Color::Red, Color::Black] {
            for kind in PieceKind::ALL {
                for from in pos.pieces(color, kind) {
                    self.push_attacks(pos, Piece::new(color, kind), from);
                }
            }
        }
    }

    /// Fills this list with the threats of `pos`, a position that differs from the one whose
    /// threats are `parent` on the points `changed` alone (the squares a few moves left and
    /// reached): the parent's threats but those of the pieces whose attacks may have changed
    /// (on `changed`, the rooks, cannons and generals on the lines through it, the horses with
    /// a leg and the elephants with an eye on it) and those on `changed`; then the attacks of
    /// those pieces and the other attacks on `changed`. The same list as `compute`'s.
    pub fn after(&mut self, parent: &Threats, pos: &Position, changed: Bitboard) {
        if parent.len == MAX_THREATS {
            // A list that may have been cut short: count again.
            self.compute(pos);
            return;
        }
        let occ = pos.occupied();
        let kinds = |k: PieceKind| pos.kind_bb(k);
        let (mut lines, mut legs, mut eyes) = (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
        for sq in changed {
            let i = sq.index();
            lines |= attacks::RANK_LINE[i] | attacks::FILE_LINE[i];
            legs |= attacks::ORTHOGONAL_NEIGHBOURS[i];
            eyes |= attacks::DIAGONAL_NEIGHBOURS[i];
        }
        let moved = (lines
            & (kinds(PieceKind::Rook) | kinds(PieceKind::Cannon) | kinds(PieceKind::King)))
            | (legs & kinds(PieceKind::Horse))
            | (eyes & kinds(PieceKind::Elephant))
            | (changed & occ);
        let gone = moved | changed;
        self.len = 0;
        for &t in parent.as_slice() {
            let (x, y) = (t.from(), t.to());
            let (x, y) = (
                Square::from_index_unchecked(x),
                Square::from_index_unchecked(y),
            );
            if !gone.has(x) && !changed.has(y) {
                self.list[self.len] = t;
                self.len += 1;
            }
        }
        for x in moved {
            if let Some(piece) = pos.piece_at(x) {
                self.push_attacks(pos, piece, x);
            }
        }
        // The attacks on the pieces on `changed` by pieces whose attacks did not change: rooks,
        // cannons and generals that reach them stand on their lines, so they are in `moved`.
        for to in changed & occ {
            let Some(victim) = pos.piece_at(to) else {
                continue;
            };
            let by = !victim.color();
            let i = to.index();
            let pieces = |k: PieceKind| pos.pieces(by, k) & !moved;
            // Elephants and horses only when one stands near enough to matter.
            let elephants = pieces(PieceKind::Elephant) & attacks::ELEPHANT_RANGE[i];
            let horses = pieces(PieceKind::Horse) & attacks::HORSE_RANGE[i];
            let attackers = [
                (PieceKind::Pawn, attacks::PAWN_ATTACKERS[by.index()][i]),
                (PieceKind::Advisor, attacks::ADVISOR_STEPS[i]),
                (
                    PieceKind::Elephant,
                    if elephants.any() {
                        attacks::elephant(to, occ)
                    } else {
                        Bitboard::EMPTY
                    },
                ),
                (
                    PieceKind::Horse,
                    if horses.any() {
                        attacks::horse_attackers(to, occ)
                    } else {
                        Bitboard::EMPTY
                    },
                ),
            ];
            for (kind, reach) in attackers {
                for x in reach & pieces(kind) {
                    let attacker = by.index() * 7 + kind.index();
                    self.push(Threat::new(attacker, x, to, victim.kind().index()));
                }
            }
        }
        if self.len == MAX_THREATS {
            self.compute(pos);
        } else {
            self.list[..self.len].sort_unstable();
        }
    }

    /// Adds the threats of `piece` on `from`.
    #[inline(always)]
    fn push_attacks(&mut self, pos: &Position, piece: Piece, from: Square) {
        let occ = pos.occupied();
        let (color, kind) = (piece.color(), piece.kind());
        let targets = chase::attacks_of(pos, piece, from, occ) & pos.color_bb(!color);
        let attacker = color.index() * 7 + kind.index();
        for to in targets {
            if let Some(victim) = pos.piece_at(to) {
                self.push(Threat::new(attacker, from, to, victim.kind().index()));
            }
        }
    }

    #[inline(always)]
    fn push(&mut self, t: Threat) {
        if self.len < MAX_THREATS {
            self.list[self.len] = t;
            self.len += 1;
        }
    }

    /// The threats, in order.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Threat] {
        &self.list[..self.len]
    }

    /// Calls `added` for each threat of `self` not in `before` and `removed` for each of
    /// `before` not in `self` (a merge of the two ordered lists).
    #[inline]
    pub fn diff(
        &self,
        before: &Threats,
        mut added: impl FnMut(Threat),
        mut removed: impl FnMut(Threat),
    ) {
        let (new, old) = (self.as_slice(), before.as_slice());
        let (mut i, mut j) = (0, 0);
        while i < new.len() && j < old.len() {
            match new[i].cmp(&old[j]) {
                std::cmp::Ordering::Equal => (i, j) = (i + 1, j + 1),
                std::cmp::Ordering::Less => {
                    added(new[i]);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    removed(old[j]);
                    j += 1;
                }
            }
        }
        new[i..].iter().for_each(|&t| added(t));
        old[j..].iter().for_each(|&t| removed(t));
    }
}

/// Every active input of `pos` from `perspective` under `features`: the pieces, then the
/// threats (the trainer's and the tests' way; the search updates them incrementally).
pub fn all_active(features: Features, pos: &Position, perspective: Color) -> Vec<usize> {
    let view = features.view_of(pos, perspective);
    let mut v: Vec<usize> = view.active(pos).collect();
    if features.has_threats() {
        v.extend(
            Threats::of(pos)
                .as_slice()
                .iter()
                .map(|&t| view.threat_index(t)),
        );
    }
    v
}

/// The plain input index of `piece` on `sq` seen from `perspective`.
#[inline(always)]
pub fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    Features::Plain
        .view(perspective, Square::from_index_unchecked(0))
        .index(piece, sq)
}

/// The active plain inputs of `pos` from `perspective`, in ascending square order.
pub fn active(pos: &Position, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    Features::Plain.view_of(pos, perspective).active(pos)
}

/// Whether `piece` is a general of `color`.
#[inline(always)]
pub fn is_king_of(piece: Piece, color: Color) -> bool {
    piece.kind() == PieceKind::King && piece.color() == color
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_distinct_and_mirrored() {
        let mut seen = vec![false; INPUTS];
        for c in [Color::Red, Color::Black] {
            for k in PieceKind::ALL {
                for sq in Square::all() {
                    let i = index(Color::Red, Piece::new(c, k), sq);
                    assert!(!seen[i]);
                    seen[i] = true;
                    // Black sees the colour-swapped, rank-flipped board the way Red sees this.
                    assert_eq!(index(Color::Black, Piece::new(!c, k), sq.flip_rank()), i);
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        // The start position looks the same from both sides.
        let pos = Position::startpos();
        let mut red: Vec<usize> = active(&pos, Color::Red).collect();
        let mut black: Vec<usize> = active(&pos, Color::Black).collect();
        red.sort_unstable();
        black.sort_unstable();
        assert_eq!(red, black);
        assert_eq!(red.len(), 32);
    }

    #[test]
    fn king_buckets_cover_the_palace_with_mirrors() {
        let set = Features::KingBuckets;
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let mut bases = std::collections::HashSet::new();
        for file in ["d", "e", "f"] {
            for rank in 0..3 {
                let red = set.view(Color::Red, sq(&format!("{file}{rank}")));
                // Black's general on the rank-flipped square sees the same.
                let black = set.view(Color::Black, sq(&format!("{file}{}", 9 - rank)));
                assert_eq!((red.base, red.mirror), (black.base, black.mirror));
                assert_eq!(red.mirror, file == "f");
                bases.insert(red.base);
            }
        }
        assert_eq!(bases.len(), KING_BUCKETS);
        assert!(bases.iter().all(|&b| b % INPUTS == 0 && b < set.inputs()));
        // Mirrored: a piece on c3 seen with the general on f0 is the piece on g3 seen with the
        // general on d0.
        let rook = Piece::new(Color::Red, PieceKind::Rook);
        let (f0, d0) = (
            set.view(Color::Red, sq("f0")),
            set.view(Color::Red, sq("d0")),
        );
        assert_eq!(f0.index(rook, sq("c3")), d0.index(rook, sq("g3")));
        assert_eq!(f0.index(rook, sq("e3")), d0.index(rook, sq("e3")));
        // Every index of every view is in range and distinct within the view.
        for k in ["d0", "e1", "f2"] {
            let v = set.view(Color::Black, sq(k).flip_rank());
            let mut seen = std::collections::HashSet::new();
            for c in [Color::Red, Color::Black] {
                for kind in PieceKind::ALL {
                    for s in Square::all() {
                        let i = v.index(Piece::new(c, kind), s);
                        assert!(i < set.inputs());
                        assert!(seen.insert(i));
                    }
                }
            }
        }
        for f in Features::ALL {
            assert_eq!(Features::from_id(f.id()), Some(f));
        }
        assert_eq!(Features::from_id(7), None);
    }

    #[test]
    fn kind_counts_are_the_listed_threats_by_kind() {
        let mut positions = crate::board::random_walk_positions(52, 40, 120);
        assert!(positions.len() > 4000);
        // A general beside an enemy piece, and generals on one file with a screen between.
        for fen in ["3k5/3P5/9/9/9/9/9/9/9/3K5 b", "3k5/9/9/9/3n5/9/9/9/9/3K5 w"] {
            positions.push(fen.parse().unwrap());
        }
        let (mut with_threats, mut previous) = (0, KindCounts::default());
        for pos in &positions {
            let counts = KindCounts::of(pos);
            let mut want = [[0u8; 8]; 14];
            for t in Threats::of(pos).as_slice() {
                want[t.attacker()][t.victim()] += 1;
            }
            assert_eq!(counts.0, want, "{pos}");
            with_threats += usize::from(counts != KindCounts::default());
            // The diff from the position before turns its counts into these.
            let (mut added, mut removed) = (Vec::new(), Vec::new());
            counts.diff(&previous, &mut added, &mut removed);
            let mut have = previous.0;
            added
                .iter()
                .for_each(|t| have[t.attacker()][t.victim()] += 1);
            removed
                .iter()
                .for_each(|t| have[t.attacker()][t.victim()] -= 1);
            assert_eq!(have, want, "{pos}");
            previous = counts;
        }
        // Random games attack often: the counts are not all zero.
        assert!(with_threats > positions.len() / 2, "{with_threats}");
    }

    #[test]
    fn threats_are_ordered_alike_from_both_sides_and_diffed() {
        let fens = [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "4k4/9/9/9/4r4/4R4/9/9/9/3K5 w",
            "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN3NC1/9/R1BAKAB1R b",
            "3k5/4a4/4b4/p8/9/6R2/P8/4B4/4K4/9 w",
            "2bakab2/9/4c4/9/9/9/4C4/9/9/3K5 b",
        ];
        let set = Features::Threats;
        let lists: Vec<Threats> = fens
            .iter()
            .map(|f| Threats::of(&f.parse().unwrap()))
            .collect();
        // At the start each cannon attacks a horse over the other cannon; the two rooks attack
        // each other; the cannon over its screen attacks the general (the one threat of the
        // last position).
        assert_eq!(lists[0].as_slice().len(), 4);
        assert_eq!(lists[1].as_slice().len(), 2);
        // With the horses out, only Red's h-file cannon reaches a piece: the rook on h9.
        assert_eq!(lists[2].as_slice().len(), 1);
        assert_eq!(lists[4].as_slice().len(), 1);
        for (fen, list) in fens.iter().zip(&lists) {
            let t = list.as_slice();
            assert!(
                t.windows(2).all(|w| w[0] < w[1]),
                "{fen}: ordered, no repeats"
            );
            // Red's view of the position is Black's view of the flipped one.
            let pos: Position = fen.parse().unwrap();
            let flip = pos.colour_flipped().unwrap();
            let indices = |pos: &Position, c| {
                let mut v = all_active(set, pos, c);
                v.sort_unstable();
                v
            };
            for c in [Color::Red, Color::Black] {
                let v = indices(&pos, c);
                assert_eq!(v, indices(&flip, !c), "{fen}");
                let threats = &v[v.len() - t.len()..];
                assert!(threats
                    .iter()
                    .all(|&i| (set.piece_inputs()..set.inputs()).contains(&i)));
                if let Some(i) = v.len().checked_sub(t.len() + 1) {
                    assert!(v[i] < set.piece_inputs());
                }
            }
        }
        // A diff turns one list into the other.
        for a in &lists {
            for b in &lists {
                let (mut added, mut removed) = (Vec::new(), Vec::new());
                a.diff(b, |t| added.push(t), |t| removed.push(t));
                let mut have: Vec<Threat> = b.as_slice().to_vec();
                have.retain(|t| !removed.contains(t));
                have.extend(added);
                have.sort_unstable();
                assert_eq!(have, a.as_slice());
            }
        }
    }
}
