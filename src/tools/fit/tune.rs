//! `chariot tune`: fits the evaluation's piece-square tables, king tables and weights to
//! recorded games (the "Texel" method). Every quiet position of the games (not in check,
//! quiescence equal to the static evaluation) becomes a sample. Its target blends the game's
//! result with the win probability of the score the player searched there (the PGN comment),
//! mapped by the scale that predicts the results best: the score carries far more information
//! per position than the result alone. The evaluation is linear in the fitted parameters, so
//! the tool fits the scale K of the win probability 1 / (1 + 10^(-K e / 400)) first and then
//! minimises the mean squared error against the targets with Adam. It prints the fitted values
//! as Rust constants for `eval.rs`.

use crate::board::{Color, Game, PieceKind, Position, Square};
use crate::eval::classical::{counts, evaluate, Counts, WEIGHTS};
use crate::psq::VALUES;
use crate::search::Searcher;
use crate::tools::pgn;
use std::fmt::Write as _;
use std::path::PathBuf;

/// What `tune` fits to and how (the defaults are `chariot tune`'s).
#[derive(Debug, Clone)]
pub struct Config {
    /// PGN files of finished games (as `chariot match --pgn` writes them).
    pub pgn: Vec<PathBuf>,
    /// Passes of the optimiser over the samples.
    pub epochs: usize,
    /// Adam's step size in centipawns.
    pub rate: f64,
    /// Parameters seen in fewer samples than this keep their value.
    pub min_count: usize,
    /// Pull of each parameter towards its current value (L2 penalty per centipawn squared).
    pub l2: f64,
    /// Weight of the game result in the target (the rest goes to the recorded search score).
    pub result_weight: f64,
}

/// Kinds with a piece-square table (all but the king), in the order of the parameters.
const KINDS: &[PieceKind] = PieceKind::ALL.split_at(1).1;
/// Parameters per table: ten ranks, five files (the board's halves mirror each other).
const CELLS: usize = 50;
/// First king parameter: middlegame then endgame, three ranks by (side, centre) file.
const KING: usize = KINDS.len() * CELLS;
/// First weight parameter.
const WEIGHT: usize = KING + 12;
/// Names of the weights, in parameter order.
const WEIGHT_NAMES: [&str; 8] = [
    "rook_mobility",
    "horse_mobility",
    "horse_trapped",
    "cannon_mobility",
    "advisor_shield",
    "elephant_shield",
    "pawn_pair",
    "tempo",
];
/// First phase-value parameter (one per kind of `KINDS`).
const PHASE: usize = WEIGHT + WEIGHT_NAMES.len();
const PARAMS: usize = PHASE + KINDS.len();

/// One position: sparse features (Red's minus Black's), the part of the evaluation that is
/// not fitted, Red's result, the recorded score for Red in centipawns (if any) and the target.
struct Sample {
    features: Vec<(u16, f32)>,
    fixed: f32,
    result: f32,
    score: Option<f32>,
    target: f32,
    /// Held out (every tenth game): measures the fit, never fitted.
    held: bool,
}

fn cell(sq: Square, color: Color) -> usize {
    let s = sq.relative(color);
    let f = s.file() as usize;
    s.rank() as usize * 5 + f.min(8 - f)
}

fn king_cell(c: &Counts) -> usize {
    let (r, f) = c.king;
    r * 2 + usize::from(f == 1)
}

/// The parameters the evaluation uses now.
fn current() -> Vec<f64> {
    let mut p = vec![0.0; PARAMS];
    for (i, kind) in KINDS.iter().enumerate() {
        for rank in 0..10u8 {
            for file in 0..5u8 {
                let sq = Square::new(file, rank).expect("on the board");
                p[i * CELLS + cell(sq, Color::Red)] =
                    crate::psq::PSQ[kind.index()][sq.index()] as f64;
            }
        }
    }
    let (mid, end) = crate::eval::classical::king_tables();
    for r in 0..3 {
        for f in 0..2 {
            p[KING + r * 2 + f] = mid[r][f] as f64;
            p[KING + 6 + r * 2 + f] = end[r][f] as f64;
        }
    }
    let w = WEIGHTS;
    let ws = [
        w.rook_mobility,
        w.horse_mobility,
        w.horse_trapped,
        w.cannon_mobility,
        w.advisor_shield,
        w.elephant_shield,
        w.pawn_pair,
        w.tempo,
    ];
    for (i, v) in ws.into_iter().enumerate() {
        p[WEIGHT + i] = v as f64;
    }
    for (i, kind) in KINDS.iter().enumerate() {
        p[PHASE + i] = w.phase_values[kind.index()] as f64;
    }
    p
}

/// Features of `pos` (Red's view) and the fixed part of its evaluation.
fn features(pos: &Position) -> (Vec<(u16, f32)>, f32) {
    let mut dense = [0f32; PARAMS];
    let mut fixed = 0.0;
    for (color, sign) in [(Color::Red, 1.0), (Color::Black, -1.0)] {
        for (i, kind) in KINDS.iter().enumerate() {
            for sq in pos.pieces(color, *kind) {
                dense[i * CELLS + cell(sq, color)] += sign;
            }
        }
        let c = counts(pos, color);
        let m = c.midgame as f32 / 66.0;
        dense[KING + king_cell(&c)] += sign * m;
        dense[KING + 6 + king_cell(&c)] += sign * (1.0 - m);
        let phase = (c.phase - 33) as f32 / 66.0;
        let ws = [
            c.rook_moves as f32,
            c.horse_moves as f32,
            c.horses_trapped as f32,
            c.cannon_moves as f32,
            c.advisor_gaps as f32,
            c.elephant_gaps as f32,
            c.pawn_pairs as f32,
            0.0,
        ];
        for (i, v) in ws.into_iter().enumerate() {
            dense[WEIGHT + i] += sign * v;
        }
        for (i, kind) in KINDS.iter().enumerate() {
            dense[PHASE + i] += sign * c.pieces[kind.index()] as f32 * phase;
        }
        fixed -= sign * c.palace as f32;
    }
    dense[WEIGHT + 7] = if pos.side_to_move() == Color::Red {
        1.0
    } else {
        -1.0
    };
    let sparse = dense
        .iter()
        .enumerate()
        .filter(|(_, v)| **v != 0.0)
        .map(|(i, v)| (i as u16, *v))
        .collect();
    (sparse, fixed)
}

fn linear(p: &[f64], s: &Sample) -> f64 {
    s.fixed as f64
        + s.features
            .iter()
            .map(|&(i, v)| p[i as usize] * v as f64)
            .sum::<f64>()
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Mean squared error over the fitted samples, or over the held-out ones.
fn loss(p: &[f64], k: f64, samples: &[Sample], held: bool) -> f64 {
    let (sum, n) = samples
        .iter()
        .filter(|s| s.held == held)
        .map(|s| (s.target as f64 - sigmoid(k, linear(p, s))).powi(2))
        .fold((0.0, 0usize), |(a, n), e| (a + e, n + 1));
    sum / n.max(1) as f64
}

/// Why the tuner could not run.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A PGN file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The games hold no position to fit.
    #[error("no quiet positions in the games")]
    NoSamples,
}

/// Reads the games and keeps their quiet positions.
fn load(args: &Config, out: &mut String) -> Result<Vec<Sample>, TuneError> {
    let mut searcher = Searcher::default();
    let mut samples = Vec::new();
    let (mut games, mut skipped) = (0, 0);
    for path in &args.pgn {
        let bytes = std::fs::read(path).map_err(|source| TuneError::Read {
            path: path.clone(),
            source,
        })?;
        // Game by game, so that one unreadable game (say, the last one of a file still being
        // written) costs only itself.
        for parsed in pgn::read_each(&bytes) {
            let Ok(g) = parsed else {
                skipped += 1;
                continue;
            };
            {
                let Some(result) = g.red_points() else {
                    skipped += 1;
                    continue;
                };
                games += 1;
                for (i, pos) in g.game.positions().iter().enumerate().skip(8) {
                    if pos.in_check() {
                        continue;
                    }
                    let score = g
                        .comments
                        .get(i)
                        .and_then(|c| recorded_score(c.as_deref()?));
                    let score = score.map(|v| {
                        if pos.side_to_move() == Color::Red {
                            v
                        } else {
                            -v
                        }
                    });
                    let q = searcher.quiescence_score(&Game::new(pos.clone()));
                    if q != evaluate(pos) {
                        continue;
                    }
                    let (features, fixed) = features(pos);
                    samples.push(Sample {
                        features,
                        fixed,
                        result,
                        score,
                        target: result,
                        held: games % 10 == 0,
                    });
                }
            }
        }
    }
    let _ = writeln!(
        out,
        "// {games} games ({skipped} skipped), {} quiet positions",
        samples.len()
    );
    Ok(samples)
}

/// The score in centipawns at the start of a match comment (`+0.35/7 0.512s`).
fn recorded_score(comment: &str) -> Option<f32> {
    let word = comment.split(['/', ' ']).next()?;
    let v: f32 = word.parse().ok()?;
    Some((v * 100.0).clamp(-3000.0, 3000.0))
}

/// The minimiser of `f` over [0.05, 4] (golden-section search).
fn golden(f: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (0.05f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Runs the tuner; returns the report (Rust constants and the losses).
pub fn run(args: &Config) -> Result<String, TuneError> {
    let mut out = String::new();
    let mut samples = load(args, &mut out)?;
    if samples.is_empty() {
        return Err(TuneError::NoSamples);
    }
    // The scale that best maps the recorded scores to the results, then the blended targets.
    let scored: Vec<(f64, f64)> = samples
        .iter()
        .filter_map(|s| Some((s.score? as f64, s.result as f64)))
        .collect();
    if !scored.is_empty() {
        let k_score = golden(|k| {
            scored
                .iter()
                .map(|&(v, r)| (r - sigmoid(k, v)).powi(2))
                .sum::<f64>()
        });
        let w = args.result_weight.clamp(0.0, 1.0);
        for s in &mut samples {
            if let Some(v) = s.score {
                s.target = (w * s.result as f64 + (1.0 - w) * sigmoid(k_score, v as f64)) as f32;
            }
        }
        let _ = writeln!(
            out,
            "// {} samples with a recorded score; its scale {k_score:.4}",
            scored.len()
        );
    }
    let mut p = current();
    let k = golden(|k| loss(&p, k, &samples, false));
    let before = (loss(&p, k, &samples, false), loss(&p, k, &samples, true));
    let start = p.clone();
    let mut seen = vec![0usize; PARAMS];
    for s in &samples {
        for &(i, _) in &s.features {
            seen[i as usize] += 1;
        }
    }
    let mut free: Vec<bool> = seen.iter().map(|&n| n >= args.min_count).collect();
    // The tempo bonus stays: the samples are quiet positions, where it is not measured well.
    free[WEIGHT + 7] = false;
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; PARAMS];
    let mut v = vec![0.0; PARAMS];
    let n = samples.iter().filter(|s| !s.held).count().max(1) as f64;
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let mut best = (before.1, 0, p.clone());
    for epoch in 1..=args.epochs {
        let mut grad = vec![0.0; PARAMS];
        for s in samples.iter().filter(|s| !s.held) {
            let q = sigmoid(k, linear(&p, s));
            let d = -2.0 * (s.result as f64 - q) * q * (1.0 - q) * scale / n;
            for &(i, f) in &s.features {
                grad[i as usize] += d * f as f64;
            }
        }
        for i in 0..PARAMS {
            if !free[i] {
                continue;
            }
            grad[i] += 2.0 * args.l2 * (p[i] - start[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            p[i] -= args.rate * mh / (vh.sqrt() + eps);
        }
        if epoch % 10 == 0 || epoch == args.epochs {
            let held = loss(&p, k, &samples, true);
            if held < best.0 {
                best = (held, epoch, p.clone());
            }
            if epoch % 50 == 0 {
                log::info!(
                    "epoch {epoch}: loss {:.6}, held out {held:.6}",
                    loss(&p, k, &samples, false)
                );
            }
        }
    }
    // Early stopping: the parameters that fit the held-out games best.
    let (_, best_epoch, p) = best;
    let _ = writeln!(out, "// best held-out fit after {best_epoch} epochs");
    let after = (loss(&p, k, &samples, false), loss(&p, k, &samples, true));
    let _ = writeln!(
        out,
        "// K = {k:.4}; loss {:.6} -> {:.6}, held out {:.6} -> {:.6}",
        before.0, after.0, before.1, after.1
    );
    report(&p, &mut out);
    Ok(out)
}

/// The fitted parameters as Rust constants: tables less the kind's value.
fn report(p: &[f64], out: &mut String) {
    let names = ["ADVISOR", "ELEPHANT", "HORSE", "ROOK", "CANNON", "PAWN"];
    for (i, kind) in KINDS.iter().enumerate() {
        let value = VALUES[kind.index()];
        let _ = writeln!(out, "#[rustfmt::skip]\nconst {}: Table = [", names[i]);
        for rank in 0..10 {
            let row: Vec<String> = (0..9)
                .map(|f: usize| {
                    let c = i * CELLS + rank * 5 + f.min(8 - f);
                    format!("{}", (p[c] - value as f64).round() as i32)
                })
                .collect();
            let _ = writeln!(out, "    [{}],", row.join(", "));
        }
        let _ = writeln!(out, "];");
    }
    for (name, base) in [("KING_MIDGAME", KING), ("KING_ENDGAME", KING + 6)] {
        let _ = writeln!(out, "#[rustfmt::skip]\nconst {name}: [[i32; 3]; 3] = [");
        for r in 0..3 {
            let (side, centre) = (p[base + r * 2].round(), p[base + r * 2 + 1].round());
            let _ = writeln!(out, "    [{side}, {centre}, {side}],");
        }
        let _ = writeln!(out, "];");
    }
    let _ = writeln!(out, "pub const WEIGHTS: Weights = Weights {{");
    for (i, name) in WEIGHT_NAMES.iter().enumerate() {
        let _ = writeln!(out, "    {name}: {},", p[WEIGHT + i].round() as i32);
    }
    let phase: Vec<String> = std::iter::once("0".to_string())
        .chain((0..KINDS.len()).map(|i| format!("{}", p[PHASE + i].round() as i32)))
        .collect();
    let _ = writeln!(out, "    phase_values: [{}],", phase.join(", "));
    let _ = writeln!(out, "}};");
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    /// The linear model with the current parameters is the evaluation (up to the integer
    /// rounding of the tapered terms).
    #[test]
    fn model_matches_evaluation() {
        let p = current();
        let mut rng = StdRng::seed_from_u64(11);
        for _ in 0..20 {
            let mut pos = Position::startpos();
            for _ in 0..100 {
                let (features, fixed) = features(&pos);
                let s = Sample {
                    features,
                    fixed,
                    result: 0.5,
                    score: None,
                    target: 0.5,
                    held: false,
                };
                let red = if pos.side_to_move() == Color::Red {
                    evaluate(&pos).get()
                } else {
                    -evaluate(&pos).get()
                };
                let model = linear(&p, &s);
                assert!((model - red as f64).abs() <= 4.0, "{model} vs {red}");
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves.get(rng.random_range(0..moves.len())));
            }
        }
    }

    #[test]
    fn scores_from_comments() {
        assert_eq!(recorded_score("+0.35/7 0.512s"), Some(35.0));
        assert_eq!(recorded_score("-1.5 0.1s"), Some(-150.0));
        assert_eq!(recorded_score("0.005s"), None);
    }

    /// A run over recorded games reads their quiet positions and lowers the fitted loss.
    #[test]
    fn tunes_recorded_games() {
        use crate::tools::pgn::{write, Record};
        let mut rng = StdRng::seed_from_u64(5);
        let mut text = String::new();
        for round in 0..40 {
            let mut game = Game::new(Position::startpos());
            let mut comments = Vec::new();
            for _ in 0..60 {
                let moves = game.position().legal_moves();
                if moves.is_empty() {
                    break;
                }
                let v = evaluate(game.position()).get();
                comments.push(Some(format!("{:+.2}/1 0.001s", v as f64 / 100.0)));
                game.play(moves.get(rng.random_range(0..moves.len())))
                    .unwrap();
            }
            let red = game.position().psq();
            let record = Record {
                round,
                red: "a".into(),
                black: "b".into(),
                fen: crate::board::START_FEN.into(),
                moves: game.moves().to_vec(),
                comments,
                result: if red > 0 { "1-0" } else { "0-1" }.into(),
                termination: "test".into(),
                time_control: [None, None],
            };
            text.push_str(&write(&record, "test", "2026.01.01"));
        }
        let path = std::env::temp_dir().join(format!("chariot-tune-{}.pgn", std::process::id()));
        std::fs::write(&path, text).unwrap();
        let args = Config {
            pgn: vec![path.clone()],
            epochs: 30,
            rate: 1.0,
            min_count: 1,
            l2: 0.0,
            result_weight: 0.5,
        };
        let out = run(&args).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(out.starts_with("// 40 games (0 skipped)"), "{out}");
        assert!(out.contains("const HORSE: Table") && out.contains("phase_values"));
        let line = out.lines().find(|l| l.starts_with("// K =")).unwrap();
        let nums: Vec<f64> = line
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter_map(|w| w.parse().ok())
            .collect();
        // K, loss before, loss after, held out before, held out after.
        assert!(nums[2] < nums[1], "{line}");
    }
}
