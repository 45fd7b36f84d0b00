//! A slow, obviously-correct reference move generator on a plain mailbox, written from the
//! rules text alone (no tables, no bitboards), to cross-check the fast generator.

use chariot::board::{Color, Move, PieceKind, Position, Square};

type Cell = Option<(Color, PieceKind)>;

/// The board as `[rank][file]`.
pub struct Mailbox {
    cells: [[Cell; 9]; 10],
    side: Color,
}

impl Mailbox {
    pub fn from_position(pos: &Position) -> Mailbox {
        let mut cells = [[None; 9]; 10];
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                cells[sq.rank() as usize][sq.file() as usize] = Some((p.color(), p.kind()));
            }
        }
        Mailbox {
            cells,
            side: pos.side_to_move(),
        }
    }

    fn at(&self, f: i32, r: i32) -> Option<Cell> {
        if (0..9).contains(&f) && (0..10).contains(&r) {
            Some(self.cells[r as usize][f as usize])
        } else {
            None
        }
    }

    fn in_palace(c: Color, f: i32, r: i32) -> bool {
        (3..=5).contains(&f)
            && match c {
                Color::Red => (0..=2).contains(&r),
                Color::Black => (7..=9).contains(&r),
            }
    }

    fn own_half(c: Color, r: i32) -> bool {
        match c {
            Color::Red => r <= 4,
            Color::Black => r >= 5,
        }
    }

    /// Squares the piece on (f, r) may move to by its movement rule (captures of enemy pieces
    /// included, own pieces excluded), ignoring king safety.
    fn targets(&self, f: i32, r: i32) -> Vec<(i32, i32)> {
        let Some(Some((c, k))) = self.at(f, r) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let free_or_enemy = |tf: i32, tr: i32| match self.at(tf, tr) {
            Some(None) => true,
            Some(Some((oc, _))) => oc != c,
            None => false,
        };
        let empty = |tf: i32, tr: i32| matches!(self.at(tf, tr), Some(None));
        match k {
            PieceKind::King => {
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let (tf, tr) = (f + df, r + dr);
                    if Self::in_palace(c, tf, tr) && free_or_enemy(tf, tr) {
                        out.push((tf, tr));
                    }
                }
            }
            PieceKind::Advisor => {
                for (df, dr) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                    let (tf, tr) = (f + df, r + dr);
                    if Self::in_palace(c, tf, tr) && free_or_enemy(tf, tr) {
                        out.push((tf, tr));
                    }
                }
            }
            PieceKind::Elephant => {
                for (df, dr) in [(2, 2), (-2, 2), (2, -2), (-2, -2)] {
                    let (tf, tr) = (f + df, r + dr);
                    if self.at(tf, tr).is_some()
                        && Self::own_half(c, tr)
                        && empty(f + df / 2, r + dr / 2)
                        && free_or_enemy(tf, tr)
                    {
                        out.push((tf, tr));
                    }
                }
            }
            PieceKind::Horse => {
                let jumps: [(i32, i32); 8] = [
                    (1, 2),
                    (-1, 2),
                    (1, -2),
                    (-1, -2),
                    (2, 1),
                    (2, -1),
                    (-2, 1),
                    (-2, -1),
                ];
                for (df, dr) in jumps {
                    let leg = if dr.abs() == 2 {
                        (f, r + dr / 2)
                    } else {
                        (f + df / 2, r)
                    };
                    let (tf, tr) = (f + df, r + dr);
                    if self.at(tf, tr).is_some() && empty(leg.0, leg.1) && free_or_enemy(tf, tr) {
                        out.push((tf, tr));
                    }
                }
            }
            PieceKind::Rook | PieceKind::Cannon => {
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let (mut tf, mut tr) = (f + df, r + dr);
                    let mut screen = false;
                    while let Some(cell) = self.at(tf, tr) {
                        match (cell, k, screen) {
                            (None, _, false) => out.push((tf, tr)),
                            (None, _, true) => {}
                            (Some((oc, _)), PieceKind::Rook, _) => {
                                if oc != c {
                                    out.push((tf, tr));
                                }
                                break;
                            }
                            (Some(_), _, false) => screen = true,
                            (Some((oc, _)), _, true) => {
                                if oc != c {
                                    out.push((tf, tr));
                                }
                                break;
                            }
                        }
                        tf += df;
                        tr += dr;
                    }
                }
            }
            PieceKind::Pawn => {
                let fwd = if c == Color::Red { 1 } else { -1 };
                let mut steps = vec![(0, fwd)];
                if !Self::own_half(c, r) {
                    steps.push((1, 0));
                    steps.push((-1, 0));
                }
                for (df, dr) in steps {
                    let (tf, tr) = (f + df, r + dr);
                    if free_or_enemy(tf, tr) {
                        out.push((tf, tr));
                    }
                }
            }
        }
        out
    }

    /// Whether `c`'s king can be captured by the other side or faces the other king.
    fn king_exposed(&self, c: Color) -> bool {
        let mut kings = [(0, 0); 2];
        for r in 0..10 {
            for f in 0..9 {
                if let Some((kc, PieceKind::King)) = self.cells[r as usize][f as usize] {
                    kings[kc as usize] = (f, r);
                }
            }
        }
        let (kf, kr) = kings[c as usize];
        let (of, or) = kings[c.flip() as usize];
        if kf == of {
            let (lo, hi) = (kr.min(or), kr.max(or));
            if (lo + 1..hi).all(|r| self.cells[r as usize][kf as usize].is_none()) {
                return true;
            }
        }
        for r in 0..10 {
            for f in 0..9 {
                if let Some((pc, _)) = self.cells[r as usize][f as usize] {
                    if pc != c && self.targets(f, r).contains(&(kf, kr)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        for r in 0..10 {
            for f in 0..9 {
                let Some((c, _)) = self.cells[r as usize][f as usize] else {
                    continue;
                };
                if c != self.side {
                    continue;
                }
                for (tf, tr) in self.targets(f, r) {
                    let mut next = Mailbox {
                        cells: self.cells,
                        side: self.side.flip(),
                    };
                    next.cells[tr as usize][tf as usize] = next.cells[r as usize][f as usize];
                    next.cells[r as usize][f as usize] = None;
                    if !next.king_exposed(c) {
                        let from = Square::new(f as u8, r as u8).expect("on board");
                        let to = Square::new(tf as u8, tr as u8).expect("on board");
                        out.push(Move::new(from, to));
                    }
                }
            }
        }
        out
    }
}
