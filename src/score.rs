//! `Score`: a side-to-move value in centipawns, with the mate and rule bands of the rules
//! document §7. The evaluation, the search and the protocol all speak it; of the rest of the
//! crate it knows only the 60-move rule (`board::rules::MOVE_LIMIT_PLIES`), which bounds the
//! mates a hash entry may claim.
//!
//! Bands (|v|): mates `[MATE − MAX_PLY, MATE]` (`MATE − ply` when found `ply` plies from the
//! root); rule results (perpetual check or chase) `(BAN − MAX_PLY, BAN]`; static evaluations at
//! most `EVAL_LIMIT`. The transposition table keeps mates relative to the node (`to_tt`,
//! `from_tt`) and never keeps rule results, which depend on the path.

use crate::board::rules::MOVE_LIMIT_PLIES;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};

/// Deepest search ply; the bands rely on it.
pub const MAX_PLY: i32 = 128;

/// A score from the side to move's view.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
#[repr(transparent)]
pub struct Score(i32);

impl Score {
    /// Checkmate at the node itself is `-MATE`.
    pub const MATE: Score = Score(30_000);
    /// Base of the rule band.
    pub const BAN: Score = Score(30_000 - 2 * MAX_PLY);
    /// Static evaluations are clamped to ±this.
    pub const EVAL_LIMIT: Score = Score(20_000);
    /// Larger than any score.
    pub const INFINITE: Score = Score(30_001);
    /// A draw.
    pub const DRAW: Score = Score(0);

    /// `v` centipawns.
    #[inline(always)]
    pub const fn cp(v: i32) -> Score {
        Score(v)
    }

    /// The value in centipawns (or band units).
    #[inline(always)]
    pub const fn get(self) -> i32 {
        self.0
    }

    /// Mate for the side to move, `ply` plies from the root.
    #[inline(always)]
    pub const fn mate_in(ply: i32) -> Score {
        Score(Self::MATE.0 - ply)
    }

    /// The side to move mated `ply` plies from the root.
    #[inline(always)]
    pub const fn mated_in(ply: i32) -> Score {
        Score(-Self::MATE.0 + ply)
    }

    /// Rule win (the opponent repeated with forbidden moves) at `ply`.
    #[inline(always)]
    pub const fn ban_win(ply: i32) -> Score {
        Score(Self::BAN.0 - ply)
    }

    /// Rule loss (the side to move repeated with forbidden moves) at `ply`.
    #[inline(always)]
    pub const fn ban_loss(ply: i32) -> Score {
        Score(-Self::BAN.0 + ply)
    }

    /// Whether the score is in the mate band.
    #[inline(always)]
    pub const fn is_mate(self) -> bool {
        self.0.abs() > Self::MATE.0 - MAX_PLY
    }

    /// Whether the score is in the rule band.
    #[inline(always)]
    pub const fn is_ban(self) -> bool {
        self.0.abs() > Self::BAN.0 - MAX_PLY && self.0.abs() <= Self::BAN.0
    }

    /// Whether the score is decisive (mate or rule band).
    #[inline(always)]
    pub const fn is_decisive(self) -> bool {
        self.0.abs() > Self::BAN.0 - MAX_PLY
    }

    /// Plies to the end for a decisive score (to the mate, or to the repetition verdict).
    pub const fn plies_to_end(self) -> Option<i32> {
        if self.is_mate() {
            Some(Self::MATE.0 - self.0.abs())
        } else if self.is_ban() {
            Some(Self::BAN.0 - self.0.abs())
        } else {
            None
        }
    }

    /// The larger magnitude bound that claims no mate: `±(MATE − MAX_PLY − 1)` with this sign.
    const fn mate_free_bound(self) -> Score {
        Score(self.0.signum() * (Self::MATE.0 - MAX_PLY - 1))
    }

    /// The value to store in the hash table for a score found `ply` plies from the root: mates
    /// become relative to the node. Rule-band scores depend on the path and are not stored
    /// (`None`: store the move and depth only).
    #[inline]
    pub fn to_tt(self, ply: i32) -> Option<i16> {
        let v = if self.is_ban() {
            return None;
        } else if self.is_mate() {
            if self.0 > 0 {
                self.0 + ply
            } else {
                self.0 - ply
            }
        } else {
            self.0
        };
        Some(v as i16)
    }

    /// The score read from the hash table at `ply`, given the plies since the last capture
    /// (`rule60`): mates further away than the 60-move draw allows are downgraded to a bound
    /// that claims no mate (Pikafish's guard).
    #[inline]
    pub fn from_tt(stored: i16, ply: i32, rule60: i32) -> Score {
        let s = Score(stored as i32);
        if !s.is_mate() {
            return s;
        }
        if Self::MATE.0 - s.0.abs() > MOVE_LIMIT_PLIES as i32 - rule60 {
            return s.mate_free_bound();
        }
        Score(if s.0 > 0 { s.0 - ply } else { s.0 + ply })
    }
}

/// The bare number (centipawns, or band units for decisive scores).
impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl Add<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, rhs: i32) -> Score {
        Score(self.0 + rhs)
    }
}

impl Sub<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, rhs: i32) -> Score {
        Score(self.0 - rhs)
    }
}

/// The margin between two scores, in centipawns.
impl Sub for Score {
    type Output = i32;
    #[inline(always)]
    fn sub(self, rhs: Score) -> i32 {
        self.0 - rhs.0
    }
}

impl AddAssign<i32> for Score {
    #[inline(always)]
    fn add_assign(&mut self, rhs: i32) {
        self.0 += rhs;
    }
}

impl SubAssign<i32> for Score {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: i32) {
        self.0 -= rhs;
    }
}

/// The win/draw/loss model behind `UCI_ShowWDL`: win(s) = 1 / (1 + exp(−(s − a) / b)),
/// loss(s) = win(−s), draw = the rest, with s in centipawns from the side to move's view.
/// `a ≥ 0` keeps the draw share non-negative. `chariot wdl-fit` fits the constants to games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// Score at which a win is as likely as not.
    pub a: f64,
    /// Spread: how fast the win chance rises with the score.
    pub b: f64,
}

/// The constants fitted by `chariot wdl-fit` to 200 self-play games of Chariot (the network)
/// at 1 s + 0.01 s (see docs/engine.md).
pub const WDL_MODEL: WdlModel = WdlModel { a: 419.1, b: 211.1 };

impl WdlModel {
    /// The chance of a win at `cp` centipawns (side to move's view), from 0 to 1.
    pub fn win(&self, cp: f64) -> f64 {
        1.0 / (1.0 + (-(cp - self.a) / self.b).exp())
    }

    /// Win, draw and loss chances in per mille (summing to 1000) for `score`; a proven win
    /// (mate or rule win) is 1000/0/0, a proven loss 0/0/1000.
    pub fn wdl(&self, score: Score) -> (u32, u32, u32) {
        if score.is_decisive() {
            return if score > Score::DRAW {
                (1000, 0, 0)
            } else {
                (0, 0, 1000)
            };
        }
        let s = score.get() as f64;
        let w = (1000.0 * self.win(s)).round() as u32;
        let l = ((1000.0 * self.win(-s)).round() as u32).min(1000 - w);
        (w, 1000 - w - l, l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_are_node_relative_in_the_table() {
        // Mate found 5 plies from the root at a node 3 plies deep: 2 plies from the node.
        let stored = Score::mate_in(5).to_tt(3).unwrap();
        assert_eq!(Score(stored as i32), Score::mate_in(2));
        // Read back at a node 7 plies deep: 9 plies from the root.
        assert_eq!(Score::from_tt(stored, 7, 0), Score::mate_in(9));
        let lost = Score::mated_in(6).to_tt(2).unwrap();
        assert_eq!(Score(lost as i32), Score::mated_in(4));
        assert_eq!(Score::from_tt(lost, 1, 0), Score::mated_in(5));
        // Rule results are never stored as values.
        assert_eq!(Score::ban_win(4).to_tt(2), None);
        assert_eq!(Score::cp(123).to_tt(9), Some(123));
        // A mate beyond the 60-move horizon becomes a plain bound.
        let far = Score::mate_in(10).to_tt(0).unwrap();
        assert_eq!(Score::from_tt(far, 0, 115), Score(30_000 - MAX_PLY - 1));
        let far = Score::mated_in(10).to_tt(0).unwrap();
        assert_eq!(Score::from_tt(far, 0, 115), Score(-(30_000 - MAX_PLY - 1)));
    }

    #[test]
    fn bands_do_not_overlap() {
        assert!(Score::mate_in(MAX_PLY - 1).is_mate());
        assert!(!Score::mate_in(MAX_PLY - 1).is_ban());
        assert!(Score::ban_win(MAX_PLY - 1).is_ban());
        assert!(!Score::ban_win(0).is_mate());
        assert!(!Score::EVAL_LIMIT.is_decisive());
        assert_eq!(Score::mate_in(3).plies_to_end(), Some(3));
        assert_eq!(Score::ban_loss(4).plies_to_end(), Some(4));
        assert_eq!(Score::cp(50).plies_to_end(), None);
        assert!(Score::INFINITE > Score::MATE && -Score::INFINITE < -Score::MATE);
    }

    #[test]
    fn wdl_sums_to_1000_and_rises_with_the_score() {
        let mut last_w = 0;
        let mut last_l = 1000;
        for cp in (-3000..=3000).step_by(25) {
            let (w, d, l) = WDL_MODEL.wdl(Score::cp(cp));
            assert_eq!(w + d + l, 1000, "{cp}");
            assert!(w >= last_w && l <= last_l, "not monotonic at {cp}");
            (last_w, last_l) = (w, l);
        }
        assert!(WDL_MODEL.wdl(Score::cp(800)).0 > WDL_MODEL.wdl(Score::cp(100)).0);
        assert_eq!(WDL_MODEL.wdl(Score::mate_in(3)), (1000, 0, 0));
        assert_eq!(WDL_MODEL.wdl(Score::mated_in(4)), (0, 0, 1000));
        let (w, d, l) = WDL_MODEL.wdl(Score::DRAW);
        assert_eq!(w, l);
        assert!(d > 0);
    }
}
