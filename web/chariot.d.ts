// Type declarations of chariot-xiangqi (chariot.js).

/** Where the engine's files are, and how it reads its input. */
export interface ChariotOptions {
  /**
   * The folder holding chariot.wasm, chariot-simd.wasm, chariot-rules.wasm and
   * engine-worker.js: a URL (relative ones resolve against the page), or in Node a path.
   * Default: the folder of chariot.js itself.
   */
  base?: string | URL;
  /**
   * `false`: post lines to the worker even where shared memory exists (the mode of pages
   * served without cross-origin isolation). `true`: reject unless SharedArrayBuffer exists.
   * Default: shared memory where it exists (cross-origin isolated pages, Node).
   */
  isolated?: boolean;
  /** `false`: the plain module even where the browser has WebAssembly SIMD. */
  simd?: boolean;
}

/** The answer of `rules`. */
export type RulesAnswer =
  | {
      ok: true;
      /** The position's FEN. */
      fen: string;
      /** The side to move: "w" (Red) or "b" (Black). */
      turn: "w" | "b";
      /** Whether the side to move is in check. */
      check: boolean;
      /** The legal moves, ICCS ("h2e2"). */
      legal: string[];
      /** The referee's verdict, or null while the game goes on. */
      result: "1-0" | "0-1" | "1/2-1/2" | null;
      /** Why the game ended (checkmate, perpetual check, ...), or null. */
      reason: string | null;
    }
  | { ok: false; error: string };

/** A move notation: coordinates (h2e2), WXF letters (C2=5) or Chinese (炮二平五). */
export type Notation = "iccs" | "wxf" | "chinese";

/** A refusal: one message naming what is wrong. */
export type Refusal = { ok: false; error: string };

/** The answer of `notate`: each move of the game in the notation. */
export type NotateAnswer = { ok: true; texts: string[] } | Refusal;

/** The answer of `readMove`: the move typed, in ICCS. */
export type ReadMoveAnswer = { ok: true; move: string } | Refusal;

/** The answer of `readRecord`: the record's first game. */
export type RecordAnswer =
  | {
      ok: true;
      /** The games the record holds (only the first is read). */
      count: number;
      /** The start position's FEN, or null for the usual start. */
      start: string | null;
      /** The main line in ICCS (variations are left out). */
      moves: string[];
      /** The comment after each move of `moves`, or null. */
      comments: (string | null)[];
      /** The comment before the first move, or null. */
      comment: string | null;
      /** The tags (Event, Red, Black, Result, ...), the first of a name given twice. */
      tags: Record<string, string>;
      result: "1-0" | "0-1" | "1/2-1/2" | "*";
    }
  | Refusal;

/** What `writePgn` writes. */
export interface PgnRequest {
  /** The game as `position`'s arguments. Default "startpos". */
  spec?: string;
  /** The moves' notation. Default "chinese". */
  notation?: Notation;
  /** Tags in order (names are one word). Without Result, the rules' verdict, or "*". */
  tags?: Record<string, string> | Map<string, string> | [string, string][];
  /** Comments after moves: by ply from 1, or an array as `readRecord`'s `comments`. */
  comments?: Record<number, string> | Map<number, string> | (string | null)[];
}

/** The answer of `writePgn`. */
export type PgnAnswer = { ok: true; pgn: string } | Refusal;

/** One move of a review. */
export interface ReviewedMove {
  ply: number;
  /** The move, ICCS, and its text in the review's notation. */
  move: string;
  text: string;
  /** The position after the move from Red's view: centipawns, or "#5" / "#-3" (mate in moves). */
  eval: number | string;
  /** The engine's best move and line before the move (ICCS), the line's first plies as text. */
  best: string;
  pv: string[];
  line: string;
  /** Expected score lost by the move (0 to 1), and its accuracy (0 to 100). */
  loss: number;
  accuracy: number;
  judgement: null | "inaccuracy" | "mistake" | "blunder";
}

/** The answer of `review`. */
export interface ReviewAnswer {
  ok: true;
  complete: boolean;
  /** Nodes searched in all. */
  nodes: number;
  moves: ReviewedMove[];
  /** Each side's accuracy (0 to 100), null for a side with no move. */
  accuracy: { red: number | null; black: number | null };
  /** Inaccuracies, mistakes, blunders of each side. */
  counts: { red: [number, number, number]; black: [number, number, number] };
  summary: string;
  /** The game as annotated PGN: evals, marks, better lines, accuracies. */
  pgn: string;
}

/** How a review searches. */
export interface ReviewOptions {
  /** Nodes a position (default 100000). */
  nodes?: number;
  /** Milliseconds a position, instead of nodes. */
  movetime?: number;
  /** Hash table in MiB (default 16). */
  hash?: number;
  /** The notation of `text`, `line` and the PGN (default "chinese"). */
  notation?: Notation;
}

/** A record: text, or a file's bytes (XQF is binary; GBK and Big5 PGN are read too). */
export type RecordInput = string | Uint8Array | ArrayBuffer;

/**
 * The rules, notation and record functions: synchronous, on the caller's thread, in the small
 * rules-only module. A game is given as `position`'s arguments ("startpos moves h2e2 h9g7",
 * "fen ... moves ..."), moves in ICCS. Bad input is answered `{ok: false, error}`, never thrown.
 */
export interface ChariotRules {
  /** The legal moves, FEN, check and the referee's verdict of a game. */
  rules(spec: string): RulesAnswer;
  /** Each move of the game in `notation` (default "chinese"), each written in its own position. */
  notate(spec: string, notation?: Notation): NotateAnswer;
  /** A move typed in ICCS, WXF or Chinese (full-width forms too) in the game's last position. */
  readMove(spec: string, text: string): ReadMoveAnswer;
  /** The first game of a record: PGN in any notation, XQF, DhtmlXQ, or a bare FEN line. */
  readRecord(record: RecordInput): RecordAnswer;
  /** The game as PGN. */
  writePgn(request: PgnRequest): PgnAnswer;
}

/** One engine: its own worker, in the manner of stockfish.js. */
export interface ChariotEngine extends ChariotRules {
  /** Sends one or more protocol lines (UCI or UCCI), queued until the engine reads them. */
  postMessage(line: string): void;
  /** Calls `fn` with each line the engine writes. */
  addMessageListener(fn: (line: string) => void): void;
  /** Stops calling `fn`. */
  removeMessageListener(fn: (line: string) => void): void;
  /** Ends the engine's worker (and its review's) at once; later lines are ignored. */
  terminate(): void;
  /**
   * Reviews the record's first game in a worker of its own (the engine goes on answering):
   * every move's eval and judgement, each side's accuracy, the annotated PGN. Reviews run one
   * after another. Rejects with the module's message for a record or option it refuses
   * ("chariot: review: game 1, ply 3: illegal move h2h8"), or if the worker fails or the
   * engine is terminated.
   */
  review(record: RecordInput, options?: ReviewOptions): Promise<ReviewAnswer>;
  /** Resolved once the engine has read its network and runs lines (those posted before wait). */
  readonly ready: Promise<void>;
  /** Milliseconds from `createChariot` to `ready`, once ready; null before. */
  readonly loadMs: number | null;
  /** Whether lines travel through shared memory (a running search hears `stop` itself). */
  readonly isolated: boolean;
  /** Whether the SIMD module was chosen. */
  readonly simd: boolean;
}

/**
 * Loads the engine. Rejects, naming the URL, if a file cannot be loaded.
 *
 * @example
 * const engine = await createChariot();
 * engine.addMessageListener((line) => console.log(line));
 * engine.postMessage("position startpos moves h2e2 h9g7");
 * engine.postMessage("go depth 6");
 */
export function createChariot(options?: ChariotOptions): Promise<ChariotEngine>;

/** The rules, notation and record functions alone (chariot-rules.wasm from `base`), no engine. */
export function loadRules(options?: { base?: string | URL }): Promise<ChariotRules>;
