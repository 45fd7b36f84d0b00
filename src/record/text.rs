//! The text of a record file: UTF-8 (with or without a byte-order mark), UTF-16 with its mark,
//! or one of the two legacy Chinese encodings older files use, GBK (simplified; read as
//! GB18030, its superset) and Big5 (traditional). `encoding_rs` decodes; this module only
//! chooses.
//!
//! Bytes that are valid UTF-8 are UTF-8. Otherwise both legacy decodings are tried: one that
//! fails is out; if both succeed, GBK wins unless Big5's text holds clearly more of the
//! characters Xiangqi records are made of (more than twice as many, and two more): most such
//! files are GBK, and a short GBK name read as Big5 can hit one such character by chance
//! (辽宁苗永鹏 reads as 賽譴醮蚗灞).

use encoding_rs::{Encoding, BIG5, GB18030, UTF_16BE, UTF_16LE};
use std::borrow::Cow;

/// The bytes as text, decoded as described in the module's documentation. Undecodable bytes
/// become U+FFFD; this never fails.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    if let Some((enc, bom)) = Encoding::for_bom(bytes) {
        if enc == UTF_16LE || enc == UTF_16BE {
            let (text, _) = enc.decode_without_bom_handling(&bytes[bom..]);
            return Cow::Owned(text.into_owned());
        }
        return String::from_utf8_lossy(&bytes[bom..]);
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Cow::Borrowed(s);
    }
    legacy(bytes)
}

/// Decodes legacy Chinese bytes (GBK or Big5, whichever fits), as `decode` does.
pub fn legacy(bytes: &[u8]) -> Cow<'static, str> {
    let gbk = GB18030.decode_without_bom_handling_and_without_replacement(bytes);
    let big5 = BIG5.decode_without_bom_handling_and_without_replacement(bytes);
    let text = match (gbk, big5) {
        (Some(g), Some(b)) if score(&b) > 2 * score(&g) + 1 => b,
        (Some(g), _) => g,
        (None, Some(b)) => b,
        (None, None) => GB18030.decode_without_bom_handling(bytes).0,
    };
    Cow::Owned(text.into_owned())
}

/// How many characters of `text` are ones Xiangqi records are made of, in either script.
fn score(text: &str) -> usize {
    const COMMON: &str = "炮砲车車俥马馬傌兵卒帅帥将將仕士相象进進退平前后後中红紅黑胜勝负負和一二三四五六七八九的局棋赛賽";
    text.chars().filter(|c| COMMON.contains(*c)).count()
}

/// Encodes `text` as GBK, for formats that store legacy text (XQF). A character GBK lacks
/// becomes `?`.
pub fn to_gbk(text: &str) -> Vec<u8> {
    use encoding_rs::EncoderResult;
    let mut encoder = encoding_rs::GBK.new_encoder();
    let mut out = Vec::with_capacity(text.len() + 8);
    let mut rest = text;
    loop {
        let need = encoder
            .max_buffer_length_from_utf8_without_replacement(rest.len())
            .unwrap_or(rest.len() * 4 + 16);
        out.reserve(need);
        let (result, read) =
            encoder.encode_from_utf8_to_vec_without_replacement(rest, &mut out, true);
        rest = &rest[read..];
        match result {
            EncoderResult::InputEmpty => return out,
            EncoderResult::Unmappable(_) => out.push(b'?'),
            EncoderResult::OutputFull => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_the_encodings_apart() {
        let words = "[Event \"全国象棋个人赛\"]\n1. 炮二平五 马８进７\n";
        let gbk = encoding_rs::GBK.encode(words).0.into_owned();
        assert_eq!(decode(&gbk), words);
        let trad = "[Event \"全國象棋個人賽\"]\n1. 炮二平五 馬８進７\n";
        let big5 = BIG5.encode(trad).0.into_owned();
        assert_eq!(decode(&big5), trad);
        assert_eq!(decode(words.as_bytes()), words);
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend_from_slice(words.as_bytes());
        assert_eq!(decode(&bom), words);
        assert_eq!(
            to_gbk("马８进７"),
            encoding_rs::GBK.encode("马８进７").0.into_owned()
        );
        // Nothing valid at all still decodes to something.
        assert!(!decode(&[0xFF, 0xFE, 0xFF, 0x81, 0x00]).is_empty());
    }
}
