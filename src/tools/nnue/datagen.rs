//! `chariot datagen`: self-play training data for the network.
//!
//! Chariot plays itself at a fixed node budget per move from the built-in openings (or a file of
//! them) plus a few random legal plies, refereed by `Game::outcome`. Every position that is not
//! in check, whose best move is not a capture and whose score is not a mate score, is kept with
//! the search score and the game's result (both from the side to move's view) in the 32-byte
//! records of `record`. Games that one side wins clearly (|score| above `--adjudicate` for six
//! plies in a row) or that stay level long after the opening are adjudicated to save time.
//!
//! Reproducibility: game `i` is played with its own random generator seeded from `--seed` and
//! `i`, and fresh search tables, so it is the same game whatever thread plays it; games are
//! written in index order. The same seed, node budget and game count give the same file on any
//! number of threads; different seeds give shards that are simply concatenated. Ctrl-C stops
//! the workers: games finished so far are written whole, so the file stays valid.

use super::record::{self, Sample, Wdl, RECORD_BYTES};
use crate::board::rules::Outcome;
use crate::board::{Color, Game, Move, Position};
use crate::eval::nnue::{Network, NetworkError};
use crate::search::{Info, InfoSink, Limits, NullSink, SearchResult, Searcher, Signals};
use crate::tools::openings::{self, Opening, OpeningsError, DEFAULT_OPENINGS};
use crate::tools::pgn::PgnError;
use crate::tools::{read_bytes, FileError};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Once};
use std::time::Instant;

/// What `datagen` plays or labels, and where it writes (the defaults are `chariot datagen`'s).
#[derive(Debug, Clone)]
pub struct Config {
    /// The data file to write (created, or appended to with `--append`).
    pub output: PathBuf,
    /// Node budget per move.
    pub nodes: u64,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
    /// Stop after this many games.
    pub games: Option<u64>,
    /// Stop once this many positions are written.
    pub positions: Option<u64>,
    /// Seed of game 0; game `i` uses a generator seeded from the seed and `i`.
    pub seed: u64,
    /// Random legal plies played after the opening line.
    pub random_plies: usize,
    /// 0: the random plies are uniform among the legal moves. Above 0, each is drawn among
    /// the [`BOOK_LINES`] best moves of a search at [`BOOK_NODES`]× the node budget that
    /// score within this many centipawns of the best: starts like the openings engines make.
    pub book_margin: i32,
    /// Openings file (default: the built-in openings).
    pub openings: Option<PathBuf>,
    /// Keep a start only if its search score at the node budget is within this many
    /// centipawns of level (0: keep every start).
    pub balance: i32,
    /// Adjudicate a win once |score| exceeds this for six plies in a row (0: never).
    pub adjudicate: i32,
    /// Hash table per thread, MiB.
    pub hash: usize,
    /// Append to the output file instead of replacing it.
    pub append: bool,
    /// Play with the embedded network instead of the classical evaluation.
    pub nnue: bool,
    /// Play with this network file (implies `--nnue`).
    pub eval_file: Option<PathBuf>,
    /// Label the positions of these games (PGN, e.g. from `chariot match`) instead of playing
    /// self-play games: each position searched at `--nodes`, with the game's recorded result.
    pub pgn: Vec<PathBuf>,
}

/// What a run produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games written.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Red wins, draws, Black wins among the games written.
    pub red_draw_black: [u64; 3],
}

/// Length cap of a game in plies (opening included): a draw.
const MAX_PLIES: usize = 400;
/// Plies in a row beyond the adjudication score that end a game.
const WIN_PLIES: u32 = 6;
/// After this many plies, a game whose score stays within `DRAW_SCORE` for `DRAW_PLIES` plies
/// is a draw.
const DRAW_AFTER: usize = 160;
const DRAW_SCORE: i32 = 20;
const DRAW_PLIES: u32 = 24;
/// Time limit of one search, far beyond what the node budget takes: it only guards against a
/// search that would not stop by its node count.
const SAFETY_MS: u64 = 20_000;
/// A book ply is drawn among this many best moves…
pub const BOOK_LINES: usize = 5;
/// …of a search at this many times the node budget.
pub const BOOK_NODES: u64 = 4;

/// Scores beyond this are mate or rule scores: such positions are not kept.
const SCORE_LIMIT: i32 = 10_000;

/// Raised by Ctrl-C.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static HANDLER: Once = Once::new();

/// Whether Ctrl-C stopped a `run` of this process (the file it wrote still holds whole games
/// only).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

fn stopped(stop: &AtomicBool) -> bool {
    stop.load(Ordering::Relaxed) || INTERRUPTED.load(Ordering::Relaxed)
}

/// One finished game: its records and its result from Red's view.
struct Played {
    samples: Vec<Sample>,
    red: Wdl,
}

/// The random generator of game `index`.
fn game_rng(seed: u64, index: u64) -> StdRng {
    // splitmix64 of the pair, so neighbouring seeds and indices do not share streams.
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index)
        .wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    StdRng::seed_from_u64(z ^ (z >> 31))
}

/// The start of game `index`: an opening and random plies, not already over, and with
/// `--balance`, level within that many centipawns by a search at the node budget (random plies
/// often leave a piece hanging; such starts are drawn again).
fn start(openings: &[Opening], rng: &mut StdRng, args: &Config, searcher: &mut Searcher) -> Game {
    loop {
        let game = random_start(openings, rng, args, searcher);
        if game.outcome(MAX_PLIES).is_some() {
            continue;
        }
        if args.balance > 0 && start_score(searcher, &game, args).abs() > args.balance {
            continue;
        }
        return game;
    }
}

/// The score of `game`'s position by a search at the node budget, from the side to move.
fn start_score(searcher: &mut Searcher, game: &Game, args: &Config) -> i32 {
    search(searcher, game, &node_limits(args), &mut NullSink)
        .score
        .get()
}

/// An opening followed by `random_plies` random plies (fewer if the game ends): uniform among
/// the legal moves, or book plies with `book_margin`.
fn random_start(
    openings: &[Opening],
    rng: &mut StdRng,
    args: &Config,
    searcher: &mut Searcher,
) -> Game {
    let mut game = openings[rng.random_range(0..openings.len())].game();
    for _ in 0..args.random_plies {
        let m = if args.book_margin > 0 {
            book_move(searcher, &game, args, rng)
        } else {
            let moves = game.position().legal_moves();
            (!moves.is_empty()).then(|| moves.get(rng.random_range(0..moves.len())))
        };
        if m.is_none_or(|m| game.play(m).is_err()) {
            break;
        }
    }
    game
}

/// The latest score of each line of a MultiPV search, by its rank.
#[derive(Default)]
struct Lines(BTreeMap<u32, (Move, i32)>);

impl InfoSink for Lines {
    fn iteration(&mut self, info: &Info) {
        if let Some(&m) = info.pv.first() {
            self.0.insert(info.multipv, (m, info.score.get()));
        }
    }
}

/// A move drawn among the [`BOOK_LINES`] best that score within `book_margin` of the best.
fn book_move(
    searcher: &mut Searcher,
    game: &Game,
    args: &Config,
    rng: &mut StdRng,
) -> Option<Move> {
    let mut limits = node_limits(args);
    limits.nodes = limits.nodes.map(|n| n * BOOK_NODES);
    let mut lines = Lines::default();
    searcher.set_multipv(BOOK_LINES);
    let best = search(searcher, game, &limits, &mut lines);
    searcher.set_multipv(1);
    let top = best.score.get();
    let near: Vec<Move> = lines
        .0
        .values()
        .filter(|&&(_, score)| score >= top - args.book_margin)
        .map(|&(m, _)| m)
        .collect();
    if near.is_empty() {
        best.best
    } else {
        Some(near[rng.random_range(0..near.len())])
    }
}

/// Plays game `index`; `None` if `stop` was raised meanwhile.
fn play(
    searcher: &mut Searcher,
    openings: &[Opening],
    args: &Config,
    index: u64,
    stop: &AtomicBool,
) -> Option<Played> {
    let mut rng = game_rng(args.seed, index);
    searcher.clear();
    let mut game = start(openings, &mut rng, args, searcher);
    searcher.clear();
    let limits = node_limits(args);
    let mut kept: Vec<(Position, i16)> = Vec::new();
    let (mut win_streak, mut win_sign, mut draw_streak) = (0u32, 0i32, 0u32);
    let red = loop {
        if stopped(stop) {
            return None;
        }
        if let Some(o) = game.outcome(MAX_PLIES) {
            break match o {
                Outcome::Win(Color::Red, _) => Wdl::Win,
                Outcome::Win(Color::Black, _) => Wdl::Loss,
                Outcome::Draw(_) => Wdl::Draw,
            };
        }
        let r = search(searcher, &game, &limits, &mut NullSink);
        let Some(best) = r.best else {
            // No legal move: `outcome` would have ended the game.
            break Wdl::Draw;
        };
        let pos = game.position();
        let score = r.score.get();
        keep(&mut kept, pos, best, score);
        let red_score = if pos.side_to_move() == Color::Red {
            score
        } else {
            -score
        };
        if args.adjudicate > 0 && red_score.abs() > args.adjudicate {
            let sign = red_score.signum();
            win_streak = if sign == win_sign { win_streak + 1 } else { 1 };
            win_sign = sign;
            if win_streak >= WIN_PLIES {
                break if sign > 0 { Wdl::Win } else { Wdl::Loss };
            }
        } else {
            win_streak = 0;
        }
        if game.moves().len() >= DRAW_AFTER && score.abs() <= DRAW_SCORE {
            draw_streak += 1;
            if draw_streak >= DRAW_PLIES {
                break Wdl::Draw;
            }
        } else {
            draw_streak = 0;
        }
        if game.play(best).is_err() {
            break Wdl::Draw;
        }
    };
    Some(Played {
        samples: samples(&kept, red),
        red,
    })
}

/// The limits of every datagen search: the node budget.
fn node_limits(args: &Config) -> Limits {
    Limits {
        nodes: Some(args.nodes.max(1)),
        // A safety net only: a node-limited search normally takes milliseconds.
        movetime: Some(SAFETY_MS),
        ..Default::default()
    }
}

/// One datagen search of `game` within `limits`. Its signals are made for it: their clock
/// starts with this search, so the safety net limits each search, not the sum of a game's
/// (a game's signals once cut every search short after 20 s of a long game on a loaded
/// machine, and the shard then depended on the machine's speed).
fn search(
    searcher: &mut Searcher,
    game: &Game,
    limits: &Limits,
    sink: &mut dyn InfoSink,
) -> SearchResult {
    searcher.search(game, limits, &Arc::new(Signals::new(false)), sink)
}

/// Keeps `pos` for training if it is not in check, its best move is not a capture and its
/// score is not a mate or rule score.
fn keep(kept: &mut Vec<(Position, i16)>, pos: &Position, best: Move, score: i32) {
    if !pos.in_check() && pos.piece_at(best.to()).is_none() && score.abs() < SCORE_LIMIT {
        kept.push((pos.clone(), score as i16));
    }
}

/// The records of the kept positions of a game that Red ended with `red`.
fn samples(kept: &[(Position, i16)], red: Wdl) -> Vec<Sample> {
    kept.iter()
        .map(|(pos, score)| {
            let result = if pos.side_to_move() == Color::Red {
                red
            } else {
                red.flip()
            };
            Sample::from_position(pos, *score, result)
        })
        .collect()
}

/// A recorded game to label, with its result from Red's view.
pub struct Recorded {
    game: Game,
    red: Wdl,
}

/// Why datagen could not run or stopped.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// A file (openings, PGN, output) that cannot be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The openings file is not valid.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// A PGN file that cannot be read as games.
    #[error("{}: {source}", path.display())]
    Pgn {
        /// The file.
        path: PathBuf,
        /// Why.
        source: PgnError,
    },
    /// A network file that cannot be loaded.
    #[error("{}: {source}", path.display())]
    Network {
        /// The file.
        path: PathBuf,
        /// Why.
        source: NetworkError,
    },
    /// `--pgn` files without a finished game.
    #[error("no finished games in the PGN files")]
    NoGames,
}

/// The finished games of a record file's bytes (result `1-0`, `0-1` or `1/2-1/2`).
pub fn recorded(bytes: &[u8]) -> Result<Vec<Recorded>, PgnError> {
    let games = crate::tools::pgn::read(bytes)?;
    Ok(games
        .into_iter()
        .filter_map(|g| {
            let red = match g.red_points()? {
                p if p > 0.5 => Wdl::Win,
                p if p < 0.5 => Wdl::Loss,
                _ => Wdl::Draw,
            };
            Some(Recorded { game: g.game, red })
        })
        .collect())
}

/// Labels every position of a recorded game with the search at the node budget (the game's
/// history before each position is the search's, as in play); `None` if `stop` was raised.
fn label(
    searcher: &mut Searcher,
    rec: &Recorded,
    args: &Config,
    stop: &AtomicBool,
) -> Option<Played> {
    searcher.clear();
    let limits = node_limits(args);
    let mut game = Game::new(rec.game.start().clone());
    let mut kept = Vec::new();
    for &m in rec.game.moves() {
        if stopped(stop) {
            return None;
        }
        let r = search(searcher, &game, &limits, &mut NullSink);
        if let Some(best) = r.best {
            keep(&mut kept, game.position(), best, r.score.get());
        }
        if game.play(m).is_err() {
            break;
        }
    }
    Some(Played {
        samples: samples(&kept, rec.red),
        red: rec.red,
    })
}

/// What a run reads before it starts: the openings, the recorded games to label and the
/// network.
struct Inputs {
    openings: Arc<Vec<Opening>>,
    games: Arc<Vec<Recorded>>,
    network: Option<Arc<Network>>,
}

/// Reads and checks a run's inputs.
fn inputs(args: &Config) -> Result<Inputs, DatagenError> {
    let openings = Arc::new(match &args.openings {
        Some(p) => openings::read(&read_bytes(p)?)?,
        None => openings::parse(DEFAULT_OPENINGS)?,
    });
    let mut games = Vec::new();
    for p in &args.pgn {
        let bytes = read_bytes(p)?;
        games.extend(recorded(&bytes).map_err(|source| DatagenError::Pgn {
            path: p.clone(),
            source,
        })?);
    }
    if !args.pgn.is_empty() && games.is_empty() {
        return Err(DatagenError::NoGames);
    }
    let network = match (&args.eval_file, args.nnue) {
        (Some(p), _) => Some(Arc::new(Network::load(p).map_err(|source| {
            DatagenError::Network {
                path: p.clone(),
                source,
            }
        })?)),
        (None, true) => Some(crate::eval::nnue::default_network()),
        (None, false) => None,
    };
    Ok(Inputs {
        openings,
        games: Arc::new(games),
        network,
    })
}

/// Checks a run without making data: its openings, recorded games and network are read and
/// checked; nothing is written.
pub fn check(args: &Config) -> Result<(), DatagenError> {
    inputs(args).map(|_| ())
}

/// Runs datagen: returns what was written.
pub fn run(args: &Config) -> Result<Summary, DatagenError> {
    let inputs = inputs(args)?;
    let mut writer = Writer::open(args)?;
    let stop = Arc::new(AtomicBool::new(false));
    HANDLER.call_once(|| {
        // A process has one handler; if another part of the program set one, Ctrl-C simply
        // ends the process (the file still holds whole games only: each is one write).
        let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    });
    let mut max_games = args.games.unwrap_or(u64::MAX);
    if !args.pgn.is_empty() {
        max_games = max_games.min(inputs.games.len() as u64);
    }
    let (tx, rx) = mpsc::channel::<(u64, Option<Played>)>();
    let workers = spawn_workers(args, &inputs, max_games, &stop, tx);
    let bar = progress_bar(args, (max_games < u64::MAX).then_some(max_games));
    let started = Instant::now();
    let mut last_log = Instant::now();
    // When was the stop first seen: workers get a few seconds to finish their move.
    let mut stop_seen: Option<Instant> = None;
    loop {
        match rx.recv_timeout(std::time::Duration::from_millis(200)) {
            Ok((i, played)) => {
                writer.pending.insert(i, played);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        writer.write_in_order(&stop);
        if stopped(&stop) {
            let since = *stop_seen.get_or_insert_with(Instant::now);
            if since.elapsed().as_secs() >= 5 {
                break; // a worker that has not stopped by now is abandoned with its game
            }
        }
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        show_progress(args, &bar, &writer.summary, secs, &mut last_log);
    }
    writer.write_rest();
    for w in workers {
        if w.is_finished() {
            let _ = w.join();
        }
    }
    bar.finish_and_clear();
    if let Some(e) = writer.io_error {
        return Err(e.into());
    }
    let summary = writer.summary;
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    eprintln!(
        "datagen: {} games (Red {} / draw {} / Black {}), {} positions ({} bytes each) in {secs:.1} s, {:.0} positions/s",
        summary.games,
        summary.red_draw_black[0],
        summary.red_draw_black[1],
        summary.red_draw_black[2],
        summary.positions,
        RECORD_BYTES,
        summary.positions as f64 / secs
    );
    Ok(summary)
}

/// Starts the worker threads (`Config::threads`, else one per core): each plays or labels the
/// next game below `max_games` and sends it with its index, until the games run out or the
/// run stops.
fn spawn_workers(
    args: &Config,
    inputs: &Inputs,
    max_games: u64,
    stop: &Arc<AtomicBool>,
    tx: mpsc::Sender<(u64, Option<Played>)>,
) -> Vec<std::thread::JoinHandle<()>> {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let next = Arc::new(AtomicU64::new(0));
    (0..threads)
        .map(|_| {
            let (tx, next, stop, openings, games, args, network) = (
                tx.clone(),
                Arc::clone(&next),
                Arc::clone(stop),
                Arc::clone(&inputs.openings),
                Arc::clone(&inputs.games),
                args.clone(),
                inputs.network.clone(),
            );
            std::thread::spawn(move || {
                let mut searcher = Searcher::new(args.hash.max(1));
                searcher.set_network(network);
                // Labels stay in the network's own units: the search's squash of won scores
                // (`Params::squash`) is for its margins, not for training targets.
                searcher.params_mut().no_squash();
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= max_games || stopped(&stop) {
                        break;
                    }
                    let played = match games.get(i as usize) {
                        Some(rec) => label(&mut searcher, rec, &args, &stop),
                        None => play(&mut searcher, &openings, &args, i, &stop),
                    };
                    let abandoned = played.is_none();
                    if tx.send((i, played)).is_err() || abandoned {
                        break;
                    }
                }
            })
        })
        .collect()
}

/// The output file and what has been written to it: games are written whole, in the order of
/// their indices, until `Config::positions` are in or a write fails.
struct Writer {
    file: std::fs::File,
    path: PathBuf,
    buf: Vec<u8>,
    summary: Summary,
    /// Games received and not yet written (`None`: abandoned), by index.
    pending: BTreeMap<u64, Option<Played>>,
    next_write: u64,
    target: u64,
    io_error: Option<FileError>,
}

impl Writer {
    /// Opens (or appends to) the output and writes the format's header.
    fn open(args: &Config) -> Result<Writer, FileError> {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .append(args.append)
            .truncate(!args.append)
            .open(&args.output)
            .map_err(|e| FileError::new(&args.output, e))?;
        file.write_all(&record::header())
            .and_then(|_| file.flush())
            .map_err(|e| FileError::new(&args.output, e))?;
        Ok(Writer {
            file,
            path: args.output.clone(),
            buf: Vec::new(),
            summary: Summary::default(),
            pending: BTreeMap::new(),
            next_write: 0,
            target: args.positions.unwrap_or(u64::MAX),
            io_error: None,
        })
    }

    /// Writes the pending games that come next in index order; raises `stop` when the target
    /// is reached or a write fails.
    fn write_in_order(&mut self, stop: &AtomicBool) {
        while let Some(entry) = self.pending.remove(&self.next_write) {
            self.next_write += 1;
            let Some(g) = entry else { continue };
            if self.summary.positions >= self.target || self.io_error.is_some() {
                continue;
            }
            if let Err(e) = self.write(g) {
                self.io_error = Some(e);
                stop.store(true, Ordering::SeqCst);
                continue;
            }
            if self.summary.positions >= self.target {
                stop.store(true, Ordering::SeqCst);
            }
        }
    }

    /// Games finished after a gap (a game abandoned at the stop) are still whole: keeps them.
    fn write_rest(&mut self) {
        for g in std::mem::take(&mut self.pending).into_values().flatten() {
            if self.summary.positions < self.target && self.io_error.is_none() {
                if let Err(e) = self.write(g) {
                    self.io_error = Some(e);
                }
            }
        }
    }

    /// Writes one game in one write.
    fn write(&mut self, g: Played) -> Result<(), FileError> {
        self.buf.clear();
        for s in &g.samples {
            self.buf.extend_from_slice(&s.encode());
        }
        self.file
            .write_all(&self.buf)
            .and_then(|_| self.file.flush())
            .map_err(|e| FileError::new(&self.path, e))?;
        self.summary.games += 1;
        self.summary.positions += g.samples.len() as u64;
        self.summary.red_draw_black[2 - g.red as usize] += 1;
        Ok(())
    }
}

/// The progress bar's position and message, or without a bar a line a minute on stderr.
fn show_progress(
    args: &Config,
    bar: &indicatif::ProgressBar,
    summary: &Summary,
    secs: f64,
    last_log: &mut Instant,
) {
    let rate = summary.positions as f64 / secs;
    bar.set_position(if args.positions.is_some() {
        summary.positions
    } else {
        summary.games
    });
    bar.set_message(format!(
        "{} games, {} positions, {rate:.0} pos/s",
        summary.games, summary.positions
    ));
    if bar.is_hidden() && last_log.elapsed().as_secs() >= 60 {
        *last_log = Instant::now();
        eprintln!(
            "datagen: {} games, {} positions, {rate:.0} pos/s, {secs:.0} s",
            summary.games, summary.positions
        );
    }
}

fn progress_bar(args: &Config, games: Option<u64>) -> indicatif::ProgressBar {
    let (len, unit) = match (args.positions, games) {
        (Some(p), _) => (p, "positions"),
        (None, Some(g)) => (g, "games"),
        (None, None) => (0, "games"),
    };
    let bar = if len > 0 {
        indicatif::ProgressBar::new(len)
    } else {
        indicatif::ProgressBar::no_length()
    };
    let template =
        format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit} ETA {{eta}} | {{msg}}");
    if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many of the starts of games 0..8 a fresh search at the node budget scores beyond
    /// `limit` centipawns either way.
    fn starts_beyond(args: &Config, limit: i32) -> usize {
        let openings = openings::parse(DEFAULT_OPENINGS).unwrap();
        let mut searcher = Searcher::new(1);
        (0..8)
            .filter(|&i| {
                let mut rng = game_rng(args.seed, i);
                searcher.clear();
                let game = start(&openings, &mut rng, args, &mut searcher);
                assert!(game.outcome(MAX_PLIES).is_none());
                searcher.clear();
                start_score(&mut searcher, &game, args).abs() > limit
            })
            .count()
    }

    #[test]
    fn each_search_is_timed_from_its_own_start() {
        // The node budget, with a safety net of 30 ms instead of 20 s: a search made after the
        // first one's 30 ms have passed still searches its whole budget, as the first did.
        let mut limits = node_limits(&test_config());
        limits.movetime = Some(30);
        let game = Game::new(Position::startpos());
        let mut searcher = Searcher::new(1);
        let first = search(&mut searcher, &game, &limits, &mut NullSink);
        std::thread::sleep(std::time::Duration::from_millis(40));
        searcher.clear();
        let second = search(&mut searcher, &game, &limits, &mut NullSink);
        assert!(first.nodes >= 300 && first.depth > 1, "{first:?}");
        assert_eq!((second.nodes, second.best), (first.nodes, first.best));
    }

    #[test]
    fn balance_draws_lopsided_starts_again() {
        let mut args = test_config();
        args.random_plies = 12;
        // Twelve random plies leave some start lopsided ...
        assert!(starts_beyond(&args, 300) > 0);
        // ... and the filter keeps only level ones (a fresh table may judge a little
        // differently from the one that drew the start, hence the slack).
        args.balance = 100;
        assert_eq!(starts_beyond(&args, 300), 0);
    }

    #[test]
    fn book_plies_leave_level_starts_where_uniform_plies_do_not() {
        let mut args = test_config();
        args.random_plies = 12;
        assert!(starts_beyond(&args, 300) > 0);
        // The same twelve plies drawn among the best moves within 50 cp keep every start
        // near level, without the balance filter.
        args.book_margin = 50;
        args.nodes = 1000;
        assert_eq!(starts_beyond(&args, 300), 0);
        // And they are still random: games 0..8 start from 8 different positions.
        let openings = openings::parse(DEFAULT_OPENINGS).unwrap();
        let mut searcher = Searcher::new(1);
        let starts: std::collections::HashSet<String> = (0..8)
            .map(|i| {
                let mut rng = game_rng(args.seed, i);
                start(&openings, &mut rng, &args, &mut searcher)
                    .position()
                    .fen()
            })
            .collect();
        assert_eq!(starts.len(), 8);
    }

    fn test_config() -> Config {
        Config {
            output: PathBuf::new(),
            nodes: 300,
            threads: Some(1),
            games: Some(1),
            positions: None,
            seed: 7,
            random_plies: 4,
            book_margin: 0,
            openings: None,
            balance: 0,
            adjudicate: 800,
            hash: 1,
            append: false,
            nnue: false,
            eval_file: None,
            pgn: Vec::new(),
        }
    }

    #[test]
    fn games_are_reproducible_and_labelled() {
        let args = test_config();
        let openings = openings::parse(DEFAULT_OPENINGS).unwrap();
        let stop = AtomicBool::new(false);
        let mut s1 = Searcher::new(1);
        let a = play(&mut s1, &openings, &args, 3, &stop).unwrap();
        // A searcher that played another game first gives the same game.
        let mut s2 = Searcher::new(1);
        play(&mut s2, &openings, &args, 0, &stop).unwrap();
        let b = play(&mut s2, &openings, &args, 3, &stop).unwrap();
        assert_eq!(a.samples, b.samples);
        assert!(!a.samples.is_empty());
        for s in &a.samples {
            let pos = s.position().expect("a legal position");
            assert!(!pos.in_check());
            let expected = if s.side == Color::Red {
                a.red
            } else {
                a.red.flip()
            };
            assert_eq!(s.result, expected);
        }
        stop.store(true, Ordering::SeqCst);
        assert!(play(&mut s1, &openings, &args, 3, &stop).is_none());
    }
}
