// The board: a Xiangqi position drawn in an SVG element, moves made by click-click or by drag
// and drop (mouse, pen and touch alike, through pointer events). It knows no rules: the page
// says which moves are legal, the board reports the one the player makes.
//
//   const board = new Board(svg, { onMove: (iccs) => ... });
//   board.update({ fen, legal, flipped, pieces, coords, last, check, arrows });
//
// Squares are ICCS: files a-i from Red's left, ranks 0-9 from Red's side. The SVG is drawn in
// layers (grid, coordinates, last move, check, pieces, legal targets, arrows, the piece being
// dragged, the squares that take the pointer); `update` redraws only the layers whose inputs
// changed, so that the page may call it for every line the engine writes.

const NS = "http://www.w3.org/2000/svg";
const FILES = "abcdefghi";
const CELL = 50;
const MARGIN = 50;
const RADIUS = 22;

// Faces, by FEN letter: the characters of printed sets, or WXF's letters for players who do not
// read them (the colour tells the sides apart).
const FACES = {
  chinese: { K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
             k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒" },
  western: { K: "K", A: "A", B: "E", N: "H", R: "R", C: "C", P: "P",
             k: "K", a: "A", b: "E", n: "H", r: "R", c: "C", p: "P" },
};

// File numbers along each side's edge, by FEN file a..i: each side counts from its own right.
const RED_FILES = { chinese: "九八七六五四三二一", wxf: "987654321" };
const BLACK_FILES = "123456789";

// Arrows by rank (0: the best move, 1 and 2: MultiPV's next lines): shaft width, head length,
// head width. Colours are in board.css.
const ARROW = [[10, 24, 28], [7, 20, 22], [5, 16, 17]];

const DEFAULTS = { fen: "", legal: [], flipped: false, pieces: "chinese", coords: "chinese",
                   last: null, check: null, arrows: [] };

let boards = 0; // ids in <defs> must be unique in the document

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function isSquare(sq) {
  return typeof sq === "string" && /^[a-i][0-9]$/.test(sq);
}

function isMove(m) {
  return typeof m === "string" && /^[a-i][0-9][a-i][0-9]$/.test(m);
}

// The pieces of a FEN's board field, by square. Anything that is not a piece or a count is
// skipped: a bad FEN draws what can be read of it, it never throws.
function placement(fen) {
  const out = new Map();
  const rows = String(fen).trim().split(/\s+/)[0].split("/");
  rows.slice(0, 10).forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/[1-9]/.test(ch)) file += Number(ch);
      else if (/[KABNRCPkabnrcp]/.test(ch)) {
        if (file < 9) out.set(FILES[file] + (9 - i), ch);
        file++;
      }
    }
  });
  return out;
}

export class Board {
  #svg;
  #onMove;
  #state = { ...DEFAULTS };
  #keys = {};           // per layer, the inputs it was last drawn from
  #layers = {};
  #legal = new Set();
  #from = new Set();    // squares with a legal move
  #pieceAt = new Map(); // square -> g.piece
  #selected = null;
  #press = null;        // the pointer held on a piece: { id, sq, g, wasSelected, x, y, dragging }
  #id;

  constructor(svg, { onMove = () => {} } = {}) {
    this.#svg = svg;
    this.#onMove = onMove;
    this.#id = `chariot-board-${++boards}`;
    svg.classList.add("chariot-board");
    svg.style.touchAction = "none"; // a drag moves the piece, not the page, whatever the page's CSS
    if (!svg.getAttribute("viewBox")) svg.setAttribute("viewBox", "0 0 500 550");
    svg.textContent = "";
    this.#drawStatic();
    for (const name of ["coords", "last", "check", "pieces", "targets", "arrows", "drag", "hits"]) {
      this.#layers[name] = el("g", { class: `layer-${name}` }, svg);
    }
    svg.addEventListener("pointerdown", (e) => this.#down(e));
    svg.addEventListener("pointermove", (e) => this.#moveTo(e));
    svg.addEventListener("pointerup", (e) => this.#up(e));
    svg.addEventListener("pointercancel", (e) => this.#cancel(e));
  }

  // Shows a position; fields left out keep their last value.
  update(options = {}) {
    const s = Object.assign(this.#state, options);
    const flip = s.flipped ? "f" : "";
    const legalKey = Array.isArray(s.legal) ? s.legal.join(" ") : "";
    const boardKey = `${String(s.fen).split(/\s/)[0]}|${s.pieces}|${flip}`;
    if (this.#changed("legal", `${legalKey}|${boardKey}`)) this.#setLegal(s.legal);
    if (this.#changed("pieces", boardKey)) this.#drawPieces();
    if (this.#changed("coords", `${s.coords}|${flip}`)) this.#drawCoords();
    if (this.#changed("last", `${s.last}|${flip}`)) this.#drawLast();
    if (this.#changed("check", `${s.check}|${flip}`)) this.#drawCheck();
    const arrows = Array.isArray(s.arrows) ? s.arrows : [];
    if (this.#changed("arrows", JSON.stringify(arrows.map((a) => [a && a.move, a && a.rank])) + flip)) {
      this.#drawArrows(arrows);
    }
    if (this.#changed("hits", flip)) this.#drawHits();
    this.#svg.classList.toggle("interactive", this.#legal.size > 0);
  }

  #changed(layer, key) {
    if (this.#keys[layer] === key) return false;
    this.#keys[layer] = key;
    return true;
  }

  // --- geometry ------------------------------------------------------------------------------
  #xy(sq) {
    const file = FILES.indexOf(sq[0]), rank = Number(sq[1]);
    const f = this.#state.flipped ? 8 - file : file, r = this.#state.flipped ? rank : 9 - rank;
    return [MARGIN + f * CELL, MARGIN + r * CELL];
  }

  // The point of a pointer event in the SVG's units.
  #point(e) {
    const m = this.#svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  // The square under a point, or null off the board.
  #square(p) {
    if (!p) return null;
    const f = Math.round((p[0] - MARGIN) / CELL), r = Math.round((p[1] - MARGIN) / CELL);
    if (f < 0 || f > 8 || r < 0 || r > 9) return null;
    const file = this.#state.flipped ? 8 - f : f, rank = this.#state.flipped ? r : 9 - r;
    return FILES[file] + rank;
  }

  // --- layers --------------------------------------------------------------------------------
  #drawStatic() {
    const svg = this.#svg;
    const defs = el("defs", {}, svg);
    const glow = el("radialGradient", { id: `${this.#id}-check` }, defs);
    el("stop", { offset: "60%", "stop-color": "#ff1a1a", "stop-opacity": "0.95" }, glow);
    el("stop", { offset: "100%", "stop-color": "#ff2020", "stop-opacity": "0" }, glow);
    el("rect", { x: 0, y: 0, width: 500, height: 550, class: "wood" }, svg);
    const g = el("g", { class: "grid" }, svg);
    el("rect", { x: 44, y: 44, width: 412, height: 462, class: "frame" }, g);
    for (let r = 0; r < 10; r++) el("line", { x1: 50, y1: 50 + r * 50, x2: 450, y2: 50 + r * 50 }, g);
    for (let f = 0; f < 9; f++) {
      const x = 50 + f * 50;
      if (f === 0 || f === 8) el("line", { x1: x, y1: 50, x2: x, y2: 500 }, g);
      else {
        el("line", { x1: x, y1: 50, x2: x, y2: 250 }, g);
        el("line", { x1: x, y1: 300, x2: x, y2: 500 }, g);
      }
    }
    el("path", { d: "M200 50 L300 150 M300 50 L200 150 M200 400 L300 500 M300 400 L200 500" }, g);
    el("path", { d: this.#marks(), class: "marks" }, g);
    el("text", { x: 150, y: 275, class: "river" }, svg).textContent = "楚 河";
    el("text", { x: 350, y: 275, class: "river" }, svg).textContent = "漢 界";
  }

  // The small corners printed where cannons and pawns start (the same from either side).
  #marks() {
    const spots = [[1, 2], [7, 2], [1, 7], [7, 7]];
    for (const f of [0, 2, 4, 6, 8]) spots.push([f, 3], [f, 6]);
    let d = "";
    for (const [f, r] of spots) {
      const x = 50 + f * 50, y = 50 + r * 50;
      for (const sx of [-1, 1]) {
        if ((f === 0 && sx < 0) || (f === 8 && sx > 0)) continue;
        for (const sy of [-1, 1]) {
          d += `M${x + sx * 14} ${y + sy * 5} H${x + sx * 5} V${y + sy * 14} `;
        }
      }
    }
    return d.trim();
  }

  #drawCoords() {
    const layer = this.#layers.coords;
    layer.textContent = "";
    const { coords, flipped } = this.#state;
    const label = (x, y, text) => { el("text", { x, y, class: "coord" }, layer).textContent = text; };
    const bottom = 537, top = 14;
    for (let i = 0; i < 9; i++) {
      const x = MARGIN + (flipped ? 8 - i : i) * CELL; // the x of file FILES[i]
      if (coords === "iccs") {
        label(x, bottom, FILES[i]);
      } else {
        const red = (RED_FILES[coords] || RED_FILES.wxf)[i];
        label(x, flipped ? top : bottom, red);
        label(x, flipped ? bottom : top, BLACK_FILES[i]);
      }
    }
    if (coords === "iccs") {
      for (let r = 0; r < 10; r++) label(18, MARGIN + (flipped ? r : 9 - r) * CELL, String(r));
    }
  }

  #drawLast() {
    const layer = this.#layers.last;
    layer.textContent = "";
    const m = this.#state.last;
    if (!isMove(m)) return;
    for (const sq of [m.slice(0, 2), m.slice(2, 4)]) {
      const [x, y] = this.#xy(sq);
      el("rect", { x: x - 25, y: y - 25, width: 50, height: 50, rx: 6, class: "last", "data-sq": sq }, layer);
    }
  }

  #drawCheck() {
    const layer = this.#layers.check;
    layer.textContent = "";
    const sq = this.#state.check;
    if (!isSquare(sq)) return;
    const [cx, cy] = this.#xy(sq);
    el("circle", { cx, cy, r: 36, class: "check", "data-sq": sq, fill: `url(#${this.#id}-check)` }, layer);
  }

  #drawPieces() {
    this.#cancelPress();
    const layer = this.#layers.pieces;
    layer.textContent = "";
    this.#layers.drag.textContent = "";
    this.#pieceAt.clear();
    const faces = FACES[this.#state.pieces] || FACES.chinese;
    for (const [sq, ch] of placement(this.#state.fen)) {
      const g = this.#piece(sq, ch, faces[ch]);
      layer.appendChild(g);
      this.#pieceAt.set(sq, g);
    }
    if (this.#selected) this.#select(this.#selected);
  }

  #piece(sq, ch, face) {
    const red = ch === ch.toUpperCase();
    const style = this.#state.pieces === "western" ? "western" : "chinese";
    const g = el("g", { class: `piece ${red ? "red" : "black"} ${style}`, "data-sq": sq, "data-piece": ch });
    this.#place(g, sq);
    el("circle", { r: RADIUS, class: "disc" }, g);
    el("circle", { r: RADIUS - 4, class: "ring" }, g);
    el("text", { x: 0, y: 0 }, g).textContent = face;
    return g;
  }

  #place(g, sq) {
    const [x, y] = this.#xy(sq);
    g.setAttribute("transform", `translate(${x} ${y})`);
  }

  #drawArrows(arrows) {
    const layer = this.#layers.arrows;
    layer.textContent = "";
    // The lesser lines first, so that the best move's arrow lies on top.
    const sorted = arrows.filter((a) => a && isMove(a.move) && a.move.slice(0, 2) !== a.move.slice(2))
      .map((a) => ({ move: a.move, rank: [0, 1, 2].includes(a.rank) ? a.rank : 2 }))
      .sort((a, b) => b.rank - a.rank);
    for (const { move, rank } of sorted) {
      const d = this.#arrowPath(this.#xy(move.slice(0, 2)), this.#xy(move.slice(2)), ARROW[rank]);
      el("path", { d, class: "arrow", "data-move": move, "data-rank": rank }, layer);
    }
  }

  // One outline for shaft and head, so that a translucent arrow has no darker overlap.
  #arrowPath([x1, y1], [x2, y2], [width, headLength, headWidth]) {
    const len = Math.hypot(x2 - x1, y2 - y1);
    const ux = (x2 - x1) / len, uy = (y2 - y1) / len, nx = -uy, ny = ux;
    const sx = x1 + ux * 12, sy = y1 + uy * 12; // from the piece's edge of centre
    const hx = x2 - ux * headLength, hy = y2 - uy * headLength;
    const pt = (x, y, n) => `${(x + nx * n).toFixed(1)} ${(y + ny * n).toFixed(1)}`;
    return `M${pt(sx, sy, width / 2)} L${pt(hx, hy, width / 2)} L${pt(hx, hy, headWidth / 2)} ` +
      `L${x2.toFixed(1)} ${y2.toFixed(1)} L${pt(hx, hy, -headWidth / 2)} L${pt(hx, hy, -width / 2)} ` +
      `L${pt(sx, sy, -width / 2)} Z`;
  }

  #drawHits() {
    const layer = this.#layers.hits;
    layer.textContent = "";
    for (const f of FILES) {
      for (let r = 0; r < 10; r++) {
        const [x, y] = this.#xy(f + r);
        el("rect", { x: x - 25, y: y - 25, width: 50, height: 50, class: "hit", "data-sq": f + r }, layer);
      }
    }
  }

  // --- selection and moves -------------------------------------------------------------------
  #setLegal(legal) {
    const moves = Array.isArray(legal) ? legal.filter(isMove) : [];
    this.#legal = new Set(moves);
    this.#from = new Set(moves.map((m) => m.slice(0, 2)));
    this.#cancelPress();
    this.#select(null);
  }

  #select(sq) {
    if (this.#selected) this.#pieceAt.get(this.#selected)?.classList.remove("selected");
    this.#selected = sq && this.#from.has(sq) ? sq : null;
    const layer = this.#layers.targets;
    layer.textContent = "";
    if (!this.#selected) return;
    this.#pieceAt.get(this.#selected)?.classList.add("selected");
    for (const m of this.#legal) {
      if (!m.startsWith(this.#selected)) continue;
      const to = m.slice(2);
      const [cx, cy] = this.#xy(to);
      const capture = this.#pieceAt.has(to);
      el("circle", { cx, cy, r: capture ? RADIUS + 2 : 8, class: capture ? "target capture" : "target",
                     "data-sq": to }, layer);
    }
  }

  // The player's move: shown at once, then reported. The board then takes no more moves until
  // the page's next `update` says which are legal (it may accept the move or put it back).
  #play(move) {
    const from = move.slice(0, 2), to = move.slice(2);
    const g = this.#pieceAt.get(from);
    this.#pieceAt.get(to)?.remove();
    if (g) {
      this.#layers.pieces.appendChild(g);
      g.classList.remove("dragging");
      this.#place(g, to);
      g.setAttribute("data-sq", to);
      this.#pieceAt.delete(from);
      this.#pieceAt.set(to, g);
    }
    this.#select(null);
    this.#legal = new Set();
    this.#from = new Set();
    this.#keys.legal = null;  // the next update sets the legal moves again, even the same ones
    this.#keys.pieces = null; // and draws its position, even the one before the move
    this.#svg.classList.remove("interactive");
    this.#onMove(move);
  }

  // --- pointer events ------------------------------------------------------------------------
  #down(e) {
    if (this.#press || (e.pointerType === "mouse" && e.button !== 0) || this.#legal.size === 0) return;
    const p = this.#point(e);
    const sq = this.#square(p);
    if (sq && this.#from.has(sq)) {
      e.preventDefault();
      const wasSelected = this.#selected === sq;
      this.#select(sq);
      this.#press = { id: e.pointerId, sq, g: this.#pieceAt.get(sq), wasSelected, x: e.clientX, y: e.clientY,
                      dragging: false };
      try { this.#svg.setPointerCapture(e.pointerId); } catch { /* the pointer is already gone */ }
    } else if (sq && this.#selected && this.#legal.has(this.#selected + sq)) {
      e.preventDefault();
      this.#play(this.#selected + sq);
    } else {
      this.#select(null);
    }
  }

  #moveTo(e) {
    const press = this.#press;
    if (!press || e.pointerId !== press.id || !press.g) return;
    if (!press.dragging) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < 4) return;
      press.dragging = true;
      press.g.classList.add("dragging");
      this.#layers.drag.appendChild(press.g); // above the other pieces and the arrows
    }
    const p = this.#point(e);
    if (p) press.g.setAttribute("transform", `translate(${p[0].toFixed(1)} ${p[1].toFixed(1)})`);
  }

  #up(e) {
    const press = this.#press;
    if (!press || e.pointerId !== press.id) return;
    this.#press = null;
    const sq = this.#square(this.#point(e));
    if (press.dragging || sq !== press.sq) {
      // A drop: on a legal target it is the move, anywhere else the piece goes back.
      if (sq && this.#legal.has(press.sq + sq)) { this.#play(press.sq + sq); return; }
      this.#snapBack(press);
      if (sq !== press.sq) this.#select(null);
    } else if (press.wasSelected) {
      this.#select(null); // a click on the selected piece
    }
  }

  #cancel(e) {
    if (this.#press && e.pointerId === this.#press.id) this.#cancelPress();
  }

  #cancelPress() {
    const press = this.#press;
    this.#press = null;
    if (press) this.#snapBack(press);
  }

  #snapBack(press) {
    if (!press.g || !press.g.isConnected) return;
    press.g.classList.remove("dragging");
    this.#layers.pieces.appendChild(press.g);
    this.#place(press.g, press.sq);
  }
}
