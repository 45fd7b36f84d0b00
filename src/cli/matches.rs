//! `chariot match` and `chariot judge`: the command lines of the match tools. The words are
//! parsed here into the match's typed set-up; the tools never see a command line.

use super::{say, this_program, Exit, Failure};
use chariot::tools::matches::{
    self, judge, parse_dialect, parse_options, EngineSpec, MatchError, Setup, Sprt, Summary,
    TimeControl, TimeControlError,
};
use chariot::tools::openings::{self, DEFAULT_OPENINGS};
use chariot::tools::read_bytes;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `chariot match`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// First engine's command line, quotes allowed (default: this program).
    #[arg(long)]
    pub engine1: Option<String>,
    /// Second engine's command line, quotes allowed (default: this program).
    #[arg(long)]
    pub engine2: Option<String>,
    /// First engine's display name (default: its `id name`).
    #[arg(long)]
    pub name1: Option<String>,
    /// Second engine's display name (default: its `id name`).
    #[arg(long)]
    pub name2: Option<String>,
    /// First engine's working directory.
    #[arg(long)]
    pub dir1: Option<String>,
    /// Second engine's working directory.
    #[arg(long)]
    pub dir2: Option<String>,
    /// First engine's dialect: auto (UCI tried first, then UCCI), uci or ucci.
    #[arg(long, default_value = "auto")]
    pub dialect1: String,
    /// Second engine's dialect: auto (UCI tried first, then UCCI), uci or ucci.
    #[arg(long, default_value = "auto")]
    pub dialect2: String,
    /// An option for engine 1 as NAME=VALUE, or NAME for a button (repeatable).
    #[arg(long)]
    pub option1: Vec<String>,
    /// An option for engine 2 as NAME=VALUE, or NAME for a button (repeatable).
    #[arg(long)]
    pub option2: Vec<String>,
    /// Number of games; each opening is played twice in a row, colours swapped.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// The first game's 0-based index: play games N … N + games − 1 of a longer match, with
    /// their openings and colours (a slice of a match played apart).
    #[arg(long, default_value_t = 0)]
    pub first: usize,
    /// Check the words, the openings and that both engine commands start, then exit without
    /// playing (exit 0 if the match would start).
    #[arg(long)]
    pub check: bool,
    /// Fixed depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Fixed time per move in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Clocks: [MOVES/]BASE[+INC] in seconds, e.g. 10+0.1 or 40/60 (default limit: --depth 4).
    #[arg(long)]
    pub tc: Option<String>,
    /// Engine 1's clock, instead of --tc for it (time odds), e.g. --tc1 1+0.01 --tc2 10+0.1.
    #[arg(long)]
    pub tc1: Option<String>,
    /// Engine 2's clock, instead of --tc for it.
    #[arg(long)]
    pub tc2: Option<String>,
    /// Engine 1's fixed depth per move, instead of the shared limit.
    #[arg(long)]
    pub depth1: Option<u32>,
    /// Engine 2's fixed depth per move, instead of the shared limit (e.g. a one-ply opponent).
    #[arg(long)]
    pub depth2: Option<u32>,
    /// Engine 1's fixed nodes per move, instead of the shared limit.
    #[arg(long)]
    pub nodes1: Option<u64>,
    /// Engine 2's fixed nodes per move, instead of the shared limit.
    #[arg(long)]
    pub nodes2: Option<u64>,
    /// Games played at once, each with its own pair of engine processes.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Openings file: FENs (optionally with `moves …`) or ICCS move sequences, one per line
    /// (default: the built-in set of about 100).
    #[arg(long)]
    pub openings: Option<String>,
    /// Write the games to this PGN file.
    #[arg(long)]
    pub pgn: Option<String>,
    /// PGN Event tag.
    #[arg(long, default_value = "chariot match")]
    pub event: String,
    /// SPRT: ELO0,ELO1[,ALPHA,BETA] (alpha, beta default 0.05); stops as soon as it decides.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Longest game in plies, opening included, before a draw is declared.
    #[arg(long, default_value_t = Setup::MAXPLIES)]
    pub maxplies: usize,
    /// Grace in ms beyond the clock (or --movetime) before a move forfeits on time.
    #[arg(long, visible_alias = "timemargin", default_value_t = Setup::MARGIN_MS)]
    pub margin: u64,
    /// Longest wait in ms for a move under --depth or --nodes (a hang beyond it loses).
    #[arg(long, default_value_t = Setup::TIMEOUT_MS)]
    pub timeout: u64,
    /// Longest wait in ms for a handshake, `isready` or new game (per dialect tried).
    #[arg(long, default_value_t = Setup::HANDSHAKE_MS)]
    pub handshake: u64,
    /// An engine answering without a move while it has legal moves claims a draw: accepted
    /// after this many plies without a capture (ElephantEye's rule is 100), else a loss;
    /// 0 makes every such answer a loss.
    #[arg(long, default_value_t = Setup::CLAIM_PLIES)]
    pub claim: u16,
}

/// The limit per move of engine `which` (1 or 2): its own (`--tcN`, `--depthN` or `--nodesN`)
/// if given, else the shared one.
fn control(args: &MatchArgs, which: usize) -> Result<TimeControl, TimeControlError> {
    let (tc, depth, nodes) = if which == 1 {
        (&args.tc1, args.depth1, args.nodes1)
    } else {
        (&args.tc2, args.depth2, args.nodes2)
    };
    match (depth, nodes, tc) {
        (Some(d), None, None) => return Ok(TimeControl::Depth(d.max(1))),
        (None, Some(n), None) => return Ok(TimeControl::Nodes(n.max(1))),
        (None, None, Some(tc)) => return TimeControl::parse_tc(tc),
        (None, None, None) => {}
        _ => return Err(TimeControlError::Conflict),
    }
    match (args.depth, args.nodes, args.movetime, args.tc.as_ref()) {
        (Some(d), None, None, None) => Ok(TimeControl::Depth(d.max(1))),
        (None, Some(n), None, None) => Ok(TimeControl::Nodes(n.max(1))),
        (None, None, Some(t), None) => Ok(TimeControl::MoveTime(t.max(1))),
        (None, None, None, Some(tc)) => TimeControl::parse_tc(tc),
        (None, None, None, None) => Ok(TimeControl::Depth(4)),
        _ => Err(TimeControlError::Conflict),
    }
}

/// Engine `which`'s spec from its words.
fn spec(args: &MatchArgs, which: usize) -> Result<EngineSpec, MatchError> {
    let (command, name, dir, dialect, options) = if which == 1 {
        (
            &args.engine1,
            &args.name1,
            &args.dir1,
            &args.dialect1,
            &args.option1,
        )
    } else {
        (
            &args.engine2,
            &args.name2,
            &args.dir2,
            &args.dialect2,
            &args.option2,
        )
    };
    Ok(EngineSpec {
        command: command.clone().unwrap_or_else(this_program),
        dir: dir.clone(),
        dialect: parse_dialect(dialect)?,
        options: parse_options(options)?,
        name: name.clone(),
    })
}

/// The match the words ask for (engines default to this program).
pub fn config(args: &MatchArgs) -> Result<matches::Config, MatchError> {
    let openings = match &args.openings {
        Some(path) => openings::read(&read_bytes(path)?)?,
        None => openings::parse(DEFAULT_OPENINGS)?,
    };
    let setup = Setup {
        specs: [spec(args, 1)?, spec(args, 2)?],
        controls: [control(args, 1)?, control(args, 2)?],
        openings,
        maxplies: args.maxplies.max(1),
        margin: args.margin,
        timeout: args.timeout.max(1),
        handshake: args.handshake.max(1),
        claim: args.claim,
    };
    Ok(matches::Config {
        setup,
        games: args.games,
        first: args.first,
        concurrency: args.concurrency,
        pgn: args.pgn.clone().map(PathBuf::from),
        event: args.event.clone(),
        sprt: args.sprt.as_deref().map(Sprt::parse).transpose()?,
    })
}

/// Runs `chariot match`: plays the match, or with `--check` only checks it.
pub fn run(args: &MatchArgs) -> Result<(), Failure> {
    let config = config(args)?;
    if args.check {
        let [one, two] = matches::check(&config.setup)?;
        say(format_args!("match: ready to play {one} vs {two}\n"))
    } else {
        say(matches::run(config)?)
    }
}

/// Arguments of `chariot tally`.
#[derive(clap::Args, Debug, Clone)]
pub struct TallyArgs {
    /// PGN files written by `chariot match --pgn` (several: their games add up).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// SPRT: ELO0,ELO1[,ALPHA,BETA], judged on all the games.
    #[arg(long)]
    pub sprt: Option<String>,
}

/// Runs `chariot tally`: the closing lines `chariot match` would print for these games.
pub fn tally(args: &TallyArgs) -> Result<(), Failure> {
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(MatchError::from)?;
    let mut files = Vec::new();
    for path in &args.files {
        files.push(read_bytes(path)?);
    }
    let (summary, names) = Summary::from_records(&files)?;
    let sprt = sprt.as_ref().map(|sp| (sp, summary.decide(sp)));
    say(summary.lines(&names, sprt))
}

/// Arguments of `chariot judge`.
#[derive(clap::Args, Debug, Clone)]
pub struct JudgeArgs {
    /// Start position (the standard start if absent).
    #[arg(long, conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// Judge every game of this record file (PGN in any notation, XQF, DhtmlXQ) instead of a
    /// move list.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Moves in ICCS (`h2e2`), WXF (`C2=5`) or Chinese (炮二平五).
    #[arg(conflicts_with = "pgn", allow_hyphen_values = true)]
    pub moves: Vec<String>,
}

/// Runs `chariot judge`: prints the verdict. Exit status 0 when done (and, with `--pgn`, every
/// recorded result agrees), `Exit::Failed` when some recorded result disagrees.
pub fn judge(args: &JudgeArgs) -> Result<ExitCode, Failure> {
    if let Some(path) = &args.pgn {
        let (out, disagree) = judge::judge_pgn(&read_bytes(path)?)?;
        say(out)?;
        return Ok(if disagree > 0 {
            ExitCode::from(Exit::Failed.code())
        } else {
            ExitCode::SUCCESS
        });
    }
    let j = judge::judge_text(args.fen.as_deref(), &args.moves)?;
    say(format_args!("{j}\n"))?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        m: MatchArgs,
    }

    fn parse(words: &[&str]) -> Result<MatchArgs, clap::Error> {
        let mut v = vec!["match"];
        v.extend_from_slice(words);
        Cli::try_parse_from(v).map(|c| c.m)
    }

    #[test]
    fn limits_and_options() {
        let a = parse(&["--tc", "40/60+1", "--timemargin", "50"]).unwrap();
        let clock = TimeControl::Clock {
            base: 60_000,
            inc: 1000,
            moves: Some(40),
        };
        assert_eq!(control(&a, 1), Ok(clock));
        assert_eq!(control(&a, 2), Ok(clock));
        assert_eq!(a.margin, 50);
        assert_eq!(control(&parse(&[]).unwrap(), 1), Ok(TimeControl::Depth(4)));
        assert!(control(&parse(&["--depth", "2", "--nodes", "5"]).unwrap(), 1).is_err());
        assert_eq!(
            parse_options(&["Hash=64".into(), "Clear Hash".into()]).unwrap(),
            vec![
                ("Hash".to_string(), "64".to_string()),
                ("Clear Hash".to_string(), String::new())
            ]
        );
        assert!(parse_options(&["=1".into()]).is_err());
        assert!(parse_dialect("UCCI").is_ok() && parse_dialect("xboard").is_err());
    }

    #[test]
    fn time_odds_give_each_engine_its_clock() {
        let a = parse(&["--tc", "10+0.1", "--tc1", "1+0.01"]).unwrap();
        assert_eq!(
            control(&a, 1),
            Ok(TimeControl::Clock {
                base: 1000,
                inc: 10,
                moves: None
            })
        );
        assert_eq!(
            control(&a, 2),
            Ok(TimeControl::Clock {
                base: 10_000,
                inc: 100,
                moves: None
            })
        );
        let c = config(&parse(&["--tc1", "1+0.01", "--tc2", "10+0.1"]).unwrap()).unwrap();
        assert_ne!(c.setup.controls[0], c.setup.controls[1]);
        let mixed = parse(&["--nodes", "5", "--tc1", "1"]).unwrap();
        assert!(matches!(control(&mixed, 1), Ok(TimeControl::Clock { .. })));
        assert_eq!(control(&mixed, 2), Ok(TimeControl::Nodes(5)));
        assert!(control(&parse(&["--depth1", "2", "--tc1", "1"]).unwrap(), 1).is_err());
    }

    #[test]
    fn each_engine_may_have_its_own_depth_or_nodes() {
        let a = parse(&["--nodes", "100000", "--depth2", "1"]).unwrap();
        assert_eq!(control(&a, 1), Ok(TimeControl::Nodes(100_000)));
        assert_eq!(control(&a, 2), Ok(TimeControl::Depth(1)));
        let b = parse(&["--nodes1", "300", "--depth2", "6"]).unwrap();
        assert_eq!(control(&b, 1), Ok(TimeControl::Nodes(300)));
        assert_eq!(control(&b, 2), Ok(TimeControl::Depth(6)));
    }
}
