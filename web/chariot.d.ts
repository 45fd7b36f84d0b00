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

/** One engine: its own worker, in the manner of stockfish.js. */
export interface ChariotEngine {
  /** Sends one or more protocol lines (UCI or UCCI), queued until the engine reads them. */
  postMessage(line: string): void;
  /** Calls `fn` with each line the engine writes. */
  addMessageListener(fn: (line: string) => void): void;
  /** Stops calling `fn`. */
  removeMessageListener(fn: (line: string) => void): void;
  /** Ends the engine's worker at once; later lines are ignored. */
  terminate(): void;
  /**
   * The rules of a game given as `position`'s arguments ("startpos moves h2e2", "fen ...
   * moves ..."): synchronous, on the caller's thread, never waiting for a search.
   */
  rules(spec: string): RulesAnswer;
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
