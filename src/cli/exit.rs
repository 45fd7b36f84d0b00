//! Exit statuses: one per kind of failure, the same for every subcommand, and the kind of each
//! error the tools return. `main` prints a failure as `error: <message>` on stderr and exits
//! with its kind's code. Errors reach the command layer only through `Failure::from`, which
//! needs the error type's `Kind`, so a new error type cannot be left unclassified.

use chariot::eval::nnue::NetworkError;
use chariot::path::scen::ScenError;
use chariot::path::PathError;
use chariot::tools::fit::{spsa::SpsaError, tune::TuneError, wdl::WdlFitError};
use chariot::tools::matches::{judge::JudgeError, mates::MatesError, MatchError, TallyError};
use chariot::tools::nnue::{datagen::DatagenError, train::TrainError};
use chariot::tools::pgn::PgnError;
use chariot::tools::soak::SoakError;
use chariot::tools::FileError;
use std::error::Error;

/// A kind of failure, and so the process's exit status (`code`); success is 0. Clap's own
/// errors in the command's words (an unknown flag, a missing argument) exit 2 as well.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// 1: the command ran and did not succeed for another reason: a file that cannot be
    /// written, output that cannot be printed, a tool's own failure. `judge --pgn` exits 1
    /// when a recorded result disagrees with the referee's.
    Failed,
    /// 2: the command's words or the contents of its input are not valid: a bad FEN, move,
    /// option value or engine command, a malformed PGN, map, scenario, data or network file,
    /// or input with nothing to work on.
    BadInput,
    /// 3: a file named on the command line is missing or cannot be read (or the folder of an
    /// output file does not exist).
    MissingFile,
    /// 130: stopped by Ctrl-C, 128 + SIGINT, the status a shell reports for a process the
    /// signal ends (`datagen` stops cleanly, keeping every whole game, and exits 130 itself).
    Interrupted,
}

impl Exit {
    /// The process's exit status.
    pub const fn code(self) -> u8 {
        match self {
            Exit::Failed => 1,
            Exit::BadInput => 2,
            Exit::MissingFile => 3,
            Exit::Interrupted => 130,
        }
    }
}

/// Why a command failed: its kind and the message `main` prints after `error: `.
#[derive(Debug)]
pub struct Failure {
    /// The kind, which gives the exit status.
    pub exit: Exit,
    /// What went wrong.
    pub error: Box<dyn Error>,
}

impl Failure {
    /// A failure of kind `exit` with the message `error`.
    pub fn new(exit: Exit, error: impl Into<Box<dyn Error>>) -> Failure {
        Failure {
            exit,
            error: error.into(),
        }
    }

    /// A failure of the command's input (`Exit::BadInput`).
    pub fn input(error: impl Into<Box<dyn Error>>) -> Failure {
        Failure::new(Exit::BadInput, error)
    }
}

/// An error a command reports: which kind of failure it is.
pub trait Kind: Error {
    /// The kind of this failure.
    fn exit(&self) -> Exit;
}

impl<E: Kind + 'static> From<E> for Failure {
    fn from(error: E) -> Failure {
        Failure::new(error.exit(), error)
    }
}

/// A file that does not exist or cannot be opened is missing; any other I/O error (a full
/// disk, a closed pipe) is a failure.
impl Kind for std::io::Error {
    fn exit(&self) -> Exit {
        use std::io::ErrorKind::*;
        match self.kind() {
            NotFound | PermissionDenied | IsADirectory | NotADirectory => Exit::MissingFile,
            _ => Exit::Failed,
        }
    }
}

impl Kind for FileError {
    fn exit(&self) -> Exit {
        self.source.exit()
    }
}

impl Kind for PathError {
    fn exit(&self) -> Exit {
        match self {
            PathError::Read { source, .. } => source.exit(),
            PathError::Scen(e) => e.exit(),
            _ => Exit::BadInput,
        }
    }
}

impl Kind for ScenError {
    fn exit(&self) -> Exit {
        match self {
            ScenError::Read { source, .. } | ScenError::ReadMap { source, .. } => source.exit(),
            _ => Exit::BadInput,
        }
    }
}

impl Kind for MatchError {
    fn exit(&self) -> Exit {
        match self {
            MatchError::File(e) => e.exit(),
            _ => Exit::BadInput,
        }
    }
}

/// A mate file that cannot be used is bad input; an engine that fails during the run, a
/// failure.
impl Kind for MatesError {
    fn exit(&self) -> Exit {
        match self {
            MatesError::Engine(_) | MatesError::NoMove(_) => Exit::Failed,
            MatesError::Fen { .. }
            | MatesError::Distance(_)
            | MatesError::Empty
            | MatesError::Pgn(_) => Exit::BadInput,
        }
    }
}

impl Kind for JudgeError {
    fn exit(&self) -> Exit {
        Exit::BadInput
    }
}

impl Kind for PgnError {
    fn exit(&self) -> Exit {
        Exit::BadInput
    }
}

/// A PGN file that cannot be summed up is bad input.
impl Kind for TallyError {
    fn exit(&self) -> Exit {
        Exit::BadInput
    }
}

impl Kind for SpsaError {
    fn exit(&self) -> Exit {
        match self {
            SpsaError::Match(e) => e.exit(),
            SpsaError::Param(_) => Exit::BadInput,
        }
    }
}

impl Kind for TuneError {
    fn exit(&self) -> Exit {
        match self {
            TuneError::Read { source, .. } => source.exit(),
            TuneError::NoSamples => Exit::BadInput,
        }
    }
}

impl Kind for WdlFitError {
    fn exit(&self) -> Exit {
        match self {
            WdlFitError::File(e) => e.exit(),
            WdlFitError::Pgn { .. } | WdlFitError::NoSamples => Exit::BadInput,
        }
    }
}

impl Kind for NetworkError {
    fn exit(&self) -> Exit {
        match self {
            NetworkError::Io(_) => Exit::MissingFile,
            _ => Exit::BadInput,
        }
    }
}

impl Kind for DatagenError {
    fn exit(&self) -> Exit {
        match self {
            DatagenError::File(e) => e.exit(),
            DatagenError::Network { source, .. } => source.exit(),
            DatagenError::Openings(_) | DatagenError::Pgn { .. } | DatagenError::NoGames => {
                Exit::BadInput
            }
        }
    }
}

impl Kind for TrainError {
    fn exit(&self) -> Exit {
        match self {
            TrainError::File(e) => e.exit(),
            TrainError::Network { source, .. } => source.exit(),
            TrainError::Quantize(_) | TrainError::Threads(_) => Exit::Failed,
            TrainError::Record { .. }
            | TrainError::Scale { .. }
            | TrainError::Features { .. }
            | TrainError::Checkpoint { .. }
            | TrainError::NoData
            | TrainError::Shape
            | TrainError::Grow { .. } => Exit::BadInput,
        }
    }
}

/// A soak whose engine command cannot run is bad input, a network file named with `--evalfile`
/// is read like any input file, and a temporary network that cannot be written is a failure.
impl Kind for SoakError {
    fn exit(&self) -> Exit {
        match self {
            SoakError::Command(_) | SoakError::Spawn(_) => Exit::BadInput,
            SoakError::Network { .. } => Exit::Failed,
            SoakError::Load(e) => e.exit(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_own_code() {
        let kinds = [
            Exit::Failed,
            Exit::BadInput,
            Exit::MissingFile,
            Exit::Interrupted,
        ];
        let mut codes: Vec<u8> = kinds.iter().map(|k| k.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes, [1, 2, 3, 130]);
    }

    #[test]
    fn a_file_that_cannot_be_opened_is_missing() {
        use std::io::{Error, ErrorKind};
        assert_eq!(Error::from(ErrorKind::NotFound).exit(), Exit::MissingFile);
        assert_eq!(
            Error::from(ErrorKind::PermissionDenied).exit(),
            Exit::MissingFile
        );
        assert_eq!(Error::from(ErrorKind::BrokenPipe).exit(), Exit::Failed);
        let e = FileError::new("x.pgn", Error::from(ErrorKind::NotFound));
        assert_eq!(Failure::from(MatchError::File(e)).exit, Exit::MissingFile);
        assert_eq!(
            Failure::from(MatchError::Dialect("xboard".into())).exit,
            Exit::BadInput
        );
    }
}
