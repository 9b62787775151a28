/* The board of Tavli in the browser, shared by tavli play's page (app.js) and the online
 * game page (online.js): geometry, drawing the board as SVG, the turn tree the server sends
 * (state.turn_tree: every step the rules allow next, with the board after it and the dice
 * left) and picking a move on it by clicking, tapping or dragging checkers, and the
 * animation of a checker sliding.
 *
 * The page knows no rule: it draws the boards the server gave and offers the steps of the
 * tree. The page keeps its state in S.state (with the fields of docs/web.md: position,
 * opposite, turn_tree, mover, ...) and gives setupBoard its panel and its way of sending a
 * whole move: render() draws the board, then the page's panel.
 * Exports S (the board's state), SIDES, the geometry (PW, TRAYW, BAR_X, ... and slotX,
 * isTop, trayRect, stackAt, toView, fromView), COLORS, boardHooks (drawn after each
 * board), the boards (simOf, simOfText, oppositeOf, pips), the turn tree (tree, node,
 * nodeSim, moverSide, options, canPlayHere, completeMove, clickSlot, undo), drawing and
 * moving (renderBoard, render, slide, setBusy, setBoardState) and setupBoard, confirmMove.
 */
import {$, MOTION, el, svgPoint} from "./util.js";

export const SIDES = ["white", "black"];

// --- geometry (SVG user units) ----------------------------------------------------------------
export const PW = 56;              // point width
const CR = 25;              // checker radius
const FRAME = 18;
const BAND = 26;            // frame band above and below with the point numbers
export const BARW = 56;
export const TRAYW = 64;
const HALF = 6 * PW;
const X0 = FRAME;
export const BAR_X = X0 + HALF;
const R0 = BAR_X + BARW;
const R_END = R0 + HALF;
export const TRAY_X = R_END + FRAME;
const W = TRAY_X + TRAYW + FRAME;
export const Y_TOP = BAND;
export const AREA_H = 560;
export const Y_BOT = Y_TOP + AREA_H;
const H = Y_BOT + BAND;
const STACK = 5;            // checkers drawn per point before a count is shown
export const MID_TOP = Y_TOP + STACK * 2 * CR;   // 276
export const MID_BOT = Y_BOT - STACK * 2 * CR;   // 336
const PH = 232;             // triangle height

export const COLORS = {
  frame: "#4a2c17", frameEdge: "#2e1a0c", felt: "#dcc39a", feltDark: "#cfb288",
  pointA: "#8c2318", pointB: "#2e5339", tray: "#3a2212", bar: "#55331b",
  num: "#efdfbf",
  checker: [{fill: "#fbf8f0", stroke: "#7a6a55", ring: "#d9d0bf", text: "#2a211b"},
            {fill: "#1f1f1f", stroke: "#000", ring: "#4a4a4a", text: "#f3f3f3"}],
  die: [{fill: "#fffdf7", stroke: "#8a7c66", pip: "#161616"},
        {fill: "#222", stroke: "#000", pip: "#f5f5f5"}],
};

// --- state --------------------------------------------------------------------------------
export const S = {
  state: null,        // the server's game state
  info: null,         // GET /api/info: the games, matches and levels
  viewer: 0,          // the side whose home is drawn at the bottom right
  sim: null,          // the board drawn (the state's, or a node's or frame's the server sent)
  done: [],           // steps played in this turn, not yet confirmed: [[from, to], ...]
  trail: [0],         // the nodes of the turn tree those steps went through (root first)
  groups: [],         // how many steps each click played (for undo)
  replay: null,       // the dice of a move being replayed: {all, left}
  selected: null,     // a source point (mover's numbering) or null
  busy: false,
  hints: null,
  cubeHint: null,     // the cube decision the server gave (GET .../cube-hint)
  review: null,
  reviewTurn: null,   // the review turn shown on the board
  animating: null,    // {x, y, side} of a checker sliding or dragged
  sliding: false,     // a checker of the player is sliding: clicks wait
  aiMove: null,       // the AI's last move in the player's numbering, until he moves
  token: 0,           // increases whenever another game is loaded
};

// functions called after each drawing of the board with (svg, options): a11y.js and
// keys.js add the keyboard cursor, the board's description and the pip counts
export const boardHooks = [];

export function setBusy(b) {
  S.busy = b;
  document.body.dataset.busy = b ? "1" : "0";
}

/** Show the state `st` (S.state) with `viewer`'s home at the bottom right: its board, no
 * step of the turn played yet. */
export function setBoardState(st, viewer) {
  S.state = st;
  S.viewer = viewer;
  S.sim = simOf(st.position, st.opposite);
  S.done = [];
  S.trail = [0];
  S.groups = [];
  S.replay = null;
  S.selected = null;
}

// --- the page around the board (setupBoard) ---------------------------------------------------
// its panel, drawn after the board, and how it sends the whole move the steps played make
const PAGE = {panel: () => {}, confirm: () => {}};

/** Set up the board of a page: `panel` draws the page's panel (after the board: render),
 * `confirm` sends the whole move the steps played make (the Confirm button, Enter and the
 * keyboard's cursor: keys.js); the board takes clicks, taps and drags. */
export function setupBoard({panel, confirm}) {
  PAGE.panel = panel;
  PAGE.confirm = confirm;
  setupPointer();
}

/** Draw the board, then the page's panel. */
export function render() {
  renderBoard();
  PAGE.panel();
}

/** Send the whole move the steps played make (the page's way: setupBoard). */
export function confirmMove() { return PAGE.confirm(); }

// --- boards ----------------------------------------------------------------------------------
/** A board to draw: per side its points (own numbering, [0] unused), bar, off and pinned
 * points; `opposite` (from the server) maps a point to the other side's number for it. */
function sideOf(pts, bar, off, pinned) {
  return {pts, bar, off, pinned: new Set(pinned)};
}

/** The board of a JSON position document. */
export function simOf(doc, opposite) {
  const side = (d) => sideOf([0, ...d.points], d.bar, d.off, d.pinned || []);
  return {opposite, s: [side(doc.white), side(doc.black)]};
}

/** The board of a node or frame: the board array as hex digits, 26 slots a row (white's,
 * black's, white's pins, black's pins; digits left out at the end are 0). */
export function simOfText(text, opposite) {
  const at = (i) => (i < text.length ? parseInt(text[i], 16) : 0);
  const side = (r) => {
    const row = Array.from({length: 26}, (_, c) => at(r * 26 + c));
    const pinned = [];
    for (let p = 1; p <= 24; p++) if (at((r + 2) * 26 + p)) pinned.push(p);
    return sideOf([0, ...row.slice(1, 25)], row[25], row[0], pinned);
  };
  return {opposite, s: [side(0), side(1)]};
}

/** The same board with one checker of `side` fewer on its slot p (lifted by the hand). */
function lifted(sim, side, p) {
  const s = sim.s.map((x) => sideOf(x.pts.slice(), x.bar, x.off, x.pinned));
  if (p === 25) s[side].bar -= 1; else s[side].pts[p] -= 1;
  return {opposite: sim.opposite, s};
}

/** The other side's numbering of a game (the state's, else /api/info's). */
export function oppositeOf(game) {
  if (S.state && S.state.game === game && S.state.opposite) return S.state.opposite;
  const g = S.info && S.info.games.find((x) => x.name === game);
  return g ? g.opposite : null;
}

export function pips(sim, side) {
  const me = sim.s[side];
  let n = me.bar * 25;
  for (let p = 1; p <= 24; p++) n += p * me.pts[p];
  return n;
}

// --- the turn tree (state.turn_tree, made by the engine) -----------------------------------
export function moverSide() { return S.state ? SIDES.indexOf(S.state.mover) : 0; }

export function tree() { return S.state && S.state.turn_tree; }

export function node(i) { return tree().nodes[i === undefined ? S.trail[S.trail.length - 1] : i]; }

export function nodeSim(i) { return simOfText(node(i).board, S.state.opposite); }

export function canPlayHere() {
  const st = S.state;
  return st && !S.busy && !S.sliding && !S.review && st.phase === "move" && !st.ai_to_act
    && !st.imported && st.can_act !== false && st.legal_moves.length > 0 && !!tree();
}

/** Map source -> Map(destination -> {path, node}) of what may be played now: each step
 * of the tree's node, and the same checker going on with the next steps (one
 * destination, reached over several steps). */
export function options() {
  const out = new Map();
  if (!canPlayHere()) return out;
  const add = (f, t, path, at) => {
    if (!out.has(f)) out.set(f, new Map());
    const m = out.get(f);
    if (!m.has(t) || m.get(t).path.length > path.length) m.set(t, {path, node: at});
  };
  const follow = (f, cur, path, at) => {
    for (const [a, b, i] of node(at).next) {
      if (a !== cur) continue;
      const p2 = path.concat([[a, b]]);
      add(f, b, p2, i);
      if (b !== 0) follow(f, b, p2, i);
    }
  };
  for (const [f, t, i] of node().next) {
    add(f, t, [[f, t]], i);
    if (t !== 0) follow(f, t, [[f, t]], i);
  }
  return out;
}

export function completeMove() {
  if (!tree() || S.done.length === 0) return null;
  const n = node();
  return n.move === undefined ? null : S.state.legal_moves[n.move];
}

/** The dice to draw: [{value, used}], from all the dice of a turn and those left. */
function diceShown(all, left) {
  const rest = left.slice();
  return all.map((d) => {
    const k = rest.indexOf(d);
    if (k >= 0) rest.splice(k, 1);
    return {value: d, used: k < 0};
  });
}

// --- viewer geometry ------------------------------------------------------------------------
/** Left x of the column of the viewer's point v (1..24). */
export function slotX(v) {
  if (v <= 6) return R0 + (6 - v) * PW;
  if (v <= 12) return X0 + (12 - v) * PW;
  if (v <= 18) return X0 + (v - 13) * PW;
  return R0 + (v - 19) * PW;
}
export function isTop(v) { return v >= 13; }

/** The viewer's point of side `side`'s point p. */
export function toView(side, p) {
  return side === S.viewer ? p : S.sim.opposite[p];
}
export function fromView(side, v) {
  return side === S.viewer ? v : S.sim.opposite[v];
}

function checkerXY(v, i) {
  const x = slotX(v) + PW / 2;
  const k = Math.min(i, STACK - 1);
  const y = isTop(v) ? Y_TOP + CR + k * 2 * CR : Y_BOT - CR - k * 2 * CR;
  return [x, y];
}

function barXY(side, i) {
  const x = BAR_X + BARW / 2;
  const k = Math.min(i, 3);
  // the viewer's checkers on the bar above the middle, the opponent's below
  return side === S.viewer ? [x, MID_TOP - CR - k * 2 * CR + 10] : [x, MID_BOT + CR + k * 2 * CR - 10];
}

export function trayRect(side) {
  return side === S.viewer ? {x: TRAY_X, y: MID_BOT, h: Y_BOT - MID_BOT}
    : {x: TRAY_X, y: Y_TOP, h: MID_TOP - Y_TOP};
}

/** Stack on the viewer's point v, from the edge inward: [{side, pinned}]. */
export function stackAt(sim, v) {
  const V = S.viewer, O = 1 - V;
  const q = sim.opposite[v];
  const nV = sim.s[V].pts[v], nO = sim.s[O].pts[q];
  const out = [];
  if (sim.s[V].pinned.has(v)) {
    out.push({side: V, pinned: true});
    for (let i = 0; i < nO; i++) out.push({side: O});
  } else if (sim.s[O].pinned.has(q)) {
    out.push({side: O, pinned: true});
    for (let i = 0; i < nV; i++) out.push({side: V});
  } else {
    for (let i = 0; i < nV; i++) out.push({side: V});
    for (let i = 0; i < nO; i++) out.push({side: O});
  }
  return out;
}

/** Where the top checker of a mover's slot is (for animations and rings). */
function topXY(sim, side, p) {
  if (p === 25) return barXY(side, Math.max(0, sim.s[side].bar - 1));
  if (p === 0) {
    const r = trayRect(side);
    return [r.x + TRAYW / 2, side === S.viewer ? r.y + r.h - 10 : r.y + 10];
  }
  const v = toView(side, p);
  return checkerXY(v, Math.max(0, stackAt(sim, v).length - 1));
}

// --- drawing --------------------------------------------------------------------------------
function drawChecker(parent, x, y, side, opts = {}) {
  const c = COLORS.checker[side];
  const g = el("g", {class: `checker ${SIDES[side]}`}, parent);
  el("circle", {cx: x, cy: y + 2, r: CR - 1, fill: "rgba(0,0,0,.25)"}, g);
  el("circle", {cx: x, cy: y, r: CR - 1, fill: c.fill, stroke: c.stroke, "stroke-width": 2}, g);
  el("circle", {cx: x, cy: y, r: CR - 8, fill: "none", stroke: c.ring, "stroke-width": 2}, g);
  if (opts.pinned) {
    el("circle", {cx: x, cy: y, r: CR + 1, fill: "none", stroke: "#e0531f",
                  "stroke-width": 4, class: "pin-ring"}, g);
    const t = el("text", {x, y: y + 6, "text-anchor": "middle", "font-size": 17,
                          "font-weight": 700, fill: "#e0531f"}, g);
    t.textContent = "✕";
  }
  if (opts.count) {
    const t = el("text", {x, y: y + 7, "text-anchor": "middle", "font-size": 20,
                          "font-weight": 700, fill: c.text}, g);
    t.textContent = String(opts.count);
  }
  return g;
}

function drawDie(parent, x, y, size, value, side, used) {
  const c = COLORS.die[side];
  const g = el("g", {class: "die", opacity: used ? 0.35 : 1, "data-value": value}, parent);
  el("rect", {x: x + 2, y: y + 3, width: size, height: size, rx: 8, fill: "rgba(0,0,0,.3)"}, g);
  el("rect", {x, y, width: size, height: size, rx: 8, fill: c.fill, stroke: c.stroke,
              "stroke-width": 2}, g);
  const q = size / 4;
  const spots = {1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
                 4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
                 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]]}[value] || [];
  for (const [i, j] of spots) {
    el("circle", {cx: x + i * q, cy: y + j * q, r: size / 11, fill: c.pip}, g);
  }
}

function drawFrame(svg) {
  const defs = el("defs", {}, svg);
  const grad = el("linearGradient", {id: "wood", x1: 0, y1: 0, x2: 1, y2: 1}, defs);
  el("stop", {offset: "0", "stop-color": "#5d3820"}, grad);
  el("stop", {offset: "0.5", "stop-color": COLORS.frame}, grad);
  el("stop", {offset: "1", "stop-color": "#3b2212"}, grad);
  const felt = el("linearGradient", {id: "felt", x1: 0, y1: 0, x2: 0, y2: 1}, defs);
  el("stop", {offset: "0", "stop-color": COLORS.felt}, felt);
  el("stop", {offset: "0.5", "stop-color": COLORS.feltDark}, felt);
  el("stop", {offset: "1", "stop-color": COLORS.felt}, felt);

  el("rect", {x: 0, y: 0, width: W, height: H, rx: 14, fill: "url(#wood)",
              stroke: COLORS.frameEdge, "stroke-width": 3}, svg);
  for (const x of [X0, R0]) {
    el("rect", {x, y: Y_TOP, width: HALF, height: AREA_H, fill: "url(#felt)",
                stroke: COLORS.frameEdge, "stroke-width": 2}, svg);
  }
  el("rect", {x: BAR_X, y: Y_TOP - 4, width: BARW, height: AREA_H + 8, fill: COLORS.bar,
              stroke: COLORS.frameEdge, "stroke-width": 2, class: "bar"}, svg);
  el("line", {x1: BAR_X + BARW / 2, y1: Y_TOP, x2: BAR_X + BARW / 2, y2: Y_BOT,
              stroke: "rgba(0,0,0,.25)", "stroke-width": 2}, svg);
  for (const y of [Y_TOP, MID_BOT]) {
    el("rect", {x: TRAY_X, y, width: TRAYW, height: MID_TOP - Y_TOP, rx: 4, fill: COLORS.tray,
                stroke: COLORS.frameEdge, "stroke-width": 2, class: "tray"}, svg);
  }
}

function drawPoints(svg, labelSide) {
  for (let v = 1; v <= 24; v++) {
    const x = slotX(v);
    const top = isTop(v);
    const fill = v % 2 ? COLORS.pointA : COLORS.pointB;
    const base = top ? Y_TOP : Y_BOT;
    const tip = top ? Y_TOP + PH : Y_BOT - PH;
    el("polygon", {points: `${x + 2},${base} ${x + PW - 2},${base} ${x + PW / 2},${tip}`,
                   fill, stroke: "rgba(0,0,0,.35)", "stroke-width": 1, class: "point",
                   "data-view": v}, svg);
    const label = labelSide === S.viewer ? v : S.sim.opposite[v];
    const t = el("text", {x: x + PW / 2, y: top ? Y_TOP - 7 : Y_BOT + 19, "text-anchor": "middle",
                          "font-size": 16, "font-weight": 600, fill: COLORS.num}, svg);
    t.textContent = String(label);
  }
}

function drawCheckers(svg, sim) {
  for (let v = 1; v <= 24; v++) {
    const st = stackAt(sim, v);
    const n = st.length;
    const shown = Math.min(n, STACK);
    for (let i = 0; i < shown; i++) {
      const [x, y] = checkerXY(v, i);
      const count = n > STACK && i === STACK - 1 ? n - (STACK - 1) : 0;
      drawChecker(svg, x, y, st[i].side, {pinned: st[i].pinned, count: count ? n : 0});
    }
  }
  for (const side of [0, 1]) {
    const n = sim.s[side].bar;
    for (let i = 0; i < Math.min(n, 4); i++) {
      const [x, y] = barXY(side, i);
      drawChecker(svg, x, y, side, {count: n > 4 && i === 3 ? n : 0});
    }
    // borne-off checkers as slabs in the tray
    const off = sim.s[side].off;
    const r = trayRect(side);
    const c = COLORS.checker[side];
    for (let i = 0; i < off; i++) {
      const y = side === S.viewer ? r.y + r.h - 8 - (i + 1) * 14 : r.y + 8 + i * 14;
      el("rect", {x: r.x + 7, y, width: TRAYW - 14, height: 12, rx: 3, fill: c.fill,
                  stroke: c.stroke, "stroke-width": 1.5, class: `off ${SIDES[side]}`}, svg);
    }
    if (off) {
      const y = side === S.viewer ? r.y + r.h - 8 - off * 14 - 8 : r.y + 8 + off * 14 + 18;
      const t = el("text", {x: r.x + TRAYW / 2, y, "text-anchor": "middle", "font-size": 15,
                            "font-weight": 700, fill: COLORS.num, class: "off-count"}, svg);
      t.textContent = String(off);
    }
  }
}

function drawDice(svg, st) {
  if (!st) return;
  let side = null, used = null;
  if (S.reviewTurn) {            // a cube decision is before the roll: no dice
    side = SIDES.indexOf(S.reviewTurn.side);
    used = S.reviewTurn.dice ? S.reviewTurn.dice.map((d) => ({value: d, used: false})) : null;
  } else if (S.replay) {            // a move being replayed: the dice it has not used yet
    side = S.replay.side;
    used = diceShown(S.replay.all, S.replay.left);
  } else if (st.turn_tree) {        // the turn's dice, those the steps played used dimmed
    side = SIDES.indexOf(st.turn);
    used = diceShown(st.turn_tree.dice, node().dice);
  } else if (st.last && st.last.dice && ["pass", "roll", "opening"].includes(st.last.kind)) {
    side = SIDES.indexOf(st.last.side);
    used = st.last.dice.map((d) => ({value: d, used: st.last.kind === "pass"}));
  }
  if (!used) return;
  used = used.slice().sort((a, b) => b.value - a.value || a.used - b.used);  // higher first
  const size = used.length > 2 ? 40 : 46;
  const gap = 12;
  const total = used.length * size + (used.length - 1) * gap;
  const cx = side === S.viewer ? R0 + HALF / 2 : X0 + HALF / 2;
  const y = (MID_TOP + MID_BOT) / 2 - size / 2;
  used.forEach((d, i) => drawDie(svg, cx - total / 2 + i * (size + gap), y, size, d.value, side,
                                d.used));
}

function drawCube(svg, st) {
  // in a review, the cube as it stood at the turn shown (the server sends it)
  const cube = S.reviewTurn ? S.reviewTurn.cube_state : st && st.cube;
  if (!cube || !cube.used) return;
  const size = 40;
  const value = cube.value === 1 ? 64 : cube.value;
  const owner = cube.owner === null ? null : SIDES.indexOf(cube.owner);
  const x = owner === null ? TRAY_X + (TRAYW - size) / 2 : BAR_X + (BARW - size) / 2;
  let y = (MID_TOP + MID_BOT) / 2 - size / 2;
  if (owner !== null) y = owner === S.viewer ? Y_BOT - size - 6 : Y_TOP + 6;
  const g = el("g", {class: "cube"}, svg);
  el("rect", {x, y, width: size, height: size, rx: 6, fill: "#f7f1e1", stroke: "#3a2a1a",
              "stroke-width": 2}, g);
  const t = el("text", {x: x + size / 2, y: y + size / 2 + 7, "text-anchor": "middle",
                        "font-size": 20, "font-weight": 700, fill: "#3a2a1a"}, g);
  t.textContent = String(value);
}

/** Destination points lit up under the checkers. */
function drawDestinations(svg, opts) {
  if (S.selected === null) return;
  const mover = moverSide();
  const dests = opts.get(S.selected) || new Map();
  for (const t of dests.keys()) {
    if (t === 0) continue;
    const v = toView(mover, t);
    const x = slotX(v);
    const top = isTop(v);
    const base = top ? Y_TOP : Y_BOT;
    const tip = top ? Y_TOP + PH : Y_BOT - PH;
    el("polygon", {points: `${x + 2},${base} ${x + PW - 2},${base} ${x + PW / 2},${tip}`,
                   class: "dst-mark", "data-dest": t}, svg);
  }
}

/** The last move of each side (the state's last_moves): a dashed ring where its checkers
 * left, a ring round the checker on the points they reached; the viewer's own in one
 * style, the opponent's in another. */
function drawLastMoves(svg, st) {
  if (!st || !st.last_moves) return;
  const sim = S.sim;
  for (const side of [0, 1]) {
    const lm = st.last_moves[SIDES[side]];
    if (!lm || lm.pass) continue;
    const who = side === S.viewer ? "mine" : "theirs";
    const g = el("g", {class: `last-move ${who}`, "data-side": SIDES[side]}, svg);
    for (const p of lm.from) {
      if (p < 1 || p > 24) continue;
      const v = toView(side, p);
      const [x, y] = checkerXY(v, Math.min(stackAt(sim, v).length, STACK - 1));
      el("circle", {cx: x, cy: y, r: CR - 4, class: "last-from", "data-view": v}, g);
    }
    for (const p of lm.to) {
      if (p < 1 || p > 24) continue;
      const v = toView(side, p);
      const [x, y] = checkerXY(v, Math.max(0, Math.min(stackAt(sim, v).length, STACK) - 1));
      el("circle", {cx: x, cy: y, r: CR + 2, class: "last-to", "data-view": v}, g);
    }
  }
}

function drawHighlights(svg, opts) {
  const mover = moverSide();
  const sim = S.sim;
  if (S.selected === null) {
    for (const f of opts.keys()) {
      const [x, y] = topXY(sim, mover, f);
      el("circle", {cx: x, cy: y, r: CR + 1, class: "movable"}, svg);
    }
    return;
  }
  const [sx, sy] = topXY(sim, mover, S.selected);
  el("circle", {cx: sx, cy: sy, r: CR + 2, class: "sel"}, svg);
  const dests = opts.get(S.selected) || new Map();
  for (const [t, dest] of dests) {
    if (t === 0) {
      const r = trayRect(mover);
      el("rect", {x: r.x + 2, y: r.y + 2, width: TRAYW - 4, height: r.h - 4, rx: 4,
                  class: "dst-mark"}, svg);
      continue;
    }
    // where the checker will stand: on top of its point in the board after the steps
    const [lx, ly] = topXY(nodeSim(dest.node), mover, t);
    el("circle", {cx: lx, cy: ly, r: CR - 2, class: "dst-ring"}, svg);
  }
}

/** Invisible click targets: one per point, the bar and the trays. */
function drawHits(svg, opts) {
  const mover = moverSide();
  const dests = S.selected !== null ? (opts.get(S.selected) || new Map()) : new Map();
  const g = el("g", {class: "hits"}, svg);
  for (let v = 1; v <= 24; v++) {
    const top = isTop(v);
    const pw = fromView(0, v), pb = fromView(1, v);
    const pm = mover === 0 ? pw : pb;
    const cls = ["hit"];
    if (opts.has(pm)) cls.push("src");
    if (dests.has(pm)) cls.push("dst");
    el("rect", {x: slotX(v), y: top ? Y_TOP : MID_BOT - 30, width: PW,
                height: MID_TOP - Y_TOP + 30, class: cls.join(" "), "data-view": v,
                "data-w": pw, "data-b": pb, id: `pt-w${pw}`}, g);
  }
  el("rect", {x: BAR_X, y: Y_TOP, width: BARW, height: AREA_H,
              class: "hit" + (opts.has(25) ? " src" : ""), "data-w": "bar", "data-b": "bar",
              id: "pt-bar"}, g);
  for (const side of [0, 1]) {
    const r = trayRect(side);
    el("rect", {x: r.x, y: r.y, width: TRAYW, height: r.h,
                class: "hit" + (dests.has(0) && side === mover ? " dst" : ""),
                "data-w": "off", "data-b": "off", "data-side": SIDES[side],
                id: side === S.viewer ? "tray-off" : "tray-off-opp"}, g);
  }
}

export function renderBoard() {
  const svg = $("#board");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  if (!S.sim) {
    drawFrame(svg);
    return;
  }
  const st = S.state;
  let labelSide = S.viewer;
  if (st && st.numbering && !S.reviewTurn) {
    labelSide = SIDES.indexOf(st.numbering);   // two players: the side to act's numbers
  }
  const opts = options();
  if (S.selected !== null && !opts.has(S.selected)) S.selected = null;
  drawFrame(svg);
  drawPoints(svg, labelSide);
  if (!S.reviewTurn) drawDestinations(svg, opts);
  drawCheckers(svg, S.sim);
  drawDice(svg, st);
  drawCube(svg, st);
  if (!S.reviewTurn) drawLastMoves(svg, st);
  if (!S.reviewTurn) drawHighlights(svg, opts);
  if (S.animating) {
    const a = S.animating;
    S.animEl = drawChecker(svg, a.x, a.y, a.side);
  }
  drawHits(svg, opts);
  document.body.dataset.movable = String(opts.size);
  for (const hook of boardHooks) hook(svg, opts);
}


/** Slide a checker of `side` from its point `from` to `to` (own numbering), then show
 * `after`, the board the server gave for after that step. */
export async function slide(side, from, to, after, ms) {
  if (MOTION.reduced) {     // no motion: the checker is at once where it goes
    S.sim = after;
    return;
  }
  MOTION.slides += 1;
  const [x0, y0] = topXY(S.sim, side, from);
  const [x1, y1] = topXY(after, side, to);
  const before = S.sim;
  S.sim = lifted(before, side, from);   // the checker is off its point while it moves
  S.animating = {x: x0, y: y0, side};
  renderBoard();
  const start = performance.now();
  await new Promise((resolve) => {
    const frame = (now) => {
      const k = Math.min(1, (now - start) / ms);
      const e = k < .5 ? 2 * k * k : 1 - Math.pow(-2 * k + 2, 2) / 2;
      const x = x0 + (x1 - x0) * e, y = y0 + (y1 - y0) * e;
      if (S.animEl) S.animEl.setAttribute("transform", `translate(${x - x0} ${y - y0})`);
      if (k < 1) requestAnimationFrame(frame); else resolve();
    };
    requestAnimationFrame(frame);
  });
  S.animating = null;
  S.animEl = null;
  S.sim = after;
}

// --- moving checkers ---------------------------------------------------------------------------
/** The node the step f/t leads to from the current node of the tree (or undefined). */
function childOf(f, t) {
  const e = node().next.find(([a, b]) => a === f && b === t);
  return e ? e[2] : undefined;
}

/** Play the steps of `path` (a path of the turn tree from its current node). */
async function playPath(path, animate) {
  const mover = moverSide();
  S.selected = null;
  S.sliding = true;
  document.body.dataset.busy = "1";
  let played = 0;
  try {
    for (const [f, t] of path) {
      const i = childOf(f, t);
      if (i === undefined) break;
      if (animate) await slide(mover, f, t, nodeSim(i), 170);
      else S.sim = nodeSim(i);
      S.trail.push(i);
      S.done.push([f, t]);
      played += 1;
    }
    if (played) S.groups.push(played);
  } finally {
    S.sliding = false;
    document.body.dataset.busy = S.busy ? "1" : "0";
  }
  render();
}

export function clickSlot(p) {
  if (!canPlayHere()) return;
  const opts = options();
  if (S.selected !== null) {
    const dests = opts.get(S.selected);
    if (p !== null && dests && dests.has(p)) {
      playPath(dests.get(p).path, true);
      return;
    }
    if (p === S.selected || p === null || !opts.has(p)) {
      S.selected = null;
      render();
      return;
    }
  }
  if (p !== null && opts.has(p)) {
    S.selected = p;   // the player then clicks a destination
    render();
  }
}

function slotFromTarget(target) {
  const hit = target.closest ? target.closest(".hit") : null;
  if (!hit) return null;
  const mover = moverSide();
  const raw = mover === 0 ? hit.dataset.w : hit.dataset.b;
  if (raw === "bar") return 25;
  if (raw === "off") return hit.dataset.side === SIDES[mover] ? 0 : null;
  return Number(raw);
}

/** The SVG point of a pointer event on the board. */
function boardPoint(evt) { return svgPoint($("#board"), evt); }

/** The mover's slot under an SVG point (for drops). */
function slotAt(x, y) {
  const mover = moverSide();
  if (x >= TRAY_X && x <= TRAY_X + TRAYW) {
    const r = trayRect(mover);
    return y >= r.y - 20 && y <= r.y + r.h + 20 ? 0 : null;
  }
  if (x >= BAR_X && x < BAR_X + BARW) return 25;
  let v = null;
  const inLeft = x >= X0 && x < BAR_X, inRight = x >= R0 && x < R_END;
  if (!inLeft && !inRight) return null;
  const col = Math.floor((x - (inLeft ? X0 : R0)) / PW);
  const top = y < (Y_TOP + Y_BOT) / 2;
  if (top) v = inLeft ? 13 + col : 19 + col;
  else v = inLeft ? 12 - col : 6 - col;
  return fromView(mover, v);
}

// --- a finger's reach (phone first): a point is narrower than a finger on a phone (24 px
// at 360 px), so a tap or drop that misses the points the turn offers by less than REACH
// CSS px goes to the nearest of them: each offered point takes taps 44 px wide.
const REACH = 22;

/** The area of the mover's slot p (SVG units): its half-column, the bar, its tray. */
function slotRect(p) {
  const mid = (Y_TOP + Y_BOT) / 2;
  if (p === 25) return {x: BAR_X, y: Y_TOP, w: BARW, h: AREA_H};
  if (p === 0) {
    const r = trayRect(moverSide());
    return {x: TRAY_X, y: r.y, w: TRAYW, h: r.h};
  }
  const v = toView(moverSide(), p);
  return {x: slotX(v), y: isTop(v) ? Y_TOP : mid, w: PW, h: AREA_H / 2};
}

/** Of the `slots` (mover's numbering), the one nearest to the SVG point `at` within REACH
 * CSS px of its area, or null. */
function nearestSlot(at, slots) {
  const scale = $("#board").getScreenCTM().a || 1;   // CSS px per SVG unit
  let best = null, bestD = REACH / scale;
  for (const p of slots) {
    const r = slotRect(p);
    const dx = Math.max(r.x - at.x, 0, at.x - (r.x + r.w));
    const dy = Math.max(r.y - at.y, 0, at.y - (r.y + r.h));
    const d = Math.hypot(dx, dy);
    if (d <= bestD) { best = p; bestD = d; }
  }
  return best;
}

/** The slot a tap or click means: the one under it when the turn offers it, else the
 * nearest one offered within a finger's reach, else the one under it. */
function tapSlot(evt) {
  const p = slotFromTarget(evt.target);
  const opts = options();
  const offered = new Set(opts.keys());
  if (S.selected !== null && opts.has(S.selected)) {
    for (const t of opts.get(S.selected).keys()) offered.add(t);
  }
  if (p !== null && offered.has(p)) return p;
  const near = nearestSlot(boardPoint(evt), offered);
  return near === null ? p : near;
}

function setupPointer() {
  const svg = $("#board");
  let drag = null;
  svg.addEventListener("pointerdown", (evt) => {
    if (!canPlayHere()) return;
    const opts = options();
    let p = slotFromTarget(evt.target);
    if (p === null || !opts.has(p)) p = nearestSlot(boardPoint(evt), opts.keys());
    if (p === null || !opts.has(p)) return;
    const start = boardPoint(evt);
    drag = {p, start, moved: false, pointerId: evt.pointerId};
  });
  svg.addEventListener("pointermove", (evt) => {
    if (!drag || evt.pointerId !== drag.pointerId) return;
    const at = boardPoint(evt);
    const dist = Math.hypot(at.x - drag.start.x, at.y - drag.start.y);
    if (!drag.moved && dist < 10) return;
    if (!drag.moved) {
      drag.moved = true;
      svg.setPointerCapture(evt.pointerId);
      S.selected = drag.p;
      const mover = moverSide();
      const [x, y] = topXY(S.sim, mover, drag.p);
      const board = S.sim;
      S.sim = lifted(board, mover, drag.p);   // drawn without the checker in the hand
      S.animating = {x, y, side: mover};
      drag.origin = [x, y];
      renderBoard();
      S.sim = board;
    }
    if (S.animEl) {
      S.animEl.setAttribute("transform",
        `translate(${at.x - drag.origin[0]} ${at.y - drag.origin[1]})`);
    }
    evt.preventDefault();
  });
  const end = (evt) => {
    if (!drag || evt.pointerId !== drag.pointerId) return;
    const d = drag;
    drag = null;
    if (!d.moved) return;           // a click: handled by the click listener
    S.animating = null;
    S.animEl = null;
    const at = boardPoint(evt);
    const dests = options().get(d.p);
    let to = slotAt(at.x, at.y);
    if (dests && !dests.has(to)) to = nearestSlot(at, dests.keys());
    S.suppressClick = true;
    setTimeout(() => { S.suppressClick = false; }, 0);
    if (to !== null && dests && dests.has(to)) {
      playPath(dests.get(to).path, false);
    } else {
      S.selected = null;
      render();
    }
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  svg.addEventListener("click", (evt) => {
    if (S.suppressClick) return;
    if (!canPlayHere()) return;
    clickSlot(tapSlot(evt));
  });
}

/** Take back the steps of the last click or drag: back to the node before them. */
export function undo() {
  if (!S.groups.length) return;
  const n = S.groups.pop();
  S.done.splice(S.done.length - n, n);
  S.trail.splice(S.trail.length - n, n);
  S.sim = nodeSim();
  S.selected = null;
  render();
}
