// The page: a game against Chariot (the npm package's engine, chariot.js) on an SVG board
// (board.js), with clocks (clock.js), analysis, review (graph.js), records in any notation and
// the page's words in Chinese or English (i18n.js). The game is a tree (game.js): step through
// it, and play on from any move as a new branch once no game is under way.
import { createChariot } from "./chariot.js";
import { Board } from "./board.js";
import { Game } from "./game.js";
import { Clock, parseControl, showTime } from "./clock.js";
import { drawGraph, expectation } from "./graph.js";
import { t, applyLanguage } from "./i18n.js";
import { registerOffline } from "./offline.js";

const $ = (id) => document.getElementById(id);
// The engine, once loaded (also window.chariot, for the browser test and the console).
let engine = null;
let board = null;

// Settings kept between visits.
const saved = JSON.parse(localStorage.getItem("chariot-settings") || "{}");
const settings = {
  lang: saved.lang || (/^zh/i.test(navigator.language) ? "zh" : "en"),
  notation: saved.notation || (/^zh/i.test(navigator.language) ? "chinese" : "wxf"),
  pieces: saved.pieces || "chinese",
  view: saved.view || "red",
  multipv: saved.multipv || "1",
  tc: saved.tc || "1s",
  level: saved.level || "20",
  color: saved.color || "w",
  sound: !!saved.sound,
};
function keep() {
  localStorage.setItem("chariot-settings", JSON.stringify(settings));
}

const state = {
  game: new Game(),
  human: "w",        // "w", "b" or "both"
  live: false,       // a game against Chariot under way: moves only at its end
  result: null,      // "1-0", "0-1", "1/2-1/2" once the game has ended
  reason: null,      // why it ended (the referee's words, "time" or "resignation")
  clock: null,
  flipped: false,
  analysing: false,  // the analysis pane asked for
  searches: [],      // searches sent, oldest first: {kind: "play" | "analyse" | "bench", spec}
  info: null,        // the rules' answer for the position shown
  lines: [],         // analysis lines of the position shown, by MultiPV index
  review: null,      // the last review's summary for the line: {accuracy, counts}
  reviewing: false,
  texts: new Map(),  // notation texts by "notation spec"
};

// --- the game and its positions ----------------------------------------------------------------
function spec(moves, start = state.game.start) {
  const head = start ? "fen " + start : "startpos";
  return moves.length ? head + " moves " + moves.join(" ") : head;
}
const shownSpec = () => spec(state.game.moves());
const endSpec = () => spec(state.game.allMoves());
const turnAtEnd = () => engine.rules(endSpec()).turn;
const engineSide = () => (state.human === "w" ? "b" : state.human === "b" ? "w" : null);

function say(key, params) {
  $("message").textContent = key ? t(key, params) : "";
  $("message").dataset.key = key || "";
}

/** The texts of the moves of `moves` (from the game's start) in the chosen notation. */
function texts(moves) {
  const n = settings.notation;
  if (n === "iccs" || !moves.length) return moves.slice();
  const key = n + " " + spec(moves);
  if (!state.texts.has(key)) {
    if (state.texts.size > 4000) state.texts.clear(); // a long analysis writes many lines
    const answer = engine.notate(spec(moves), n);
    state.texts.set(key, answer.ok ? answer.texts : moves.slice());
  }
  return state.texts.get(key);
}

/** The texts of `pv` played after `moves`. */
function lineTexts(moves, pv) {
  return texts(moves.concat(pv)).slice(moves.length);
}

// --- drawing --------------------------------------------------------------------------------------
function kingSquare(fen, side) {
  const rows = fen.split(" ")[0].split("/");
  const king = side === "w" ? "K" : "k";
  for (let i = 0; i < rows.length; i++) {
    let file = 0;
    for (const ch of rows[i]) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        if (ch === king) return "abcdefghi"[file] + (9 - i);
        file++;
      }
    }
  }
  return null;
}

function canMove() {
  if (state.result && state.live) return false;
  if (!state.live) return !state.info.result;
  return state.game.atEnd() && state.info.turn === state.human && !state.result;
}

function drawBoard() {
  const moves = state.game.moves();
  const visible = state.analysing ? state.lines : [];
  board.update({
    fen: state.info.fen,
    legal: canMove() ? state.info.legal : [],
    flipped: state.flipped,
    pieces: settings.pieces,
    coords: settings.notation,
    last: moves.length ? moves[moves.length - 1] : null,
    check: state.info.check ? kingSquare(state.info.fen, state.info.turn) : null,
    arrows: visible.filter((l) => l && l.pv.length).map((l, i) => ({ move: l.pv[0], rank: i })),
  });
}

function render() {
  drawBoard();
  $("fen").value = state.info.fen;
  renderMoves();
  renderAnalysis();
  renderClocks();
  renderReview();
  $("pgn").value = pgn(settings.notation);
  $("analyse").textContent = t(state.analysing ? "hideAnalysis" : "analyse");
  $("resign").disabled = !state.live;
}

function renderMoves() {
  const line = state.game.line();
  const all = line.map((n) => n.move);
  const words = texts(all);
  const body = $("moves").tBodies[0];
  body.textContent = "";
  const blackFirst = (state.game.start || "").split(" ")[1] === "b";
  let number = state.game.start ? Number(state.game.start.split(" ")[5]) || 1 : 1;
  let row = null;
  const MARK = { inaccuracy: "?!", mistake: "?", blunder: "??" };
  for (let i = 0; i < line.length; i++) {
    const red = blackFirst ? i % 2 === 1 : i % 2 === 0;
    if (red || !row) {
      row = body.insertRow();
      row.insertCell().textContent = number + ".";
      if (!red) row.insertCell().textContent = "…";
    }
    const cell = row.insertCell();
    cell.className = "mv";
    cell.dataset.ply = i + 1;
    cell.textContent = words[i];
    const review = line[i].review;
    if (review && review.judgement) {
      cell.classList.add(review.judgement);
      const mark = document.createElement("sup");
      mark.textContent = MARK[review.judgement];
      cell.appendChild(mark);
    }
    if (state.game.alternatives(i + 1).length > 1) cell.classList.add("branch");
    if (i + 1 === state.game.ply) cell.classList.add("current");
    cell.onclick = () => show(i + 1);
    if (!red) number++;
  }
  $("moves").dataset.moves = all.join(" ");
  $("moves").dataset.ply = state.game.ply;
  // The list scrolls to the move shown; the page itself never scrolls for it.
  const box = $("moves-box"), current = body.querySelector(".current");
  if (!current) box.scrollTop = 0;
  else if (current.offsetTop < box.scrollTop) box.scrollTop = current.offsetTop;
  else if (current.offsetTop + current.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = current.offsetTop + current.offsetHeight - box.clientHeight;
  }
  renderBranches();
}

function renderBranches() {
  const box = $("branches");
  box.textContent = "";
  const ply = state.game.ply;
  if (!ply) return;
  const alts = state.game.alternatives(ply);
  if (alts.length < 2) return;
  const before = state.game.moves(ply - 1);
  box.append(t("branches") + " ");
  for (const a of alts) {
    const b = document.createElement("button");
    b.textContent = lineTexts(before, [a.move])[0];
    b.disabled = a.chosen;
    b.onclick = () => { state.game.choose(ply, a.index); changed(); };
    box.appendChild(b);
  }
}

// Scores: from Red's view, or the player's (Red's when the player plays both sides).
function viewSide() {
  return settings.view === "player" && state.human === "b" ? "b" : "w";
}

/** A score of the side to move `turn` as seen from the view's side: {cp} or {mate}, and WDL. */
function viewed(line, turn) {
  const flip = turn !== viewSide();
  const score = line.mate !== undefined ? { mate: flip ? -line.mate : line.mate } : { cp: flip ? -line.cp : line.cp };
  const wdl = line.wdl && (flip ? [line.wdl[2], line.wdl[1], line.wdl[0]] : line.wdl);
  return { score, wdl };
}

function scoreText(score) {
  if (score.mate !== undefined) return "#" + score.mate;
  return (score.cp > 0 ? "+" : "") + (score.cp / 100).toFixed(2);
}

function renderAnalysis() {
  $("analysis").hidden = !state.analysing;
  $("eval-bar").hidden = !state.analysing;
  $("a-view").textContent = t(viewSide() === "w" ? "viewNoteRed" : "viewNoteBlack");
  const first = state.lines[0];
  const list = $("a-lines");
  list.textContent = "";
  if (!first) {
    for (const id of ["a-depth", "a-score", "a-wdl"]) $(id).textContent = "–";
    $("eval-fill").style.height = "50%";
    $("eval-text").textContent = "";
    return;
  }
  const { score, wdl } = viewed(first, state.info.turn);
  $("a-depth").textContent = first.depth;
  $("a-score").textContent = scoreText(score);
  $("a-wdl").textContent = wdl ? wdl.map((x) => (x / 10).toFixed(1) + "%").join(" / ") : "–";
  // The bar fills from the bottom with the view side's share: Red's at the bottom for Red.
  const share = wdl ? (wdl[0] + wdl[1] / 2) / 1000 : (expectation(score) + 1) / 2;
  $("eval-fill").style.height = (share * 100).toFixed(1) + "%";
  $("eval-fill").className = viewSide() === "w" ? "red" : "black";
  $("eval-text").textContent = scoreText(score);
  const moves = state.game.moves();
  state.lines.forEach((l) => {
    if (!l) return;
    const li = document.createElement("li");
    li.textContent = scoreText(viewed(l, state.info.turn).score) + "  " + lineTexts(moves, l.pv).join(" ");
    list.appendChild(li);
  });
}

function renderClocks() {
  const top = state.flipped ? "w" : "b", bottom = state.flipped ? "b" : "w";
  const now = performance.now();
  for (const [id, side] of [["clock-top", top], ["clock-bottom", bottom]]) {
    const el = $(id);
    el.hidden = !state.clock || !state.clock.timed || state.human === "both";
    if (el.hidden) continue;
    el.dataset.side = side;
    el.querySelector(".who").textContent = t(side === "w" ? "red" : "black") + " · " +
      (side === state.human || state.human === "both" ? t("you") : "Chariot");
    const left = state.clock.remaining(side, now);
    el.querySelector(".time").textContent = showTime(left);
    el.dataset.ms = Math.round(left);
    el.classList.toggle("running", state.clock.turn === side);
    el.classList.toggle("low", left < 10000);
  }
}

function renderReview() {
  const line = state.game.line();
  const points = line.map((n) => {
    if (!n.review) return null;
    const e = n.review.eval;
    const red = typeof e === "number" ? { cp: e } : { mate: Number(String(e).replace("#", "")) };
    const v = expectation(red);
    return viewSide() === "w" ? v : -v;
  });
  const reviewed = points.some((p) => p !== null);
  $("graph").toggleAttribute("hidden", !reviewed);
  if (reviewed) {
    const marks = line.map((n, i) => ({ ply: i + 1, kind: n.review && n.review.judgement })).filter((m) => m.kind);
    drawGraph($("graph"), points, marks, state.game.ply, show);
  }
  const r = state.review;
  $("accuracy").textContent = r
    ? t("accuracy", {
        red: r.accuracy.red === null ? "–" : r.accuracy.red.toFixed(1),
        black: r.accuracy.black === null ? "–" : r.accuracy.black.toFixed(1),
        rc: r.counts.red.join("/"), bc: r.counts.black.join("/"),
      })
    : "";
}

function pgn(notation) {
  const tags = { Event: "Chariot", Site: location.host || "?", Date: today() };
  const names = { w: "Chariot", b: "Chariot" };
  if (state.human !== "both") names[state.human] = t("you");
  else names.w = names.b = "?";
  tags.Red = names.w;
  tags.Black = names.b;
  if (state.result) tags.Result = state.result;
  if (state.reason) tags.Termination = state.reason;
  if (state.clock && state.clock.timed) tags.TimeControl = `${state.clock.control.ms / 1000}+${state.clock.control.inc / 1000}`;
  const comments = {};
  state.game.line().forEach((n, i) => {
    if (n.review && n.review.judgement) comments[i + 1] = t(n.review.judgement);
  });
  const answer = engine.writePgn({ spec: endSpec(), notation, tags, comments });
  return answer.ok ? answer.pgn : "";
}

function today() {
  const d = new Date();
  return d.getFullYear() + "." + String(d.getMonth() + 1).padStart(2, "0") + "." + String(d.getDate()).padStart(2, "0");
}

// --- the engine -----------------------------------------------------------------------------------
/** Stops the searches under way: their bestmoves, when they come, are ignored. */
function stopSearches() {
  const running = state.searches.filter((s) => !s.stopped);
  if (!running.length) return;
  for (const s of running) s.stopped = true;
  engine.postMessage("stop");
}

function go(kind, command, position) {
  stopSearches();
  if (position) engine.postMessage("position " + position);
  state.searches.push({ kind, spec: position });
  engine.postMessage(command);
}

/** Chariot moves in the game, on its clock. */
function think() {
  const at = endSpec();
  if (state.searches.some((s) => s.kind === "play" && s.spec === at && !s.stopped)) return;
  say("thinking");
  engine.postMessage("setoption name MultiPV value 1");
  const command = state.clock.go(performance.now());
  go("play", command, at);
}

function analyse() {
  engine.postMessage("setoption name MultiPV value " + settings.multipv);
  go("analyse", "go infinite", shownSpec());
}

/** After any change to the game or the position shown: the rules, the page, the engine's work.
 * In a game, Chariot thinks on its turn (its search shows only if analysis is asked for);
 * otherwise, with analysis asked for, the engine analyses the position shown. */
function changed() {
  state.info = engine.rules(shownSpec());
  state.lines = [];
  const end = engine.rules(endSpec());
  if (state.live && end.result) finish(end.result, end.reason);
  render();
  if (state.live && end.turn === engineSide()) think();
  else if (state.analysing && !state.info.result) analyse();
  else stopSearches();
  if (state.info.result && !state.live) sayResult(state.info.result, state.info.reason);
}

function sayResult(result, reason) {
  const who = { "1-0": "redWins", "0-1": "blackWins", "1/2-1/2": "draw" }[result];
  say("gameOver", { who: t(who), reason: t.reason(reason) });
}

/** Ends the game under way: `result` for `reason`. */
function finish(result, reason) {
  state.live = false;
  state.result = result;
  state.reason = reason;
  if (state.clock) state.clock.stop(performance.now());
  stopSearches();
  sayResult(result, reason);
  render();
}

/** A move of the player's, or of Chariot's (`fromEngine`). */
function play(move, fromEngine = false) {
  if (!fromEngine && !canMove()) {
    say(state.live ? "waitChariot" : "gameIsOver");
    drawBoard();
    return false;
  }
  if (!state.info.legal.includes(move)) {
    say("illegalMove", { move });
    drawBoard();
    return false;
  }
  if (state.live && state.clock) {
    if (!state.clock.moved(performance.now())) {
      const side = engine.rules(endSpec()).turn;
      finish(side === "w" ? "0-1" : "1-0", "time");
      return false;
    }
  }
  state.game.play(move);
  sound();
  say(null);
  changed();
  return true;
}

function onLine(line) {
  const words = line.split(" ");
  if (words[0] === "bestmove" || words[0] === "nobestmove") {
    const search = state.searches.shift();
    const current = search && !search.stopped && search.spec === endSpec();
    if (current && search.kind === "play" && state.live && words[0] === "bestmove") {
      state.game.go(state.game.line().length);
      state.info = engine.rules(endSpec());
      if (state.info.legal.includes(words[1])) play(words[1], true);
    }
    return;
  }
  if (words[0] === "info" && words[1] === "depth") {
    const search = state.searches[0];
    if (!search || search.stopped || search.kind === "bench" || search.spec !== shownSpec()) return;
    const at = (w) => words.indexOf(w);
    const p = at("pv"), s = at("score");
    if (p < 0 || s < 0) return;
    const mpv = at("multipv") >= 0 ? Number(words[at("multipv") + 1]) : 1;
    const entry = { depth: words[2], pv: words.slice(p + 1) };
    const v = Number(words[s + 2]);
    if (words[s + 1] === "mate") entry.mate = v;
    else entry.cp = v;
    const w = at("wdl");
    if (w >= 0) entry.wdl = words.slice(w + 1, w + 4).map(Number);
    state.lines[mpv - 1] = entry;
    if (state.analysing) {
      renderAnalysis();
      drawBoard();
    }
    return;
  }
  if (/^\d+ nodes \d+ nps$/.test(line)) {
    state.searches.shift();
    say("benchDone", { nodes: words[0], nps: Number(words[2]).toLocaleString("en") });
  }
}

function sound() {
  if (!settings.sound) return;
  try {
    const ctx = sound.ctx || (sound.ctx = new AudioContext());
    const o = ctx.createOscillator(), g = ctx.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.2, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.12);
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.12);
  } catch {
    // No audio: moves stay silent.
  }
}

// --- controls -------------------------------------------------------------------------------------
function control() {
  const text = settings.tc === "custom" ? $("tc-custom").value : settings.tc;
  return parseControl(text);
}

/** A new game against Chariot from `start` (null: the start position). */
function newGame(start = null) {
  const tc = control();
  if (!tc) {
    say("badControl", { text: $("tc-custom").value });
    return;
  }
  stopSearches();
  state.human = settings.color;
  state.flipped = state.human === "b";
  state.game = new Game(start);
  state.live = state.human !== "both";
  state.result = state.reason = null;
  state.review = null;
  $("review-state").textContent = "";
  state.clock = new Clock(tc);
  engine.postMessage("ucinewgame");
  say(null);
  const turn = turnAtEnd();
  if (state.live) state.clock.start(turn, performance.now());
  changed();
}

function takeBack() {
  const all = state.game.allMoves();
  if (!all.length) return;
  stopSearches();
  let n = 1;
  if (state.live && all.length > 1 && engine.rules(spec(all.slice(0, -1))).turn !== state.human) n = 2;
  state.game.truncate(all.length - n);
  state.game.go(all.length - n);
  if (state.live && state.clock) state.clock.start(turnAtEnd(), performance.now());
  say(null);
  changed();
}

function show(ply) {
  state.game.go(ply);
  changed();
}

/** Loads a record (text or bytes): its first game replaces the one on the board. */
function load(data) {
  const answer = engine.readRecord(data);
  if (!answer.ok) {
    say("badRecord", { error: answer.error });
    return;
  }
  stopSearches();
  state.game = new Game(answer.start, answer.moves);
  state.live = false;
  state.human = "both";
  state.result = answer.result && answer.result !== "*" ? answer.result : null;
  state.reason = null;
  state.review = null;
  $("review-state").textContent = "";
  state.clock = null;
  say("loaded", { n: answer.moves.length });
  changed();
}

async function review() {
  if (state.reviewing) return;
  const moves = state.game.allMoves();
  if (!moves.length) {
    say("nothingToReview");
    return;
  }
  state.reviewing = true;
  $("review-state").textContent = t("reviewing");
  const record = engine.writePgn({ spec: endSpec(), notation: "iccs", tags: {} });
  const line = state.game.line();
  try {
    const answer = await engine.review(record.pgn, { nodes: Number($("review-nodes").value), notation: settings.notation });
    if (!answer.ok) throw new Error(answer.error);
    answer.moves.forEach((m, i) => { if (line[i]) line[i].review = m; });
    state.review = { accuracy: answer.accuracy, counts: answer.counts };
    $("review-state").textContent = t("reviewed");
  } catch (e) {
    $("review-state").textContent = t("reviewFailed", { error: String(e.message || e) });
  }
  state.reviewing = false;
  render();
}

function download() {
  const text = pgn(settings.notation);
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn;charset=utf-8" }));
  a.download = "chariot-" + today().replaceAll(".", "") + ".pgn";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

async function copyFen() {
  const fen = state.info.fen;
  try {
    await navigator.clipboard.writeText(fen);
  } catch {
    $("fen").value = fen;
    $("fen").select();
    document.execCommand("copy");
  }
  say("fenCopied");
}

function setFen() {
  const fen = $("fen").value.trim();
  if (!fen) {
    say("emptyFen");
    return;
  }
  const info = engine.rules("fen " + fen);
  if (!info.ok) {
    say("badFen", { error: info.error });
    $("fen").value = state.info.fen;
    return;
  }
  newGame(info.fen);
}

function typedMove() {
  const text = $("move-in").value.trim();
  if (!text) return;
  if (!canMove()) {
    say(state.live ? "waitChariot" : "gameIsOver");
    return;
  }
  const answer = engine.readMove(shownSpec(), text);
  if (!answer.ok) {
    say("badMove", { text, error: answer.error });
    return;
  }
  if (play(answer.move)) $("move-in").value = "";
}

function toggleAnalysis() {
  state.analysing = !state.analysing;
  changed();
}

function tick() {
  if (!state.clock || !state.clock.timed) return;
  renderClocks();
  const side = state.live && state.clock.flagged(performance.now());
  if (side) finish(side === "w" ? "0-1" : "1-0", "time");
}

function keys(e) {
  if (/^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)) return;
  const ply = state.game.ply, end = state.game.line().length;
  const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: end }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  show(to);
}

function bindSetting(id, key, after) {
  $(id).value = settings[key];
  $(id).onchange = () => {
    settings[key] = $(id).value;
    keep();
    if (after) after();
  };
}

function bind() {
  for (let i = 0; i <= 20; i++) $("level").add(new Option(i === 20 ? "20 ★" : String(i), String(i)));
  bindSetting("lang", "lang", () => { applyLanguage(settings.lang); render(); });
  bindSetting("notation", "notation", render);
  bindSetting("pieces", "pieces", drawBoard);
  bindSetting("view", "view", render);
  bindSetting("multipv", "multipv", () => { if (state.analysing && !state.live) analyse(); });
  bindSetting("color", "color", () => newGame());
  bindSetting("level", "level", () => engine.postMessage("setoption name Skill Level value " + settings.level));
  bindSetting("tc", "tc", () => { $("tc-custom").hidden = settings.tc !== "custom"; });
  $("tc-custom").hidden = settings.tc !== "custom";
  $("sound").checked = settings.sound;
  $("sound").onchange = () => { settings.sound = $("sound").checked; keep(); };
  $("new").onclick = () => newGame();
  $("takeback").onclick = takeBack;
  $("resign").onclick = () => { if (state.live) finish(state.human === "w" ? "0-1" : "1-0", "resignation"); };
  $("flip").onclick = () => { state.flipped = !state.flipped; drawBoard(); renderClocks(); };
  $("analyse").onclick = toggleAnalysis;
  $("bench").onclick = () => {
    if (state.live) { say("benchInGame"); return; }
    say("benchRunning");
    go("bench", "bench", null);
  };
  $("play").onclick = typedMove;
  $("move-in").onkeydown = (e) => { if (e.key === "Enter") typedMove(); };
  $("set-fen").onclick = setFen;
  $("copy-fen").onclick = copyFen;
  $("load").onclick = () => load($("record").value);
  $("record-file").onchange = async () => {
    const file = $("record-file").files[0];
    if (file) load(new Uint8Array(await file.arrayBuffer()));
    $("record-file").value = "";
  };
  $("download").onclick = download;
  $("review").onclick = review;
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(state.game.ply - 1);
  $("next").onclick = () => show(state.game.ply + 1);
  $("last").onclick = () => show(state.game.line().length);
  document.addEventListener("keydown", keys);
  setInterval(tick, 100);
}

async function main() {
  applyLanguage(settings.lang);
  board = new Board($("board"), { onMove: (m) => play(m) });
  try {
    engine = await createChariot();
    await engine.ready;
  } catch (e) {
    $("engine-state").textContent = t("engineFailed");
    $("message").textContent = String(e.message || e);
    throw e;
  }
  window.chariot = engine;
  window.chariotPage = { state, settings, show, load };
  $("engine-state").textContent = t("engineReady", { ms: engine.loadMs }) + (engine.isolated ? "" : " " + t("notIsolated"));
  $("engine-state").dataset.ms = engine.loadMs;
  engine.addMessageListener(onLine);
  engine.postMessage("uci");
  engine.postMessage("setoption name UCI_ShowWDL value true");
  engine.postMessage("setoption name Skill Level value " + settings.level);
  bind();
  newGame();
  registerOffline();
  return engine.loadMs;
}

// Resolves to the engine's load time in ms, or rejects if it did not start.
window.chariotReady = main();
