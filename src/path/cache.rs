//! What `path` keeps between commands: the last few map files read (with whatever was built
//! for them) and a few workspaces of search memory.
//!
//! A map file is known by its canonical path, length and modification time: the same file
//! unchanged is not read again, a changed one is. The locks are held only to look up, insert
//! or take out an entry, never while a file is read or a table is built, so a `path` thread
//! never waits for another one's work (two threads building the same table at once is the one
//! case where the second waits for the first, and it then uses that table).

use super::method::{MapData, Workspace};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// Maps kept.
pub const MAPS_KEPT: usize = 4;
/// Workspaces kept.
pub const WORKSPACES_KEPT: usize = 2;

#[derive(Clone, PartialEq, Eq)]
struct Key {
    path: PathBuf,
    len: u64,
    modified: Option<SystemTime>,
}

static MAPS: Mutex<Vec<(Key, Arc<MapData>)>> = Mutex::new(Vec::new());
static WORKSPACES: Mutex<Vec<Workspace>> = Mutex::new(Vec::new());

/// How a map was had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Read and prepared now.
    Read,
    /// Taken from the cache (same file, length and time).
    Cached,
}

/// The map in `file`, from the cache when the file is unchanged, else read with `read` (given
/// the file's bytes) and kept. `Err` carries the I/O error or `read`'s.
pub fn map<E>(
    file: &Path,
    read: impl FnOnce(&Path, u64) -> Result<MapData, E>,
    io: impl FnOnce(std::io::Error) -> E,
) -> Result<(Arc<MapData>, Source), E> {
    let meta = match std::fs::metadata(file) {
        Ok(m) => m,
        Err(e) => return Err(io(e)),
    };
    let path = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    let key = Key {
        path,
        len: meta.len(),
        modified: meta.modified().ok(),
    };
    {
        let mut maps = MAPS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = maps.iter().position(|(k, _)| *k == key) {
            // Most recently used last.
            let entry = maps.remove(i);
            let data = entry.1.clone();
            maps.push(entry);
            return Ok((data, Source::Cached));
        }
    }
    let data = Arc::new(read(file, meta.len())?);
    let mut maps = MAPS.lock().unwrap_or_else(|e| e.into_inner());
    maps.retain(|(k, _)| k.path != key.path);
    if maps.len() >= MAPS_KEPT {
        maps.remove(0);
    }
    maps.push((key, data.clone()));
    Ok((data, Source::Read))
}

/// Forgets every cached map (tests and benchmarks that want a cold start).
pub fn clear() {
    MAPS.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

/// Runs `f` with a workspace taken from the pool (or a new one), then returns it.
pub fn with_workspace<T>(f: impl FnOnce(&mut Workspace) -> T) -> T {
    let taken = WORKSPACES.lock().unwrap_or_else(|e| e.into_inner()).pop();
    let mut ws = taken.unwrap_or_default();
    let out = f(&mut ws);
    let mut pool = WORKSPACES.lock().unwrap_or_else(|e| e.into_inner());
    if pool.len() < WORKSPACES_KEPT {
        pool.push(ws);
    }
    out
}
