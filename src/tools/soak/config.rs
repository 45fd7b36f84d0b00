//! What a soak run is asked to do: the engine, the games and their clocks, the deadlines and
//! limits the engine is held to, and how restless the driver is.

use crate::protocol::Dialect;

/// A soak run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine's command line (both sides run it); it must be this build (see the module).
    pub engine: String,
    /// Games to play.
    pub games: usize,
    /// Seed of the driver's choices.
    pub seed: u64,
    /// Each side's starting clock (ms).
    pub base_ms: u64,
    /// Increment per move (ms).
    pub inc_ms: u64,
    /// Length cap in plies (opening moves included): a draw.
    pub maxplies: usize,
    /// Milliseconds a side may overstep its clock before it counts as lost on time.
    pub margin_ms: u64,
    /// Longest wait for `readyok` (and for a handshake or a stopped ponder search), ms.
    pub ready_ms: u64,
    /// Resident memory allowed beyond `Hash`, MiB.
    pub memory_slack_mb: u64,
    /// The dialect of every process, or `None` for a random one per process.
    pub dialect: Option<Dialect>,
    /// Probability, at each ply, of one option change before the move and, independently, of
    /// one during the search.
    pub toggle_rate: f64,
    /// Largest `Hash` set (MiB).
    pub max_hash_mb: u32,
    /// Probability of replacing both processes between two games (which checks `quit`).
    pub restart_rate: f64,
    /// A valid network file other than the built-in one, for `EvalFile`; `None`: the driver
    /// writes one (the built-in network with its output biases shifted) to the temporary
    /// directory and removes it at the end.
    pub eval_file: Option<String>,
    /// Games played at once, each with its own pair of processes.
    pub concurrency: usize,
    /// One line per game on stderr.
    pub progress: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            engine: String::new(),
            games: 20,
            seed: 1,
            base_ms: 1000,
            inc_ms: 10,
            maxplies: 300,
            margin_ms: 100,
            ready_ms: 3000,
            memory_slack_mb: 40,
            dialect: None,
            toggle_rate: 0.1,
            max_hash_mb: 64,
            restart_rate: 0.05,
            eval_file: None,
            concurrency: 1,
            progress: false,
        }
    }
}
