//! `chariot convert`, and what every command that reads game records shares here: reading
//! the files game by game with one line per bad game, and writing an output file whole.

use super::{Exit, Failure};
use chariot::board::Notation;
use chariot::record::{self, Format, Record};
use chariot::tools::{read_bytes, write_whole};
use std::path::{Path, PathBuf};

/// Arguments of `chariot convert`.
#[derive(clap::Args, Debug, Clone)]
pub struct ConvertArgs {
    /// Record files: PGN (ICCS, WXF or Chinese moves; UTF-8, GBK or Big5), XQF, DhtmlXQ (a
    /// saved web page too). The format is told from the content.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The file to write; its extension picks the format: `.pgn`, `.xqf` (one game a file:
    /// several games become NAME-1.xqf, NAME-2.xqf, …) or `.txt` (DhtmlXQ). Without it, PGN
    /// goes to standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// The moves' notation in PGN: iccs, wxf or chinese.
    #[arg(long, default_value = "chinese")]
    pub notation: Notation,
}

/// The games of record files, in order, and one line for each game that could not be read:
/// `<file>: game <n>, ply <p>: <reason>`. A file that cannot be read at all fails.
pub fn load(paths: &[PathBuf]) -> Result<(Vec<Record>, Vec<String>), Failure> {
    let mut games = Vec::new();
    let mut bad = Vec::new();
    for path in paths {
        let bytes = read_bytes(path)?;
        let before = games.len() + bad.len();
        for game in record::read(&bytes) {
            match game {
                Ok(r) => games.push(r),
                Err(e) => bad.push(format!("{}: {e}", path.display())),
            }
        }
        if games.len() + bad.len() == before {
            bad.push(format!("{}: no game in the file", path.display()));
        }
    }
    Ok((games, bad))
}

/// Prints the bad games' lines on stderr; the failure to return when there were any (after
/// the good games were written).
pub fn report(bad: &[String], read: usize) -> Result<(), Failure> {
    for line in bad {
        eprintln!("{line}");
    }
    match bad.len() {
        0 => Ok(()),
        n => Err(Failure::new(
            Exit::BadInput,
            format!("{n} game(s) could not be read; {read} read"),
        )),
    }
}

/// Runs `chariot convert`.
pub fn convert(args: &ConvertArgs) -> Result<(), Failure> {
    let format = match &args.output {
        Some(out) => Some(Format::from_extension(out).ok_or_else(|| {
            Failure::input(format!(
                "{}: the output's extension must be .pgn, .xqf or .txt (DhtmlXQ)",
                out.display()
            ))
        })?),
        None => None,
    };
    let (games, bad) = load(&args.inputs)?;
    match (&args.output, format) {
        (Some(out), Some(Format::Xqf)) if games.len() > 1 => {
            for (i, g) in games.iter().enumerate() {
                let path = numbered(out, i + 1);
                write_whole(
                    &path,
                    &record::write(std::slice::from_ref(g), Format::Xqf, args.notation),
                )?;
            }
        }
        (Some(out), Some(format)) if !games.is_empty() || bad.is_empty() => {
            write_whole(out, &record::write(&games, format, args.notation))?;
        }
        (Some(_), _) => {}
        (None, _) => {
            let text = record::write(&games, Format::Pgn, args.notation);
            super::say(String::from_utf8_lossy(&text))?;
        }
    }
    report(&bad, games.len())
}

/// `out` with `-n` before its extension: `game.xqf` → `game-2.xqf`.
fn numbered(out: &Path, n: usize) -> PathBuf {
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy())
        .unwrap_or_default();
    let ext = out
        .extension()
        .map(|s| s.to_string_lossy())
        .unwrap_or_default();
    out.with_file_name(format!("{stem}-{n}.{ext}"))
}
