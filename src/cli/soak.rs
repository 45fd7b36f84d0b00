//! `chariot soak`: the command line of the soak (self-play under random option changes).

use super::{say, this_program, Exit, Failure};
use chariot::tools::matches::{parse_dialect, TimeControl};
use chariot::tools::soak::{self, Config};
use std::process::ExitCode;

/// Arguments of `chariot soak`.
#[derive(clap::Args, Debug, Clone)]
pub struct SoakArgs {
    /// The engine's command line, quotes allowed (default: this program); it must be this build.
    #[arg(long)]
    pub engine: Option<String>,
    /// Games to play.
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Seed of the driver's choices (option changes, their moments, dialects).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Clocks: BASE[+INC] in seconds.
    #[arg(long, default_value = "1+0.01")]
    pub tc: String,
    /// Longest game in plies, opening included, before a draw is declared.
    #[arg(long, default_value_t = 300)]
    pub maxplies: usize,
    /// Grace in ms beyond the clock before a move counts as lost on time.
    #[arg(long, default_value_t = 100)]
    pub margin: u64,
    /// Longest wait in ms for `readyok` (and for the answer to `stop` while pondering).
    #[arg(long, default_value_t = 3000)]
    pub ready_timeout: u64,
    /// Resident memory allowed beyond `Hash`, MiB.
    #[arg(long, default_value_t = 40)]
    pub memory_slack: u64,
    /// Dialect of every process: uci, ucci, or mixed (random per process).
    #[arg(long, default_value = "mixed")]
    pub dialect: String,
    /// Probability per move of one option change before it and of one during its search.
    #[arg(long, default_value_t = 0.1)]
    pub toggle_rate: f64,
    /// Largest `Hash` the driver sets, MiB.
    #[arg(long, default_value_t = 64)]
    pub max_hash: u32,
    /// Probability of replacing both processes (after `quit`) between two games.
    #[arg(long, default_value_t = 0.05)]
    pub restart_rate: f64,
    /// A valid network file other than the built-in one (default: one the soak writes to the
    /// temporary directory).
    #[arg(long)]
    pub evalfile: Option<String>,
    /// Games played at once, each with its own pair of processes.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// No line per game on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs the soak and prints its report; exit status 1 (`Exit::Failed`) when it found a fault.
pub fn run(args: &SoakArgs) -> Result<ExitCode, Failure> {
    let (base_ms, inc_ms) = match TimeControl::parse_tc(&args.tc).map_err(Failure::input)? {
        TimeControl::Clock {
            base,
            inc,
            moves: None,
        } => (base, inc),
        _ => {
            return Err(Failure::input(format!(
                "bad --tc '{}': BASE[+INC]",
                args.tc
            )))
        }
    };
    let dialect = match args.dialect.as_str() {
        "mixed" => None,
        d => parse_dialect(d).map_err(Failure::input)?,
    };
    if !(0.0..=1.0).contains(&args.toggle_rate) || !(0.0..=1.0).contains(&args.restart_rate) {
        return Err(Failure::input("rates are probabilities, from 0 to 1"));
    }
    let config = Config {
        engine: args.engine.clone().unwrap_or_else(this_program),
        games: args.games,
        seed: args.seed,
        base_ms,
        inc_ms,
        maxplies: args.maxplies,
        margin_ms: args.margin,
        ready_ms: args.ready_timeout,
        memory_slack_mb: args.memory_slack,
        dialect,
        toggle_rate: args.toggle_rate,
        max_hash_mb: args.max_hash,
        restart_rate: args.restart_rate,
        eval_file: args.evalfile.clone(),
        concurrency: args.concurrency,
        progress: !args.quiet,
    };
    let start = std::time::Instant::now();
    let report = soak::run(&config)?;
    say(format_args!(
        "{report}\ntime: {:.1} s\n",
        start.elapsed().as_secs_f64()
    ))?;
    Ok(if report.faults.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(Exit::Failed.code())
    })
}
