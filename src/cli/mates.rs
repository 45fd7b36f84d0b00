//! `chariot mates`: the mate track's command line (the tool is `tools::matches::mates`).

use super::{say, Failure};
use chariot::tools::matches::mates::{self, Budget, Solver};
use chariot::tools::matches::{parse_dialect, parse_options, EngineSpec};
use chariot::tools::{read_bytes, read_text};
use std::ops::ControlFlow;
use std::path::PathBuf;

/// Arguments of `chariot mates`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatesArgs {
    /// The mate file (`FEN; dm N; bm MOVE`, as positions/mates.epd), or with --harvest PGN files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Nodes per position (`go nodes N`).
    #[arg(long, default_value_t = 100_000, conflicts_with = "depth_plus")]
    pub nodes: u64,
    /// Search each position to depth 2|N| + K instead of a node budget.
    #[arg(long)]
    pub depth_plus: Option<u32>,
    /// Another engine's command line (UCI or UCCI) to run on the same file instead of Chariot.
    #[arg(long)]
    pub engine: Option<String>,
    /// The other engine's working directory.
    #[arg(long)]
    pub dir: Option<String>,
    /// The other engine's dialect: auto, uci or ucci.
    #[arg(long, default_value = "auto")]
    pub dialect: String,
    /// An option for the other engine as NAME=VALUE (repeatable).
    #[arg(long)]
    pub option: Vec<String>,
    /// Chariot's hash table in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Chariot evaluates with the classical evaluation instead of the built-in network.
    #[arg(long)]
    pub classical: bool,
    /// Print only the total line.
    #[arg(long, short)]
    pub quiet: bool,
    /// Read the files as PGN and print new mate-track lines: the first position of each decisive
    /// game where the winner announced mate.
    #[arg(long)]
    pub harvest: bool,
}

/// Runs `chariot mates`.
pub fn run(args: &MatesArgs) -> Result<(), Failure> {
    if args.harvest {
        for f in &args.files {
            let bytes = read_bytes(f)?;
            for line in mates::harvest(&bytes).map_err(Failure::input)? {
                say(format_args!("{line}\n"))?;
            }
        }
        return Ok(());
    }
    let mut cases = Vec::new();
    for f in &args.files {
        cases.extend(mates::read_cases(&read_text(f)?).map_err(Failure::input)?);
    }
    let budget = match args.depth_plus {
        Some(k) => Budget::Depth(k),
        None => Budget::Nodes(args.nodes),
    };
    let mut solver = match &args.engine {
        Some(command) => Solver::engine(&EngineSpec {
            command: command.clone(),
            dir: args.dir.clone(),
            dialect: parse_dialect(&args.dialect).map_err(Failure::input)?,
            options: parse_options(&args.option).map_err(Failure::input)?,
            name: None,
        })
        .map_err(Failure::input)?,
        None => Solver::chariot(
            args.hash,
            (!args.classical).then(chariot::eval::nnue::default_network),
        ),
    };
    let mut printed = Ok(());
    let t = mates::run(&cases, &mut solver, budget, |i, case, v| {
        if !args.quiet {
            let mark = if v.exact(case.dm) {
                "exact"
            } else if v.solved(case.dm) {
                "solved"
            } else {
                "-"
            };
            printed = say(format_args!(
                "{:>4} dm {:>3} {:>8} {mark}\n",
                i + 1,
                case.dm,
                v.score
            ));
        }
        if printed.is_ok() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    })?;
    printed?;
    let limit = match budget {
        Budget::Nodes(n) => format!("{n} nodes"),
        Budget::Depth(k) => format!("depth 2N+{k}"),
    };
    say(format_args!(
        "solved {}/{} exact {}/{} at {limit}\n",
        t.solved, t.positions, t.exact, t.positions
    ))
}
