//! Making one option change on a process, in either `setoption` syntax and any name the engine
//! accepts, then checking it took: `isready` answered, and `eval` reporting the network the
//! options chose (always after a change that concerns the evaluation, now and then otherwise).

use super::deck::{Opt, Toggle};
use super::engine::{Fault, Proc};
use super::{Report, Shared};
use crate::eval::nnue::accumulator;
use crate::protocol::Dialect;
use crate::search::skill;
use rand::rngs::StdRng;
use rand::Rng;

/// The `Hash` sizes the driver chooses from (MiB), up to `Config::max_hash_mb`.
const HASHES: [u32; 8] = [1, 2, 4, 8, 16, 24, 32, 64];
/// The largest `MultiPV` the driver sets.
const MAX_MULTIPV: u32 = 4;
/// How often `eval` is checked after a change that does not concern the evaluation.
const EVAL_CHECK_RATE: f64 = 0.1;

impl Proc {
    /// Makes one option change, then checks `eval` when the change concerns the evaluation
    /// (and now and then otherwise) and that `isready` is answered.
    pub(super) fn toggle(
        &mut self,
        kind: Toggle,
        shared: &Shared,
        rng: &mut StdRng,
        rep: &mut Report,
    ) -> Result<(), Fault> {
        *rep.toggles.entry(kind).or_default() += 1;
        if self.search.is_some() {
            rep.toggles_in_search += 1;
        }
        let mark = self.notes.len();
        self.change(kind, shared, rng)?;
        let check_eval = kind.about_eval() || rng.random_bool(EVAL_CHECK_RATE);
        let evals = self.evals.len();
        if check_eval {
            self.send("eval")?;
        }
        self.isready(rep)?;
        if check_eval {
            rep.eval_checks += 1;
            self.check_eval(evals, shared)?;
        }
        if kind == Toggle::EvalFileBad && !self.notes[mark..].iter().any(|n| n.contains("EvalFile"))
        {
            return Err(self.fault("bad EvalFile refused without an info string"));
        }
        Ok(())
    }

    /// Sends the `setoption` lines of one change and notes the new values.
    fn change(&mut self, kind: Toggle, shared: &Shared, rng: &mut StdRng) -> Result<(), Fault> {
        let o = self.opts.clone();
        let opt = kind.option();
        match kind {
            Toggle::Threads => {
                let v = if o.threads == 1 { 2 } else { 1 };
                self.setoption(rng, opt, Some(&v.to_string()))?;
                self.opts.threads = v;
            }
            Toggle::Hash => {
                let v = another_hash(rng, o.hash, shared.cfg.max_hash_mb);
                self.setoption(rng, opt, Some(&v.to_string()))?;
                self.opts.hash = v;
                self.opts.max_hash = o.max_hash.max(v);
            }
            Toggle::MultiPv => {
                let v = if o.multipv == 1 {
                    rng.random_range(2..=MAX_MULTIPV)
                } else {
                    1
                };
                self.setoption(rng, opt, Some(&v.to_string()))?;
                self.opts.multipv = v;
            }
            Toggle::Skill => {
                let v = if o.skill == skill::MAX_LEVEL {
                    rng.random_range(0..skill::MAX_LEVEL)
                } else {
                    skill::MAX_LEVEL
                };
                self.setoption(rng, opt, Some(&v.to_string()))?;
                self.opts.skill = v;
            }
            Toggle::LimitStrength => {
                if !o.limit {
                    let elo = rng.random_range(skill::MIN_ELO..=skill::MAX_ELO);
                    self.setoption(rng, Opt::elo(), Some(&elo.to_string()))?;
                }
                self.flip(rng, opt, !o.limit)?;
                self.opts.limit = !o.limit;
            }
            Toggle::Ponder => {
                self.flip(rng, opt, !o.ponder)?;
                self.opts.ponder = !o.ponder;
            }
            Toggle::ShowWdl => {
                self.flip(rng, opt, !o.wdl)?;
                self.opts.wdl = !o.wdl;
            }
            Toggle::UseNnue => {
                self.flip(rng, opt, !o.nnue)?;
                self.opts.nnue = !o.nnue;
            }
            Toggle::ClearHash => self.setoption(rng, opt, None)?,
            Toggle::EvalFileBad => {
                let v = if rng.random_bool(0.5) {
                    "no-such-network.nnue"
                } else {
                    &shared.not_a_network
                };
                self.setoption(rng, opt, Some(v))?;
            }
            Toggle::EvalFileBuiltIn => {
                let v = rng.random_bool(0.5).then_some("<empty>");
                self.setoption(rng, opt, v)?;
                self.opts.net = 0;
            }
            Toggle::EvalFileOther => {
                self.setoption(rng, opt, Some(&shared.other_path))?;
                self.opts.net = 1;
            }
        }
        Ok(())
    }

    /// Sets a check option to `on`, in one of the words the engine accepts.
    fn flip(&mut self, rng: &mut StdRng, opt: Opt, on: bool) -> Result<(), Fault> {
        let w = bool_word(rng, on);
        self.setoption(rng, opt, Some(w))
    }

    /// Sends `setoption` in either syntax (`name N value V`, or UCCI's `N V`), with the option's
    /// name in either dialect (UCI names with `_` for spaces in the UCCI syntax).
    fn setoption(&mut self, rng: &mut StdRng, opt: Opt, value: Option<&str>) -> Result<(), Fault> {
        let (uci, ucci) = (opt.uci(), opt.ucci());
        let uci_form = rng.random_bool(0.5);
        let line = if uci_form {
            let name = if (self.dialect == Dialect::Uci) == rng.random_bool(0.8) {
                uci
            } else {
                ucci
            };
            match value {
                Some(v) => format!("setoption name {name} value {v}"),
                None => format!("setoption name {name}"),
            }
        } else {
            let name = if rng.random_bool(0.7) {
                ucci.to_string()
            } else {
                uci.replace(' ', "_")
            };
            match value {
                Some(v) => format!("setoption {name} {v}"),
                None => format!("setoption {name}"),
            }
        };
        self.send(&line)
    }

    /// Checks the answer to `eval` (the one after the first `evals`) against the driver's own
    /// evaluation with the network the options chose.
    fn check_eval(&self, evals: usize, shared: &Shared) -> Result<(), Fault> {
        let Some(&(v, nnue)) = self.evals.get(evals) else {
            return Err(self.fault("no network value from eval"));
        };
        let want = accumulator::evaluate(&shared.nets[self.opts.net], &self.pos);
        if v != want || nnue != self.opts.nnue {
            return Err(self.fault(format!(
                "eval says network {v} ({} in use), expected {want} from the {} network ({} in use)",
                if nnue { "network" } else { "classical" },
                if self.opts.net == 0 { "built-in" } else { "other" },
                if self.opts.nnue { "network" } else { "classical" }
            )));
        }
        Ok(())
    }
}

/// A `Hash` size other than `now`, at most `max` MiB (1 when there is none).
fn another_hash(rng: &mut StdRng, now: u32, max: u32) -> u32 {
    let sizes: Vec<u32> = HASHES
        .iter()
        .copied()
        .filter(|&h| h <= max.max(1) && h != now)
        .collect();
    sizes
        .get(rng.random_range(0..sizes.len().max(1)))
        .copied()
        .unwrap_or(1)
}

/// A word for `v` the engine must accept: mostly `true`/`false`, now and then another.
fn bool_word(rng: &mut StdRng, v: bool) -> &'static str {
    let words: [&str; 4] = if v {
        ["true", "on", "1", "yes"]
    } else {
        ["false", "off", "0", "no"]
    };
    if rng.random_bool(0.7) {
        words[0]
    } else {
        words[rng.random_range(0..4)]
    }
}
