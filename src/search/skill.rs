//! The weaker settings (`Skill Level`, `UCI_LimitStrength`/`UCI_Elo`), all in one place: a
//! `Skill` limits the search (a node cap after a minimum depth), widens it to several MultiPV
//! lines, and chooses the move to play among them with bounded noise, after Stockfish's
//! `Skill::pick_best`: no line worse than the best by more than a margin is ever played, nor a
//! line that loses by force while another does not. The randomness is `rand`'s.

use super::{Limits, Line, SearchResult};
use rand::Rng;

/// Full strength.
pub const MAX_LEVEL: u32 = 20;
/// Lowest `UCI_Elo` (Skill Level 0); nominal until measured.
pub const MIN_ELO: u32 = 1000;
/// Highest `UCI_Elo` (Skill Level 20).
pub const MAX_ELO: u32 = 2600;
/// Lines searched below full strength (at least; more if MultiPV asks).
pub const LINES: usize = 4;
/// The shallowest iteration a weakened search completes before its node cap applies: deep
/// enough to see a mate in one against it.
pub const MIN_DEPTH: u32 = 3;

/// The Skill Level an `UCI_Elo` stands for (linear between the range's ends).
pub fn level_for_elo(elo: u32) -> u32 {
    let e = elo.clamp(MIN_ELO, MAX_ELO) - MIN_ELO;
    (e * MAX_LEVEL + (MAX_ELO - MIN_ELO) / 2) / (MAX_ELO - MIN_ELO)
}

/// Node cap of a search at `level` (below 20): 400 · 1.5^level.
pub fn node_cap(level: u32) -> u64 {
    (400.0 * 1.5f64.powi(level.min(MAX_LEVEL) as i32)) as u64
}

/// Largest loss (centipawns) against the best line that `level` may choose.
pub fn margin(level: u32) -> i32 {
    30 + 8 * (MAX_LEVEL - level.min(MAX_LEVEL)) as i32
}

/// A playing strength: a level from 0 to `MAX_LEVEL` (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    level: u32,
}

impl Skill {
    /// The strength of `level` (clamped to `MAX_LEVEL`).
    pub fn new(level: u32) -> Skill {
        Skill {
            level: level.min(MAX_LEVEL),
        }
    }

    /// The level.
    pub fn level(self) -> u32 {
        self.level
    }

    /// Whether this is full strength (no limit, no noise).
    pub fn is_full(self) -> bool {
        self.level >= MAX_LEVEL
    }

    /// Caps `limits` at this strength: below full strength the node budget is at most the
    /// level's cap, applied after `MIN_DEPTH` iterations.
    pub fn restrict(self, limits: &mut Limits) {
        if self.is_full() {
            return;
        }
        let cap = node_cap(self.level);
        limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        limits.min_depth = Some(MIN_DEPTH);
    }

    /// The MultiPV lines to search when the user asked for `multipv`.
    pub fn lines(self, multipv: usize) -> usize {
        if self.is_full() {
            multipv
        } else {
            multipv.max(LINES)
        }
    }

    /// Makes the move of `result` the one this strength plays among its lines (best, ponder
    /// move and score follow the chosen line); full strength keeps the best.
    pub fn choose(self, result: &mut SearchResult, rng: &mut impl Rng) {
        if self.is_full() || result.lines.is_empty() {
            return;
        }
        let i = pick(&result.lines, self.level, || rng.random());
        let line = &result.lines[i];
        result.best = line.pv.first().copied();
        result.ponder = line.pv.get(1).copied();
        result.score = line.score;
    }
}

/// The index of the line to play among `lines` (best first) at `level`, `rand` giving
/// uniform random numbers.
pub fn pick(lines: &[Line], level: u32, mut rand: impl FnMut() -> u32) -> usize {
    let Some(top) = lines.first().map(|l| l.score) else {
        return 0;
    };
    if level >= MAX_LEVEL || top.is_decisive() {
        return 0;
    }
    let weakness = 120 - 2 * level as i32;
    let worst = lines.last().map_or(top, |l| l.score);
    let delta = (top - worst).clamp(0, 100);
    let mut best = 0;
    let mut best_value = i32::MIN;
    for (i, l) in lines.iter().enumerate() {
        let s = l.score;
        if s.is_decisive() || top - s > margin(level) {
            continue;
        }
        let gap = top - s;
        let push = (weakness * gap + delta * (rand() % weakness as u32) as i32) / 128;
        if s.get() + push >= best_value {
            best_value = s.get() + push;
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::score::Score;
    use rand::SeedableRng;

    #[test]
    fn bounded_noise() {
        let pos = Position::startpos();
        let moves: Vec<_> = pos.legal_moves().iter().take(4).collect();
        let line = |cp: i32, i: usize| Line {
            score: Score::cp(cp),
            pv: vec![moves[i]],
        };
        let lines = [line(50, 0), line(40, 1), line(-600, 2), line(-900, 3)];
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let mut seen = [0; 4];
        for _ in 0..2000 {
            seen[pick(&lines, 0, || rng.random())] += 1;
        }
        assert!(seen[1] > 0, "no noise at level 0: {seen:?}");
        assert_eq!(seen[2] + seen[3], 0, "a rook given away: {seen:?}");
        assert_eq!(pick(&lines, 20, || 7), 0);
        let mates = [
            Line {
                score: Score::mate_in(3),
                pv: vec![moves[0]],
            },
            line(500, 1),
        ];
        assert_eq!(pick(&mates, 0, || 99), 0);
        assert!(level_for_elo(MIN_ELO) == 0 && level_for_elo(MAX_ELO) == 20);
        assert!(node_cap(0) < node_cap(10) && node_cap(10) < node_cap(19));
    }
}
