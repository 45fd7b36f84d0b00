//! The static evaluation, in centipawns from the side to move's view: the learned network
//! (`nnue`, the default) and the hand-written evaluation (`classical`, for comparison, the
//! tuner and as a fallback). The search holds which one is in use (`Option<Arc<Network>>`:
//! `None` is the classical evaluation).

pub mod classical;
pub mod nnue;
