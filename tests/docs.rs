//! The manual's examples, replayed against the binary so that they cannot go stale.
//!
//! Every fenced block of `README.md` and `docs/*.md` is read, and three kinds are checked:
//!
//! - **Engine sessions**: a block with lines starting `> ` (what was typed). The engine is
//!   started with no arguments, each typed line is sent on stdin and the engine's answer to it
//!   (up to `bestmove` after a `go`, up to the end of the process after `quit`, otherwise up to
//!   the `readyok` of an `isready` the checker sends behind the line, which is not shown) must
//!   be the lines that follow it. A first line `$ cargo run --release` or `$ chariot` is the
//!   start command; lines before the first `> ` are the greeting, which the engine prints only
//!   when stdin is a terminal (checked against `NAME` and `AUTHOR`).
//! - **Command transcripts**: lines `$ chariot ARGS…` (or `$ cargo run --release -- ARGS…`),
//!   each followed by what the command prints: stdout, then stderr.
//! - **Command lines and synopses**: every `--flag` of a `chariot <command> …` line in any block
//!   must be one that `chariot <command> --help` lists; a synopsis (a line with `[--`) must list
//!   every flag of the `--help`, with the same numeric defaults.
//!
//! In expected output, `[..]` stands for any text within a line and a line `...` for any number
//! of lines, as in `trycmd`; trailing spaces are ignored. A block right after a line
//! `<!-- unchecked: REASON -->` is skipped (it needs another engine, or runs for minutes); one
//! after `<!-- slow: REASON -->` is replayed only with `--ignored` (`slow_examples`); a marker
//! without its reason fails.
//!
//! Every page must check something: a page in which no example is replayed and no command
//! line's flags are checked fails (`a_page_with_nothing_checked_fails`), whatever its name.
//!
//! `UPDATE_DOCS=1 cargo test --release --test docs` rewrites every example that drifted with
//! what the binary prints now, keeping its `...` elisions and putting `[..]` back after the
//! same words (`nps [..]`, `time [..]`) as before; review the diff before committing.

use chariot::protocol::controller::{AUTHOR, NAME};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_chariot");
/// Longest wait for one answer of the engine or one command.
const TIMEOUT: Duration = Duration::from_secs(120);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn updating() -> bool {
    std::env::var_os("UPDATE_DOCS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// One fenced block: its lines and where it starts.
struct Block {
    /// 0-based index of the first line inside the fence.
    first: usize,
    lines: Vec<String>,
    unchecked: bool,
    /// After a line `<!-- slow: REASON -->`: replayed only by the ignored test `slow_examples`.
    slow: bool,
    /// The `<!-- unchecked: … -->` or `<!-- slow: … -->` line before the block.
    marker: Option<String>,
}

fn blocks(lines: &[String]) -> Vec<Block> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_start().starts_with("```") {
            let prev = lines[..i].iter().rev().find(|l| !l.trim().is_empty());
            let unchecked = prev.is_some_and(|l| l.trim_start().starts_with("<!-- unchecked"));
            let slow = prev.is_some_and(|l| l.trim_start().starts_with("<!-- slow"));
            let first = i + 1;
            let mut j = first;
            while j < lines.len() && !lines[j].trim_start().starts_with("```") {
                j += 1;
            }
            out.push(Block {
                first,
                lines: lines[first..j.min(lines.len())].to_vec(),
                unchecked,
                slow,
                marker: (unchecked || slow)
                    .then(|| prev.map(|l| l.trim().to_string()))
                    .flatten(),
            });
            i = j + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// Splits a command line into words as a POSIX shell would for plain quoting.
fn shell_words(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    cur.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => cur.extend(chars.next()),
                        c => cur.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                cur.extend(chars.next());
            }
            '#' if !in_word => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// The arguments of the binary in a command line (`chariot …`, `cargo run --release -- …`),
/// or None for another program.
fn chariot_args(words: &[String]) -> Option<Vec<String>> {
    match words {
        [first, rest @ ..] if first == "chariot" || first == "target/release/chariot" => {
            Some(rest.to_vec())
        }
        [c, r, rel, rest @ ..] if c == "cargo" && r == "run" && rel == "--release" => match rest {
            [] => Some(Vec::new()),
            [dd, rest @ ..] if dd == "--" => Some(rest.to_vec()),
            _ => None,
        },
        _ => None,
    }
}

/// `[..]` matches any text within the line.
fn line_matches(pattern: &str, actual: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..];
    if !rest.ends_with(last) {
        return false;
    }
    rest = &rest[..rest.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// A line `...` matches any number of lines.
fn lines_match(pattern: &[String], actual: &[String]) -> bool {
    match pattern.split_first() {
        None => actual.is_empty(),
        Some((p, rest)) if p == "..." => {
            (0..=actual.len()).any(|i| lines_match(rest, &actual[i..]))
        }
        Some((p, rest)) => {
            !actual.is_empty() && line_matches(p, &actual[0]) && lines_match(rest, &actual[1..])
        }
    }
}

fn clean(lines: impl IntoIterator<Item = String>) -> Vec<String> {
    lines
        .into_iter()
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// The words that a `[..]` follows anywhere in `pattern` (`nps`, `time`, …).
fn wildcard_keys(pattern: &[String]) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for line in pattern {
        let words: Vec<&str> = line.split(' ').collect();
        for w in words.windows(2) {
            if w[1] == "[..]" && !w[0].is_empty() && w[0] != "[..]" {
                keys.insert(w[0].to_string());
            }
        }
    }
    keys
}

/// What to write for `actual` in place of `pattern`: `pattern` itself if it matches, else the
/// actual lines with the token after each wildcard key replaced by `[..]` and the lines
/// around the pattern's `...` kept as many as before.
fn regenerate(pattern: &[String], actual: &[String], keys: &BTreeSet<String>) -> Vec<String> {
    if lines_match(pattern, actual) {
        return pattern.to_vec();
    }
    let marked: Vec<String> = actual
        .iter()
        .map(|l| {
            let mut words: Vec<String> = l.split(' ').map(str::to_string).collect();
            for i in 1..words.len() {
                if keys.contains(&words[i - 1]) && !words[i].is_empty() {
                    words[i] = "[..]".to_string();
                }
            }
            words.join(" ")
        })
        .collect();
    match (
        pattern.iter().position(|l| l == "..."),
        pattern.iter().rposition(|l| l == "..."),
    ) {
        (Some(a), Some(b)) if marked.len() > a + (pattern.len() - b - 1) => {
            let tail = pattern.len() - b - 1;
            let mut out = marked[..a].to_vec();
            out.push("...".to_string());
            out.extend_from_slice(&marked[marked.len() - tail..]);
            out
        }
        _ => marked,
    }
}

/// The engine process of a session.
struct Engine {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(BIN)
            .current_dir(root())
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the engine");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = writeln!(stdin, "{line}").and_then(|()| stdin.flush());
        }
    }

    /// Lines up to the first one `done` accepts (included), or to the end of output.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Result<Vec<String>, Vec<String>> {
        let deadline = Instant::now() + TIMEOUT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let stop = done(&l);
                    got.push(l);
                    if stop {
                        return Ok(got);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(got),
                Err(mpsc::RecvTimeoutError::Timeout) => return Err(got),
            }
        }
    }

    /// Sends one typed line and returns the engine's answer to it.
    fn answer(&mut self, cmd: &str) -> Vec<String> {
        let words: Vec<&str> = cmd.split_whitespace().collect();
        let timed_out = |got: Vec<String>| {
            let mut got = got;
            got.push(format!("<no answer within {} s>", TIMEOUT.as_secs()));
            got
        };
        self.send(cmd);
        match words.first().copied() {
            Some("quit") => {
                self.stdin = None;
                return self.until(|_| false).unwrap_or_else(timed_out);
            }
            Some("isready") => return self.until(|l| l == "readyok").unwrap_or_else(timed_out),
            _ => {}
        }
        let mut got = Vec::new();
        let open_ended = words.iter().any(|w| *w == "infinite" || *w == "ponder");
        if words.first() == Some(&"go") && !open_ended {
            let done: fn(&str) -> bool = if words.get(1) == Some(&"perft") {
                |l| l.starts_with("Nodes searched")
            } else {
                |l| l.starts_with("bestmove") || l == "nobestmove"
            };
            match self.until(done) {
                Ok(lines) => got = lines,
                Err(lines) => return timed_out(lines),
            }
        }
        self.send("isready");
        match self.until(|l| l == "readyok") {
            Ok(mut lines) => {
                if lines.last().is_some_and(|l| l == "readyok") {
                    lines.pop();
                }
                got.extend(lines);
                got
            }
            Err(lines) => {
                got.extend(lines);
                timed_out(got)
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a block should read, and whether it read so.
struct Checked {
    expected: Vec<String>,
    actual: Vec<String>,
    rewritten: Vec<String>,
}

fn greeting() -> String {
    format!("{NAME} by {AUTHOR} (UCI or UCCI; type `help`)")
}

fn check_session(lines: &[String]) -> Checked {
    let mut engine = Engine::start();
    let mut expected = Vec::new();
    let mut actual = Vec::new();
    let mut rewritten = Vec::new();
    let mut i = 0;
    if lines.first().is_some_and(|l| l.starts_with("$ ")) {
        let words = shell_words(&lines[0][2..]);
        let args = chariot_args(&words);
        assert!(
            args.as_deref() == Some(&[]),
            "a session starts the engine with no arguments, not `{}`",
            lines[0]
        );
        for out in [&mut expected, &mut actual, &mut rewritten] {
            out.push(lines[0].clone());
        }
        i = 1;
    }
    // The greeting: before the first typed line.
    while i < lines.len() && !lines[i].starts_with("> ") {
        expected.push(lines[i].clone());
        actual.push(greeting());
        rewritten.push(greeting());
        i += 1;
    }
    while i < lines.len() {
        let cmd = lines[i][2..].to_string();
        let mut j = i + 1;
        while j < lines.len() && !lines[j].starts_with("> ") {
            j += 1;
        }
        let pattern = clean(lines[i + 1..j].iter().cloned());
        let answer = clean(engine.answer(&cmd));
        let keys = wildcard_keys(lines);
        for out in [&mut expected, &mut actual, &mut rewritten] {
            out.push(lines[i].clone());
        }
        rewritten.extend(regenerate(&pattern, &answer, &keys));
        if lines_match(&pattern, &answer) {
            actual.extend(pattern.iter().cloned());
        } else {
            actual.extend(answer);
        }
        expected.extend(pattern);
        i = j;
    }
    Checked {
        expected,
        actual,
        rewritten,
    }
}

/// Runs `chariot ARGS`: stdout, then stderr.
fn run_command(args: &[String]) -> Vec<String> {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(root())
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("run the binary");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    clean(text.lines().map(str::to_string))
}

fn check_transcript(lines: &[String]) -> Result<Checked, String> {
    let mut expected = Vec::new();
    let mut actual = Vec::new();
    let mut rewritten = Vec::new();
    let keys = wildcard_keys(lines);
    let mut i = 0;
    while i < lines.len() {
        let mut command = lines[i][2..].to_string();
        let mut j = i;
        while lines[j].ends_with('\\') && j + 1 < lines.len() {
            command.pop();
            j += 1;
            command.push_str(&lines[j]);
        }
        let words = shell_words(&command);
        let args = chariot_args(&words).ok_or_else(|| {
            format!(
                "`{}` is not a command of this binary; mark the block `<!-- unchecked: REASON -->`",
                lines[i]
            )
        })?;
        let mut k = j + 1;
        while k < lines.len() && !lines[k].starts_with("$ ") {
            k += 1;
        }
        // A blank line before the next command separates the transcripts.
        let mut end = k;
        if k < lines.len() && end > j + 1 && lines[end - 1].trim().is_empty() {
            end -= 1;
        }
        let pattern = clean(lines[j + 1..end].iter().cloned());
        let got = run_command(&args);
        for out in [&mut expected, &mut actual, &mut rewritten] {
            out.extend(lines[i..=j].iter().cloned());
        }
        rewritten.extend(regenerate(&pattern, &got, &keys));
        if lines_match(&pattern, &got) {
            actual.extend(pattern.iter().cloned());
        } else {
            actual.extend(got);
        }
        expected.extend(pattern);
        for out in [&mut expected, &mut actual, &mut rewritten] {
            out.extend(lines[end..k].iter().cloned());
        }
        i = k;
    }
    Ok(Checked {
        expected,
        actual,
        rewritten,
    })
}

/// What `chariot <command> --help` lists: each long flag with its numeric default, and the
/// long flag of each short one.
#[derive(Default)]
struct Help {
    flags: BTreeMap<String, Option<String>>,
    short: BTreeMap<String, String>,
}

fn help_of(command: &str) -> Help {
    let text = run_command(&[command.to_string(), "--help".to_string()]);
    let mut help = Help::default();
    for line in text {
        let mut words = line.split_whitespace().map(|w| w.trim_end_matches(','));
        let (Some(first), second) = (words.next(), words.next()) else {
            continue;
        };
        let (short, long) = match (first, second) {
            (s, Some(l)) if s.len() == 2 && s.starts_with('-') && l.starts_with("--") => {
                (Some(s), l)
            }
            (l, _) if l.starts_with("--") => (None, l),
            _ => continue,
        };
        let default = line
            .split("[default: ")
            .nth(1)
            .and_then(|d| d.split([']', ',']).next())
            .map(str::to_string);
        help.flags.insert(long.to_string(), default);
        if let Some(s) = short {
            help.short.insert(s.to_string(), long.to_string());
        }
    }
    help
}

/// Checks the flags of every `chariot <command> …` line of a block; synopses also for
/// completeness and defaults. Returns the problems found and how many lines were checked (a
/// line with at least one flag, or a synopsis, against a `--help` that lists flags).
fn check_flags(lines: &[String], helps: &mut BTreeMap<String, Help>) -> (Vec<String>, usize) {
    let mut problems = Vec::new();
    let mut checked = 0;
    let mut i = 0;
    while i < lines.len() {
        let mut command = lines[i].trim().trim_start_matches("$ ").to_string();
        while command.ends_with('\\') && i + 1 < lines.len() {
            command.pop();
            i += 1;
            command.push_str(&lines[i]);
        }
        // A synopsis continues on indented lines.
        let synopsis = command.contains("[--");
        while synopsis && i + 1 < lines.len() && lines[i + 1].starts_with("    ") {
            i += 1;
            command.push(' ');
            command.push_str(lines[i].trim());
        }
        i += 1;
        let words: Vec<String> = command
            .split_whitespace()
            .map(|w| w.trim_matches(|c| "[]()|".contains(c)).to_string())
            .collect();
        let Some(args) = chariot_args(&words) else {
            continue;
        };
        let Some(sub) = args
            .first()
            .filter(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        else {
            continue;
        };
        if sub == "path" {
            continue; // `path` takes words, not flags
        }
        let help = helps.entry(sub.clone()).or_insert_with(|| help_of(sub));
        let flags = &help.flags;
        let used: Vec<(String, Option<String>)> = args
            .iter()
            .enumerate()
            .filter(|(_, w)| w.starts_with('-') && w.len() > 1 && w.parse::<f64>().is_err())
            .map(|(k, w)| {
                let flag = w.split('=').next().unwrap_or(w).to_string();
                let flag = help.short.get(&flag).cloned().unwrap_or(flag);
                (flag, args.get(k + 1).cloned())
            })
            .collect();
        if (synopsis || !used.is_empty()) && !flags.is_empty() {
            checked += 1;
        }
        for (flag, value) in &used {
            match flags.get(flag) {
                None => problems.push(format!("`{command}`: `chariot {sub} --help` has no {flag}")),
                Some(Some(default)) if synopsis => {
                    let (Some(v), Ok(d)) = (value, default.parse::<f64>()) else {
                        continue;
                    };
                    if v.parse::<f64>().is_ok_and(|v| v != d) {
                        problems.push(format!(
                            "`{command}`: {flag} defaults to {default}, not {v}"
                        ));
                    }
                }
                Some(_) => {}
            }
        }
        if synopsis {
            for flag in flags.keys() {
                if flag != "--help" && flag != "--version" && !used.iter().any(|(f, _)| f == flag) {
                    problems.push(format!("synopsis of `chariot {sub}` lacks {flag}"));
                }
            }
        }
    }
    (problems, checked)
}

/// What checking one page found.
struct Page {
    failures: Vec<String>,
    /// Blocks that drifted, with what they print now: (first line, length, new lines).
    edits: Vec<(usize, usize, Vec<String>)>,
    /// Examples replayed against the binary.
    replayed: usize,
    /// `chariot <command> …` lines whose flags were checked against `--help`.
    flag_lines: usize,
}

/// Checks every example of one page (`slow`: only the blocks marked slow are replayed).
/// Outside `slow`, a page in which nothing is checked (no example replayed, no command line's
/// flags checked) is a failure: a page is in the manual to be checked, and a parser that finds
/// nothing there is broken.
fn check_page(name: &str, text: &str, slow: bool) -> Page {
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut page = Page {
        failures: Vec::new(),
        edits: Vec::new(),
        replayed: 0,
        flag_lines: 0,
    };
    let mut helps: BTreeMap<String, Help> = BTreeMap::new();
    for block in blocks(&lines) {
        let at = format!("{name}:{}", block.first + 1);
        let (problems, flag_lines) = check_flags(&block.lines, &mut helps);
        page.flag_lines += flag_lines;
        for p in problems {
            page.failures.push(format!("{at}: {p}"));
        }
        if let Some(marker) = block.marker.as_deref() {
            if !marker_has_reason(marker) {
                page.failures.push(format!(
                    "{at}: `{marker}` gives no reason; write `<!-- unchecked: REASON -->`"
                ));
            }
        }
        if block.unchecked || block.slow != slow {
            continue;
        }
        let checked = if block.lines.iter().any(|l| l.starts_with("> ")) {
            check_session(&block.lines)
        } else if block.lines.first().is_some_and(|l| l.starts_with("$ ")) {
            match check_transcript(&block.lines) {
                Ok(c) => c,
                Err(e) => {
                    page.failures.push(format!("{at}: {e}"));
                    continue;
                }
            }
        } else {
            continue;
        };
        page.replayed += 1;
        if checked.expected != checked.actual {
            if updating() {
                page.edits
                    .push((block.first, block.lines.len(), checked.rewritten));
            } else {
                page.failures.push(format!(
                    "{at}: the example drifted (`UPDATE_DOCS=1 cargo test --release --test docs` rewrites it)\n{}",
                    diff(&checked.expected, &checked.actual)
                ));
            }
        }
    }
    if !slow && page.replayed + page.flag_lines == 0 {
        page.failures.push(format!(
            "{name}: nothing in it is checked: no example is replayed and no `chariot` command \
             line's flags are checked; add an example (a session or a transcript), or a command \
             line"
        ));
    }
    page
}

/// Whether `<!-- unchecked: REASON -->` (or `slow:`) gives a reason.
fn marker_has_reason(marker: &str) -> bool {
    marker
        .trim()
        .trim_start_matches("<!--")
        .trim_end_matches("-->")
        .split_once(':')
        .is_some_and(|(_, reason)| !reason.trim().is_empty())
}

/// Checks every example of one markdown file; with `UPDATE_DOCS` rewrites the ones that drifted.
fn check_file(name: &str, slow: bool) {
    let path: PathBuf = root().join(name);
    let text = std::fs::read_to_string(&path).expect("read the manual");
    let page = check_page(name, &text, slow);
    if !page.edits.is_empty() {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        for (first, len, new) in page.edits.into_iter().rev() {
            lines.splice(first..first + len, new);
        }
        let mut out = lines.join("\n");
        out.push('\n');
        std::fs::write(&path, out).expect("rewrite the manual");
        eprintln!("{name}: examples rewritten; review the diff");
    }
    assert!(page.failures.is_empty(), "{}", page.failures.join("\n\n"));
    eprintln!(
        "{name}: {} examples replayed, {} command lines' flags checked",
        page.replayed, page.flag_lines
    );
}

/// A line diff of expected and actual (longest common subsequence): `-` expected only, `+`
/// actual only.
fn diff(expected: &[String], actual: &[String]) -> String {
    let (n, m) = (expected.len(), actual.len());
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if expected[i] == actual[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < n || j < m {
        if i < n && j < m && expected[i] == actual[j] {
            out += &format!("   {}\n", expected[i]);
            (i, j) = (i + 1, j + 1);
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out += &format!(" + {}\n", actual[j]);
            j += 1;
        } else {
            out += &format!(" - {}\n", expected[i]);
            i += 1;
        }
    }
    out
}

#[test]
fn readme() {
    check_file("README.md", false);
}

#[test]
fn engine_md() {
    check_file("docs/engine.md", false);
}

#[test]
fn gui_md() {
    check_file("docs/gui.md", false);
}

#[test]
fn cluster_md() {
    check_file("docs/cluster.md", false);
}

#[test]
fn match_md() {
    check_file("docs/match.md", false);
}

#[test]
fn nnue_md() {
    check_file("docs/nnue.md", false);
}

#[test]
fn records_md() {
    check_file("docs/records.md", false);
}

#[test]
fn install_md() {
    check_file("docs/install.md", false);
}

#[test]
fn path_md() {
    check_file("docs/path.md", false);
}

#[test]
fn strength_md() {
    check_file("docs/strength.md", false);
}

/// The dated record behind strength.md, a page per stage: every page of docs/strength/.
#[test]
fn strength_stages() {
    let pages = markdown_pages("docs/strength");
    assert!(pages.len() >= 4, "{pages:?}");
    for page in pages {
        check_file(&format!("docs/strength/{page}"), false);
    }
}

#[test]
fn development_md() {
    check_file("docs/development.md", false);
}

#[test]
fn web_md() {
    check_file("docs/web.md", false);
}

#[test]
fn windows_md() {
    check_file("docs/windows.md", false);
}

/// The examples marked `<!-- slow: REASON -->`, run with `--ignored`.
#[test]
#[ignore = "slow examples: cargo test --release --test docs -- --ignored"]
fn slow_examples() {
    for name in [
        "README.md",
        "docs/engine.md",
        "docs/gui.md",
        "docs/match.md",
        "docs/nnue.md",
    ] {
        check_file(name, true);
    }
    for name in ["docs/path.md", "docs/strength.md", "docs/development.md"] {
        check_file(name, true);
    }
}

/// The guard: a page in which nothing is checked fails, whatever its name (there is no list of
/// pages exempt from it); one command line whose flags are checked is enough, and a marker must
/// give its reason.
#[test]
fn a_page_with_nothing_checked_fails() {
    let nothing =
        "# A page\n\n<!-- unchecked: needs another engine -->\n```\n$ other-engine go\n```\n\n\
                   ```\nScore of A vs B: 1 - 0 - 0\n```\n";
    for name in ["docs/gui.md", "docs/nnue.md", "README.md"] {
        let page = check_page(name, nothing, false);
        assert_eq!((page.replayed, page.flag_lines), (0, 0));
        assert!(
            page.failures
                .iter()
                .any(|f| f.contains("nothing in it is checked")),
            "{name}: {:?}",
            page.failures
        );
    }
    let command = "```\nchariot match --games 2 --tc 1+0.01\n```\n";
    let page = check_page("docs/nnue.md", command, false);
    assert_eq!((page.replayed, page.flag_lines), (0, 1));
    assert!(page.failures.is_empty(), "{:?}", page.failures);
    let wrong = check_page("x.md", "```\nchariot match --no-such-flag 1\n```\n", false);
    assert!(
        wrong
            .failures
            .iter()
            .any(|f| f.contains("has no --no-such-flag")),
        "{:?}",
        wrong.failures
    );
    let no_reason = check_page(
        "x.md",
        "<!-- unchecked -->\n```\n$ other-engine go\n```\n```\nchariot match --games 2\n```\n",
        false,
    );
    assert!(
        no_reason
            .failures
            .iter()
            .any(|f| f.contains("gives no reason")),
        "{:?}",
        no_reason.failures
    );
}

/// The markdown files of the folder `dir`, by name, sorted.
fn markdown_pages(dir: &str) -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(root().join(dir))
        .expect("the manual's folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".md"))
        .collect();
    pages.sort();
    pages
}

/// Every markdown file of the manual has its test above.
#[test]
fn every_page_is_checked() {
    let pages = markdown_pages("docs");
    let tested = [
        "cluster.md",
        "development.md",
        "engine.md",
        "gui.md",
        "install.md",
        "match.md",
        "nnue.md",
        "path.md",
        "records.md",
        "strength.md",
        "web.md",
        "windows.md",
    ];
    assert_eq!(
        pages, tested,
        "a page of docs/ without its test in tests/docs.rs"
    );
}

#[test]
fn patterns() {
    let l = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(line_matches(
        "nps [..] time [..] pv a",
        "nps 12 time 3 pv a"
    ));
    assert!(!line_matches(
        "nps [..] time [..] pv a",
        "nps 12 time 3 pv b"
    ));
    assert!(!line_matches("a[..]a", "a"));
    assert!(lines_match(
        &l(&["a", "...", "z"]),
        &l(&["a", "b", "c", "z"])
    ));
    assert!(lines_match(&l(&["a", "...", "z"]), &l(&["a", "z"])));
    assert!(!lines_match(&l(&["a", "...", "z"]), &l(&["a", "b"])));
    assert!(!lines_match(&l(&["a", "b"]), &l(&["a", "b", "c"])));
    let keys = wildcard_keys(&l(&["x nps [..] time [..]"]));
    assert_eq!(
        regenerate(
            &l(&["d1 nps [..]", "...", "best"]),
            &l(&["d1 nps 5", "d2 nps 6", "best2"]),
            &keys
        ),
        l(&["d1 nps [..]", "...", "best2"])
    );
    assert_eq!(
        shell_words("chariot path inline 'S..#/.#' \"a b\" # c"),
        l(&["chariot", "path", "inline", "S..#/.#", "a b"])
    );
    assert_eq!(
        chariot_args(&l(&["cargo", "run", "--release", "--", "perft", "5"])),
        Some(l(&["perft", "5"]))
    );
}
