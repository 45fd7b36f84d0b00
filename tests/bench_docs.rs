//! The bench signature as the front page and the manual state it: every mention of today's
//! signature equals `tests/bench_signature.txt`, the one the tests check.
//!
//! A mention is a number right before ` today` or ` now`, or right after `Bench ` or `Bench: `,
//! in `README.md`, `docs/engine.md` and `docs/development.md`; in `docs/strength.md`, which
//! keeps the signatures of past builds too, only in a table row of today's build.

use std::path::Path;

/// The number that ends `before` (digits only, at least one), if any.
fn number_before(before: &str) -> Option<&str> {
    let digits = before.len() - before.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    (digits > 0).then(|| &before[before.len() - digits..])
}

/// The number that starts `after`, if any.
fn number_after(after: &str) -> Option<&str> {
    let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    (digits > 0).then(|| &after[..digits])
}

/// The signatures `text` states for today's build.
fn mentions(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in text
        .match_indices(" today")
        .chain(text.match_indices(" now"))
    {
        found.extend(number_before(&text[..i]).map(String::from));
    }
    for marker in ["Bench ", "Bench: "] {
        for (i, _) in text.match_indices(marker) {
            found.extend(number_after(&text[i + marker.len()..]).map(String::from));
        }
    }
    found
}

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_docs_state_todays_bench_signature() {
    let signature = read("tests/bench_signature.txt").trim().to_string();
    let mut wrong = Vec::new();
    let mut seen = 0;
    for path in ["README.md", "docs/engine.md", "docs/development.md"] {
        let found = mentions(&read(path));
        assert!(!found.is_empty(), "{path} states no bench signature");
        seen += found.len();
        wrong.extend(
            found
                .into_iter()
                .filter(|n| *n != signature)
                .map(|n| format!("{path}: {n}")),
        );
    }
    let today = read("docs/strength.md");
    for row in today.lines().filter(|l| l.starts_with("| today's build")) {
        for n in mentions(row) {
            seen += 1;
            if n != signature {
                wrong.push(format!("docs/strength.md: {n}"));
            }
        }
    }
    assert!(seen >= 3);
    assert!(
        wrong.is_empty(),
        "bench signature {signature} in tests/bench_signature.txt, but the docs say:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn mentions_are_found_in_each_form() {
    let text = "the node count (473221 today) … It is 473221 now (517155 with `--classical`) … \
                `Bench: N` … | today's build (…, Bench 473221) |";
    assert_eq!(mentions(text), ["473221", "473221", "473221"]);
}
