//! Fitting constants to recorded games: the classical evaluation's tables and weights (`tune`)
//! and the win/draw/loss model that `UCI_ShowWDL` prints (`wdl`).

pub mod tune;
pub mod wdl;
