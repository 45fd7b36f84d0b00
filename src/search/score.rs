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

/// The value to store in the hash table for `v` found `ply` plies from the root: mate scores
/// become relative to the node. Rule-band scores depend on the path and are not stored
/// (`None`: store the move and depth only).
pub fn to_tt(v: i32, ply: i32) -> Option<i32> {
    if is_ban(v) {
        None
    } else if is_mate(v) {
        Some(if v > 0 { v + ply } else { v - ply })
    } else {
        Some(v)
    }
}

/// The score read from the hash table at `ply`, given the plies since the last capture
/// (`rule60`): mates further away than the 60-move draw allows are downgraded to a bound that
/// claims no mate (`±(MATE − MAX_PLY − 1)`).
pub fn from_tt(s: i32, ply: i32, rule60: i32) -> i32 {
    if !is_mate(s) {
        return s;
    }
    let distance = MATE - s.abs();
    if distance > 120 - rule60 {
        return s.signum() * (MATE - MAX_PLY - 1);
    }
    if s > 0 {
        s - ply
    } else {
        s + ply
    }
}

#[cfg(test)]
mod tt_tests {
    use super::*;

    #[test]
    fn mate_scores_are_node_relative_in_the_table() {
        // Mate found 5 plies from the root at a node 3 plies deep: 2 plies from the node.
        let stored = to_tt(mate_in(5), 3).unwrap();
        assert_eq!(stored, mate_in(2));
        // Read back at a node 7 plies deep: 9 plies from the root.
        assert_eq!(from_tt(stored, 7, 0), mate_in(9));
        let lost = to_tt(mated_in(6), 2).unwrap();
        assert_eq!(lost, mated_in(4));
        assert_eq!(from_tt(lost, 1, 0), mated_in(5));
        // Rule results are never stored as values.
        assert_eq!(to_tt(ban_win(4), 2), None);
        assert_eq!(to_tt(123, 9), Some(123));
        // A mate beyond the 60-move horizon becomes a plain bound.
        assert_eq!(from_tt(mate_in(10), 0, 115), MATE - MAX_PLY - 1);
        assert_eq!(from_tt(mated_in(10), 0, 115), -(MATE - MAX_PLY - 1));
    }
}
