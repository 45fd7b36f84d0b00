//! The tools: above the engine, used only by the binary's commands. Each pipeline owns its
//! formats; what two pipelines share lies here, one floor below them.
//!
//! - `matches`: the match runner, engine processes, games and clocks, statistics, `judge`;
//! - `nnue`: self-play data (`datagen`), its record format, and the trainer (`train`);
//! - `fit`: fitting the classical evaluation (`tune`) and the WDL model (`wdl`);
//! - `soak`: self-play under random option changes, every answer of the engine checked;
//! - shared: `pgn` (written by matches, read by `judge`, `tune`, `wdl-fit` and `datagen --pgn`),
//!   `openings` (the built-in openings, played by matches and by datagen) and `process` (an
//!   engine process: spawn, handshake, reads with deadlines, `quit`; driven by matches and soak).

pub mod fit;
pub mod matches;
pub mod nnue;
pub mod openings;
pub mod pgn;
pub mod process;
pub mod soak;

use std::path::{Path, PathBuf};

/// A file that could not be read or written; `Display` is `<path>: <why>`.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct FileError {
    /// The file as given.
    pub path: PathBuf,
    /// Why.
    pub source: std::io::Error,
}

impl FileError {
    /// The error of `source` on `path`.
    pub fn new(path: impl AsRef<Path>, source: std::io::Error) -> FileError {
        FileError {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }
}

/// The text of the file at `path`.
pub fn read_text(path: impl AsRef<Path>) -> Result<String, FileError> {
    std::fs::read_to_string(path.as_ref()).map_err(|e| FileError::new(path, e))
}
