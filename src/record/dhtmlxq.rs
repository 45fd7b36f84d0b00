//! DhtmlXQ, the game text of Chinese game sites and forums (being written).

use super::{Record, RecordError};

/// Whether the bytes hold a `[DhtmlXQ` tag.
pub fn is_dhtmlxq(bytes: &[u8]) -> bool {
    bytes
        .windows(8)
        .any(|w| w.eq_ignore_ascii_case(b"[DhtmlXQ"))
}

/// Every `[DhtmlXQ]…[/DhtmlXQ]` game in the text.
pub fn read(_text: &str) -> Vec<Result<Record, RecordError>> {
    Vec::new()
}

/// The record as DhtmlXQ text.
pub fn write(_r: &Record) -> String {
    String::new()
}
