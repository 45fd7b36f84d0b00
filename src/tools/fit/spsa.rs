//! `chariot spsa`: the search's numbers (`search::params`) tuned by simultaneous perturbation
//! stochastic approximation over game pairs, the way Stockfish's fishtest tunes.
//!
//! Each step perturbs every tuned number at once by `±c_k` (a random sign per number), plays
//! one opening twice (colours swapped) between the engine set `θ + c_k·Δ` and the engine set
//! `θ − c_k·Δ`, and moves `θ` along `Δ` in proportion to the pair's result. With an outside
//! opponent, each side instead plays the opening twice against it, and the result is the plus
//! side's points minus the minus side's: the tuning then looks outside self-play, whose
//! opponent shares every blind spot of the side it tunes. With several opponents the steps
//! take them in turn, so the numbers move towards what scores against all of them. The gains follow
//! fishtest's schedule: `c_k = c·(N/(k+1))^γ` ends at each number's `step` from the table,
//! `a_k = r·c²·((A+N)/(A+k+1))^α` ends at `r·c²`, with `A = N/10`, `α = 0.602`, `γ = 0.101`.
//!
//! The engines are processes (this program by default) told the numbers with `setoption`, the
//! hidden options of the engine, so the tuner measures exactly what a match would. Workers
//! (`concurrency`) play pairs at once and update the shared `θ` as their pairs end.
//!
//! A run outlives one sitting: `resume` takes the schedule up at the step where a stopped run
//! left off (its last printed `θ` given as the start values), so a tuning of thousands of steps
//! can be played a few hundred steps at a time, on any machine, from what the record keeps.

use super::super::matches::engine::{Engine, EngineError};
use super::super::matches::{game, EngineSpec, MatchError, Opening, Setup, TimeControl};
use crate::search::params::{ParamError, Params, Spec};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// Why a tuning run could not start.
#[derive(Debug, thiserror::Error)]
pub enum SpsaError {
    /// The engines, openings or time control.
    #[error(transparent)]
    Match(#[from] MatchError),
    /// A number named to tune or to start from.
    #[error(transparent)]
    Param(#[from] ParamError),
}

/// A tuning run.
#[derive(Debug, Clone)]
pub struct Config {
    /// The engine both sides run (its options apply to both).
    pub engine: EngineSpec,
    /// Each side's limit per move.
    pub control: TimeControl,
    /// Openings, drawn at random per pair.
    pub openings: Vec<Opening>,
    /// The numbers to tune (empty: every number of the table).
    pub names: Vec<String>,
    /// Start values other than today's defaults (to resume a run); those of numbers not tuned
    /// hold for both sides.
    pub start: Vec<(String, f64)>,
    /// Game pairs to play (`N`).
    pub pairs: usize,
    /// Pairs played at once.
    pub concurrency: usize,
    /// The learning rate at the end of the schedule (`r`, fishtest's `r_end`).
    pub rate: f64,
    /// The random seed (signs and openings).
    pub seed: u64,
    /// Print every number after this many pairs.
    pub report: usize,
    /// Outside opponents and their limit: each side then plays the opening twice against the
    /// step's opponent (colours swapped) instead of against the other side, and the step's
    /// result is the plus side's points minus the minus side's.
    pub opponent: Option<Opponents>,
    /// Steps an earlier run of the same schedule (`pairs`) already applied: the schedule goes
    /// on from there (0: a new run).
    pub resume: usize,
}

/// The outside opponents of a tuning run: step `k` plays `engines[k % engines.len()]`.
#[derive(Debug, Clone)]
pub struct Opponents {
    /// Their engines (never empty).
    pub engines: Vec<EngineSpec>,
    /// Their limit per move.
    pub control: TimeControl,
}

/// One tuned number: where it stands and its table row.
#[derive(Debug, Clone, Copy)]
pub struct Tuned {
    /// The table row (name, range, step: the perturbation at the end).
    pub spec: &'static Spec,
    /// The current value.
    pub value: f64,
}

/// One step's perturbation: the sign per number, the perturbation size per number and the
/// update's gain per number.
#[derive(Debug, Clone)]
pub struct Trial {
    /// Step number (0-based).
    pub k: usize,
    /// `Δ`, ±1 per number.
    pub signs: Vec<f64>,
    /// `c_k` per number.
    pub sizes: Vec<f64>,
    /// `a_k / c_k` per number: `θ += gain · result · Δ`.
    pub gains: Vec<f64>,
}

/// The optimiser's state: the numbers, the step count and the schedule.
#[derive(Debug, Clone)]
pub struct Spsa {
    /// The numbers tuned.
    pub tuned: Vec<Tuned>,
    /// Steps handed out so far.
    pub k: usize,
    /// `N`.
    pub pairs: usize,
    /// `r`.
    pub rate: f64,
    rng: StdRng,
}

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

impl Spsa {
    /// The state for tuning `names` (every number if empty) from today's defaults overridden
    /// by `start`, over `pairs` steps at end rate `rate`, `resume` of them already applied
    /// (the signs are then drawn afresh from the seed and `resume`).
    pub fn new(
        names: &[String],
        start: &[(String, f64)],
        pairs: usize,
        rate: f64,
        seed: u64,
        resume: usize,
    ) -> Result<Spsa, ParamError> {
        let specs: Vec<&'static Spec> = if names.is_empty() {
            Params::table().collect()
        } else {
            names
                .iter()
                .map(|n| Params::spec(n).ok_or_else(|| ParamError::Unknown(n.clone())))
                .collect::<Result<_, _>>()?
        };
        let mut params = Params::default();
        for (name, v) in start {
            params.set(name, *v)?;
        }
        // A tuned number starts where `start` says, fraction and all (a run taken up goes on
        // from the unrounded θ its report printed); `Params` would round a whole number.
        let tuned = specs
            .into_iter()
            .map(|spec| Tuned {
                spec,
                value: start
                    .iter()
                    .rev()
                    .find(|(n, _)| n.as_str() == spec.name)
                    .map(|(_, v)| *v)
                    .or_else(|| params.get(spec.name))
                    .unwrap_or(spec.default),
            })
            .collect();
        let stream = (resume as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Ok(Spsa {
            tuned,
            k: resume,
            pairs: pairs.max(1),
            rate,
            rng: StdRng::seed_from_u64(seed ^ stream),
        })
    }

    /// The next step's perturbation (the schedule at step `k`, fresh signs).
    pub fn trial(&mut self) -> Trial {
        let n = self.pairs as f64;
        let big_a = n / 10.0;
        let k = self.k as f64;
        let shrink_c = (n / (k + 1.0)).powf(GAMMA);
        let shrink_a = ((big_a + n) / (big_a + k + 1.0)).powf(ALPHA);
        let mut t = Trial {
            k: self.k,
            signs: Vec::with_capacity(self.tuned.len()),
            sizes: Vec::with_capacity(self.tuned.len()),
            gains: Vec::with_capacity(self.tuned.len()),
        };
        for p in &self.tuned {
            let c = p.spec.step * shrink_c;
            let a = self.rate * p.spec.step * p.spec.step * shrink_a;
            t.signs
                .push(if self.rng.random::<bool>() { 1.0 } else { -1.0 });
            t.sizes.push(c);
            t.gains.push(a / c);
        }
        self.k += 1;
        t
    }

    /// The two sides' values for `trial`: `θ + c·Δ` and `θ − c·Δ`, each within its range.
    pub fn sides(&self, trial: &Trial) -> [Vec<(&'static Spec, f64)>; 2] {
        [1.0, -1.0].map(|dir| {
            self.tuned
                .iter()
                .zip(trial.signs.iter().zip(&trial.sizes))
                .map(|(p, (s, c))| {
                    let v = (p.value + dir * s * c).clamp(p.spec.min, p.spec.max);
                    (p.spec, v)
                })
                .collect()
        })
    }

    /// Moves `θ` after `trial`'s pair ended `result` (the plus side's points minus the minus
    /// side's, −2..=2).
    pub fn update(&mut self, trial: &Trial, result: f64) {
        for (i, p) in self.tuned.iter_mut().enumerate() {
            let v = p.value + trial.gains[i] * result * trial.signs[i];
            p.value = v.clamp(p.spec.min, p.spec.max);
        }
    }

    /// The current `θ` as `NAME=VALUE` words, each after `prefix`: the engine options, whole
    /// numbers rounded as the engine would.
    pub fn words(&self, prefix: &str) -> String {
        self.line(prefix, value_text)
    }

    /// The current `θ` as `NAME=VALUE` words, unrounded: what `--start` takes to resume a run.
    /// Rounded at every stretch, a whole number whose step is 1 (`lmp_base`) would lose up to
    /// half a step each time, and a drift smaller than that would never show.
    pub fn state(&self) -> String {
        self.line("", |_, v| exact_text(v))
    }

    /// `θ` as `NAME=VALUE` words, each after `prefix`, the values written by `text`.
    fn line(&self, prefix: &str, text: impl Fn(&Spec, f64) -> String) -> String {
        let words: Vec<String> = self
            .tuned
            .iter()
            .map(|p| format!("{prefix}{}={}", p.spec.name, text(p.spec, p.value)))
            .collect();
        words.join(" ")
    }

    /// The opening index for a pair, drawn at random among `count`.
    fn opening(&mut self, count: usize) -> usize {
        self.rng.random_range(0..count.max(1))
    }
}

/// A value as the option text: whole numbers without decimals.
fn value_text(spec: &Spec, v: f64) -> String {
    if spec.integer {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.4}")
    }
}

/// A value to four decimals, without trailing zeros.
fn exact_text(v: f64) -> String {
    let text = format!("{v:.4}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The engine spec of one side: the base options, then the side's numbers.
fn side_spec(base: &EngineSpec, name: &str, values: &[(&'static Spec, f64)]) -> EngineSpec {
    let mut spec = base.clone();
    spec.name = Some(name.to_string());
    for (p, v) in values {
        spec.options.push((p.name.to_string(), value_text(p, *v)));
    }
    spec
}

/// Tells a running engine the options of `spec` (a fresh engine got them at start).
fn configure(engine: &mut Option<Engine>, spec: &EngineSpec, ms: u64) {
    if let Some(e) = engine.as_mut() {
        if !(e.alive() && e.set_options(&spec.options, ms).is_ok()) {
            *engine = None;
        }
    }
}

/// The running totals the report prints.
#[derive(Debug, Default, Clone, Copy)]
struct Totals {
    pairs: usize,
    /// The plus and the minus side's points.
    points: [f64; 2],
}

/// One line per number: name, default, value now.
pub fn table(s: &Spsa) -> String {
    let mut out = String::new();
    for p in &s.tuned {
        out.push_str(&format!(
            "{:<18} {:>10} {:>10.3}\n",
            p.spec.name,
            value_text(p.spec, p.spec.default),
            p.value
        ));
    }
    out
}

/// Runs the tuner: progress on stderr; returns the tuned numbers (`table`, and `Spsa::words`
/// for `chariot match --option1`).
pub fn run(mut config: Config) -> Result<Spsa, SpsaError> {
    let spsa = Spsa::new(
        &config.names,
        &config.start,
        config.pairs,
        config.rate,
        config.seed,
        config.resume,
    )?;
    // Start values of numbers not tuned hold for both sides.
    for (name, v) in &config.start {
        if !spsa.tuned.iter().any(|p| p.spec.name == name.as_str()) {
            if let Some(spec) = Params::spec(name) {
                config
                    .engine
                    .options
                    .push((name.clone(), value_text(spec, *v)));
            }
        }
    }
    // No opponent listed is self-play (a step must never pick among none).
    if config
        .opponent
        .as_ref()
        .is_some_and(|o| o.engines.is_empty())
    {
        config.opponent = None;
    }
    if config.openings.is_empty() {
        return Err(MatchError::Openings(super::super::openings::OpeningsError::Empty).into());
    }
    // An engine that cannot start or answer is an error before any pair.
    match Engine::start(&config.engine, Setup::HANDSHAKE_MS) {
        Ok(e) => e.quit(),
        Err(e) => {
            let why = match e {
                EngineError::Spawn(why) => why,
                e => e.to_string(),
            };
            return Err(MatchError::Spawn { engine: 1, why }.into());
        }
    }
    eprintln!(
        "spsa: {} numbers, {} pairs at {}, r = {}{}",
        spsa.tuned.len(),
        config.pairs,
        config.control,
        config.rate,
        match config.resume {
            0 => String::new(),
            k => format!(", taken up after pair {k}"),
        }
    );
    let state = Arc::new(Mutex::new((spsa, Totals::default())));
    let config = Arc::new(config);
    let stop = Arc::new(AtomicBool::new(false));
    let left = config.pairs.saturating_sub(config.resume).max(1);
    let workers = config.concurrency.clamp(1, 64).min(left);
    let handles: Vec<_> = (0..workers)
        .map(|_| {
            let (state, config, stop) = (Arc::clone(&state), Arc::clone(&config), stop.clone());
            std::thread::spawn(move || worker(&state, &config, &stop))
        })
        .collect();
    for h in handles {
        let _ = h.join();
    }
    let (spsa, totals) = state.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let per_side = 2.0 * totals.pairs.max(1) as f64;
    eprintln!(
        "spsa: {} pairs, plus side scored {:.1}%, minus side {:.1}%",
        totals.pairs,
        100.0 * totals.points[0] / per_side,
        100.0 * totals.points[1] / per_side
    );
    Ok(spsa)
}

/// A worker's engines: the two sides, and one per outside opponent.
#[derive(Default)]
struct Seats {
    sides: [Option<Engine>; 2],
    opponents: Vec<Option<Engine>>,
}

impl Seats {
    fn quit(self) {
        for e in self.sides.into_iter().chain(self.opponents).flatten() {
            e.quit();
        }
    }
}

/// Plays step `k`'s games: the opening twice, colours swapped, between the two sides, or each
/// side twice against the step's opponent. The two sides' points (`None`: stopped).
fn play_step(
    config: &Config,
    seats: &mut Seats,
    specs: [EngineSpec; 2],
    (k, opening): (usize, usize),
    stop: &AtomicBool,
) -> Option<[f64; 2]> {
    let opening = vec![config.openings[opening].clone()];
    for (e, spec) in seats.sides.iter_mut().zip(&specs) {
        configure(e, spec, Setup::HANDSHAKE_MS);
    }
    let mut points = [0.0; 2];
    match &config.opponent {
        None => {
            let setup = Setup::new(specs, [config.control; 2], opening);
            for index in 0..2 {
                let f = game::play(&setup, index, &mut seats.sides, stop)?;
                points[0] += f.score;
                points[1] += 1.0 - f.score;
            }
        }
        Some(opponents) => {
            let which = k % opponents.engines.len();
            for (side, spec) in specs.into_iter().enumerate() {
                let setup = Setup::new(
                    [spec, opponents.engines[which].clone()],
                    [config.control, opponents.control],
                    opening.clone(),
                );
                let mut pair = [seats.sides[side].take(), seats.opponents[which].take()];
                let played: Option<f64> = (0..2)
                    .map(|index| game::play(&setup, index, &mut pair, stop).map(|f| f.score))
                    .sum();
                [seats.sides[side], seats.opponents[which]] = pair;
                points[side] = played?;
            }
        }
    }
    Some(points)
}

/// A worker: takes a step, plays its games with its own engines, applies the result, until
/// the steps run out.
fn worker(state: &Mutex<(Spsa, Totals)>, config: &Config, stop: &AtomicBool) {
    // One seat per outside opponent, each engine kept running between its steps.
    let opponents = config.opponent.as_ref().map_or(0, |o| o.engines.len());
    let mut seats = Seats {
        opponents: (0..opponents).map(|_| None).collect(),
        ..Seats::default()
    };
    loop {
        let step = {
            let Ok(mut g) = state.lock() else { break };
            let (spsa, _) = &mut *g;
            if spsa.k >= spsa.pairs {
                break;
            }
            let trial = spsa.trial();
            let opening = spsa.opening(config.openings.len());
            let sides = spsa.sides(&trial);
            (trial, opening, sides)
        };
        let (trial, opening, [plus, minus]) = step;
        let specs = [
            side_spec(&config.engine, "plus", &plus),
            side_spec(&config.engine, "minus", &minus),
        ];
        let Some([p, m]) = play_step(config, &mut seats, specs, (trial.k, opening), stop) else {
            break;
        };
        let Ok(mut g) = state.lock() else { break };
        let (spsa, totals) = &mut *g;
        spsa.update(&trial, p - m);
        totals.pairs += 1;
        totals.points[0] += p;
        totals.points[1] += m;
        let per_side = 2.0 * totals.pairs as f64;
        let applied = config.resume + totals.pairs;
        eprintln!(
            "pair {} ({} of {}): plus {p}/2 minus {m}/2 | plus {:.1}% minus {:.1}%",
            trial.k + 1,
            applied,
            spsa.pairs,
            100.0 * totals.points[0] / per_side,
            100.0 * totals.points[1] / per_side,
        );
        if config.report > 0 && totals.pairs % config.report == 0 {
            eprintln!("theta after {applied} pairs: {}", spsa.state());
        }
    }
    seats.quit();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_schedule_ends_at_the_table_step_and_rate() {
        let mut s = Spsa::new(&names(&["rfp_margin", "lmr_div"]), &[], 100, 0.002, 1, 0).unwrap();
        let first = s.trial();
        let mut last = first.clone();
        for _ in 1..100 {
            last = s.trial();
        }
        for (i, p) in s.tuned.iter().enumerate() {
            assert!((last.sizes[i] - p.spec.step).abs() < 1e-9);
            assert!((last.gains[i] * last.sizes[i] - 0.002 * p.spec.step.powi(2)).abs() < 1e-9);
            // Both gains shrink along the schedule.
            assert!(first.sizes[i] > last.sizes[i] && first.gains[i] > last.gains[i]);
        }
    }

    #[test]
    fn a_run_taken_up_goes_on_with_the_schedule_and_fresh_signs() {
        let tuned = names(&["rfp_margin", "lmr_div", "qs_delta", "fut_margin"]);
        let mut whole = Spsa::new(&tuned, &[], 100, 0.002, 5, 0).unwrap();
        let early: Vec<Trial> = (0..40).map(|_| whole.trial()).collect();
        let at_40 = whole.trial();
        let start = [("rfp_margin".to_string(), 90.0)];
        let mut resumed = Spsa::new(&tuned, &start, 100, 0.002, 5, 40).unwrap();
        assert_eq!(resumed.tuned[0].value, 90.0);
        let first = resumed.trial();
        assert_eq!(first.k, 40);
        assert_eq!(first.sizes, at_40.sizes);
        assert_eq!(first.gains, at_40.gains);
        // Fresh signs: a resumed run must not replay the first steps' perturbations.
        let later: Vec<Vec<f64>> = std::iter::once(first.signs)
            .chain((1..20).map(|_| resumed.trial().signs))
            .collect();
        let replay: Vec<Vec<f64>> = early[..20].iter().map(|t| t.signs.clone()).collect();
        assert_ne!(later, replay);
    }

    #[test]
    fn the_reported_theta_takes_a_run_up_with_its_fractions() {
        let tuned = names(&["lmp_base", "rfp_margin", "lmr_div"]);
        let mut s = Spsa::new(&tuned, &[], 200, 0.02, 9, 0).unwrap();
        for _ in 0..30 {
            let t = s.trial();
            s.update(&t, 1.0);
        }
        let fraction = |v: f64| (v - v.round()).abs();
        // `lmp_base`, a whole number of step 1, is between two whole values now.
        assert!(fraction(s.tuned[0].value) > 0.01, "{}", s.tuned[0].value);
        // The report line, read back as `--start` words: the same θ to four decimals.
        let start: Vec<(String, f64)> = s
            .state()
            .split(' ')
            .map(|w| {
                let (n, v) = w.split_once('=').unwrap();
                (n.to_string(), v.parse().unwrap())
            })
            .collect();
        let resumed = Spsa::new(&tuned, &start, 200, 0.02, 9, 30).unwrap();
        for (a, b) in s.tuned.iter().zip(&resumed.tuned) {
            assert!((a.value - b.value).abs() < 1e-4, "{}", a.spec.name);
        }
        // The engine options stay whole where the engine's number is.
        assert!(!s.words("").split(' ').next().unwrap().contains('.'));
    }

    #[test]
    fn a_won_pair_moves_theta_toward_the_plus_side() {
        let mut s = Spsa::new(&names(&["rfp_margin", "lmr_div"]), &[], 10, 0.01, 7, 0).unwrap();
        let before: Vec<f64> = s.tuned.iter().map(|p| p.value).collect();
        let t = s.trial();
        let [plus, minus] = s.sides(&t);
        s.update(&t, 2.0);
        for (i, p) in s.tuned.iter().enumerate() {
            let moved = p.value - before[i];
            assert!(moved * (plus[i].1 - minus[i].1) > 0.0, "{}", p.spec.name);
        }
        // A drawn pair leaves θ where it is.
        let now: Vec<f64> = s.tuned.iter().map(|p| p.value).collect();
        let t = s.trial();
        s.update(&t, 0.0);
        assert_eq!(now, s.tuned.iter().map(|p| p.value).collect::<Vec<_>>());
    }

    #[test]
    fn values_stay_in_range_and_bad_names_are_refused() {
        let start = vec![("nmp_base".to_string(), 6.0)];
        let mut s = Spsa::new(&names(&["nmp_base"]), &start, 10, 1.0, 3, 0).unwrap();
        for _ in 0..10 {
            let t = s.trial();
            for side in s.sides(&t) {
                assert!((1.0..=6.0).contains(&side[0].1));
            }
            s.update(&t, 2.0);
            assert!((1.0..=6.0).contains(&s.tuned[0].value));
        }
        assert!(Spsa::new(&names(&["nope"]), &[], 10, 0.002, 1, 0).is_err());
        let bad = vec![("nmp_base".to_string(), 60.0)];
        assert!(Spsa::new(&[], &bad, 10, 0.002, 1, 0).is_err());
        assert_eq!(
            Spsa::new(&[], &[], 10, 0.002, 1, 0).unwrap().tuned.len(),
            Params::table().count()
        );
    }
}
