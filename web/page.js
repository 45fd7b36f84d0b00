// The page: a board drawn in SVG, played against the engine of the package (chariot.js).
import { createChariot } from "./chariot.js";

const FILES = "abcdefghi";
const GLYPH = { K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
                k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒" };
const CELL = 50, MARGIN = 50;
const $ = (id) => document.getElementById(id);
// The engine, once loaded (also window.chariot, for the browser test and the console).
let engine = null;

const state = {
  start: null,   // start FEN, null for the start position
  moves: [],     // ICCS moves played
  info: null,    // the rules' answer for the current position
  human: "w",    // "w", "b" or "both"
  flipped: false,
  selected: null,
  version: 0,    // bumped by every change of the game: a search of an older one is ignored
  searches: [],  // searches sent, oldest first: {kind: "play" | "analyse" | "bench", version}
  analysing: false,
};

function spec(moves = state.moves, start = state.start) {
  const head = start ? "fen " + start : "startpos";
  return moves.length ? head + " moves " + moves.join(" ") : head;
}

function say(text) { $("message").textContent = text; }

// --- drawing ---------------------------------------------------------------------------------
function xy(file, rank) {
  const f = state.flipped ? 8 - file : file, r = state.flipped ? rank : 9 - rank;
  return [MARGIN + f * CELL, MARGIN + r * CELL];
}
function svg(tag, attrs, parent) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
function squares(fen) {
  const out = {};
  fen.split(" ")[0].split("/").forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else { out[FILES[file] + (9 - i)] = ch; file++; }
    }
  });
  return out;
}
function draw() {
  const board = $("board");
  board.textContent = "";
  svg("rect", { x: 0, y: 0, width: 500, height: 550, fill: "#e8c98c" }, board);
  const g = svg("g", { class: "grid" }, board);
  for (let r = 0; r < 10; r++) svg("line", { x1: 50, y1: 50 + r * 50, x2: 450, y2: 50 + r * 50 }, g);
  for (let f = 0; f < 9; f++) {
    if (f === 0 || f === 8) svg("line", { x1: 50 + f * 50, y1: 50, x2: 50 + f * 50, y2: 500 }, g);
    else {
      svg("line", { x1: 50 + f * 50, y1: 50, x2: 50 + f * 50, y2: 250 }, g);
      svg("line", { x1: 50 + f * 50, y1: 300, x2: 50 + f * 50, y2: 500 }, g);
    }
  }
  svg("path", { d: "M200 50 L300 150 M300 50 L200 150 M200 400 L300 500 M300 400 L200 500" }, g);
  const t1 = svg("text", { x: 120, y: 283, class: "river" }, board); t1.textContent = "楚 河";
  const t2 = svg("text", { x: 320, y: 283, class: "river" }, board); t2.textContent = "漢 界";
  const pieces = squares(state.info.fen);
  const last = state.moves[state.moves.length - 1];
  if (last) for (const sq of [last.slice(0, 2), last.slice(2, 4)]) {
    const [x, y] = xy(FILES.indexOf(sq[0]), Number(sq[1]));
    svg("rect", { x: x - 24, y: y - 24, width: 48, height: 48, class: "last" }, board);
  }
  for (const sq in pieces) {
    const ch = pieces[sq];
    const [x, y] = xy(FILES.indexOf(sq[0]), Number(sq[1]));
    const cls = "piece " + (ch === ch.toUpperCase() ? "red" : "black") + (state.selected === sq ? " selected" : "");
    const p = svg("g", { class: cls }, board);
    svg("circle", { cx: x, cy: y, r: 22 }, p);
    svg("text", { x, y }, p).textContent = GLYPH[ch];
  }
  if (state.selected) for (const m of state.info.legal) if (m.startsWith(state.selected)) {
    const [x, y] = xy(FILES.indexOf(m[2]), Number(m[3]));
    svg("circle", { cx: x, cy: y, r: 8, class: "target" }, board);
  }
  for (let f = 0; f < 9; f++) for (let r = 0; r < 10; r++) {
    const [x, y] = xy(f, r);
    const hit = svg("rect", { x: x - 25, y: y - 25, width: 50, height: 50, class: "hit", "data-sq": FILES[f] + r }, board);
    hit.addEventListener("click", () => clicked(FILES[f] + r));
  }
}

function render() {
  draw();
  $("fen").value = state.info.fen;
  const list = $("moves");
  list.textContent = "";
  for (let i = 0; i < state.moves.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = state.moves[i] + (state.moves[i + 1] ? " " + state.moves[i + 1] : "");
    list.appendChild(li);
  }
  list.dataset.moves = state.moves.join(" ");
  list.scrollTop = list.scrollHeight;
  $("pgn").value = pgn();
  $("analyse").textContent = state.analysing ? "Stop" : "Analyse";
}

function pgn() {
  const result = state.info.result || "*";
  const redName = state.human === "w" ? "You" : state.human === "b" ? "Chariot" : "?";
  const blackName = state.human === "b" ? "You" : state.human === "w" ? "Chariot" : "?";
  const d = new Date();
  const date = d.getFullYear() + "." + String(d.getMonth() + 1).padStart(2, "0") + "." + String(d.getDate()).padStart(2, "0");
  const tags = [["Event", "Chariot in the browser"], ["Site", "?"], ["Date", date], ["Round", "-"],
                ["White", redName], ["Black", blackName], ["Result", result]];
  if (state.start) tags.push(["FEN", state.start], ["SetUp", "1"]);
  if (state.info.result) tags.push(["Termination", state.info.reason]);
  let text = tags.map(([k, v]) => `[${k} "${v}"]`).join("\n") + "\n\n";
  const blackFirst = state.start && state.start.split(" ")[1] === "b";
  const moves = [];
  let n = state.start ? Number(state.start.split(" ")[5]) || 1 : 1;
  state.moves.forEach((m, i) => {
    const red = blackFirst ? i % 2 === 1 : i % 2 === 0;
    if (red) moves.push(n + ". " + m);
    else { moves.push((i === 0 ? n + "... " : "") + m); n++; }
  });
  return text + moves.join(" ") + (moves.length ? " " : "") + result + "\n";
}

// --- the game --------------------------------------------------------------------------------
function setGame(start, moves) {
  const info = engine.rules(spec(moves, start));
  if (!info.ok) return info.error;
  state.start = start; state.moves = moves; state.info = info;
  state.selected = null; state.version++;
  return null;
}

function engineToMove() {
  return !state.info.result && state.human !== "both" && state.info.turn !== state.human;
}

function afterChange() {
  render();
  if (state.info.result) {
    const who = { "1-0": "Red wins", "0-1": "Black wins", "1/2-1/2": "Draw" }[state.info.result];
    say(`Game over: ${who} (${state.info.reason}).`);
    stopSearches();
    return;
  }
  if (state.analysing) { analyse(); return; }
  if (engineToMove()) think();
}

function stopSearches() {
  if (state.searches.length) engine.postMessage("stop");
}

function go(kind, command) {
  stopSearches();
  if (kind !== "bench") engine.postMessage("position " + spec());
  state.searches.push({ kind, version: state.version });
  engine.postMessage(command);
}

function think() {
  say("Chariot is thinking…");
  go("play", "go movetime 1000");
}

function analyse() {
  say("Analysing…");
  go("analyse", "go infinite");
}

function play(move) {
  if (!state.info.legal.includes(move)) { say(`Illegal move ${move}: not a legal move in this position.`); return false; }
  const err = setGame(state.start, state.moves.concat([move]));
  if (err) { say("Illegal move " + move + ": " + err); return false; }
  say("");
  afterChange();
  return true;
}

function clicked(sq) {
  if (state.info.result) return;
  if (!state.analysing && engineToMove()) { say("Wait: it is Chariot's move."); return; }
  const pieces = squares(state.info.fen);
  const mine = (p) => p && (state.info.turn === "w" ? p === p.toUpperCase() : p === p.toLowerCase());
  if (state.selected) {
    const move = state.selected + sq;
    if (state.info.legal.includes(move)) { play(move); return; }
  }
  state.selected = mine(pieces[sq]) ? sq : null;
  draw();
}

// --- the engine's lines ----------------------------------------------------------------------
function onLine(line) {
  const words = line.split(" ");
  if (words[0] === "bestmove" || words[0] === "nobestmove") {
    const search = state.searches.shift();
    if (search && search.kind === "play" && search.version === state.version && words[0] === "bestmove"
        && state.info.legal.includes(words[1])) {
      say("");
      play(words[1]);
    }
    return;
  }
  if (words[0] === "info" && words[1] === "depth") {
    const search = state.searches[0];
    if (!search || search.kind === "bench" || search.version !== state.version) return;
    const at = (w) => words.indexOf(w);
    $("a-depth").textContent = words[2];
    const s = at("score");
    if (s >= 0) {
      const v = Number(words[s + 2]);
      const white = state.info.turn === "w" ? v : -v; // scores from Red's side
      $("a-score").textContent = words[s + 1] === "mate" ? "mate " + white : (white / 100).toFixed(2);
    }
    const w = at("wdl");
    if (w >= 0) $("a-wdl").textContent = words.slice(w + 1, w + 4).map((x) => (x / 10).toFixed(1) + "%").join(" / ");
    const p = at("pv");
    if (p >= 0) $("a-pv").textContent = words.slice(p + 1).join(" ");
    return;
  }
  if (/^\d+ nodes \d+ nps$/.test(line)) {
    state.searches.shift();
    say(`Bench: ${words[0]} nodes, ${Number(words[2]).toLocaleString("en")} nodes/s.`);
  }
}

// --- controls --------------------------------------------------------------------------------
function newGame() {
  state.analysing = false;
  state.human = $("color").value;
  state.flipped = state.human === "b";
  setGame(null, []);
  engine.postMessage("ucinewgame");
  say("");
  afterChange();
}

function takeBack() {
  if (!state.moves.length) return;
  let n = 1;
  if (state.human !== "both" && !state.analysing) {
    // Back to the last position where you were to move.
    const moves = state.moves.slice(0, -1);
    const info = engine.rules(spec(moves));
    if (info.turn !== state.human && moves.length) n = 2;
  }
  stopSearches();
  setGame(state.start, state.moves.slice(0, state.moves.length - n));
  say("");
  if (state.analysing) analyse();
  render();
}

async function main() {
  for (let i = 0; i <= 20; i++) $("level").add(new Option(i === 20 ? "20 (full strength)" : String(i), String(i)));
  $("level").value = "20";
  try {
    engine = await createChariot();
    await engine.ready;
  } catch (e) {
    $("engine-state").textContent = "the engine did not start";
    say(String(e.message || e));
    throw e;
  }
  window.chariot = engine;
  $("engine-state").textContent = `engine ready in ${engine.loadMs} ms` + (engine.isolated ? "" : " (not isolated)");
  engine.addMessageListener(onLine);
  engine.postMessage("uci");
  engine.postMessage("setoption name UCI_ShowWDL value true");
  $("new").onclick = newGame;
  $("takeback").onclick = takeBack;
  $("flip").onclick = () => { state.flipped = !state.flipped; draw(); };
  $("level").onchange = () => engine.postMessage("setoption name Skill Level value " + $("level").value);
  $("analyse").onclick = () => {
    state.analysing = !state.analysing;
    if (state.analysing) analyse();
    else { stopSearches(); say(""); if (engineToMove()) think(); }
    render();
  };
  $("bench").onclick = () => { say("Bench running…"); go("bench", "bench"); };
  $("play").onclick = () => {
    const text = $("move-in").value.trim();
    if (!/^[a-i][0-9][a-i][0-9]$/.test(text)) { say(`Not a move: "${text}" (moves look like h2e2).`); return; }
    if (!state.analysing && engineToMove()) { say("Wait: it is Chariot's move."); return; }
    if (play(text)) $("move-in").value = "";
  };
  $("move-in").onkeydown = (e) => { if (e.key === "Enter") $("play").click(); };
  $("set-fen").onclick = () => {
    const fen = $("fen").value.trim();
    const err = setGame(fen, []);
    if (err) { say("Bad FEN: " + err); $("fen").value = state.info.fen; return; }
    state.start = state.info.fen;
    say("");
    afterChange();
  };
  $("color").onchange = newGame;
  newGame();
  return engine.loadMs;
}

// Resolves to the engine's load time in ms, or rejects if it did not start.
window.chariotReady = main();
