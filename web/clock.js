// The game's clocks: minutes plus an increment for each side, or a fixed time a move (Chariot's
// only: the player has no clock then). Times are milliseconds; `now` is performance.now().

/** A time control from its text: "M+S" (minutes, seconds of increment; minutes may be a
 * fraction) or "Ns" (N seconds a move). Null if the text is neither. */
export function parseControl(text) {
  const t = String(text).trim();
  let m = /^(\d+(?:\.\d+)?)\s*s$/.exec(t);
  if (m && Number(m[1]) > 0) return { kind: "movetime", ms: Math.round(Number(m[1]) * 1000) };
  m = /^(\d+(?:\.\d+)?)\s*\+\s*(\d+(?:\.\d+)?)$/.exec(t);
  if (m && Number(m[1]) > 0) {
    return { kind: "clock", ms: Math.round(Number(m[1]) * 60000), inc: Math.round(Number(m[2]) * 1000) };
  }
  return null;
}

export class Clock {
  /** Clocks for `control` (from parseControl); nothing runs until `start`. */
  constructor(control) {
    this.control = control;
    this.left = { w: control.ms, b: control.ms };
    this.turn = null; // the side whose clock runs, or null when stopped
    this.since = 0;
  }

  /** Whether the sides have clocks (not a fixed time a move). */
  get timed() {
    return this.control.kind === "clock";
  }

  /** Starts `side`'s clock at `now`. */
  start(side, now) {
    if (this.timed) {
      this.turn = side;
      this.since = now;
    }
  }

  /** `side`'s time at `now`. */
  remaining(side, now) {
    const running = this.turn === side ? now - this.since : 0;
    return this.left[side] - running;
  }

  /** The side to move has moved at `now`: its time is charged, its increment added, and the
   * other side's clock starts. False if it had already run out (the move came too late). */
  moved(now) {
    if (!this.turn) return true;
    const side = this.turn;
    this.left[side] = this.remaining(side, now);
    if (this.left[side] <= 0) {
      this.left[side] = 0;
      this.turn = null;
      return false;
    }
    this.left[side] += this.control.inc;
    this.start(side === "w" ? "b" : "w", now);
    return true;
  }

  /** Stops the clocks at `now`, keeping the time used. */
  stop(now) {
    if (this.turn) this.left[this.turn] = Math.max(0, this.remaining(this.turn, now));
    this.turn = null;
  }

  /** The side whose flag has fallen at `now`, or null. */
  flagged(now) {
    return this.turn && this.remaining(this.turn, now) <= 0 ? this.turn : null;
  }

  /** The `go` command for the engine to move now (both clocks at `now`, or the fixed time). */
  go(now) {
    if (!this.timed) return `go movetime ${this.control.ms}`;
    const ms = (s) => Math.max(1, Math.floor(this.remaining(s, now)));
    const inc = this.control.inc;
    return `go wtime ${ms("w")} btime ${ms("b")} winc ${inc} binc ${inc}`;
  }
}

/** `ms` as the clock shows it: m:ss, with tenths under ten seconds. */
export function showTime(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return (Math.floor(t / 100) / 10).toFixed(1);
  const s = Math.floor(t / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
