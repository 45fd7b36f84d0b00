//! The `chariot` binary: with no subcommand, the engine's protocol loop; otherwise a tool.

use chariot::board::Position;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "chariot",
    version,
    about = "Chariot, a Xiangqi engine (UCI and UCCI)"
)]
struct Cli {
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
    /// Grid A*: `path (map F | grid F | inline ROWS) [from X Y] [to X Y] [moves 4|8|8int]
    /// [heuristic H] [energy T]` or `path scen FILE.scen [--map FILE.map]`.
    Path {
        /// The words of the command.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Play games between two engines (default: this program against itself).
    #[command(args_override_self = true)]
    Match(Box<chariot::tools::matches::MatchArgs>),
    /// Fit the evaluation's tables and weights to the results of recorded games (prints Rust
    /// constants for `eval.rs`; progress on stderr with RUST_LOG=info).
    Tune(chariot::tools::fit::tune::TuneArgs),
    /// Self-play training data for the network (32-byte records; see the README).
    Datagen(chariot::tools::nnue::datagen::DatagenArgs),
    /// Train the evaluation network from `datagen` files on the CPU; writes the best epoch's
    /// quantized network.
    Train(chariot::tools::nnue::train::TrainArgs),
    /// Judge a game by the rules (the match referee): `judge [--fen FEN] [MOVE …]` or `judge --pgn
    /// FILE`; prints `<result> <reason> at ply <n>` or `* in progress at ply <n>`.
    Judge(chariot::tools::matches::judge::JudgeArgs),
    /// Fit the win/draw/loss model (`UCI_ShowWDL`) to the scored moves of finished games.
    WdlFit {
        /// PGN files written by `chariot match --pgn`.
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Search the bench positions to a fixed depth; last line `<nodes> nodes <nps> nps`.
    Bench {
        /// Depth (default 8).
        depth: Option<u32>,
        /// Evaluate with the classical evaluation instead of the embedded network.
        #[arg(long)]
        classical: bool,
    },
}

fn main() -> ExitCode {
    env_logger::init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            chariot::protocol::run();
            ExitCode::SUCCESS
        }
        Some(Command::Path { args }) => match chariot::path::command(&args) {
            Ok(text) => {
                println!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Match(args)) => match chariot::tools::matches::run(&args) {
            0 => ExitCode::SUCCESS,
            c => ExitCode::from(c as u8),
        },
        Some(Command::Tune(args)) => match chariot::tools::fit::tune::run(&args) {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::WdlFit { files }) => match chariot::tools::fit::wdl::run(&files) {
            Ok(text) => {
                println!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Datagen(args)) => match chariot::tools::nnue::datagen::run(&args) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Train(args)) => match chariot::tools::nnue::train::run(&args) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Judge(args)) => ExitCode::from(chariot::tools::matches::judge::run(&args)),
        Some(Command::Bench { depth, classical }) => {
            let net = (!classical).then(chariot::eval::nnue::default_network);
            match chariot::search::bench::run(depth, net, &mut std::io::stdout()) {
                Ok(_) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            }
        }
        Some(Command::Perft {
            depth,
            fen,
            threads,
        }) => {
            let pos = match fen.as_deref().map(Position::from_fen).transpose() {
                Ok(p) => p.unwrap_or_default(),
                Err(e) => {
                    eprintln!("error: invalid FEN: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            match chariot::board::perft::run(&pos, depth, threads, &mut out, &mut std::io::stderr())
            {
                Ok(_) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            }
        }
    }
}
