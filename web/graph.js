// The review's score graph and the analysis eval bar: scores as expected results, so that a
// pawn matters more in a level game than in a won one.

/** A score as the expected result for the side it is from, in [-1, 1]: centipawns through a
 * logistic curve (400 cp ≈ 0.76), a mate as ±1. `score` is {cp} or {mate}. */
export function expectation(score) {
  if (score.mate !== undefined) return score.mate > 0 ? 1 : -1;
  return 2 / (1 + Math.exp(-score.cp / 200)) - 1;
}

/** Draws the graph of `points` (one expectation a ply, index 0 = after the first move, null
 * where unknown) into `svg` (viewBox 0 0 400 100), with the judged moves of `marks` ({ply,
 * kind}) as dots and `current` (a ply) as a line. `pick(ply)` is called on a click. */
export function drawGraph(svg, points, marks, current, pick) {
  const ns = "http://www.w3.org/2000/svg";
  const el = (tag, attrs) => {
    const e = document.createElementNS(ns, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    svg.appendChild(e);
    return e;
  };
  svg.textContent = "";
  const n = points.length;
  if (!n) return;
  const x = (ply) => (n === 1 ? 200 : ((ply - 1) / (n - 1)) * 400);
  const y = (v) => 50 - 48 * v;
  el("rect", { x: 0, y: 0, width: 400, height: 50, class: "graph-red" });
  el("rect", { x: 0, y: 50, width: 400, height: 50, class: "graph-black" });
  const known = points.map((v, i) => (v === null ? null : `${x(i + 1).toFixed(1)},${y(v).toFixed(1)}`));
  el("polyline", { points: known.filter(Boolean).join(" "), class: "graph-line" });
  for (const m of marks) {
    const v = points[m.ply - 1];
    if (v !== null && v !== undefined) el("circle", { cx: x(m.ply), cy: y(v), r: 3, class: "graph-" + m.kind });
  }
  if (current > 0) el("line", { x1: x(current), y1: 0, x2: x(current), y2: 100, class: "graph-now" });
  svg.onclick = (e) => {
    const box = svg.getBoundingClientRect();
    const ply = Math.round(((e.clientX - box.left) / box.width) * (n - 1)) + 1;
    pick(Math.max(1, Math.min(n, ply)));
  };
}
