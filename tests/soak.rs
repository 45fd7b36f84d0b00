//! The soak (`chariot soak`) in short: a few games of self-play under random option changes in
//! both dialects find no fault, and the faults it looks for are found in engines that have them.

use chariot::protocol::Dialect;
use chariot::tools::soak::{self, Config, Toggle};

fn fake(name: &str) -> String {
    format!(
        "{}/tests/fake_engines/{name}.sh",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn a_short_soak_finds_no_fault() {
    let cfg = Config {
        engine: env!("CARGO_BIN_EXE_chariot").to_string(),
        games: 4,
        seed: 38,
        base_ms: 300,
        inc_ms: 3,
        maxplies: 60,
        // Generous deadlines: a busy test machine must not pass for a slow engine; the clock
        // and `isready` are held to tight ones in the long soak (docs/development.md).
        margin_ms: 2000,
        ready_ms: 10_000,
        toggle_rate: 0.5,
        restart_rate: 0.3,
        ..Config::default()
    };
    let report = soak::run(&cfg).expect("the soak starts");
    println!("{report}");
    assert!(report.faults.is_empty(), "{report}");
    assert_eq!(report.games, 4);
    assert!(report.plies > 40, "{report}");
    assert_eq!(report.isready_answered, report.isready_sent);
    assert!(report.isready_sent > report.plies);
    for t in Toggle::ALL {
        assert!(
            report.toggles.get(&t).is_some_and(|&n| n > 0),
            "no {t:?}: {report}"
        );
    }
    assert!(report.toggles_in_search > 0);
    assert!(report.ponders > 0, "{report}");
    assert!(report.eval_checks > 0 && report.memory_checks >= 8);
    assert!(report.processes[0] + report.processes[1] >= 2);
}

#[test]
fn illegal_moves_and_hangs_are_faults() {
    let base = Config {
        games: 2,
        base_ms: 300,
        inc_ms: 0,
        dialect: Some(Dialect::Uci),
        toggle_rate: 0.0,
        restart_rate: 0.0,
        ..Config::default()
    };
    let illegal = soak::run(&Config {
        engine: fake("illegal"),
        ..base.clone()
    })
    .expect("starts");
    assert_eq!((illegal.games, illegal.abandoned), (0, 2));
    assert!(
        illegal.faults.iter().all(|f| f.contains("'bestmove a0a9'")),
        "{illegal}"
    );
    let hang = soak::run(&Config {
        engine: fake("hang"),
        games: 1,
        ..base
    })
    .expect("starts");
    assert_eq!(hang.faults.len(), 1, "{hang}");
    assert!(hang.faults[0].contains("no bestmove within"), "{hang}");
    assert!(soak::run(&Config {
        engine: fake("no-such-engine"),
        ..Config::default()
    })
    .is_err());
}
