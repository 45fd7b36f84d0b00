//! Score conventions (see the rules document, §7): side-to-move centipawns, mate and rule bands,
//! and how each dialect reports them.

/// Checkmate at the node itself is `-MATE`.
pub const MATE: i32 = 30_000;
/// Deepest search ply.
pub const MAX_PLY: i32 = 128;
/// Base of the rule band (perpetual check wins/losses).
pub const BAN: i32 = MATE - 2 * MAX_PLY;
/// Static evaluations are clamped to this.
pub const EVAL_LIMIT: i32 = 20_000;
/// Larger than any score.
pub const INFINITE: i32 = MATE + 1;
/// Draw score.
pub const DRAW: i32 = 0;

/// Mate for the side to move, `ply` plies from the root.
#[inline(always)]
pub const fn mate_in(ply: i32) -> i32 {
    MATE - ply
}

/// Side to move mated `ply` plies from the root.
#[inline(always)]
pub const fn mated_in(ply: i32) -> i32 {
    -MATE + ply
}

/// Rule win (the opponent checked perpetually) at `ply`.
#[inline(always)]
pub const fn ban_win(ply: i32) -> i32 {
    BAN - ply
}

/// Rule loss (the side to move checked perpetually) at `ply`.
#[inline(always)]
pub const fn ban_loss(ply: i32) -> i32 {
    -BAN + ply
}

/// Whether `v` is in the mate band.
#[inline(always)]
pub const fn is_mate(v: i32) -> bool {
    v.abs() > MATE - MAX_PLY
}

/// Whether `v` is in the rule band.
#[inline(always)]
pub const fn is_ban(v: i32) -> bool {
    v.abs() > BAN - MAX_PLY && v.abs() <= BAN
}

/// Whether `v` is a decisive (mate or rule) score.
#[inline(always)]
pub const fn is_decisive(v: i32) -> bool {
    v.abs() > BAN - MAX_PLY
}

/// A score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciScore {
    /// `score cp N`.
    Cp(i32),
    /// `score mate N` (moves; negative when the side to move is mated).
    Mate(i32),
}

/// The UCI form of an internal score.
pub fn uci(v: i32) -> UciScore {
    let plies = if is_mate(v) {
        Some(MATE - v.abs())
    } else if is_ban(v) {
        Some(BAN - v.abs())
    } else {
        None
    };
    match plies {
        Some(p) if v > 0 => UciScore::Mate((p + 1) / 2),
        Some(p) => UciScore::Mate(-(p / 2)),
        None => UciScore::Cp(v),
    }
}

/// The UCCI form of an internal score: a bare integer, mates as ±(10000 − plies), rule results
/// as ±(9900 − plies), others clamped to ±9000.
pub fn ucci(v: i32) -> i32 {
    if is_mate(v) {
        v.signum() * (10_000 - (MATE - v.abs()))
    } else if is_ban(v) {
        v.signum() * (9_900 - (BAN - v.abs()))
    } else {
        v.clamp(-9_000, 9_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports() {
        assert_eq!(uci(mate_in(1)), UciScore::Mate(1));
        assert_eq!(uci(mated_in(2)), UciScore::Mate(-1));
        assert_eq!(uci(mated_in(4)), UciScore::Mate(-2));
        assert_eq!(uci(mated_in(0)), UciScore::Mate(0));
        assert_eq!(uci(37), UciScore::Cp(37));
        assert_eq!(ucci(mate_in(1)), 9999);
        assert_eq!(ucci(mated_in(4)), -9996);
        assert_eq!(ucci(ban_win(3)), 9897);
        assert_eq!(ucci(12_000), 9000);
    }
}
