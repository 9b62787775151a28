/* Tavli in the browser: draws the board as SVG and talks to the server's API.
 *
 * The page knows no rule: the server throws the dice and sends, with the state, the tree
 * of the turn (state.turn_tree: every step the rules allow next, with the board after it
 * and the dice left), how the two sides number the points (state.opposite) and the
 * boards of the last move step by step (state.last.frames). The page offers the steps of
 * the tree, draws the boards it was given and sends the chosen steps, which the server
 * checks again. The list of games and levels comes from GET /api/info.
 * No build step, no external resources.
 */
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const SIDES = ["white", "black"];

// --- geometry (SVG user units) ----------------------------------------------------------------
const PW = 56;              // point width
const CR = 25;              // checker radius
const FRAME = 18;
const BAND = 26;            // frame band above and below with the point numbers
const BARW = 56;
const TRAYW = 64;
const HALF = 6 * PW;
const X0 = FRAME;
const BAR_X = X0 + HALF;
const R0 = BAR_X + BARW;
const R_END = R0 + HALF;
const TRAY_X = R_END + FRAME;
const W = TRAY_X + TRAYW + FRAME;
const Y_TOP = BAND;
const AREA_H = 560;
const Y_BOT = Y_TOP + AREA_H;
const H = Y_BOT + BAND;
const STACK = 5;            // checkers drawn per point before a count is shown
const MID_TOP = Y_TOP + STACK * 2 * CR;   // 276
const MID_BOT = Y_BOT - STACK * 2 * CR;   // 336
const PH = 232;             // triangle height

const COLORS = {
  frame: "#4a2c17", frameEdge: "#2e1a0c", felt: "#dcc39a", feltDark: "#cfb288",
  pointA: "#8c2318", pointB: "#2e5339", tray: "#3a2212", bar: "#55331b",
  num: "#efdfbf",
  checker: [{fill: "#fbf8f0", stroke: "#7a6a55", ring: "#d9d0bf", text: "#2a211b"},
            {fill: "#1f1f1f", stroke: "#000", ring: "#4a4a4a", text: "#f3f3f3"}],
  die: [{fill: "#fffdf7", stroke: "#8a7c66", pip: "#161616"},
        {fill: "#222", stroke: "#000", pip: "#f5f5f5"}],
};

// --- state --------------------------------------------------------------------------------
const S = {
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

const $ = (sel) => document.querySelector(sel);

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  if (parent) parent.appendChild(e);
  return e;
}

function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

function setBusy(b) {
  S.busy = b;
  document.body.dataset.busy = b ? "1" : "0";
}

function toast(text) {
  const t = $("#toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 5000);
}

// --- the API ------------------------------------------------------------------------------
// the access token of a server on the network (tavli play --host): given once in the
// address (?token=...), kept for this tab, sent with every request
const TOKEN = (() => {
  const given = new URLSearchParams(location.search).get("token");
  if (given) {
    sessionStorage.setItem("tavli.token", given);
    history.replaceState(null, "", location.pathname + location.hash);
  }
  return sessionStorage.getItem("tavli.token");
})();

async function api(method, path, body) {
  const opts = {method, headers: langHeaders()};
  if (TOKEN) opts.headers["X-Tavli-Token"] = TOKEN;
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    // in another language than English: the error's text, and the English detail
    const text = data && data.error &&
      (data.detail ? `${data.error} (${data.detail})` : data.error);
    const err = new Error(text || `${r.status} ${r.statusText}`);
    err.code = data && data.code;
    err.status = r.status;
    throw err;
  }
  return data;
}

// --- boards ----------------------------------------------------------------------------------
/** A board to draw: per side its points (own numbering, [0] unused), bar, off and pinned
 * points; `opposite` (from the server) maps a point to the other side's number for it. */
function sideOf(pts, bar, off, pinned) {
  return {pts, bar, off, pinned: new Set(pinned)};
}

/** The board of a JSON position document. */
function simOf(doc, opposite) {
  const side = (d) => sideOf([0, ...d.points], d.bar, d.off, d.pinned || []);
  return {opposite, s: [side(doc.white), side(doc.black)]};
}

/** The board of a node or frame: the board array as hex digits, 26 slots a row (white's,
 * black's, white's pins, black's pins; digits left out at the end are 0). */
function simOfText(text, opposite) {
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
function oppositeOf(game) {
  if (S.state && S.state.game === game && S.state.opposite) return S.state.opposite;
  const g = S.info && S.info.games.find((x) => x.name === game);
  return g ? g.opposite : null;
}

function pips(sim, side) {
  const me = sim.s[side];
  let n = me.bar * 25;
  for (let p = 1; p <= 24; p++) n += p * me.pts[p];
  return n;
}

// --- the turn tree (state.turn_tree, made by the engine) -----------------------------------
function moverSide() { return S.state ? SIDES.indexOf(S.state.mover) : 0; }

function tree() { return S.state && S.state.turn_tree; }

function node(i) { return tree().nodes[i === undefined ? S.trail[S.trail.length - 1] : i]; }

function nodeSim(i) { return simOfText(node(i).board, S.state.opposite); }

function canPlayHere() {
  const st = S.state;
  return st && !S.busy && !S.sliding && !S.review && st.phase === "move" && !st.ai_to_act
    && !st.imported && st.legal_moves.length > 0 && !!tree();
}

/** Map source -> Map(destination -> {path, node}) of what may be played now: each step
 * of the tree's node, and the same checker going on with the next steps (one
 * destination, reached over several steps). */
function options() {
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

function completeMove() {
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
function slotX(v) {
  if (v <= 6) return R0 + (6 - v) * PW;
  if (v <= 12) return X0 + (12 - v) * PW;
  if (v <= 18) return X0 + (v - 13) * PW;
  return R0 + (v - 19) * PW;
}
function isTop(v) { return v >= 13; }

/** The viewer's point of side `side`'s point p. */
function toView(side, p) {
  return side === S.viewer ? p : S.sim.opposite[p];
}
function fromView(side, v) {
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

function trayRect(side) {
  return side === S.viewer ? {x: TRAY_X, y: MID_BOT, h: Y_BOT - MID_BOT}
    : {x: TRAY_X, y: Y_TOP, h: MID_TOP - Y_TOP};
}

/** Stack on the viewer's point v, from the edge inward: [{side, pinned}]. */
function stackAt(sim, v) {
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

function renderBoard() {
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
}

// --- the panel --------------------------------------------------------------------------------
function playerName(side) {
  const st = S.state;
  const p = st.players[SIDES[side]];
  if (p.type === "ai") {
    const name = t("pl.ai", {level: t(`level.${p.level}`)});
    return p.engine === "greedy" ? t("pl.heuristic", {name}) : name;
  }
  const humans = SIDES.filter((s) => st.players[s].type === "human").length;
  return humans === 2 ? cap(t(`side.${SIDES[side]}`)) : t("pl.you");
}

function statusText() {
  const st = S.state;
  if (!st) return "";
  if (S.review) {
    return S.reviewTurn ? t("st.review_turn") : t("st.review");
  }
  const human = (side) => st.players[side].type === "human";
  const solo = SIDES.filter(human).length === 1;
  // who a message is about: "you" or "ai" against the AI, else the side (its own messages:
  // the languages inflect the verb and the names differently)
  const actor = (side) => (solo ? (human(side) ? "you" : "ai") : side);
  const parts = [];
  const last = st.last;
  if (last && last.kind === "pass") {
    parts.push(t(`st.pass.${actor(last.side)}`, {dice: last.dice_text}));
  }
  if (last && last.kind === "opening" && st.phase === "move" && st.opening_text) {
    parts.push(st.opening_text);
  }
  if (S.aiMove && st.phase !== "over") parts.push(t("st.ai_played", {move: S.aiMove}));
  if (st.phase === "over") {
    parts.push(st.message);
  } else if (st.phase === "opening") {
    parts.push(t("st.opening"));
  } else if (st.ai_to_act) {
    parts.push(t("st.thinking"));
  } else if (st.phase === "roll") {
    const who = actor(st.turn);
    parts.push(t(st.cube.can_double ? `st.roll_double.${who}` : `st.roll.${who}`));
  } else if (st.phase === "double") {
    parts.push(t(`st.offered.${actor(SIDES[1 - SIDES.indexOf(st.turn)])}`,
                 {value: st.cube.value * 2}));
  } else if (st.phase === "move") {
    const who = t(`st.move.${solo ? "you" : st.turn}`, {dice: st.dice_text});
    parts.push(`${who} ${t(completeMove() ? "st.move_confirm" : "st.move_click")}`);
  }
  return parts.join(" ");
}

function cap(s) { return s[0].toUpperCase() + s.slice(1); }

function renderPanel() {
  const st = S.state;
  const show = (id, on) => { $(id).hidden = !on; };
  if (!st) {
    $("#status").textContent = t("st.start");
    $("#title").textContent = "";
    $("#players").replaceChildren();
    $("#score").textContent = "";
    delete document.body.dataset.gameId;
    for (const id of ["#btn-roll", "#btn-double", "#btn-take", "#btn-drop", "#btn-undo",
                      "#btn-confirm", "#btn-next", "#btn-rematch", "#btn-hint",
                      "#btn-review", "#btn-cube-hint", "#btn-continue", "#cube-box",
                      "#ids-box"]) show(id, false);
    return;
  }
  $("#title").textContent = st.title;
  document.body.dataset.phase = st.phase;
  document.body.dataset.turn = st.turn;
  document.body.dataset.game = st.game;
  document.body.dataset.gameId = st.id;
  $("#status").textContent = statusText();
  // players
  const pl = $("#players");
  pl.replaceChildren();
  for (const side of [S.viewer, 1 - S.viewer]) {
    const row = document.createElement("div");
    row.className = "player" + (st.turn === SIDES[side] && st.phase !== "over" ? " to-act" : "");
    row.dataset.side = SIDES[side];
    row.innerHTML = `<span class="disc ${SIDES[side]}"></span><span class="name"></span>` +
      `<span class="pips"></span>`;
    const name = playerName(side);
    const sideName = t(`side.${SIDES[side]}`);
    row.querySelector(".name").textContent = name.toLowerCase() === sideName.toLowerCase()
      ? name : t("pl.with_side", {name, side: sideName});
    row.querySelector(".pips").textContent = t("pl.pips", {n: S.sim ? pips(S.sim, side) : ""});
    const lm = st.last_moves && st.last_moves[SIDES[side]];
    if (lm && !S.review) {
      const last = document.createElement("span");
      last.className = `last ${side === S.viewer ? "mine" : "theirs"}`;
      last.textContent = lm.pass ? t("pl.last_pass", {dice: lm.dice_text})
        : t("pl.last", {dice: lm.dice_text, move: lm.shown});
      last.title = t("pl.last_title");
      row.appendChild(last);
    }
    pl.appendChild(row);
  }
  // match
  const sc = $("#score");
  if (st.kind === "match") {
    const g = st.games.map((x, i) => `${i + 1}. ${t(`game.${x.game}`)}` +
      (x.result ? ` — ${x.result.winner || "draw"} +${x.result.points}` : "")).join(", ");
    sc.textContent = t("sc.match", {target: st.target, white: st.score.white,
                                    black: st.score.black}) +
      ` · ${t("sc.game", {n: st.game_number, name: t(`game.${st.game}`)})}` +
      (st.cube.crawford ? ` · ${t("sc.crawford")}` : "");
    sc.title = g;
  } else {
    sc.textContent = st.cube.used && st.cube.value > 1 ? t("sc.cube", {value: st.cube.value})
      : "";
  }
  // buttons
  const humanToAct = st.phase !== "over" && !st.ai_to_act && !st.imported;
  const idle = !S.busy && !S.review;
  show("#btn-roll", idle && humanToAct && (st.phase === "roll" || st.phase === "opening"));
  $("#btn-roll").textContent = t(st.phase === "opening" ? "btn.opening" : "btn.roll");
  show("#btn-double", idle && humanToAct && st.phase === "roll" && st.cube.can_double);
  show("#btn-take", idle && humanToAct && st.phase === "double");
  show("#btn-drop", idle && humanToAct && st.phase === "double");
  show("#btn-undo", idle && humanToAct && st.phase === "move");
  $("#btn-undo").disabled = S.done.length === 0;
  show("#btn-confirm", idle && humanToAct && st.phase === "move");
  $("#btn-confirm").disabled = !completeMove();
  show("#btn-hint", idle && humanToAct && st.phase === "move" && st.legal_moves.length > 1);
  // the server says when a cube decision is due (before the roll, or a double to answer)
  show("#btn-cube-hint", idle && humanToAct && !!st.cube_hint && !S.cubeHint);
  show("#btn-continue", !S.busy && !!st.can_continue);
  show("#cube-box", !!S.cubeHint && !S.review);
  show("#btn-next", idle && st.phase === "over" && st.kind === "match" && !st.finished
       && !st.imported);
  show("#btn-rematch", idle && st.finished && !st.imported);
  $("#btn-rematch").textContent = t(st.kind === "match" ? "btn.rematch" : "btn.play_again");
  const turns = st.kind === "match" ? st.games.length > 1 || st.history.length > 0
    : st.history.length > 0;
  show("#btn-review", !S.busy && !S.review && turns && (st.phase === "over" || st.imported));
  show("#hints", !!S.hints && !S.review);
  $("#autoroll-label").hidden = st.imported || st.finished;
  renderIds(st);
  // history
  const h = $("#history");
  h.replaceChildren();
  for (const line of st.history_text) {
    const li = document.createElement("li");
    li.textContent = line;
    h.appendChild(li);
  }
}

function render() {
  renderBoard();
  renderPanel();
}

// --- loading and the flow of play ------------------------------------------------------------
function viewerOf(st) {
  const p = st.players;
  if (p.white.type === "ai" && p.black.type === "human") return 1;
  return 0;
}

function setState(st) {
  S.state = st;
  S.viewer = viewerOf(st);
  S.sim = simOf(st.position, st.opposite);
  S.done = [];
  S.trail = [0];
  S.groups = [];
  S.replay = null;
  S.selected = null;
  S.hints = null;
  $("#hints").replaceChildren();
  S.cubeHint = null;
  $("#cube-box").replaceChildren();
}

async function loadGame(id, opts = {}) {
  S.token += 1;
  if (window.dama) window.dama.leave();
  closeReview();
  setBusy(true);
  try {
    const st = await api("GET", `/api/games/${encodeURIComponent(id)}`);
    S.aiMove = null;
    setState(st);
    localStorage.setItem("tavli.game", id);
    if (location.hash !== `#/game/${id}`) history.replaceState(null, "", `#/game/${id}`);
    setBusy(false);
    render();
    if (st.imported && opts.review !== false) openReview();
    else proceed();
  } catch (e) {
    setBusy(false);
    if (e.status === 404) {
      localStorage.removeItem("tavli.game");
      history.replaceState(null, "", "#");
      S.state = null;
      S.sim = null;
      render();
      openNewDialog();
    } else {
      toast(e.message);
    }
  }
}

/** Slide a checker of `side` from its point `from` to `to` (own numbering), then show
 * `after`, the board the server gave for after that step. */
async function slide(side, from, to, after, ms) {
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

/** Show a new state from the server, animating what the other side did. */
async function showState(st) {
  const token = S.token;
  const last = st.last;
  if (last && (last.kind === "move" || last.kind === "next")) S.aiMove = null;
  if (last && last.kind === "move" && last.frames && st.players[last.side].type === "ai") {
    const side = SIDES.indexOf(last.side);
    const frames = last.frames;   // the boards the server gave, one after each step
    // the marks of the previous state while the AI's checkers slide (its own old move off)
    const marks = {...((S.state && S.state.last_moves) || {}), [last.side]: null};
    S.state = {...st, dice: last.dice, turn: last.side, phase: "animating", legal_moves: [],
               turn_tree: null, last_moves: marks};
    S.viewer = viewerOf(st);
    S.sim = simOfText(frames[0].board, st.opposite);
    S.replay = {side, all: frames[0].dice, left: frames[0].dice};
    S.done = [];
    render();
    await sleep(250);
    for (let k = 0; k < last.steps.length; k++) {
      if (token !== S.token) return;
      const [f, t] = last.steps[k];
      await slide(side, f, t, simOfText(frames[k + 1].board, st.opposite), 420);
      S.replay.left = frames[k + 1].dice;
      renderBoard();
      await sleep(120);
    }
    const lm = st.last_moves && st.last_moves[last.side];
    S.aiMove = lm ? lm.shown : last.move;
    await sleep(200);
  }
  if (token !== S.token) return;
  setState(st);
  render();
}

let proceeding = false;

/** Let the AI act, or roll for the human, as long as that is what comes next. */
async function proceed() {
  if (proceeding) return;
  proceeding = true;
  const token = S.token;
  try {
    while (S.state && token === S.token && !S.review) {
      const st = S.state;
      if (st.phase === "over" || st.imported) break;
      if (st.ai_to_act) {
        setBusy(true);
        render();
        const wait = st.phase === "move" ? 350 : 500;
        await sleep(wait);
        if (token !== S.token) break;
        const next = await api("POST", `/api/games/${st.id}/ai`);
        if (token !== S.token) break;
        await showState(next);
        if (next.last && ["roll", "pass", "opening"].includes(next.last.kind)) {
          await sleep(next.last.kind === "pass" ? 1400 : 650);
        } else if (next.last && ["double", "take", "drop"].includes(next.last.kind)) {
          await sleep(900);
        }
        continue;
      }
      if (st.phase === "roll" && !st.cube.can_double && $("#opt-autoroll").checked) {
        setBusy(true);
        render();
        await sleep(350);
        if (token !== S.token) break;
        const next = await api("POST", `/api/games/${st.id}/roll`);
        await showState(next);
        if (next.last && next.last.kind === "pass") await sleep(1400);
        continue;
      }
      break;
    }
  } catch (e) {
    toast(e.message);
  } finally {
    proceeding = false;
    if (token === S.token) {
      setBusy(false);
      render();
    }
  }
}

/** Show no game (the one shown was deleted): the board empties, the address forgets it. */
function clearGame(message) {
  S.token += 1;
  closeReview();
  S.state = null;
  S.sim = null;
  S.replay = null;
  S.aiMove = null;
  S.hints = null;
  $("#hints").hidden = true;
  S.cubeHint = null;
  $("#cube-box").hidden = true;
  $("#history").replaceChildren();
  localStorage.removeItem("tavli.game");
  if (location.hash) history.replaceState(null, "", location.pathname);
  setBusy(false);
  render();
  if (message) $("#status").textContent = message;
}

/** A new game or match with the settings of the finished one (the server's rematch). */
async function rematch() {
  if (!S.state || S.busy) return;
  setBusy(true);
  try {
    const st = await api("POST", `/api/games/${S.state.id}/rematch`);
    setBusy(false);
    await loadGame(st.id);
  } catch (e) {
    setBusy(false);
    toast(e.message);
    render();
  }
}

async function action(name, body) {
  if (!S.state || S.busy) return;
  setBusy(true);
  try {
    const st = await api("POST", `/api/games/${S.state.id}/${name}`, body);
    await showState(st);
    setBusy(false);
    if (st.last && st.last.kind === "pass") {
      render();
      await sleep(1400);
    }
    render();
    proceed();
  } catch (e) {
    setBusy(false);
    toast(e.message);
    render();
  }
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

function clickSlot(p) {
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

function svgPoint(evt) {
  const svg = $("#board");
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX;
  pt.y = evt.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

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

function setupPointer() {
  const svg = $("#board");
  let drag = null;
  svg.addEventListener("pointerdown", (evt) => {
    if (!canPlayHere()) return;
    const p = slotFromTarget(evt.target);
    const opts = options();
    if (p === null || !opts.has(p)) return;
    const start = svgPoint(evt);
    drag = {p, start, moved: false, pointerId: evt.pointerId};
  });
  svg.addEventListener("pointermove", (evt) => {
    if (!drag || evt.pointerId !== drag.pointerId) return;
    const at = svgPoint(evt);
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
    const at = svgPoint(evt);
    const to = slotAt(at.x, at.y);
    const dests = options().get(d.p);
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
    clickSlot(slotFromTarget(evt.target));
  });
}

/** Take back the steps of the last click or drag: back to the node before them. */
function undo() {
  if (!S.groups.length) return;
  const n = S.groups.pop();
  S.done.splice(S.done.length - n, n);
  S.trail.splice(S.trail.length - n, n);
  S.sim = nodeSim();
  S.selected = null;
  render();
}

async function confirmMove() {
  const mv = completeMove();
  if (!mv) return;
  // the engine's steps of the move the node reached (the player's order may differ)
  await action("move", {steps: mv.steps.map(([f, t]) => [f, t])});
}

// --- hints -----------------------------------------------------------------------------------
async function showHints() {
  if (!S.state) return;
  setBusy(true);
  try {
    const h = await api("GET", `/api/games/${S.state.id}/hint`);
    S.hints = h;
    const box = $("#hints");
    box.replaceChildren();
    const table = document.createElement("table");
    const match = h.score !== undefined;  // at a match score: match equity and MWC
    table.innerHTML = "<thead><tr><th>#</th><th>move</th><th class='num'>equity</th>" +
      (match ? "<th class='num'>MWC</th>" : "") + "<th class='num'>win</th></tr></thead>";
    const body = document.createElement("tbody");
    h.moves.slice(0, 12).forEach((m, i) => {
      const tr = document.createElement("tr");
      tr.className = "hint";
      const eq = m.equity === null ? (m.score ?? 0).toFixed(3)
        : (m.equity >= 0 ? "+" : "") + m.equity.toFixed(3);
      if (m.ply !== undefined) tr.title = `valued at ${m.ply}-ply`;
      const win = m.win === undefined ? "" : `${(m.win * 100).toFixed(1)}%`;
      const mwc = match ? `<td class="num">${(m.mwc * 100).toFixed(1)}%</td>` : "";
      tr.innerHTML = `<td>${i + 1}</td><td></td><td class="num">${eq}</td>${mwc}` +
        `<td class="num">${win}</td>`;
      tr.children[1].textContent = m.move;
      tr.addEventListener("click", () => previewHint(m, tr));
      body.appendChild(tr);
    });
    table.appendChild(body);
    const note = document.createElement("div");
    note.className = "opt";
    note.textContent = `${h.engine === "neural" ? `${h.ply}-ply neural net` : "heuristic"}; ` +
      (match ? `${h.score.context}: match equity, MWC = match winning chances; ` : "") +
      "click a move to set it up, then confirm.";
    box.append(table, note);
  } catch (e) {
    toast(e.message);
  } finally {
    setBusy(false);
    render();
  }
}

/** The cube decision due now, as the server computes it (gnubg's figures). */
async function showCubeHint() {
  if (!S.state) return;
  const id = S.state.id;
  setBusy(true);
  try {
    const h = await api("GET", `/api/games/${id}/cube-hint`);
    if (!S.state || S.state.id !== id) return;
    S.cubeHint = h;
    drawCubeHint(h);
  } catch (e) {
    toast(e.message);
  } finally {
    setBusy(false);
    render();
  }
}

function drawCubeHint(h) {
  const box = $("#cube-box");
  box.replaceChildren();
  const div = (cls, text) => {
    const d = document.createElement("div");
    d.className = cls;
    d.textContent = text;
    box.appendChild(d);
    return d;
  };
  const sign = (x) => (x >= 0 ? "+" : "") + x.toFixed(3);
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  div("cube-advice", h.advice);
  div("cube-head", `${h.situation} · ${h.ply}-ply` +
      (h.role === "take" ? ` · equities for ${h.doubler}, the doubler` : ""));
  const table = document.createElement("table");
  const mwc = h.rows.some((r) => r.mwc !== null);
  table.innerHTML = "<thead><tr><th>cubeful equities</th><th class='num'>equity</th>" +
    "<th class='num'></th>" + (mwc ? "<th class='num'>MWC</th>" : "") + "</tr></thead>";
  const body = document.createElement("tbody");
  for (const r of h.rows) {
    const tr = document.createElement("tr");
    tr.className = r.best ? "best" : "";
    tr.innerHTML = "<td></td><td class='num'></td><td class='num diff'></td>" +
      (mwc ? "<td class='num'></td>" : "");
    tr.children[0].textContent = r.name;
    tr.children[1].textContent = sign(r.equity);
    tr.children[2].textContent = r.diff === null ? "" : `(${sign(r.diff)})`;
    if (mwc) tr.children[3].textContent = pct(r.mwc);
    body.appendChild(tr);
  }
  table.appendChild(body);
  box.appendChild(table);
  div("cube-action", `Proper cube action: ${h.action}`);
  div("cube-probs", `Cubeless: ${h.cubeless_text}`);
  if (h.note) div("cube-note", h.note);
}

/** The IDs of the position shown (from the state), each with a Copy button. */
function renderIds(st) {
  const box = $("#ids");
  $("#ids-box").hidden = !st.ids;
  if (!st.ids) return;
  const rows = [["Position ID", st.ids.position_id], ["gnubg ID", st.ids.gnubg],
                ["XGID", st.ids.xgid]].filter(([, v]) => v);
  const key = rows.map(([, v]) => v).join(" ");
  if (box.dataset.key === key) return;   // keep a selection while nothing changed
  box.dataset.key = key;
  box.replaceChildren();
  for (const [label, value] of rows) {
    const row = document.createElement("div");
    row.className = "id-row";
    const name = document.createElement("span");
    name.className = "id-label";
    name.textContent = label;
    const code = document.createElement("code");
    code.textContent = value;
    const copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = t("btn.copy");
    copy.setAttribute("aria-label", `Copy the ${label}`);
    copy.addEventListener("click", () => copyText(code, copy));
    row.append(name, copy, code);
    box.appendChild(row);
  }
}

async function copyText(code, button) {
  try {
    await navigator.clipboard.writeText(code.textContent);
  } catch (e) {   // no clipboard API (a plain-HTTP address): select it for Ctrl-C
    const range = document.createRange();
    range.selectNodeContents(code);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    if (!document.execCommand || !document.execCommand("copy")) {
      toast("Press Ctrl-C to copy the selected text.");
      return;
    }
  }
  button.textContent = t("btn.copied");
  setTimeout(() => { button.textContent = t("btn.copy"); }, 1500);
}

/** An imported record goes on as a new game: against the AI, the player taking the
 * side to act now (the server's default). */
async function continueGame() {
  if (!S.state || S.busy) return;
  setBusy(true);
  try {
    const st = await api("POST", `/api/games/${S.state.id}/continue`, {});
    setBusy(false);
    await loadGame(st.id);
  } catch (e) {
    setBusy(false);
    toast(e.message);
    render();
  }
}

/** The nodes of a path from the root of the turn tree that plays `steps` (in some order
 * the tree has), or null. */
function pathOf(steps) {
  const walk = (at, rest) => {
    if (!rest.length) return [];
    for (const [f, t, i] of node(at).next) {
      const k = rest.findIndex(([a, b]) => a === f && b === t);
      if (k < 0) continue;
      const more = walk(i, rest.slice(0, k).concat(rest.slice(k + 1)));
      if (more) return [[f, t, i], ...more];
    }
    return null;
  };
  return tree() ? walk(0, steps.map(([f, t]) => [f, t])) : null;
}

function previewHint(m, tr) {
  const path = pathOf(m.steps);
  if (!path) return;
  document.querySelectorAll("#hints tr.hint").forEach((x) => x.classList.remove("active"));
  tr.classList.add("active");
  S.trail = [0, ...path.map((e) => e[2])];
  S.done = path.map(([f, t]) => [f, t]);
  S.groups = [path.length];
  S.sim = nodeSim();
  S.selected = null;
  render();
}

// --- review ------------------------------------------------------------------------------------
async function openReview() {
  if (!S.state) return;
  setBusy(true);
  $("#status").textContent = t("st.reviewing");
  try {
    const path = `/api/games/${S.state.id}/review`;
    let r = await api("GET", path);
    while (r && r.status === "running") {   // 202: the review is being made
      $("#status").textContent = t("st.reviewing_pct", {pct: Math.round(100 * r.progress)});
      await sleep(700);
      r = await api("GET", path);
    }
    S.review = r;
    drawReview();
  } catch (e) {
    toast(e.message);
  } finally {
    setBusy(false);
    render();
  }
}

function closeReview() {
  S.review = null;
  S.reviewTurn = null;
  $("#review").hidden = true;
  $("#review-banner").hidden = true;
  if (S.state) {
    S.sim = simOf(S.state.position, S.state.opposite);
    S.viewer = viewerOf(S.state);
    S.done = [];
    S.trail = [0];
    S.groups = [];
  }
}

function drawReview() {
  const r = S.review;
  $("#review").hidden = false;
  const me = S.state && viewerOf(S.state) === 1 ? "black" : "white";
  const sum = $("#review-summary");      // the server's lines: per player, then the ply
  sum.replaceChildren(...r.summary.map((line) => {
    const div = document.createElement("div");
    div.textContent = line;
    return div;
  }));
  // the chart: P(win) of the viewer before each roll
  const svg = $("#chart");
  svg.replaceChildren();
  const cw = 320, ch = 170, L = 34, R = 8, T = 10, B = 22;
  svg.setAttribute("viewBox", `0 0 ${cw} ${ch}`);
  const n = r.curve.length;
  const xOf = (i) => L + (n <= 1 ? 0 : (i * (cw - L - R)) / (n - 1));
  const yOf = (p) => T + (1 - p) * (ch - T - B);
  el("rect", {x: L, y: T, width: cw - L - R, height: ch - T - B, fill: "#fbf7ee"}, svg);
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    el("line", {x1: L, x2: cw - R, y1: yOf(p), y2: yOf(p), stroke: p === 0.5 ? "#999" : "#e3dccd",
                "stroke-dasharray": p === 0.5 ? "5 4" : null}, svg);
    const t = el("text", {x: L - 4, y: yOf(p) + 4, "text-anchor": "end", "font-size": 10,
                          fill: "#6f6459"}, svg);
    t.textContent = `${Math.round(p * 100)}%`;
  }
  let lastGame = null;
  r.curve.forEach((c, i) => {
    if (c.game !== lastGame && i > 0) {
      el("line", {x1: xOf(i), x2: xOf(i), y1: T, y2: ch - B, stroke: "#c9b99b",
                  "stroke-dasharray": "2 3"}, svg);
    }
    lastGame = c.game;
  });
  const val = (c) => (me === "white" ? c.white_win : 1 - c.white_win);
  const pts = r.curve.map((c, i) => `${xOf(i)},${yOf(val(c))}`).join(" ");
  el("polyline", {points: pts, fill: "none", stroke: "#1f6f50", "stroke-width": 2,
                  class: "curve"}, svg);
  const marks = new Map(r.mistakes.map((m) => [m.index, m]));
  r.curve.forEach((c, i) => {
    const m = marks.get(i);
    const dot = el("circle", {cx: xOf(i), cy: yOf(val(c)), r: m ? 4 : 2.5,
                              fill: m ? "#b3261e" : "#1f6f50", class: "pt",
                              "data-index": i}, svg);
    const title = el("title", {}, dot);
    const t = r.turns[i];
    title.textContent = `${t.side} ${t.dice_text}: ${t.played || "(no move)"}` +
      (m ? ` — ${m.mark}, best ${m.best}` : "");
    dot.addEventListener("click", () => showReviewTurn(i));
  });
  const xl = el("text", {x: L, y: ch - 6, "font-size": 10, fill: "#6f6459"}, svg);
  xl.textContent = `P(${me} wins) before each roll; red: mistakes`;
  // the mistakes
  const ol = $("#mistakes");
  ol.replaceChildren();
  if (!r.mistakes.length) {
    const li = document.createElement("li");
    li.textContent = "No mistakes found.";
    ol.appendChild(li);
  }
  // the marked moves and the cube decisions (marked "cube"), largest loss first
  for (const m of r.mistakes) {
    const li = document.createElement("li");
    li.className = m.kind === "cube" ? "mistake cube" : "mistake";
    li.dataset.kind = m.kind;
    li.dataset.index = m.index;
    if (m.mark) {
      const mk = document.createElement("span");
      mk.className = `mark-${m.mark.replace(" ", "-")}`;
      mk.textContent = m.mark;
      li.append(mk, " ");
    }
    if (m.kind === "cube") {
      const tag = document.createElement("span");
      tag.className = "cube-tag";
      tag.textContent = "cube";
      li.append(tag, " ");
    }
    li.append(m.text);
    li.addEventListener("click", () => m.kind === "cube" ? showReviewCube(m.index)
                                                         : showReviewTurn(m.index));
    ol.appendChild(li);
  }
}

function showReviewEntry(t, kind, i, text) {
  S.reviewTurn = t;
  S.sim = simOf(t.board, oppositeOf(t.board.game));
  S.done = [];
  S.selected = null;
  document.querySelectorAll("#mistakes li").forEach((x) =>
    x.classList.toggle("active", x.dataset.kind === kind && Number(x.dataset.index) === i));
  const b = $("#review-banner");
  b.hidden = false;
  b.textContent = text;
  b.dataset.index = i;
  render();
}

function showReviewTurn(i) {
  const t = S.review.turns[i];
  const g = S.review.games.length > 1 ? `Game ${t.game}, t` : "T";
  showReviewEntry(t, "move", i, `${g}urn ${t.turn}: ${t.side} rolled ${t.dice_text} and ` +
    `played ${t.played || "(no move)"}` + (t.mark ? ` — ${t.mark}: best was ${t.best} ` +
    `(equity ${t.equity_best.toFixed(3)} against ${t.equity_played.toFixed(3)})` : "") +
    `. ${cap(t.side)} to move; P(white wins) ${(t.white_win * 100).toFixed(1)}%.`);
}

/** A cube decision: the position before the roll, and the server's words for it. */
function showReviewCube(i) {
  const c = S.review.cube[i];
  const e = c.equities;
  showReviewEntry(c, "cube", i, `${cap(c.text)}. No double ${e.no_double.toFixed(3)}, ` +
    `double/take ${e.double_take.toFixed(3)}, double/pass ${e.double_pass.toFixed(3)} ` +
    `(${c.ply}-ply).`);
}

// --- dialogs -------------------------------------------------------------------------------------
/** Fill the menus with the games, matches and levels of GET /api/info (the registry). */
function fillMenus(info) {
  const option = (value, text) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    return o;
  };
  const display = (name) => t(`game.${name}`);
  // New game: the matches that rotate through games, then each game (Dama stays last)
  const variant = $("#ng-variant");
  variant.prepend(
    ...info.rotations.map((r) => option(r.name, t("ng.rotation", {
      name: display(r.name), games: r.games.map(display).join(", ")}))),
    ...info.games.map((g) => option(g.name, display(g.name))));
  variant.value = (info.rotations[0] || info.games[0]).name;
  const opponent = $("#ng-opponent");
  opponent.prepend(...info.levels.map((l) => option(`ai:${l}`,
                                                     t("ng.ai_level", {level: t(`level.${l}`)}))));
  opponent.value = `ai:${info.default_level}`;
  // the Games dialog's filter: after "all games", before Dama
  $("#gf-variant").firstElementChild.after(
    ...info.rotations.map((r) => option(r.name, t("gl.rotation", {name: display(r.name)}))),
    ...info.games.map((g) => option(g.name, display(g.name))));
  variant.dispatchEvent(new Event("change"));
}

async function loadInfo() {
  try {
    S.info = await api("GET", "/api/info");
    fillMenus(S.info);
  } catch (e) {
    toast(t("toast.info_failed", {error: e.message}));
  }
}

function isRotation(name) {
  return !!(S.info && S.info.rotations.some((r) => r.name === name));
}

function openNewDialog() {
  const d = $("#dlg-new");
  syncNewDialog();
  if (!d.open) d.showModal();
}

function syncNewDialog() {
  const variant = $("#ng-variant").value;
  const pts = $("#ng-points");
  const single = pts.querySelector("option[value='1']");
  single.disabled = isRotation(variant);      // a rotation is a match
  if (single.disabled && pts.value === "1") pts.value = "5";
  const human = $("#ng-opponent").value === "human";
  $("#ng-side-label").hidden = human;
  const first = $("#ng-first");
  first.disabled = pts.value !== "1";
  if (first.disabled) first.value = "";
}

async function startNewGame(evt) {
  evt.preventDefault();
  const opp = $("#ng-opponent").value;
  const body = {variant: $("#ng-variant").value, points: Number($("#ng-points").value)};
  if (opp === "human") body.opponent = "human";
  else {
    body.opponent = "ai";
    body.level = opp.split(":")[1];
    body.ai_side = $("#ng-side").value === "white" ? "black" : "white";
  }
  if ($("#ng-first").value) body.first = $("#ng-first").value;
  try {
    const st = await api("POST", "/api/games", body);
    $("#dlg-new").close();
    await loadGame(st.id);
  } catch (e) {
    toast(e.message);
  }
}

async function importFile(evt) {
  const file = evt.target.files[0];
  if (!file) return;
  try {
    // any format the server reads (a tavli record, gnubg .mat or .sgf): it tells which
    // from the content
    const text = await file.text();
    const st = await api("POST", "/api/records", {text, name: file.name});
    $("#dlg-games").close();
    await loadGame(st.id);
  } catch (e) {
    toast(e.message);
  } finally {
    evt.target.value = "";
  }
}

/** With a token, a link to the API (Export) downloads through fetch, which sends it. */
async function downloadWithToken(evt) {
  const a = evt.target.closest && evt.target.closest('a[href^="/api/"]');
  if (!a || !TOKEN) return;
  evt.preventDefault();
  try {
    const r = await fetch(a.getAttribute("href"), {headers: {"X-Tavli-Token": TOKEN}});
    if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
    const url = URL.createObjectURL(await r.blob());
    const tmp = document.createElement("a");
    tmp.href = url;
    tmp.download = a.getAttribute("download") || "tavli.json";
    document.body.appendChild(tmp);
    tmp.click();
    tmp.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (e) {
    toast(e.message);
  }
}

// --- start ---------------------------------------------------------------------------------------
function init() {
  document.addEventListener("click", downloadWithToken);
  setupPointer();
  $("#btn-new").addEventListener("click", openNewDialog);
  $("#import-file").addEventListener("change", importFile);
  $("#form-new").addEventListener("submit", startNewGame);
  $("#ng-cancel").addEventListener("click", () => $("#dlg-new").close());
  for (const id of ["#ng-variant", "#ng-points", "#ng-opponent"]) {
    $(id).addEventListener("change", syncNewDialog);
  }
  $("#btn-roll").addEventListener("click", () => action("roll"));
  $("#btn-double").addEventListener("click", () => action("double"));
  $("#btn-take").addEventListener("click", () => action("take"));
  $("#btn-drop").addEventListener("click", () => action("drop"));
  $("#btn-next").addEventListener("click", () => action("next"));
  $("#btn-rematch").addEventListener("click", rematch);
  $("#btn-undo").addEventListener("click", undo);
  $("#btn-confirm").addEventListener("click", confirmMove);
  $("#btn-hint").addEventListener("click", showHints);
  $("#btn-cube-hint").addEventListener("click", showCubeHint);
  $("#btn-continue").addEventListener("click", () => { closeReview(); continueGame(); });
  $("#btn-review").addEventListener("click", openReview);
  $("#btn-review-close").addEventListener("click", () => { closeReview(); render(); });
  $("#opt-autoroll").checked = localStorage.getItem("tavli.autoroll") !== "0";
  $("#opt-autoroll").addEventListener("change", (e) => {
    localStorage.setItem("tavli.autoroll", e.target.checked ? "1" : "0");
    proceed();
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("dialog")) return;
    if (e.key === "Enter" && completeMove()) confirmMove();
    else if ((e.key === "Backspace" || (e.key === "z" && (e.ctrlKey || e.metaKey)))
             && S.done.length) { e.preventDefault(); undo(); }
  });
  window.addEventListener("hashchange", () => {
    const m = location.hash.match(/^#\/game\/([\w-]+)/);
    if (m && (!S.state || S.state.id !== m[1])) loadGame(m[1]);
  });
  window.tavli = {state: () => S.state, S, clear: clearGame};
  loadCatalogue(TOKEN ? {"X-Tavli-Token": TOKEN} : {}).then(() => {
    render();
    return loadInfo();
  }).then(() => {
    const m = location.hash.match(/^#\/game\/([\w-]+)/);
    const id = m ? m[1] : localStorage.getItem("tavli.game");
    if (location.hash.startsWith("#/dama/")) setBusy(false);   // dama.js loads it
    else if (id) loadGame(id);
    else {
      setBusy(false);
      openNewDialog();
    }
  });
}

init();
