//! Fitting constants: to recorded games, the classical evaluation's tables and weights
//! (`tune`) and the win/draw/loss model that `UCI_ShowWDL` prints (`wdl`); to games played
//! for the purpose, the search's numbers (`spsa`).

pub mod spsa;
pub mod tune;
pub mod wdl;
