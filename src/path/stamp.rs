//! Generation stamps: how the searches forget the last query without clearing their arrays.
//!
//! Every search keeps, per node, the generation of the query that last touched it; a node whose
//! stamp is not the current generation is unseen, whatever its other fields say. The top bit of
//! a stamp (`CLOSED`) marks a node expanded in that generation, so the generation itself runs
//! over the 31 bits below it; when it wraps, the search clears its stamps once and starts again
//! at 1 (0 is the stamp of memory never touched). A*, JPS, JPS+, the subgoal search and the
//! contraction hierarchy's query all count generations this way.

/// The stamp bit of a node expanded (closed) in the stamp's generation.
pub(super) const CLOSED: u32 = 1 << 31;

/// A search's generation counter: 1 to `CLOSED - 1`, 0 before the first query.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Generation(u32);

impl Generation {
    /// Starts the next query's generation and returns it. When the counter wraps, `clear` runs
    /// first: it must reset every stamp the search keeps to 0 (or to anything but a generation
    /// still to come).
    #[inline]
    pub(super) fn advance(&mut self, clear: impl FnOnce()) -> u32 {
        self.0 = (self.0 + 1) & !CLOSED;
        if self.0 == 0 {
            clear();
            self.0 = 1;
        }
        self.0
    }

    /// The last generation before the counter wraps (so the next `advance` clears).
    #[cfg(test)]
    pub(super) fn last() -> Generation {
        Generation(CLOSED - 1)
    }
}

/// Whether `stamp` was set in generation `gen`, open or closed.
#[inline(always)]
pub(super) fn seen(stamp: u32, gen: u32) -> bool {
    stamp & !CLOSED == gen
}

/// Whether `stamp` marks a node closed in generation `gen`.
#[inline(always)]
pub(super) fn closed(stamp: u32, gen: u32) -> bool {
    stamp == gen | CLOSED
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generations_count_from_one() {
        let mut g = Generation::default();
        let mut cleared = 0;
        assert_eq!(g.advance(|| cleared += 1), 1);
        assert_eq!(g.advance(|| cleared += 1), 2);
        assert_eq!(cleared, 0);
    }

    #[test]
    fn the_wrap_clears_once_and_restarts_at_one() {
        let mut g = Generation(CLOSED - 2);
        let mut cleared = 0;
        assert_eq!(g.advance(|| cleared += 1), CLOSED - 1);
        assert_eq!(cleared, 0);
        // The next generation would be the closed bit alone: the stamps are cleared instead.
        assert_eq!(g.advance(|| cleared += 1), 1);
        assert_eq!(cleared, 1);
        assert_eq!(g.advance(|| cleared += 1), 2);
        assert_eq!(cleared, 1);
    }

    #[test]
    fn seen_and_closed_read_one_generation() {
        let gen = 7;
        assert!(seen(gen, gen) && !closed(gen, gen));
        assert!(seen(gen | CLOSED, gen) && closed(gen | CLOSED, gen));
        for other in [0, 6, 8, 6 | CLOSED] {
            assert!(!seen(other, gen) && !closed(other, gen), "{other:#x}");
        }
    }
}
