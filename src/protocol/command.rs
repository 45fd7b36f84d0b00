//! Parsing one input line into a `Command` (both dialects share one grammar).
//!
//! Keywords compare case-insensitively as whole tokens; FEN text keeps its case. Parsing never
//! fails on odd numbers in `go`: a bad value drops that keyword and is reported as a warning.

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: choose (or repeat) the UCI handshake.
    Uci,
    /// `ucci`: choose (or repeat) the UCCI handshake.
    Ucci,
    /// `isready`.
    IsReady,
    /// `setoption` in either syntax.
    SetOption {
        /// Option name as given (lookup ignores case, spaces and underscores).
        name: String,
        /// Value text, possibly empty.
        value: String,
    },
    /// `ucinewgame`, `newgame`, `uccinewgame`.
    NewGame,
    /// `position` (or bare `startpos`/`fen`).
    Position(PositionSpec),
    /// `go …`.
    Go(Box<GoArgs>),
    /// `stop`.
    Stop,
    /// `ponderhit [draw]`.
    PonderHit {
        /// UCCI `ponderhit draw`: the opponent offers a draw.
        draw: bool,
    },
    /// `quit`.
    Quit,
    /// `banmoves m1 m2 …` (move texts, checked later against the position).
    BanMoves(Vec<String>),
    /// `probe <position>`.
    Probe(PositionSpec),
    /// `d`: board diagram.
    Display,
    /// `eval`: evaluation breakdown.
    Eval,
    /// `bench [depth]`.
    Bench(Option<u32>),
    /// `path …` (grid A*).
    Path(Vec<String>),
    /// `help`.
    Help,
    /// `params`: the search's tuning numbers as option lines.
    Params,
    /// Blank line or `#` comment: ignored silently.
    Nothing,
}

/// A position: start position or FEN, plus moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    /// FEN text, or `None` for the start position.
    pub fen: Option<String>,
    /// Move texts after `moves`.
    pub moves: Vec<String>,
}

/// Every `go` keyword of both dialects. Times are as given (UCCI units are applied later).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoArgs {
    /// UCI `wtime`.
    pub wtime: Option<u64>,
    /// UCI `btime`.
    pub btime: Option<u64>,
    /// UCI `winc`.
    pub winc: Option<u64>,
    /// UCI `binc`.
    pub binc: Option<u64>,
    /// `movestogo`.
    pub movestogo: Option<u64>,
    /// `movetime`.
    pub movetime: Option<u64>,
    /// UCCI `time`.
    pub time: Option<u64>,
    /// UCCI `increment`.
    pub increment: Option<u64>,
    /// UCCI `opptime`, `oppincrement`, `oppmovestogo` (informative only).
    pub opp: Vec<u64>,
    /// `depth`.
    pub depth: Option<u64>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `mate`.
    pub mate: Option<u64>,
    /// `infinite` or `depth infinite`.
    pub infinite: bool,
    /// `ponder`.
    pub ponder: bool,
    /// UCCI `draw`: a draw offer.
    pub draw: bool,
    /// `searchmoves …`.
    pub searchmoves: Vec<String>,
    /// `perft N`.
    pub perft: Option<u64>,
    /// Keywords dropped for bad values (for one `info string` each).
    pub warnings: Vec<String>,
}

/// Why a line could not be understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The first token is no command (empty when it could not be echoed).
    #[error("unknown command{sep}{0}", sep = if .0.is_empty() { "" } else { " " })]
    Unknown(String),
    /// A command whose arguments are wrong: the command and why.
    #[error("invalid {0}: {1}")]
    Invalid(&'static str, String),
}

/// A token made safe to echo: printable ASCII, at most 24 characters, and never one of the
/// words GUIs search the stream for.
pub fn echo(token: &str) -> String {
    let t: String = token
        .chars()
        .filter(|c| c.is_ascii_graphic())
        .take(24)
        .collect();
    let lower = t.to_ascii_lowercase();
    if ["bestmove", "readyok", "uciok", "ucciok"]
        .iter()
        .any(|w| lower.contains(w))
    {
        String::new()
    } else {
        t
    }
}

/// Free text made safe to print: printable ASCII and spaces, without the words GUIs search for.
pub fn echo_text(text: &str) -> String {
    text.split(' ').map(echo).collect::<Vec<_>>().join(" ")
}

/// At most `n` characters of free text (a file name, an error) as it may be shown: spaces kept,
/// every other character that is not printable ASCII as `?`, and a word GUIs search for
/// (`bestmove`, `readyok`, `uciok`, `ucciok`) as as many `?`.
pub fn shown_text(text: &str, n: usize) -> String {
    let head: String = text.chars().take(n).collect();
    head.split(' ')
        .map(|w| {
            let w = crate::board::moves::shown(w, n);
            let lower = w.to_ascii_lowercase();
            if ["bestmove", "readyok", "uciok", "ucciok"]
                .iter()
                .any(|k| lower.contains(k))
            {
                "?".repeat(w.len())
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses one line (already stripped of its line end).
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
    let Some(first) = tokens.first() else {
        return Ok(Command::Nothing);
    };
    if first.starts_with('#') {
        return Ok(Command::Nothing);
    }
    let rest = &tokens[1..];
    let word = first.to_ascii_lowercase();
    let no_args = |c: Command| Ok(c);
    match word.as_str() {
        "uci" => no_args(Command::Uci),
        "ucci" => no_args(Command::Ucci),
        "isready" => no_args(Command::IsReady),
        "ucinewgame" | "newgame" | "uccinewgame" => no_args(Command::NewGame),
        "stop" => no_args(Command::Stop),
        "quit" => no_args(Command::Quit),
        "d" => no_args(Command::Display),
        "eval" => no_args(Command::Eval),
        "help" => no_args(Command::Help),
        "params" => no_args(Command::Params),
        "ponderhit" => Ok(Command::PonderHit {
            draw: rest.iter().any(|t| t.eq_ignore_ascii_case("draw")),
        }),
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest, "position").map(Command::Position),
        "startpos" | "fen" => parse_position(&tokens, "position").map(Command::Position),
        "probe" => parse_position(rest, "probe").map(Command::Probe),
        "banmoves" => Ok(Command::BanMoves(
            rest.iter().map(|s| s.to_string()).collect(),
        )),
        "go" => parse_go(rest).map(|g| Command::Go(Box::new(g))),
        "bench" => match rest.first() {
            None => Ok(Command::Bench(None)),
            Some(t) => t
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=30).contains(d))
                .map(|d| Command::Bench(Some(d)))
                .ok_or_else(|| CommandError::Invalid("bench", format!("bad depth {}", echo(t)))),
        },
        "path" => Ok(Command::Path(rest.iter().map(|s| s.to_string()).collect())),
        _ => Err(CommandError::Unknown(echo(first))),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    if rest.is_empty() {
        return Err(CommandError::Invalid("setoption", "no option name".into()));
    }
    if rest[0].eq_ignore_ascii_case("name") {
        // UCI form: the name runs up to the word `value`, the value is the rest.
        let v = rest
            .iter()
            .position(|t| t.eq_ignore_ascii_case("value"))
            .unwrap_or(rest.len());
        let name = rest[1..v].join(" ");
        let value = rest.get(v + 1..).map(|r| r.join(" ")).unwrap_or_default();
        if name.is_empty() {
            return Err(CommandError::Invalid("setoption", "no option name".into()));
        }
        Ok(Command::SetOption { name, value })
    } else {
        // UCCI form: one word, then the value.
        Ok(Command::SetOption {
            name: rest[0].to_string(),
            value: rest[1..].join(" "),
        })
    }
}

fn parse_position(rest: &[&str], cmd: &'static str) -> Result<PositionSpec, CommandError> {
    let Some(kind) = rest.first() else {
        return Err(CommandError::Invalid(
            cmd,
            "expected startpos or fen".into(),
        ));
    };
    let moves_at = rest
        .iter()
        .position(|t| t.eq_ignore_ascii_case("moves"))
        .unwrap_or(rest.len());
    let moves: Vec<String> = rest
        .get(moves_at + 1..)
        .unwrap_or(&[])
        .iter()
        .map(|s| s.to_string())
        .collect();
    if kind.eq_ignore_ascii_case("startpos") {
        if moves_at != 1 {
            return Err(CommandError::Invalid(
                cmd,
                format!("unexpected {} after startpos", echo(rest[1])),
            ));
        }
        Ok(PositionSpec { fen: None, moves })
    } else if kind.eq_ignore_ascii_case("fen") {
        if moves_at <= 1 {
            return Err(CommandError::Invalid(cmd, "missing FEN".into()));
        }
        Ok(PositionSpec {
            fen: Some(rest[1..moves_at].join(" ")),
            moves,
        })
    } else {
        Err(CommandError::Invalid(
            cmd,
            format!("expected startpos or fen, got {}", echo(kind)),
        ))
    }
}

const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "time",
    "increment",
    "opptime",
    "oppincrement",
    "oppmovestogo",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "draw",
    "searchmoves",
    "perft",
];

/// The arguments of `go`. A word that is no `go` keyword refuses the whole line (a GUI never
/// sends one; a person who typed `go depht 5` wants to know), and so do a negative depth and a
/// mate of less than one move; a bad value of a known keyword only drops that keyword, with a
/// warning.
fn parse_go(rest: &[&str]) -> Result<GoArgs, CommandError> {
    let mut g = GoArgs::default();
    let mut i = 0;
    while i < rest.len() {
        let kw = rest[i].to_ascii_lowercase();
        i += 1;
        let slot: Option<&mut Option<u64>> = match kw.as_str() {
            "wtime" => Some(&mut g.wtime),
            "btime" => Some(&mut g.btime),
            "winc" => Some(&mut g.winc),
            "binc" => Some(&mut g.binc),
            "movestogo" => Some(&mut g.movestogo),
            "movetime" => Some(&mut g.movetime),
            "time" => Some(&mut g.time),
            "increment" => Some(&mut g.increment),
            "nodes" => Some(&mut g.nodes),
            "mate" => {
                // A mate takes a move at least: `mate 0` would search for ever.
                if rest
                    .get(i)
                    .and_then(|t| t.parse::<i128>().ok())
                    .is_some_and(|n| n < 1)
                {
                    return Err(CommandError::Invalid(
                        "go",
                        "mate must be at least 1".into(),
                    ));
                }
                Some(&mut g.mate)
            }
            "perft" => Some(&mut g.perft),
            "depth" => {
                if rest
                    .get(i)
                    .is_some_and(|t| t.eq_ignore_ascii_case("infinite"))
                {
                    g.infinite = true;
                    i += 1;
                    continue;
                }
                if rest
                    .get(i)
                    .and_then(|t| t.parse::<i128>().ok())
                    .is_some_and(|d| d < 0)
                {
                    return Err(CommandError::Invalid("go", "negative depth".into()));
                }
                Some(&mut g.depth)
            }
            "opptime" | "oppincrement" | "oppmovestogo" => {
                if let Some(v) = rest.get(i).and_then(|t| number(t)) {
                    g.opp.push(v);
                    i += 1;
                }
                continue;
            }
            "infinite" => {
                g.infinite = true;
                continue;
            }
            "ponder" => {
                g.ponder = true;
                continue;
            }
            "draw" => {
                g.draw = true;
                continue;
            }
            "searchmoves" => {
                g.searchmoves = rest[i..].iter().map(|s| s.to_string()).collect();
                break;
            }
            _ => None,
        };
        let Some(slot) = slot else {
            let word = echo(&kw);
            let sep = if word.is_empty() { "" } else { " " };
            return Err(CommandError::Invalid(
                "go",
                format!("unknown word{sep}{word}"),
            ));
        };
        match rest.get(i).and_then(|t| number(t)) {
            Some(v) => {
                *slot = Some(v);
                i += 1;
            }
            None => {
                g.warnings
                    .push(format!("go: bad or missing value for {kw}"));
                // Skip the bad value itself unless it is the next keyword.
                let next_is_keyword = rest
                    .get(i)
                    .is_none_or(|t| GO_KEYWORDS.contains(&t.to_ascii_lowercase().as_str()));
                if !next_is_keyword {
                    i += 1;
                }
            }
        }
    }
    Ok(g)
}

/// A non-negative integer; negative numbers count as 0; huge ones saturate.
fn number(t: &str) -> Option<u64> {
    if let Ok(v) = t.parse::<i128>() {
        return Some(v.clamp(0, u64::MAX as i128) as u64);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_text_is_ascii_without_answers() {
        assert_eq!(shown_text("caf\u{e9}\u{fffd}.nnue", 64), "caf??.nnue");
        assert_eq!(shown_text("my net\tfile", 64), "my net?file");
        assert_eq!(shown_text("x readyok.nnue", 64), "x ????????????");
        assert_eq!(shown_text("abcdef", 3), "abc");
    }

    #[test]
    fn positions() {
        assert_eq!(
            parse("position startpos moves h2e2 h9g7").unwrap(),
            Command::Position(PositionSpec {
                fen: None,
                moves: vec!["h2e2".into(), "h9g7".into()]
            })
        );
        assert_eq!(
            parse("fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 MOVES d0e0").unwrap(),
            Command::Position(PositionSpec {
                fen: Some("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1".into()),
                moves: vec!["d0e0".into()]
            })
        );
        assert!(parse("position startpos junk").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position").is_err());
    }

    #[test]
    fn go_keywords_of_both_dialects() {
        let Command::Go(g) = parse("go wtime 1000 btime -5 winc x depth 7 ponder").unwrap() else {
            panic!()
        };
        assert_eq!(g.wtime, Some(1000));
        assert_eq!(g.btime, Some(0));
        assert_eq!(g.winc, None);
        assert_eq!(g.depth, Some(7));
        assert!(g.ponder);
        assert_eq!(g.warnings.len(), 1, "{:?}", g.warnings);
        let Command::Go(g) =
            parse("GO draw time 60000 increment 500 opptime 1 oppincrement 2 depth infinite")
                .unwrap()
        else {
            panic!()
        };
        assert!(g.draw && g.infinite);
        assert_eq!((g.time, g.increment), (Some(60000), Some(500)));
        let Command::Go(g) = parse("go searchmoves h2e2 b0c2").unwrap() else {
            panic!()
        };
        assert_eq!(g.searchmoves, vec!["h2e2", "b0c2"]);
        assert_eq!(
            parse("go depht 5").unwrap_err().to_string(),
            "invalid go: unknown word depht"
        );
        assert_eq!(
            parse("go depth -1").unwrap_err().to_string(),
            "invalid go: negative depth"
        );
        assert!(parse("go depth 5 7").is_err());
        assert!(parse("go depth 0").is_ok());
        for mate in ["go mate 0", "go mate -2", "go depth 5 mate 0"] {
            assert_eq!(
                parse(mate).unwrap_err().to_string(),
                "invalid go: mate must be at least 1",
                "{mate}"
            );
        }
        assert!(parse("go mate 1").is_ok());
    }

    #[test]
    fn setoption_both_syntaxes() {
        assert_eq!(
            parse("setoption name Clear Hash").unwrap(),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: String::new()
            }
        );
        assert_eq!(
            parse("setoption name Hash value 64").unwrap(),
            Command::SetOption {
                name: "Hash".into(),
                value: "64".into()
            }
        );
        assert_eq!(
            parse("SETOPTION NAME Skill Level VALUE 5").unwrap(),
            Command::SetOption {
                name: "Skill Level".into(),
                value: "5".into()
            }
        );
        assert!(parse("setoption name value 5").is_err());
        assert_eq!(
            parse("setoption hashsize 32").unwrap(),
            Command::SetOption {
                name: "hashsize".into(),
                value: "32".into()
            }
        );
    }

    #[test]
    fn echo_is_safe() {
        assert_eq!(echo("xbestmovex"), "");
        assert_eq!(echo("a\u{0}b\u{ff}c"), "abc");
        assert_eq!(echo(&"x".repeat(100)).len(), 24);
        assert_eq!(parse("  ").unwrap(), Command::Nothing);
        assert_eq!(parse("# hi").unwrap(), Command::Nothing);
        assert!(matches!(parse("isreadyxyz"), Err(CommandError::Unknown(_))));
        assert_eq!(parse("ISREADY").unwrap(), Command::IsReady);
    }

    #[test]
    fn error_texts() {
        assert_eq!(
            CommandError::Unknown(String::new()).to_string(),
            "unknown command"
        );
        assert_eq!(
            CommandError::Unknown("xyz".into()).to_string(),
            "unknown command xyz"
        );
        assert_eq!(
            CommandError::Invalid("go", "bad depth x".into()).to_string(),
            "invalid go: bad depth x"
        );
    }
}
