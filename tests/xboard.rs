//! Chariot in the real XBoard: matches run by `xboard -noGUI` under `xvfb-run`, the engine
//! driven through UCI2WB in both dialects (`uci2wb ./chariot` for UCI, `uci2wb -x ./chariot` for
//! UCCI), against MaxQi (the `fairymax` package) and against itself, at 10 s + 0.1 s with
//! XBoard's legality checking and claims tested, pondering off: UCI2WB 4.1 once stalled a game
//! in its pondering path (docs/gui.md), which is its fault, not the engine's, and pondering is
//! tried by hand there. XBoard's PGN is read back:
//! every game must end with a result, and none by an illegal move, a forfeit, a false claim, a
//! loss on time or a lost engine. Two endings are the adapter's, and are reported instead: a
//! forfeit after it sent a position that cannot be played, and a false mate claim it made for a
//! move the referee rules a win by the repetition law (docs/gui.md).
//!
//! Needs the Debian packages `xboard`, `uci2wb`, `fairymax`, `xvfb` and `xauth`; `.ci/run`
//! installs them and runs `cargo test --release --test xboard -- --ignored`. The matches run
//! one after the other (each has two engines at once), about a minute
//! each.
//!
//! XBoard, Xvfb and the process groups that end them are Unix things: the file is empty
//! elsewhere.
#![cfg(unix)]

use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use chariot::board::rules::{Outcome, Reason};
use chariot::board::Color;
use chariot::tools::matches::judge::judge_text;

const NEEDS: &str = "needs xboard, uci2wb, fairymax and xvfb-run: .ci/run installs them";
/// Games per match, colours alternating.
const GAMES: usize = 2;
/// Longest a match may take: two games of at most 10 s + 0.1 s a move each side, and starts.
const DEADLINE: Duration = Duration::from_secs(360);
/// What a game may not end by (in XBoard's closing comment, lower case): an illegal move, a
/// forfeit, a false claim (a claim XBoard verified is fine), a loss on time, a lost engine.
const BAD_ENDINGS: [&str; 10] = [
    "illegal",
    "forfeit",
    "false",
    "on time",
    "flag fell",
    "xboard exit",
    "died",
    "lost connection",
    "exited",
    "crash",
];

/// One match at a time: each already keeps both cores busy.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The engines' side of a match: XBoard's engine command and the directory it runs in.
struct Player {
    command: String,
    dir: PathBuf,
}

fn chariot(ucci: bool) -> Player {
    let bin = Path::new(env!("CARGO_BIN_EXE_chariot"));
    let name = bin.file_name().expect("binary name").to_string_lossy();
    Player {
        // `debug`: the adapter's traffic with the engine goes into XBoard's debug file.
        command: format!("uci2wb debug {}./{name}", if ucci { "-x " } else { "" }),
        dir: bin.parent().expect("binary directory").to_path_buf(),
    }
}

fn maxqi() -> Player {
    Player {
        command: "maxqi".to_string(),
        dir: std::env::temp_dir(),
    }
}

/// PATH with the directory Debian installs games in (xboard, uci2wb and maxqi live there).
fn search_path() -> String {
    let path = std::env::var("PATH").unwrap_or_default();
    format!("{path}:/usr/games")
}

fn installed(program: &str) -> bool {
    search_path()
        .split(':')
        .any(|dir| !dir.is_empty() && Path::new(dir).join(program).is_file())
}

/// A fresh directory for one match: XBoard's working directory, its PGN and its logs.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-xboard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// One game of XBoard's PGN: its tags, its result token and the comment before it.
#[derive(Debug)]
struct Game {
    tags: BTreeMap<String, String>,
    result: String,
    ending: String,
}

fn parse_pgn(text: &str) -> Vec<Game> {
    let mut games = Vec::new();
    let mut tags = BTreeMap::new();
    let mut moves = String::new();
    let mut flush = |tags: &mut BTreeMap<String, String>, moves: &mut String| {
        if tags.is_empty() && moves.trim().is_empty() {
            return;
        }
        let body = std::mem::take(moves);
        let body = body.trim_end();
        let result = body.rsplit(char::is_whitespace).next().unwrap_or("");
        let before = &body[..body.len() - result.len()];
        let ending = match (before.rfind('{'), before.rfind('}')) {
            (Some(a), Some(b)) if a < b && before[b + 1..].trim().is_empty() => {
                before[a + 1..b].to_string()
            }
            _ => String::new(),
        };
        games.push(Game {
            tags: std::mem::take(tags),
            result: result.to_string(),
            ending,
        });
    };
    for line in text.lines() {
        if line.starts_with("[Event ") && !moves.trim().is_empty() {
            flush(&mut tags, &mut moves);
        }
        if let Some(tag) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if let Some((k, v)) = tag.split_once(' ') {
                tags.insert(k.to_string(), v.trim_matches('"').to_string());
                continue;
            }
        }
        moves.push_str(line);
        moves.push('\n');
    }
    flush(&mut tags, &mut moves);
    games
}

/// Plays a match of [`GAMES`] games and returns XBoard's PGN of it.
fn play(name: &str, first: Player, second: Player) -> Vec<Game> {
    for program in ["xboard", "uci2wb", "maxqi", "xvfb-run"] {
        assert!(installed(program), "{program} is not installed: {NEEDS}");
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch(name);
    let pgn = dir.join("games.pgn");
    let log = std::fs::File::create(dir.join("xboard.log")).expect("create the log");
    let started = Instant::now();
    let mut child = Command::new("xvfb-run")
        .arg("-a")
        .arg("xboard")
        .args(["-noGUI", "-popupExitMessage", "false"])
        // XBoard reads `~/.xboardrc` of the account (whatever HOME says): what matters here is
        // given on the command line, which comes after it, and nothing is written back.
        .args(["-saveSettingsOnExit", "false", "-xponder"])
        .args(["-variant", "xiangqi"])
        .args(["-matchMode", "true", "-mg", &GAMES.to_string()])
        .args(["-tc", "0:10", "-inc", "0.1"])
        .arg("-fcp")
        .arg(&first.command)
        .arg("-fd")
        .arg(&first.dir)
        .arg("-scp")
        .arg(&second.command)
        .arg("-sd")
        .arg(&second.dir)
        .arg("-saveGameFile")
        .arg(&pgn)
        .arg("-debug")
        .arg("-nameOfDebugFile")
        .arg(dir.join("xboard.debug"))
        .current_dir(&dir)
        .env("PATH", search_path())
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(log.try_clone().expect("log"))
        .stderr(log)
        .process_group(0)
        .spawn()
        .expect("start xvfb-run xboard");
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for xboard") {
            break Some(status);
        }
        if started.elapsed() > DEADLINE {
            // The whole group: xvfb-run, Xvfb, xboard, the adapters and the engines.
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    let log = std::fs::read_to_string(dir.join("xboard.log")).unwrap_or_default();
    let log: Vec<&str> = log
        .lines()
        .filter(|l| {
            !l.trim().is_empty()
                && !["ALSA lib", "aplay", "audio open error"]
                    .iter()
                    .any(|k| l.contains(k))
        })
        .collect();
    let games = parse_pgn(&text);
    eprintln!(
        "{name}: {} games in {:.0} s; xboard: {}",
        games.len(),
        started.elapsed().as_secs_f64(),
        log.join(" | ")
    );
    for g in &games {
        eprintln!(
            "  {} - {}: {} {{{}}}",
            g.tags.get("White").map_or("?", String::as_str),
            g.tags.get("Black").map_or("?", String::as_str),
            g.result,
            g.ending
        );
    }
    let status = status.unwrap_or_else(|| {
        panic!(
            "{name}: XBoard did not finish {GAMES} games within {} s; files in {}",
            DEADLINE.as_secs(),
            dir.display()
        )
    });
    assert!(
        status.success(),
        "{name}: xvfb-run xboard exited with {status}; files in {}",
        dir.display()
    );
    assert_eq!(
        games.len(),
        GAMES,
        "{name}: XBoard's PGN holds {} games, not {GAMES}; files in {}",
        games.len(),
        dir.display()
    );
    let traffic = || {
        let debug = std::fs::read_to_string(dir.join("xboard.debug")).unwrap_or_default();
        let lines: Vec<&str> = debug
            .lines()
            .filter(|l| {
                [
                    "# position",
                    "# go",
                    "# ponderhit",
                    "# stop",
                    "move ",
                    "Forfeit",
                    "Illegal",
                ]
                .iter()
                .any(|k| l.contains(k))
            })
            .collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    };
    // UCI2WB 4.1 now and then sends an engine a move list that cannot be played (the same move
    // twice after a restart, docs/gui.md); Chariot then refuses the position whole, says
    // `invalid position`, keeps the one it had and plays from it, and XBoard forfeits the game.
    // A forfeit for an invalid move is the adapter's when the engine said so in that match: it
    // is reported, not failed, one per such report, and at least one game must end cleanly.
    let debug = std::fs::read_to_string(dir.join("xboard.debug")).unwrap_or_default();
    let mut adapter_faults = debug
        .lines()
        .filter(|l| l.contains("engine said: info string invalid position"))
        .count();
    // A move that wins by the repetition law is reported as a mate in one (`score mate 1`, as
    // Pikafish reports it); UCI2WB takes that for checkmate and claims it, and XBoard, finding
    // no mate, forfeits the claimant (docs/gui.md). Such a false claim is the adapter's when the
    // referee rules the claimant's last move a win by that law.
    let mut rule_wins = rule_wins(&debug);
    let mut clean = 0;
    for (i, g) in games.iter().enumerate() {
        let at = format!("{name}, game {}: ", i + 1);
        let ending = g.ending.to_lowercase();
        if adapter_faults > 0 && ending.contains("forfeit due to invalid move") {
            adapter_faults -= 1;
            eprintln!(
                "{at}forfeited after UCI2WB sent an unplayable position: `{}`",
                g.ending
            );
            continue;
        }
        if rule_wins > 0 && ending == "false win claim: 'mate'" {
            rule_wins -= 1;
            eprintln!("{at}a win by the repetition law, claimed by UCI2WB as a mate and refused");
            continue;
        }
        clean += 1;
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&g.result.as_str()),
            "{at}no result (`{}`): {g:?}",
            g.result
        );
        assert_eq!(g.tags.get("Result"), Some(&g.result), "{at}{g:?}");
        assert_eq!(
            g.tags.get("Variant").map(String::as_str),
            Some("xiangqi"),
            "{at}{g:?}"
        );
        assert!(
            !ending.is_empty() && !BAD_ENDINGS.iter().any(|bad| ending.contains(bad)),
            "{at}ended by `{}`: {g:?}\nthe end of the engines' traffic (files in {}):\n{}",
            g.ending,
            dir.display(),
            traffic()
        );
    }
    assert!(
        clean > 0,
        "{name}: no game ended cleanly; files in {}",
        dir.display()
    );
    let _ = std::fs::remove_dir_all(&dir);
    games
}

/// How many of the engines' moves in XBoard's debug log won the game by the repetition law (a
/// perpetual check or chase by the other side), as the match referee judges it: each `position`
/// UCI2WB sent an engine (its `# position fen …` trace), with the `bestmove` that answered it.
fn rule_wins(debug: &str) -> usize {
    let mut asked: BTreeMap<&str, &str> = BTreeMap::new();
    let mut wins = 0;
    for line in debug.lines() {
        let Some((who, said)) = line.split_once('<').and_then(|(_, l)| l.split_once(':')) else {
            continue;
        };
        let (who, said) = (who.trim(), said.trim_start());
        if let Some(position) = said.strip_prefix("# position fen ") {
            asked.insert(who, position);
            continue;
        }
        let Some(answer) = said.strip_prefix("# engine said: bestmove ") else {
            continue;
        };
        let (Some(position), Some(best)) = (asked.remove(who), answer.split_whitespace().next())
        else {
            continue;
        };
        let (fen, moves) = position.split_once(" moves ").unwrap_or((position, ""));
        let mut moves: Vec<&str> = moves.split_whitespace().collect();
        moves.push(best);
        let Ok(j) = judge_text(Some(fen), &moves) else {
            continue;
        };
        // The mover of the last move: the FEN's side if the moves are odd in number.
        let red_first = fen.split_whitespace().nth(1) != Some("b");
        let mover = if red_first == (moves.len() % 2 == 1) {
            Color::Red
        } else {
            Color::Black
        };
        let by_rule = matches!(
            j.outcome,
            Some(Outcome::Win(winner, Reason::PerpetualCheck | Reason::PerpetualChase(_)))
                if winner == mover
        );
        wins += usize::from(by_rule && j.ply == moves.len());
    }
    wins
}

/// Both engines' names as XBoard saw them, in the order of the match's first game.
fn players(games: &[Game]) -> (String, String) {
    let tag = |k: &str| games[0].tags.get(k).cloned().unwrap_or_default();
    (tag("White"), tag("Black"))
}

#[test]
#[ignore = "needs xboard, uci2wb, fairymax and xvfb-run: .ci/run installs them"]
fn uci_against_maxqi() {
    let games = play("uci-maxqi", chariot(false), maxqi());
    let (white, black) = players(&games);
    assert!(white.starts_with("Chariot") && white.ends_with("(UCI2WB)"));
    assert!(black.starts_with("MaxQi"), "{black}");
}

#[test]
#[ignore = "needs xboard, uci2wb, fairymax and xvfb-run: .ci/run installs them"]
fn ucci_against_maxqi() {
    let games = play("ucci-maxqi", chariot(true), maxqi());
    let (white, black) = players(&games);
    // UCI2WB names itself UXI2WB when it speaks UCCI.
    assert!(white.starts_with("Chariot") && white.ends_with("(UXI2WB)"));
    assert!(black.starts_with("MaxQi"), "{black}");
}

#[test]
#[ignore = "needs xboard, uci2wb, fairymax and xvfb-run: .ci/run installs them"]
fn uci_against_ucci() {
    let games = play("uci-ucci", chariot(false), chariot(true));
    let (white, black) = players(&games);
    assert!(white.ends_with("(UCI2WB)") && black.ends_with("(UXI2WB)"));
}

#[test]
fn rule_wins_in_the_adapters_trace() {
    // A CI game through UCI2WB: MaxQi's horse chased Chariot's rook between b0 and d1, and
    // Chariot's b2a2 completed the cycle, a win by the law; its `score mate 1` made UCI2WB claim
    // a mate, which XBoard refused.
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    let moves = "b2g2 c6c5 g2g6 g9e7 h2g2 h9f8 g6g9 f9e8 g0e2 h7g7 g9g8 i9i8 g8g9 f8h9 g9d9 e8d9 \
                 c3c4 c5c4 e2c4 a9a8 b0c2 b9c7 c0e2 c7d5 a3a4 d5f4 g2g7 h9g7 a0a1 f4d3 a1d1 i8d8 \
                 i3i4 a8c8 d1b1 b7c7 c4a2 d3c1 b1c1 c7c1 e2c4 c1b1 i4i5 d8d2 c2b0 b1b3 h0f1 d2b2 \
                 b0d1 b2a2 d1b0 a2b2 b0d1 b2a2 d1b0 a2b2 b0d1";
    let trace = |answer: &str| {
        format!(
            "31479 <first : # position fen {start} moves {moves}\n\
             31479 <first : # go btime 3410 wtime 6770\n\
             31593 <first : # engine said: bestmove {answer}\n\
             31593 <first : move {answer}\n"
        )
    };
    assert_eq!(rule_wins(&trace("b2a2")), 1);
    // Another move of the rook ends nothing.
    assert_eq!(rule_wins(&trace("b2b1")), 0);
    // A `bestmove` pairs only with the position its own engine was sent.
    let other = trace("b2a2").replace("<first : # engine", "<second: # engine");
    assert_eq!(rule_wins(&other), 0);
    // The same move a cycle earlier, the position's second occurrence, ends nothing; nor does
    // an answer with no position sent before it.
    let before = moves.rsplit_once(" b2a2").unwrap().0;
    let early = format!(
        "1 <first : # position fen {start} moves {before}\n\
         1 <first : # engine said: bestmove b2a2\n"
    );
    assert_eq!(
        rule_wins(&(early + "2 <first : # engine said: bestmove b2a2\n")),
        0
    );
}

#[test]
fn pgn_endings() {
    let text = "[Event \"Computer Chess Game\"]\n[White \"Chariot 0.1.0 (UCI2WB)\"]\n\
                [Black \"MaxQi 4.8G\"]\n[Result \"1-0\"]\n[Variant \"xiangqi\"]\n\n\
                1. Cbe2 {+0.77/14} Chg7 {+0.09/6 0.2} 2. Hc6#\n{Xboard adjudication: Checkmate} 1-0\n\n\
                [Event \"Computer Chess Game\"]\n[Result \"0-1\"]\n\n\
                1. Cbe2 {+0.77/14}\n{Xboard: Forfeit due to illegal move: a0a5 (a0a5)} 0-1\n\n";
    let games = parse_pgn(text);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].result, "1-0");
    assert_eq!(games[0].ending, "Xboard adjudication: Checkmate");
    assert_eq!(
        games[0].tags.get("Variant").map(String::as_str),
        Some("xiangqi")
    );
    assert_eq!(games[1].result, "0-1");
    assert!(BAD_ENDINGS
        .iter()
        .any(|bad| games[1].ending.to_lowercase().contains(bad)));
}
