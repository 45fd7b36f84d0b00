//! The weaker settings (`Skill Level`, `UCI_LimitStrength`/`UCI_Elo`), all in one place: the
//! ladder of levels. Each level below full strength is a `Rung`: a depth cap and a node cap
//! (so a level plays the same on any machine), a number of MultiPV lines, and a temperature
//! with which the move is drawn among those lines, as Stockfish and Fairy-Stockfish weaken
//! their play (a shallower search that misses deep tactics, and a choice among the best lines).
//! A line worse than the best by more than the rung's margin is never played, nor a line that
//! loses by force while another does not, and a mate found is always played. `UCI_Elo` maps
//! onto the levels through the measured Elo of each rung. The randomness is `rand`'s.

use super::{Limits, Line, SearchResult};
use crate::board::{Move, Position};
use crate::score::Score;
use rand::Rng;

/// Full strength.
pub const MAX_LEVEL: u32 = 20;

/// One level below full strength: what it may search and how it chooses its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rung {
    /// Iteration limit in plies (a `go depth` below it still wins).
    pub depth: u32,
    /// Node budget of a move (checked once the first iteration is complete).
    pub nodes: u64,
    /// MultiPV lines searched (more if the user asks for more).
    pub lines: usize,
    /// Temperature of the choice among the lines, in centipawns: a line `gap` cp below the best
    /// is drawn with a weight of e^(−gap/temperature).
    pub temperature: i32,
    /// Largest loss (centipawns) against the best line that may be chosen.
    pub margin: i32,
    /// Measured strength on the ladder's scale (see `docs/engine.md`): what `UCI_Elo` names.
    pub elo: u32,
}

/// A rung of the table: `depth`, `nodes`, `lines`, `temperature`, `margin`, `elo`.
const fn rung(
    depth: u32,
    nodes: u64,
    lines: usize,
    temperature: i32,
    margin: i32,
    elo: u32,
) -> Rung {
    Rung {
        depth,
        nodes,
        lines,
        temperature,
        margin,
        elo,
    }
}

/// No depth cap (the node cap decides). The depth-limited rungs have a node cap of 1,000,000,
/// a safety bound that one or two plies never reach.
const DEEP: u32 = 64;

/// The ladder, level 0 to 19; level 20 is full strength. The low levels are depth-limited
/// (one or two plies, with the choice spread over the lines by the temperature), the higher
/// ones node-limited, each 50–220 Elo above the one below. The `elo` column is
/// measured: the sum of the results between neighbouring levels, on a scale where ElephantEye
/// 3.31 at depth 6 is 2500 (`docs/strength/stage1.md`, the ladder).
pub const LADDER: [Rung; MAX_LEVEL as usize] = [
    rung(1, 1_000_000, 6, 200, 250, 540),
    rung(1, 1_000_000, 6, 95, 200, 610),
    rung(1, 1_000_000, 5, 40, 100, 700),
    rung(2, 1_000_000, 6, 160, 250, 810),
    rung(2, 1_000_000, 5, 115, 220, 910),
    rung(2, 1_000_000, 4, 70, 170, 1040),
    rung(DEEP, 1_300, 4, 20, 60, 1250),
    rung(DEEP, 1_650, 4, 18, 60, 1360),
    rung(DEEP, 2_100, 4, 16, 50, 1480),
    rung(DEEP, 2_700, 4, 14, 50, 1660),
    rung(DEEP, 3_500, 4, 12, 40, 1800),
    rung(DEEP, 4_600, 4, 10, 40, 1920),
    rung(DEEP, 6_100, 4, 9, 35, 2020),
    rung(DEEP, 8_200, 4, 8, 30, 2140),
    rung(DEEP, 11_000, 4, 7, 30, 2200),
    rung(DEEP, 15_000, 4, 6, 25, 2370),
    rung(DEEP, 21_000, 4, 6, 25, 2500),
    rung(DEEP, 30_000, 4, 5, 20, 2660),
    rung(DEEP, 44_000, 4, 5, 20, 2810),
    rung(DEEP, 66_000, 4, 5, 20, 2870),
];

/// Lowest `UCI_Elo`: level 0's.
pub const MIN_ELO: u32 = LADDER[0].elo;
/// Highest `UCI_Elo`: level 19's (full strength has no fixed rating: it depends on the clock).
pub const MAX_ELO: u32 = LADDER[MAX_LEVEL as usize - 1].elo;

/// The level an `UCI_Elo` stands for: the rung whose measured Elo is nearest (0–19).
pub fn level_for_elo(elo: u32) -> u32 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    (0..MAX_LEVEL)
        .min_by_key(|&l| LADDER[l as usize].elo.abs_diff(elo))
        .unwrap_or(0)
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

    /// The rung of this level; `None` at full strength.
    pub fn rung(self) -> Option<Rung> {
        LADDER.get(self.level as usize).copied()
    }

    /// Caps `limits` at this strength: below full strength the depth and the node budget are
    /// at most the rung's (whatever the clock allows, the level searches no more).
    pub fn restrict(self, limits: &mut Limits) {
        let Some(r) = self.rung() else {
            return;
        };
        limits.nodes = Some(limits.nodes.map_or(r.nodes, |n| n.min(r.nodes)));
        limits.depth = Some(limits.depth.map_or(r.depth, |d| d.min(r.depth)));
        limits.min_depth = Some(1);
    }

    /// The MultiPV lines to search when the user asked for `multipv`.
    pub fn lines(self, multipv: usize) -> usize {
        self.rung().map_or(multipv, |r| multipv.max(r.lines))
    }

    /// Makes the move of `result` the one this strength plays among its lines (best, ponder
    /// move and score follow the chosen line); full strength keeps the best.
    pub fn choose(self, result: &mut SearchResult, rng: &mut impl Rng) {
        let Some(r) = self.rung() else {
            return;
        };
        if result.lines.is_empty() {
            return;
        }
        let i = pick(&result.lines, r, || rng.random());
        let line = &result.lines[i];
        result.best = line.pv.first().copied();
        result.ponder = line.pv.get(1).copied();
        result.score = line.score;
    }
}

impl Skill {
    /// Below full strength, makes `result` a move of `moves` (legal in `root`) after which the
    /// opponent has no legal move, if there is one: checkmate or stalemate, both won. A
    /// one-ply level's capture search sees a checkmate but not a stalemate; every level plays
    /// such a win.
    pub fn take_win(self, root: &Position, moves: &[Move], result: &mut SearchResult) {
        if self.is_full() {
            return;
        }
        if let Some(&m) = moves
            .iter()
            .find(|&&m| root.play(m).legal_moves().iter().next().is_none())
        {
            result.best = Some(m);
            result.ponder = None;
            result.score = Score::mate_in(1);
        }
    }
}

/// The index of the line to play among `lines` (best first) at `rung`, `uniform` giving
/// random numbers in [0, 1): each line within the margin of the best, and not lost by force,
/// is drawn with a weight of e^(−gap/temperature); a decisive best line is always played.
pub fn pick(lines: &[Line], rung: Rung, mut uniform: impl FnMut() -> f64) -> usize {
    let Some(top) = lines.first().map(|l| l.score) else {
        return 0;
    };
    if top.is_decisive() || rung.temperature <= 0 {
        return 0;
    }
    let weights: Vec<f64> = lines
        .iter()
        .map(|l| {
            let gap = top - l.score;
            if l.score.is_decisive() || gap > rung.margin {
                0.0
            } else {
                (-(gap as f64) / rung.temperature as f64).exp()
            }
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = uniform() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
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
            seen[pick(&lines, LADDER[0], || rng.random())] += 1;
        }
        assert!(seen[1] > 0, "no noise at level 0: {seen:?}");
        assert_eq!(seen[2] + seen[3], 0, "a rook given away: {seen:?}");
        let mates = [
            Line {
                score: Score::mate_in(3),
                pv: vec![moves[0]],
            },
            line(500, 1),
        ];
        assert_eq!(pick(&mates, LADDER[0], || 0.99), 0);
        let lost = [line(50, 0), line(40, 1)];
        let lost = [
            lost[0].clone(),
            Line {
                score: Score::mated_in(4),
                pv: vec![moves[2]],
            },
        ];
        for x in [0.0, 0.5, 0.999] {
            assert_eq!(pick(&lost, LADDER[0], || x), 0);
        }
    }

    #[test]
    fn the_ladder_climbs() {
        for w in LADDER.windows(2) {
            let (a, b) = (w[0], w[1]);
            assert!(a.elo < b.elo, "{a:?} {b:?}");
            // Deeper, or as deep with more nodes and a cooler choice.
            assert!(
                a.depth < b.depth
                    || (a.depth == b.depth
                        && a.nodes <= b.nodes
                        && a.temperature >= b.temperature
                        && a.margin >= b.margin),
                "{a:?} {b:?}"
            );
            // No level gives a horse or a cannon away to a capture it sees.
            assert!(a.margin < 300 && b.margin < 300, "{a:?} {b:?}");
        }
        assert_eq!(level_for_elo(MIN_ELO), 0);
        assert_eq!(level_for_elo(MAX_ELO), MAX_LEVEL - 1);
        assert_eq!(level_for_elo(0), 0);
        for (l, r) in LADDER.iter().enumerate() {
            assert_eq!(level_for_elo(r.elo), l as u32);
        }
    }
}
