//! The tools: above the engine, used only by the binary's commands. Each pipeline owns its
//! formats; what two pipelines share lies here, one floor below them.
//!
//! - `matches`: the match runner, engine processes, games and clocks, statistics, `judge`;
//! - `nnue`: self-play data (`datagen`), its record format, and the trainer (`train`);
//! - `fit`: fitting the classical evaluation (`tune`) and the WDL model (`wdl`);
//! - `soak`: self-play under random option changes, every answer of the engine checked;
//! - shared: `pgn` (written by matches; read by `judge`, `tally`, `tune`, `wdl-fit`, `mates
//!   --harvest` and `datagen --pgn` through `crate::record`, so in any record format),
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

/// The bytes of the file at `path` (a game record may be binary, or text in a legacy encoding).
pub fn read_bytes(path: impl AsRef<Path>) -> Result<Vec<u8>, FileError> {
    std::fs::read(path.as_ref()).map_err(|e| FileError::new(path, e))
}

/// Writes `bytes` to `path` whole or not at all: into a temporary file beside it, renamed over
/// `path` at the end, so a reader (or an interrupted run) never sees half a file.
pub fn write_whole(path: impl AsRef<Path>, bytes: &[u8]) -> Result<(), FileError> {
    let path = path.as_ref();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map_err(|e| FileError::new(path, e))
}

/// The text of the file at `path`.
pub fn read_text(path: impl AsRef<Path>) -> Result<String, FileError> {
    std::fs::read_to_string(path.as_ref()).map_err(|e| FileError::new(path, e))
}
