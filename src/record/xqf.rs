//! XQF, XQStudio's binary game format (being written).

use super::{Reason, Record};

/// Whether the bytes begin as an XQF file does (`XQ`).
pub fn is_xqf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"XQ")
}

/// The game of an XQF file, or the ply that failed (if a move did) and why.
pub fn read(_bytes: &[u8]) -> Result<Record, (Option<usize>, Reason)> {
    Err((None, Reason::Malformed("XQF is not read yet".into())))
}

/// The record as an XQF 1.0 file.
pub fn write(_r: &Record) -> Vec<u8> {
    Vec::new()
}
