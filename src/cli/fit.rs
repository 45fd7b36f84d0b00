//! `chariot tune`, `chariot wdl-fit` and `chariot spsa`: the fitting tools' command lines.

use super::{this_program, Failure};
use chariot::protocol::Dialect;
use chariot::tools::fit::{spsa, tune};
use chariot::tools::matches::{parse_dialect, parse_options, EngineSpec, MatchError, TimeControl};
use chariot::tools::openings::{self, DEFAULT_OPENINGS};
use chariot::tools::read_bytes;
use std::path::PathBuf;

/// Arguments of `chariot tune`.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// PGN files of finished games (as `chariot match --pgn` writes them).
    #[arg(required = true)]
    pub pgn: Vec<PathBuf>,
    /// Passes of the optimiser over the samples.
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Parameters seen in fewer samples than this keep their value.
    #[arg(long, default_value_t = 300)]
    pub min_count: usize,
    /// Pull of each parameter towards its current value (L2 penalty per centipawn squared).
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Weight of the game result in the target (the rest goes to the recorded search score).
    #[arg(long, default_value_t = 0.5)]
    pub result_weight: f64,
}

impl From<TuneArgs> for tune::Config {
    fn from(a: TuneArgs) -> tune::Config {
        tune::Config {
            pgn: a.pgn,
            epochs: a.epochs,
            rate: a.rate,
            min_count: a.min_count,
            l2: a.l2,
            result_weight: a.result_weight,
        }
    }
}

/// Arguments of `chariot wdl-fit`.
#[derive(clap::Args, Debug, Clone)]
pub struct WdlFitArgs {
    /// PGN files written by `chariot match --pgn`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Arguments of `chariot spsa`.
#[derive(clap::Args, Debug, Clone)]
pub struct SpsaArgs {
    /// The engine's command line, quotes allowed (default: this program).
    #[arg(long)]
    pub engine: Option<String>,
    /// An option for the engine as NAME=VALUE, both sides (repeatable), e.g. Hash=16.
    #[arg(long)]
    pub option: Vec<String>,
    /// Each side's clock: BASE[+INC] in seconds.
    #[arg(long, default_value = "1+0.01")]
    pub tc: String,
    /// A number to tune (repeatable; default: every number of the search's table).
    #[arg(long)]
    pub param: Vec<String>,
    /// A start value other than today's, NAME=VALUE (repeatable; to resume a run).
    #[arg(long)]
    pub start: Vec<String>,
    /// Game pairs to play (the whole schedule, counting any taken up with --resume).
    #[arg(long, default_value_t = 2000)]
    pub pairs: usize,
    /// Pairs an earlier run of the same --pairs already played: its schedule goes on from
    /// there (give its last printed numbers with --start).
    #[arg(long, default_value_t = 0)]
    pub resume: usize,
    /// Pairs played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// The learning rate at the end of the schedule (fishtest's r_end).
    #[arg(long, default_value_t = 0.002)]
    pub rate: f64,
    /// Random seed for the signs and the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print every number after this many pairs (0: only at the end).
    #[arg(long, default_value_t = 100)]
    pub report: usize,
    /// An outside opponent's command line: each side plays it instead of the other side
    /// (repeatable: the steps take the opponents in turn; they share the settings below).
    #[arg(long)]
    pub opponent: Vec<String>,
    /// The opponent's working directory.
    #[arg(long)]
    pub opponent_dir: Option<String>,
    /// The opponent's dialect: auto, uci or ucci.
    #[arg(long, default_value = "auto")]
    pub opponent_dialect: String,
    /// An option for the opponent as NAME=VALUE (repeatable), e.g. usebook=false.
    #[arg(long)]
    pub opponent_option: Vec<String>,
    /// The opponent's fixed depth per move (instead of --tc).
    #[arg(long, conflicts_with = "opponent_tc")]
    pub opponent_depth: Option<u32>,
    /// The opponent's own clock, BASE[+INC] in seconds (instead of --tc), to tune at time
    /// odds, e.g. --tc 0.333+0.0033 --opponent-tc 10+0.1.
    #[arg(long)]
    pub opponent_tc: Option<String>,
    /// Openings file (default: the built-in set; keep the openings that measure strength out).
    #[arg(long)]
    pub openings: Option<String>,
}

impl SpsaArgs {
    /// The run the words ask for.
    pub fn config(&self) -> Result<spsa::Config, Failure> {
        let openings = match &self.openings {
            Some(path) => openings::read(&read_bytes(path)?),
            None => openings::parse(DEFAULT_OPENINGS),
        }
        .map_err(MatchError::from)?;
        let start = parse_options(&self.start)?
            .into_iter()
            .map(|(n, v)| {
                v.parse::<f64>()
                    .map(|v| (n.clone(), v))
                    .map_err(|_| Failure::input(format!("--start {n}: '{v}' is not a number")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let engine = EngineSpec {
            command: self.engine.clone().unwrap_or_else(this_program),
            dir: None,
            dialect: Some(Dialect::Uci),
            options: parse_options(&self.option)?,
            name: None,
        };
        let control = TimeControl::parse_tc(&self.tc).map_err(MatchError::from)?;
        if self.pairs == 0 || self.resume >= self.pairs {
            return Err(Failure::input(format!(
                "--pairs must be at least 1 and above --resume ({} and {})",
                self.pairs, self.resume
            )));
        }
        let opponent = if self.opponent.is_empty() {
            None
        } else {
            let (dialect, options) = (
                parse_dialect(&self.opponent_dialect)?,
                parse_options(&self.opponent_option)?,
            );
            Some(spsa::Opponents {
                engines: self
                    .opponent
                    .iter()
                    .map(|command| EngineSpec {
                        command: command.clone(),
                        dir: self.opponent_dir.clone(),
                        dialect,
                        options: options.clone(),
                        name: None,
                    })
                    .collect(),
                control: match (self.opponent_depth, &self.opponent_tc) {
                    (Some(d), _) => TimeControl::Depth(d.max(1)),
                    (None, Some(tc)) => TimeControl::parse_tc(tc).map_err(MatchError::from)?,
                    (None, None) => control,
                },
            })
        };
        Ok(spsa::Config {
            opponent,
            engine,
            control,
            openings,
            names: self.param.clone(),
            start,
            pairs: self.pairs,
            resume: self.resume,
            concurrency: self.concurrency,
            rate: self.rate,
            seed: self.seed,
            report: self.report,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        s: SpsaArgs,
    }

    fn opponent_control(words: &[&str]) -> Option<TimeControl> {
        let mut v = vec!["spsa", "--tc", "0.333+0.0033", "--opponent", "eleeye"];
        v.extend_from_slice(words);
        let args = Cli::try_parse_from(v).ok()?.s;
        args.config().ok()?.opponent.map(|o| o.control)
    }

    #[test]
    fn the_opponent_plays_at_its_own_clock_depth_or_ours() {
        let clock = |base, inc| TimeControl::Clock {
            base,
            inc,
            moves: None,
        };
        assert_eq!(opponent_control(&[]), Some(clock(333, 3)));
        let odds = opponent_control(&["--opponent-tc", "10+0.1"]);
        assert_eq!(odds, Some(clock(10_000, 100)));
        let depth = opponent_control(&["--opponent-depth", "7"]);
        assert_eq!(depth, Some(TimeControl::Depth(7)));
        assert_eq!(
            opponent_control(&["--opponent-depth", "7", "--opponent-tc", "1"]),
            None
        );
        assert_eq!(opponent_control(&["--opponent-tc", "1+x"]), None);
    }

    fn config(words: &[&str]) -> Result<spsa::Config, Failure> {
        let v = ["spsa"].iter().chain(words).copied();
        Cli::try_parse_from(v).unwrap().s.config()
    }

    #[test]
    fn several_opponents_share_their_settings_and_a_run_is_taken_up_inside_its_schedule() {
        let words = [
            "--opponent",
            "eleeye",
            "--opponent",
            "stockfish",
            "--opponent-dir",
            "peers",
            "--opponent-dialect",
            "ucci",
            "--opponent-option",
            "usebook=false",
        ];
        let c = config(&words).unwrap();
        let o = c.opponent.unwrap();
        let commands: Vec<&str> = o.engines.iter().map(|e| e.command.as_str()).collect();
        assert_eq!(commands, ["eleeye", "stockfish"]);
        for e in &o.engines {
            assert_eq!(e.dir.as_deref(), Some("peers"));
            assert_eq!(e.dialect, Some(Dialect::Ucci));
            assert_eq!(e.options, [("usebook".to_string(), "false".to_string())]);
        }
        assert_eq!(c.resume, 0);
        assert_eq!(
            config(&["--pairs", "300", "--resume", "120"])
                .unwrap()
                .resume,
            120
        );
        for bad in [
            &["--pairs", "0"][..],
            &["--pairs", "100", "--resume", "100"],
        ] {
            assert!(config(bad).is_err(), "{bad:?}");
        }
    }
}
