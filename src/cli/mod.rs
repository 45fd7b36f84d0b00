//! The binary's command layer: the command line of every subcommand (clap), turned into the
//! library's typed arguments, and the one place that reports a command's failure, with one exit
//! status per kind of failure for every subcommand (`exit`). The library never sees a command
//! line, so it is usable without clap.

mod annotate;
mod exit;
mod fit;
mod matches;
mod mates;
mod nnue;
mod records;
mod soak;

pub use exit::{Exit, Failure};

use chariot::board::{perft, Position};
use chariot::search::bench;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// The `chariot` command line.
#[derive(Parser)]
#[command(
    name = "chariot",
    version,
    about = "Chariot, a Xiangqi engine (UCI and UCCI)"
)]
pub struct Cli {
    /// The tool to run; none starts the engine's protocol loop.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the legal move tree: one line per root move, then `Nodes searched: N`.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position as one quoted FEN argument (start position if absent).
        fen: Option<String>,
        /// Threads (root moves shared out); 1 by default.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Grid shortest paths: `path (map F | grid F | inline ROWS) [from X Y] [to X Y]
    /// [moves 4|8|8int] [heuristic H] [energy T] [method NAME]`, `path scen FILE.scen
    /// [--map FILE.map] [--method NAME]` or `path stats FILE.map`; the method is chosen
    /// automatically unless named (astar, jps, jps+, subgoal, ch, iddfs, idastar).
    Path {
        /// The words of the command.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Play games between two engines (default: this program against itself).
    #[command(args_override_self = true)]
    Match(Box<matches::MatchArgs>),
    /// Sum up the games of PGN files that `chariot match --pgn` wrote: the lines `chariot
    /// match` prints at its end (W/D/L, Elo, endings, and the SPRT with `--sprt`).
    Tally(matches::TallyArgs),
    /// Self-play under a restless GUI: options changed at random moments, in both dialects;
    /// every answer, clock and memory reading checked (see docs/gui.md).
    Soak(soak::SoakArgs),
    /// Fit the evaluation's tables and weights to the results of recorded games (prints Rust
    /// constants for `eval/classical.rs`; progress on stderr with RUST_LOG=info).
    Tune(fit::TuneArgs),
    /// Self-play training data for the network (32-byte records; see docs/nnue.md).
    Datagen(nnue::DatagenArgs),
    /// Train the evaluation network from `datagen` files on the CPU; writes the best epoch's
    /// quantized network.
    Train(nnue::TrainArgs),
    /// Judge a game by the rules (the match referee): `judge [--fen FEN] [MOVE …]` or `judge --pgn
    /// FILE`; prints `<result> <reason> at ply <n>` or `* in progress at ply <n>`.
    Judge(matches::JudgeArgs),
    /// The mate track: search a file of forced mates at a node budget (or depth 2N+K), with
    /// Chariot or another engine, and count the positions solved and solved exactly; or
    /// harvest new positions from match PGNs (--harvest).
    Mates(mates::MatesArgs),
    /// Tune the search's numbers by SPSA over self-play game pairs at a clock; prints the
    /// tuned numbers (a table, then `--option1` words for `chariot match`).
    Spsa(fit::SpsaArgs),
    /// Fit the win/draw/loss model (`UCI_ShowWDL`) to the scored moves of finished games.
    WdlFit(fit::WdlFitArgs),
    /// Convert game records between PGN (ICCS, WXF or Chinese moves), XQF and DhtmlXQ: the
    /// input's format is told from its content, the output's from its extension. Games that
    /// cannot be read are named on stderr (exit status 2); the others are written.
    Convert(records::ConvertArgs),
    /// Review games with the engine's search and write them as annotated PGN: an eval on every
    /// move (`[%eval …]`), inaccuracies, mistakes and blunders marked (?!, ?, ??) with the
    /// engine's better line, each side's accuracy. Ctrl-C writes the games reviewed so far
    /// (exit status 130); games that cannot be read are named on stderr (exit status 2).
    Annotate(annotate::AnnotateArgs),
    /// Search the bench positions to a fixed depth; last line `<nodes> nodes <nps> nps`.
    Bench {
        /// Depth (default 8).
        depth: Option<u32>,
        /// Evaluate with the classical evaluation instead of the embedded network.
        #[arg(long, conflicts_with = "eval_file")]
        classical: bool,
        /// Evaluate with the network in this file instead of the embedded one.
        #[arg(long, value_name = "FILE")]
        eval_file: Option<std::path::PathBuf>,
    },
}

/// Makes the allocator serve blocks of 1 MiB and more (hash tables, networks) from the system
/// and give them back when freed. By default glibc raises its threshold for that to the size of
/// the largest block freed so far (up to 32 MiB); after a `Hash` change, later tables then come
/// from the heap and stay resident once freed: `Hash` 64, 1, 64 left a process at 64 MiB +
/// 40 MiB, its heap holding 24 MiB of old tables; with the threshold fixed, the heap keeps
/// none. The engine allocates no such blocks per search, so searches pay nothing for it.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn return_freed_blocks() {
    use std::ffi::c_int;
    extern "C" {
        fn mallopt(param: c_int, value: c_int) -> c_int;
    }
    const M_MMAP_THRESHOLD: c_int = -3;
    // SAFETY: `mallopt` (glibc) sets one allocator parameter and touches no Rust memory; it is
    // thread-safe (it takes the arena locks), and no allocation is in flight across the call.
    unsafe {
        mallopt(M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// Other allocators: nothing to set.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn return_freed_blocks() {}

/// Runs the command line: the engine when there is no subcommand, else the tool.
pub fn run(cli: Cli) -> Result<ExitCode, Failure> {
    let Some(command) = cli.command else {
        return_freed_blocks();
        chariot::protocol::run();
        return Ok(ExitCode::SUCCESS);
    };
    match command {
        Command::Path { args } => say(format_args!("{}\n", chariot::path::command(&args)?))?,
        Command::Match(args) => matches::run(&args)?,
        Command::Tally(args) => matches::tally(&args)?,
        Command::Tune(args) => say(chariot::tools::fit::tune::run(&args.into())?)?,
        Command::Spsa(args) => {
            use chariot::tools::fit::spsa;
            let tuned = spsa::run(args.config()?)?;
            say(format_args!(
                "{}\n{}\n",
                spsa::table(&tuned).trim_end(),
                tuned.words("--option1 ")
            ))?;
        }
        Command::WdlFit(args) => say(format_args!(
            "{}\n",
            chariot::tools::fit::wdl::run(&args.files)?
        ))?,
        Command::Datagen(args) if args.check => {
            chariot::tools::nnue::datagen::check(&args.into())?;
            say("datagen: ready\n")?;
        }
        Command::Datagen(args) => {
            chariot::tools::nnue::datagen::run(&args.into())?;
            if chariot::tools::nnue::datagen::interrupted() {
                return Err(Failure::new(
                    Exit::Interrupted,
                    "interrupted: the data file holds every game finished before",
                ));
            }
        }
        Command::Train(args) => {
            let output = args.output.clone();
            let report = chariot::tools::nnue::train::run(&args.into())?;
            if report.best == 0 && !report.epochs.is_empty() {
                // Said even under --quiet: the output is the starting network, unchanged.
                eprintln!(
                    "train: no epoch improved on the initial weights (validation loss {:.6}); {} holds them unchanged",
                    report.initial_validation,
                    output.display()
                );
            }
        }
        Command::Judge(args) => return matches::judge(&args),
        Command::Soak(args) => return soak::run(&args),
        Command::Mates(args) => mates::run(&args)?,
        Command::Convert(args) => records::convert(&args)?,
        Command::Annotate(args) => annotate::run(&args)?,
        Command::Bench {
            depth,
            classical,
            eval_file,
        } => {
            let net = match eval_file {
                Some(path) => Some(std::sync::Arc::new(
                    chariot::eval::nnue::Network::load(&path).map_err(|e| {
                        Failure::new(exit::Kind::exit(&e), format!("{}: {e}", path.display()))
                    })?,
                )),
                None => (!classical).then(chariot::eval::nnue::default_network),
            };
            bench::run(depth, net, &mut std::io::stdout())?;
        }
        Command::Perft {
            depth,
            fen,
            threads,
        } => {
            let pos = match fen {
                Some(f) => Position::from_fen(&f)
                    .map_err(|e| Failure::new(Exit::BadInput, format!("invalid FEN: {e}")))?,
                None => Position::default(),
            };
            let mut out = std::io::stdout().lock();
            perft::run(&pos, depth, threads, &mut out, &mut std::io::stderr())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints `text` on stdout as it is. Output that cannot be printed (a closed pipe, a full
/// disk) is a failure of the command (`Exit::Failed`), never a panic.
pub(crate) fn say(text: impl std::fmt::Display) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    write!(out, "{text}")
        .and_then(|()| out.flush())
        .map_err(|e| Failure::new(Exit::Failed, format!("cannot print the output: {e}")))
}

/// This program's path, quoted if it holds spaces: the default engine.
pub(crate) fn this_program() -> String {
    std::env::current_exe()
        .map(|p| p.to_string_lossy().into_owned())
        .map(|p| {
            if p.contains(char::is_whitespace) {
                format!("'{p}'")
            } else {
                p
            }
        })
        .unwrap_or_else(|_| "chariot".into())
}
