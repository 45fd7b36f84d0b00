//! `chariot wdl-fit FILE.pgn…`: the maximum-likelihood fit of the win/draw/loss model
//! (`score::WdlModel`, which `UCI_ShowWDL` prints) to the scored moves of recorded games. It
//! prints the constant `score::WDL_MODEL` to paste into `score.rs`.

use crate::score::WdlModel;
use crate::tools::pgn::{Parsed, PgnError};
use crate::tools::{read_bytes, FileError};
use std::path::PathBuf;

/// Why `wdl-fit` could not fit.
#[derive(Debug, thiserror::Error)]
pub enum WdlFitError {
    /// A file that cannot be read.
    #[error(transparent)]
    File(#[from] FileError),
    /// A PGN file that cannot be read as games.
    #[error("{}: {source}", path.display())]
    Pgn {
        /// The file.
        path: PathBuf,
        /// Why.
        source: PgnError,
    },
    /// No game with scored moves and a result.
    #[error("no scored moves in finished games")]
    NoSamples,
}

/// The model's log-likelihood of `samples` (the fit maximises it).
fn log_likelihood(model: &WdlModel, samples: &[(f64, Outcome)]) -> f64 {
    samples
        .iter()
        .map(|&(s, o)| {
            let p = match o {
                Outcome::Win => model.win(s),
                Outcome::Loss => model.win(-s),
                Outcome::Draw => 1.0 - model.win(s) - model.win(-s),
            };
            p.max(1e-12).ln()
        })
        .sum()
}
/// A game's result from one side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// That side won.
    Win,
    /// Drawn.
    Draw,
    /// That side lost.
    Loss,
}

/// The engine's score (centipawns, mover's view) of every move commented like `{+0.35/7 0.2s}`
/// in finished games, with the game's result from the mover's view. Mate scores (`#3`) and
/// games without a result are left out.
pub fn samples(games: &[Parsed]) -> Vec<(f64, Outcome)> {
    let mut out = Vec::new();
    for g in games {
        let red = match g.red_points() {
            Some(p) if p > 0.5 => Outcome::Win,
            Some(p) if p < 0.5 => Outcome::Loss,
            Some(_) => Outcome::Draw,
            None => continue,
        };
        let positions = g.game.positions();
        for (i, c) in g.comments.iter().enumerate() {
            let Some(c) = c else { continue };
            let Some(word) = c.split('/').next() else {
                continue;
            };
            let Ok(pawns) = word.trim().parse::<f64>() else {
                continue; // a mate score, or no score
            };
            let Some(pos) = positions.get(i) else {
                continue;
            };
            let mover_is_red = pos.side_to_move() == crate::board::Color::Red;
            let o = match (red, mover_is_red) {
                (o, true) | (o @ Outcome::Draw, false) => o,
                (Outcome::Win, false) => Outcome::Loss,
                (Outcome::Loss, false) => Outcome::Win,
            };
            out.push((pawns * 100.0, o));
        }
    }
    out
}

/// The maximum-likelihood model for `samples`: a coarse grid, then finer grids around the best.
pub fn fit(samples: &[(f64, Outcome)]) -> WdlModel {
    let mut best = WdlModel { a: 100.0, b: 100.0 };
    let mut best_ll = log_likelihood(&best, samples);
    let (mut step_a, mut step_b) = (50.0, 50.0);
    let mut centre = best;
    for _ in 0..12 {
        for i in -8..=8 {
            for j in -8..=8 {
                let m = WdlModel {
                    a: (centre.a + i as f64 * step_a).max(0.0),
                    b: (centre.b + j as f64 * step_b).max(1.0),
                };
                let ll = log_likelihood(&m, samples);
                if ll > best_ll {
                    best_ll = ll;
                    best = m;
                }
            }
        }
        centre = best;
        step_a /= 3.0;
        step_b /= 3.0;
    }
    best
}

/// `chariot wdl-fit FILE.pgn…`: reads the games, fits the model, returns the report.
pub fn run(files: &[PathBuf]) -> Result<String, WdlFitError> {
    let mut games = Vec::new();
    for f in files {
        let text = read_bytes(f)?;
        games.extend(
            crate::tools::pgn::read(&text).map_err(|source| WdlFitError::Pgn {
                path: f.clone(),
                source,
            })?,
        );
    }
    let s = samples(&games);
    if s.is_empty() {
        return Err(WdlFitError::NoSamples);
    }
    let count = |o| s.iter().filter(|x| x.1 == o).count();
    let m = fit(&s);
    Ok(format!(
        "games {} positions {} (mover won {}, drawn {}, lost {})\n\
         a = {:.1} cp, b = {:.1} cp\n\
         pub const WDL_MODEL: WdlModel = WdlModel {{ a: {:.1}, b: {:.1} }};",
        games.len(),
        s.len(),
        count(Outcome::Win),
        count(Outcome::Draw),
        count(Outcome::Loss),
        m.a,
        m.b,
        m.a,
        m.b
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_a_known_model() {
        // Outcomes drawn from a known model by a fixed pseudo-random sequence.
        let truth = WdlModel { a: 150.0, b: 90.0 };
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut samples = Vec::new();
        for i in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let s = ((i % 121) as f64 - 60.0) * 10.0;
            let u = (x >> 11) as f64 / (1u64 << 53) as f64;
            let (w, l) = (truth.win(s), truth.win(-s));
            let o = if u < w {
                Outcome::Win
            } else if u < w + l {
                Outcome::Loss
            } else {
                Outcome::Draw
            };
            samples.push((s, o));
        }
        let m = fit(&samples);
        assert!(
            (m.a - 150.0).abs() < 15.0 && (m.b - 90.0).abs() < 10.0,
            "{m:?}"
        );
    }
}
