// The page's game: a tree of moves from a start position, a chosen line through it and the ply
// on show. Playing a move where the line already goes on follows it; another move there starts
// a branch, which becomes the line (the old one stays, one step away in the move list).

/** One move of the tree: its ICCS text, the moves that follow, which of them the line takes,
 * and what a review said of it. */
function node(move) {
  return { move, kids: [], pick: 0, review: null };
}

export class Game {
  /** A game from `start` (a FEN, or null for the start position) along `moves` (ICCS). */
  constructor(start = null, moves = []) {
    this.start = start;
    this.root = node(null);
    this.ply = 0;
    for (const m of moves) this.play(m);
  }

  /** The nodes of the chosen line, first move first. */
  line() {
    const out = [];
    for (let n = this.root; n.kids.length; ) {
      n = n.kids[n.pick];
      out.push(n);
    }
    return out;
  }

  /** The ICCS moves of the line up to `ply` (default: the ply on show). */
  moves(ply = this.ply) {
    return this.line().slice(0, ply).map((n) => n.move);
  }

  /** The whole line's moves. */
  allMoves() {
    return this.line().map((n) => n.move);
  }

  /** The node after which the ply on show comes (the root before the first move). */
  at(ply = this.ply) {
    return ply === 0 ? this.root : this.line()[ply - 1];
  }

  /** Whether the ply on show is the line's last. */
  atEnd() {
    return this.ply === this.line().length;
  }

  /** Plays `move` at the ply on show: follows the line if it goes that way, else branches. */
  play(move) {
    const here = this.at();
    let i = here.kids.findIndex((k) => k.move === move);
    if (i < 0) {
      here.kids.push(node(move));
      i = here.kids.length - 1;
    }
    here.pick = i;
    this.ply++;
  }

  /** The moves that could have been played instead of the line's move at `ply` (1-based). */
  alternatives(ply) {
    const parent = this.at(ply - 1);
    return parent.kids.map((k, i) => ({ move: k.move, index: i, chosen: i === parent.pick }));
  }

  /** Makes the line take the `index`th move at `ply` (1-based) and shows that ply. */
  choose(ply, index) {
    const parent = this.at(ply - 1);
    if (index >= 0 && index < parent.kids.length) {
      parent.pick = index;
      this.ply = ply;
    }
  }

  /** Cuts the line after `ply`: the moves after it are forgotten (take back). */
  truncate(ply) {
    const n = this.at(ply);
    n.kids = [];
    n.pick = 0;
    this.ply = Math.min(this.ply, ply);
  }

  /** Shows `ply`, clamped to the line. */
  go(ply) {
    this.ply = Math.max(0, Math.min(ply, this.line().length));
  }
}
