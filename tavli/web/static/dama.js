/* Dama (draughts) in the browser: an 8x8 SVG board over the server's /api/games (the
 * API of every game).
 *
 * The server decides what is legal: the page only offers the moves of state.legal_moves
 * (each with the path of squares visited and the squares captured) and sends the chosen
 * path, which the server checks again. Part of tavli play's page (play.js sets it up after
 * app.js); takes over the page while a Dama game is shown (body[data-mode="dama"]).
 * Exports setupDama, damaState (the state shown, or null), leaveDama and D (the view's
 * own state: the page's test surface).
 */
import {announce, liveRegions} from "./a11y.js";
import {api} from "./http.js";
import {catalogueReady, t, tm, tn} from "./i18n.js";
import {opponentRequest} from "./newgame.js";
import {$, button, cap, el, sleep, svgPoint, toast} from "./util.js";

const SQ = 50, M = 20, N = 8;
export const D = {
  state: null,      // the server's state
  shown: null,      // the board drawn (list of 32 squares), may lag during animation
  viewer: "white",  // the side drawn at the bottom
  partial: [],      // squares clicked so far: [start, landing, landing...]
  token: 0,
  anim: null,       // {square, x, y} of the piece sliding
  fading: [],       // squares whose captured pieces are fading
};

/** The state of the Dama game shown (null: none). */
export function damaState() { return D.state; }

function busy(b) { document.body.dataset.busy = b ? "1" : "0"; }

// --- geometry ---------------------------------------------------------------------------
function xy(rank, file) {
  const flip = D.viewer === "black";
  const col = flip ? 7 - file : file;
  const row = flip ? rank : 7 - rank;
  return [M + col * SQ + SQ / 2, M + row * SQ + SQ / 2];
}
function sqInfo(sq) { return D.state.board[sq - 1]; }
function sqXY(sq) { const b = sqInfo(sq); return xy(b.rank, b.file); }

// --- moves ------------------------------------------------------------------------------
function humanToAct() {
  const st = D.state;
  return st && !st.over && st.to_act === "human";
}
function prefixMoves() {
  const p = D.partial;
  return D.state.legal_moves.filter((m) => p.every((s, i) => m.path[i] === s));
}
function movable() {
  if (!humanToAct()) return new Set();
  return new Set(D.state.legal_moves.map((m) => m.start));
}
function capturedSoFar() {
  if (D.partial.length < 2) return [];
  const ms = prefixMoves();
  return ms.length ? ms[0].captures.slice(0, D.partial.length - 1) : [];
}

// --- drawing ----------------------------------------------------------------------------
function drawPiece(g, x, y, colour, king, cls) {
  const w = colour === "white";
  const p = el("g", {class: cls, transform: `translate(${x} ${y})`}, g);
  el("circle", {r: 20, cy: 2.5, fill: "rgba(0,0,0,.35)"}, p);
  el("circle", {r: 20, fill: w ? "#f6efe0" : "#26211d", stroke: w ? "#8a7457" : "#000",
                "stroke-width": 1.5}, p);
  el("circle", {r: 14, fill: "none", stroke: w ? "#cdbb9c" : "#54493f",
                "stroke-width": 2}, p);
  el("circle", {r: 8, fill: "none", stroke: w ? "#ddd0b8" : "#3d3530",
                "stroke-width": 1.2}, p);
  if (king) {
    el("path", {d: "M-11 6 L-13 -7 L-6 -1 L0 -10 L6 -1 L13 -7 L11 6 Z",
                fill: "#e2b33c", stroke: "#7a5a10", "stroke-width": 1.3}, p);
    for (const cx of [-13, 0, 13]) {
      el("circle", {cx, cy: cx ? -7 : -10, r: 2, fill: "#e2b33c", stroke: "#7a5a10",
                    "stroke-width": .8}, p);
    }
  }
  return p;
}

function render() {
  const svg = $("#dama-board");
  if (!svg || !D.state) return;
  svg.textContent = "";
  const st = D.state;
  const board = D.shown || st.board;
  el("rect", {x: 0, y: 0, width: 440, height: 440, rx: 8, fill: "#5b3a21"}, svg);
  for (let r = 0; r < N; r++) {
    for (let f = 0; f < N; f++) {
      const [x, y] = xy(r, f);
      el("rect", {x: x - SQ / 2, y: y - SQ / 2, width: SQ, height: SQ, fill: "#ecd9b4"}, svg);
    }
  }
  const files = "abcdefgh";
  for (let i = 0; i < N; i++) {
    const [x] = xy(0, i);
    const [, y] = xy(i, 0);
    for (const yy of [M / 2 + 4, 440 - M / 2 + 4]) {
      el("text", {x, y: yy, "text-anchor": "middle", "font-size": 11, fill: "#ecd9b4"},
         svg).textContent = files[i];
    }
    for (const xx of [M / 2, 440 - M / 2]) {
      el("text", {x: xx, y: y + 4, "text-anchor": "middle", "font-size": 11,
                  fill: "#ecd9b4"}, svg).textContent = String(i + 1);
    }
  }
  const last = st.last && st.last.kind === "move" && !D.anim ? st.last : null;
  const lastSq = new Set(last ? last.path : []);
  const capSo = new Set(capturedSoFar());
  const can = movable();
  const sel = D.partial.length ? D.partial[D.partial.length - 1] : null;
  const huffable = new Set(humanToAct() ? st.huff : []);
  // dark squares, numbers, last move
  for (const b of board) {
    const [x, y] = xy(b.rank, b.file);
    el("rect", {x: x - SQ / 2, y: y - SQ / 2, width: SQ, height: SQ,
                fill: lastSq.has(b.square) ? "#7d5a2e" : "#6b4a2b",
                class: "sq", "data-square": b.square}, svg);
    if (st.notation !== "algebraic") {   // numeric notation: the squares' numbers
      el("text", {x: x - SQ / 2 + 3, y: y - SQ / 2 + 10, "font-size": 8.5,
                  fill: "#c9ad84"}, svg).textContent = String(b.square);
    }
  }
  if (last) {
    for (const c of last.captures) {
      const [x, y] = sqXY(c);
      el("path", {d: `M${x - 9} ${y - 9} L${x + 9} ${y + 9} M${x + 9} ${y - 9} L${x - 9} ${y + 9}`,
                  stroke: "#e0584a", "stroke-width": 3, "stroke-linecap": "round",
                  opacity: .8}, svg);
    }
  }
  // pieces
  for (const b of board) {
    if (!b.piece) continue;
    if (D.anim && D.anim.square === b.square) continue;
    const [x, y] = xy(b.rank, b.file);
    let cls = `piece ${b.colour} ${b.piece}`;
    if (can.has(b.square)) cls += " can";
    if (huffable.has(b.square)) cls += " huffable";
    const p = drawPiece(svg, x, y, b.colour, b.piece === "king", cls);
    p.setAttribute("data-square", b.square);
    if (capSo.has(b.square) || D.fading.includes(b.square)) p.setAttribute("opacity", ".35");
    if (can.has(b.square) && !D.partial.length) {
      el("circle", {cx: x, cy: y, r: 22.5, fill: "none", stroke: "#58c48f",
                    "stroke-width": 2.5, "pointer-events": "none"}, svg);
    }
    if (huffable.has(b.square)) {
      el("circle", {cx: x, cy: y, r: 23, fill: "none", stroke: "#ff8a1f",
                    "stroke-width": 4, "stroke-dasharray": "6 4",
                    "pointer-events": "none"}, svg);
    }
    if (capSo.has(b.square)) {
      el("path", {d: `M${x - 11} ${y - 11} L${x + 11} ${y + 11} M${x + 11} ${y - 11} L${x - 11} ${y + 11}`,
                  stroke: "#d32f2f", "stroke-width": 4, "stroke-linecap": "round",
                  "pointer-events": "none"}, svg);
    }
  }
  // the selected piece's route and destinations
  if (D.partial.length) {
    const pts = D.partial.map(sqXY);
    if (pts.length > 1) {
      el("polyline", {points: pts.map((p) => p.join(",")).join(" "), fill: "none",
                      stroke: "#ffd000", "stroke-width": 4, "stroke-dasharray": "8 5",
                      "pointer-events": "none"}, svg);
    }
    if (D.partial.length > 1) {
      // the moving piece, drawn on its current landing square
      const start = board[D.partial[0] - 1];
      const [x, y] = pts[pts.length - 1];
      drawPiece(svg, x, y, start.colour, start.piece === "king", "ghost")
        .setAttribute("opacity", ".85");
    }
    const [sx, sy] = sqXY(sel);
    el("circle", {cx: sx, cy: sy, r: 23.5, fill: "none", stroke: "#ffd000",
                  "stroke-width": 4, "pointer-events": "none"}, svg);
    const n = D.partial.length;
    for (const m of prefixMoves()) {
      // the piece each next landing would take: a red dashed ring
      const c = m.path.length > n ? m.captures[n - 1] : undefined;
      if (c === undefined) continue;
      const [x, y] = sqXY(c);
      el("circle", {cx: x, cy: y, r: 23, fill: "none", stroke: "#e53935",
                    "stroke-width": 3, "stroke-dasharray": "5 4",
                    "pointer-events": "none"}, svg);
    }
    for (const d of destinations()) {
      const [x, y] = sqXY(d);
      const c = el("circle", {cx: x, cy: y, r: 13, fill: "rgba(255,224,64,.6)",
                              stroke: "#ffd83a", "stroke-width": 3,
                              class: "dest", "data-square": d}, svg);
      c.addEventListener("click", (e) => { e.stopPropagation(); clickDest(d); });
    }
  }
  if (D.anim) {
    const a = D.anim;
    drawPiece(svg, a.x, a.y, a.colour, a.king, "piece moving");
  }
}

function destinations() {
  const n = D.partial.length;
  const out = new Set();
  for (const m of prefixMoves()) if (m.path.length > n) out.add(m.path[n]);
  return [...out];
}

function renderPanel() {
  const st = D.state;
  if (!st) return;
  const side = st.turn;
  let text;
  if (st.over) {
    const reason = tm(st.reason_msg);
    text = st.winner
      ? t("dama.st.wins", {side: cap(t(`side.${st.winner}`)), result: st.result, reason})
      : t("dama.st.drawn", {result: st.result, reason});
  } else if (st.to_act === "ai") {
    text = t("dama.st.thinking", {side: cap(t(`side.${side}`))});
  } else {
    const caps = st.legal_moves.some((m) => m.captures.length);
    text = t(caps && st.compulsory ? "dama.st.move_capture" : "dama.st.move",
             {side: cap(t(`side.${side}`))});
    if (st.huff.length) text += " " + t("dama.st.huff");
  }
  const huffed = huffText(st.last);
  $("#dama-status").textContent = huffed ? `${huffed} ${text}` : text;
  const pl = $("#dama-players");
  pl.textContent = "";
  for (const s of ["white", "black"]) {
    const p = st.players[s];
    const div = document.createElement("div");
    div.className = "player" + (!st.over && st.turn === s ? " to-act" : "");
    const disc = document.createElement("span");
    disc.className = `disc ${s}`;
    const name = document.createElement("span");
    name.className = "name";
    const level = st.levels && st.levels[s];
    name.textContent = t("dama.pl.row", {side: cap(t(`side.${s}`)), who: p.type === "ai"
      ? t("dama.pl.ai", {level: level ? t(`level.${level}`) : p.level}) : t("dama.pl.human")});
    const cnt = document.createElement("span");
    cnt.className = "pips";
    const c = st.counts[s];
    // "1 man, 2 kings": each count in its plural form
    cnt.textContent = t("dama.counts", {men: tn("dama.n_men", c.men),
                                        kings: tn("dama.n_kings", c.kings)});
    div.append(disc, name, cnt);
    pl.appendChild(div);
  }
  const rulesLine = document.createElement("div");
  rulesLine.className = "opt";
  rulesLine.textContent = t("dama.rules_line", {rules: t(st.rules_key)});
  pl.appendChild(rulesLine);
  // huffing
  const hb = $("#dama-huff");
  hb.textContent = "";
  hb.hidden = !(humanToAct() && st.huff.length);
  if (!hb.hidden) {
    hb.append(t("dama.huff.head") + " ");
    for (const s of st.huff) {
      hb.appendChild(button(t("dama.huff.piece", {square: s}), "", () => huff(s)));
    }
    hb.append(" " + t("dama.huff.tail"));
  }
  // the selected piece's moves as a list (multi-captures: pick the whole move)
  const cb = $("#dama-choices");
  cb.textContent = "";
  const ms = D.partial.length ? prefixMoves() : [];
  cb.hidden = ms.length < 2 && !(ms.length === 1 && ms[0].captures.length > 1);
  if (!cb.hidden) {
    cb.append(t("dama.moves") + " ");
    for (const m of ms) {
      cb.appendChild(button(m.full, "choice", () => send(m)));
    }
  }
  $("#dama-captures").textContent = capturedText(st.last);
  const h = $("#dama-history");
  h.textContent = "";
  let pending = "", n = 0;
  for (const ply of st.history) {
    if (ply.text.startsWith("*")) { pending = `${ply.text} `; continue; }  // a huff
    const li = document.createElement("li");
    li.textContent = pending + ply.text;
    pending = "";
    li.className = ply.side;
    if (ply.side === "white") n += 1;
    li.dataset.n = n;
    if (ply.side === "black" && !h.children.length) {
      const gap = document.createElement("li");
      gap.className = "white";
      gap.dataset.n = 1;
      gap.textContent = "…";
      h.appendChild(gap);
      n = 1;
    }
    h.appendChild(li);
  }
  h.scrollTop = h.scrollHeight;
  // a finished game is not taken back: Play again starts a new one with the same settings
  $("#dama-undo").hidden = st.over;
  $("#dama-undo").disabled = st.plies === 0;
  $("#dama-rematch").hidden = !st.over;
}

// --- actions ----------------------------------------------------------------------------
// --- a finger's reach (phone first): a tap or drop that misses the squares offered by
// less than REACH CSS px goes to the nearest of them (the board's squares are 41 px at
// 360 px; each offered square takes taps 44 px wide)
const REACH = 22;

/** The SVG point of a pointer event on the board. */
function svgAt(evt) { return svgPoint($("#dama-board"), evt); }

/** The offered square nearest to the SVG point `at` within REACH px, or null. */
function nearestSquare(at, squares) {
  const scale = $("#dama-board").getScreenCTM().a || 1;
  let best = null, bestD = REACH / scale;
  for (const sq of squares) {
    const [x, y] = sqXY(sq);
    const d = Math.hypot(Math.max(Math.abs(at.x - x) - SQ / 2, 0),
                         Math.max(Math.abs(at.y - y) - SQ / 2, 0));
    if (d <= bestD) { best = sq; bestD = d; }
  }
  return best;
}

/** The squares a tap may mean now: the next landings, the pieces that may move or be
 * huffed. */
function offered() {
  const out = new Set(D.partial.length ? destinations() : []);
  for (const s of movable()) out.add(s);
  for (const s of humanToAct() ? D.state.huff : []) out.add(s);
  return out;
}

/** The square under an event, or the nearest one offered within reach. */
function tapSquare(evt) {
  const g = evt.target.closest ? evt.target.closest("[data-square]") : null;
  const sq = g ? Number(g.getAttribute("data-square")) : null;
  const offers = offered();
  if (sq !== null && offers.has(sq)) return sq;
  const near = nearestSquare(svgAt(evt), offers);
  return near === null ? sq : near;
}

/** Drag a piece that may move to a square it may land on (the next landing of a
 * capture: the chain goes on from there); a short press is a tap. */
function setupDrag() {
  const svg = $("#dama-board");
  let drag = null;
  svg.addEventListener("pointerdown", (evt) => {
    if (document.body.dataset.busy === "1" || !humanToAct() || D.partial.length > 1) return;
    const sq = tapSquare(evt);
    if (sq === null || !movable().has(sq)) return;
    drag = {sq, id: evt.pointerId, x: evt.clientX, y: evt.clientY, moved: false};
  });
  svg.addEventListener("pointermove", (evt) => {
    if (!drag || evt.pointerId !== drag.id) return;
    if (!drag.moved && Math.hypot(evt.clientX - drag.x, evt.clientY - drag.y) < 8) return;
    if (!drag.moved) {
      drag.moved = true;
      svg.setPointerCapture(evt.pointerId);
      D.partial = [drag.sq];
      const b = sqInfo(drag.sq);
      D.anim = {square: drag.sq, colour: b.colour, king: b.piece === "king", x: 0, y: 0};
    }
    const at = svgAt(evt);
    D.anim.x = at.x;
    D.anim.y = at.y;
    render();
    evt.preventDefault();
  });
  const end = (evt) => {
    if (!drag || evt.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.moved) return;            // a tap: the click listener has it
    D.anim = null;
    D.suppressClick = true;
    setTimeout(() => { D.suppressClick = false; }, 0);
    const to = nearestSquare(svgAt(evt), destinations());
    if (to !== null) { clickDest(to); return; }
    D.partial = [];
    draw();
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
}

function clickBoard(evt) {
  if (D.suppressClick) return;
  if (document.body.dataset.busy === "1" || !humanToAct()) return;
  const at = tapSquare(evt);
  if (at === null) { D.partial = []; draw(); return; }
  pressSquare(at);
}

/** A click (or Enter) on the square `sq`: huff the piece there, land there, pick up the
 * piece there (again: put it back), else drop the choice. */
function pressSquare(sq) {
  if (D.state.huff.includes(sq) && sqInfo(sq).piece) { huff(sq); return; }
  if (D.partial.length && destinations().includes(sq)) { clickDest(sq); return; }
  if (movable().has(sq)) D.partial = D.partial[0] === sq && D.partial.length === 1 ? [] : [sq];
  else D.partial = [];
  draw();
}

function clickDest(sq) {
  D.partial.push(sq);
  const ms = prefixMoves();
  const exact = ms.filter((m) => m.path.length === D.partial.length);
  const longer = ms.filter((m) => m.path.length > D.partial.length);
  if (exact.length === 1 && !longer.length) { send(exact[0]); return; }
  draw();
}

async function send(m) {
  const tok = D.token;
  busy(true);
  try {
    const st = await api("POST", `/api/games/${D.state.id}/move`, {path: m.path});
    D.partial = [];
    if (tok !== D.token) return;
    await show(st, 220);
  } catch (e) {
    D.partial = [];
    toast(e.message);
    draw();
  } finally {
    busy(false);
  }
  proceed();
}

/** POST `action` of this game and draw the state it answers (no animation). */
async function redraw(action, body) {
  busy(true);
  try {
    const st = await api("POST", `/api/games/${D.state.id}/${action}`, body);
    D.partial = [];
    D.state = st;
    D.shown = null;
    draw();
  } catch (e) {
    toast(e.message);
  } finally {
    busy(false);
  }
}

function huff(sq) { return redraw("huff", {square: sq}); }

function undo() { return redraw("undo", {}); }

/** Start the game the server makes for `request` (a new game, a rematch). */
async function startNew(request, after) {
  busy(true);
  try {
    const st = await request();
    if (after) after();
    D.token += 1;
    start(st);
  } catch (e) {
    toast(e.message);
  } finally {
    busy(false);
  }
  proceed();
}

function rematch() {
  return startNew(() => api("POST", `/api/games/${D.state.id}/rematch`, {}));
}

/** Show a new state; when its last ply is a move, slide the piece along its path from
 * the board drawn now, fading the captured pieces as they are jumped. */
async function show(st, ms) {
  const before = (D.state && D.state.board) ? D.state.board.map((b) => ({...b})) : null;
  const last = st.last;
  D.state = st;
  if (before && last && last.kind === "move" && before[last.start - 1].piece) {
    if (last.huffed) before[last.huffed - 1].piece = null;
    D.shown = before;
    const piece = before[last.start - 1];
    D.anim = {square: last.start, colour: piece.colour, king: piece.piece === "king",
              x: 0, y: 0};
    D.fading = [];
    for (let i = 1; i < last.path.length; i++) {
      const [x0, y0] = sqXY(last.path[i - 1]);
      const [x1, y1] = sqXY(last.path[i]);
      const t0 = performance.now();
      for (;;) {
        const t = Math.min(1, (performance.now() - t0) / ms);
        const e = t < .5 ? 2 * t * t : 1 - 2 * (1 - t) * (1 - t);
        D.anim.x = x0 + (x1 - x0) * e;
        D.anim.y = y0 + (y1 - y0) * e;
        render();
        if (t >= 1) break;
        await new Promise((r) => requestAnimationFrame(r));
      }
      if (last.captures[i - 1]) D.fading.push(last.captures[i - 1]);
      await sleep(60);
    }
  }
  D.anim = null;
  D.fading = [];
  D.shown = null;
  draw();
}

async function proceed() {
  const st = D.state;
  if (!st || st.over || st.to_act !== "ai") return;
  const tok = D.token;
  busy(true);
  try {
    await sleep(250);
    const next = await api("POST", `/api/games/${st.id}/ai`, {});
    if (tok !== D.token) return;
    await show(next, 320);
  } catch (e) {
    toast(e.message);
  } finally {
    busy(false);
  }
  if (tok === D.token) proceed();
}

function draw() { render(); renderPanel(); drawCursor(); announceLast(); }

// --- the keyboard -------------------------------------------------------------------------
// The board is focusable, with a cursor over the dark squares: the arrows move it, Enter
// or Space does what a click on its square does (pick up a piece the state's legal moves
// move, land it on a square they offer, huff), Escape puts the piece back. Two live
// regions say what the cursor is on and each move played, in the players' notation.
const KB = {sq: null, col: null, said: null};

/** The view's [row, col] of the square `sq` (row 0 at the top). */
function cellOf(sq) {
  const b = sqInfo(sq);
  const flip = D.viewer === "black";
  return [flip ? b.rank : 7 - b.rank, flip ? 7 - b.file : b.file];
}

function squareAt(row, col) {
  for (const b of D.state.board) {
    const [r, c] = cellOf(b.square);
    if (r === row && c === col) return b.square;
  }
  return null;
}

/** The square the cursor goes to first: the next landing, else a piece to huff or move. */
function firstOffer() {
  if (D.partial.length) {
    const d = destinations();
    if (d.length) return d[0];
  }
  if (humanToAct() && D.state.huff.length) return D.state.huff[0];
  const m = [...movable()];
  return m.length ? m[0] : null;
}

function drawCursor() {
  const svg = $("#dama-board");
  if (!svg || !D.state) return;
  const old = svg.querySelector(".kb-cursor");
  if (old) old.remove();
  if (KB.sq === null) KB.sq = firstOffer() || D.state.board[0].square;
  svg.dataset.cursor = String(KB.sq);
  const [x, y] = sqXY(KB.sq);
  const g = el("g", {class: "kb-cursor", "aria-hidden": "true"}, svg);
  for (const cls of ["kb-outer", "kb-inner"]) {
    el("rect", {x: x - SQ / 2 + 2, y: y - SQ / 2 + 2, width: SQ - 4, height: SQ - 4, rx: 5,
                class: cls}, g);
  }
}

/** What the cursor is on, in words. */
function cursorWords() {
  const sq = KB.sq;
  const b = sqInfo(sq);
  const what = b.piece ? t(`dama.a11y.${b.colour}_${b.piece}`) : t("a11y.cur.empty");
  const sel = D.partial.length ? D.partial[D.partial.length - 1] : null;
  let flag = "";
  if (sel === sq) flag = t("a11y.cur.selected");
  else if (sel !== null && destinations().includes(sq)) flag = t("a11y.cur.dest");
  else if (humanToAct() && D.state.huff.includes(sq)) flag = t("dama.a11y.huff");
  else if (sel === null && movable().has(sq)) flag = t("dama.a11y.movable");
  return `${t("dama.a11y.square", {square: b.name})}: ${what}` + (flag ? `. ${flag}` : "");
}

function sayCursor(text) { $("#dama-cursor").textContent = text; }

function moveCursor(key) {
  const [row, col] = cellOf(KB.sq);
  let to = null;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    to = squareAt(row, col + (key === "ArrowRight" ? 2 : -2));
    if (to !== null) KB.col = cellOf(to)[1];
  } else {
    // up or down a row: the dark square nearest the column the cursor was put on
    const r = row + (key === "ArrowDown" ? 1 : -1);
    const want = KB.col === null ? col : KB.col;
    const near = [col - 1, col + 1].sort((a, b) => Math.abs(a - want) - Math.abs(b - want));
    for (const c of near) {
      to = squareAt(r, c);
      if (to !== null) break;
    }
  }
  if (to === null) return;
  KB.sq = to;
  drawCursor();
  sayCursor(cursorWords());
}

function pressCursor() {
  if (document.body.dataset.busy === "1" || !humanToAct()) return;
  const sq = KB.sq;
  pressSquare(sq);
  if (document.body.dataset.busy === "1") return;   // the move (or huff) went out
  const now = D.partial.length;
  if (now) {
    // picked up, or half way through a capture: the cursor on the next landing
    const d = destinations();
    if (d.length) KB.sq = d[0];
    KB.col = null;
    drawCursor();
  }
  sayCursor((now === 1 ? t("dama.a11y.picked", {square: sqInfo(sq).name}) + " " : "") +
            cursorWords());
}

function boardKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || !D.state) return;
  if (e.key.startsWith("Arrow")) {
    e.preventDefault();
    moveCursor(e.key);
  } else if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    e.stopPropagation();     // not the page's own keys as well
    pressCursor();
  } else if (e.key === "Escape" && D.partial.length) {
    e.preventDefault();
    e.stopPropagation();
    KB.sq = D.partial[0];    // the cursor back on the piece put back
    D.partial = [];
    draw();
    sayCursor(cursorWords());
  }
}

/** The pieces the last move captured, in a line of their own ("" for none). */
function capturedText(last) {
  if (!last || last.kind !== "move" || !last.captures.length) return "";
  return t("dama.captured", {side: cap(t(`side.${last.side}`)), n: last.captures.length,
                             move: last.full,
                             squares: (last.captured_names || last.captures).join(", ")});
}

/** The huff of the last ply (the server's words: which piece, and that it could have
 * captured), "" for none: said in the status line, as the piece vanished without a move. */
function huffText(last) { return last && last.huff_msg ? tm(last.huff_msg) : ""; }

/** Say the move just played (the person's or the AI's), once, in the players' notation. */
function announceLast() {
  const st = D.state;
  if (!st) return;
  const key = `${st.id}:${st.plies}`;
  const fresh = KB.said === null || !KB.said.startsWith(`${st.id}:`);
  if (KB.said === key) return;
  KB.said = key;
  const last = st.last;
  if (fresh || !last) return;
  const huffed = huffText(last);
  if (last.kind !== "move") {
    if (huffed) announce(huffed, "dama-live");   // a11y.js
    return;
  }
  const played = t("dama.a11y.played", {side: cap(t(`side.${last.side}`)), move: last.full});
  announce(huffed ? `${huffed} ${played}` : played, "dama-live");
}

function setupKeys() {
  const svg = $("#dama-board");
  svg.setAttribute("tabindex", "0");
  svg.setAttribute("role", "application");
  svg.setAttribute("aria-roledescription", t("a11y.board"));
  const wrap = $("#dama-board-wrap");
  wrap.append(...liveRegions("dama"));   // a11y.js
  svg.addEventListener("keydown", boardKey);
  svg.addEventListener("focus", () => {
    // the cursor on something to do when it is on nothing to do
    if (!D.state) return;
    const offers = offered();
    if (!offers.has(KB.sq)) {
      const first = firstOffer();
      if (first !== null) KB.sq = first;
      drawCursor();
    }
    sayCursor(cursorWords());
  });
}

// --- the page ---------------------------------------------------------------------------
function enter() {
  document.body.dataset.mode = "dama";
  $("#dama-view").hidden = false;
  $("#title").textContent = t("game.dama");
}

/** Leave Dama's view (tavli play's game takes the page again). */
export function leaveDama() {
  D.token += 1;
  D.state = null;
  document.body.dataset.mode = "tavli";
  $("#dama-view").hidden = true;
}

async function load(id) {
  D.token += 1;
  busy(true);
  try {
    const st = await api("GET", `/api/games/${encodeURIComponent(id)}`);
    start(st);
  } catch (e) {
    toast(e.message);
    if (e.status === 404) history.replaceState(null, "", "#");
  } finally {
    busy(false);
  }
  proceed();
}

function start(st) {
  enter();
  D.state = st;
  D.partial = [];
  KB.sq = null;
  KB.col = null;
  D.shown = null;
  const ps = st.players;
  D.viewer = ps.white.type === "ai" && ps.black.type === "human" ? "black" : "white";
  if (location.hash !== `#/dama/${st.id}`) history.replaceState(null, "", `#/dama/${st.id}`);
  draw();
}

function syncDialog() {
  const dama = $("#ng-variant").value === "dama";  // the dialog's entry for every rule set
  $("#ng-dama-label").hidden = !dama;
  $("#ng-points-label").hidden = dama;
  $("#ng-first-label").hidden = dama;
}

async function submit(evt) {
  if (evt.target.id !== "form-new" || $("#ng-variant").value !== "dama") return;
  evt.preventDefault();
  evt.stopImmediatePropagation();
  // the dialog's choice as a rule set and its options (the box rules without huffing: an
  // entry of their own); the box rules are the game's default, "dama"
  const r = $("#ng-dama-rules").value;
  const variant = r.startsWith("box") ? "dama" : r;
  const rules = r === "box-compulsory" ? {huffing: false} : {};
  const body = {variant, rules, ...opponentRequest()};
  await startNew(() => api("POST", "/api/games", body), () => $("#dlg-new").close());
}

/** Set up Dama's view of tavli play's page (after app.js's setupApp) and open the game of
 * the address (#/dama/ID). */
export function setupDama() {
  document.addEventListener("submit", submit, true);
  $("#ng-variant").addEventListener("change", syncDialog);
  $("#btn-new").addEventListener("click", syncDialog);
  $("#dama-board").addEventListener("click", clickBoard);
  setupDrag();
  setupKeys();
  $("#dama-undo").addEventListener("click", undo);
  $("#dama-rematch").addEventListener("click", rematch);
  window.addEventListener("hashchange", () => {
    const m = location.hash.match(/^#\/dama\/([\w-]+)/);
    if (m && (!D.state || D.state.id !== m[1])) load(m[1]);
  });
  syncDialog();
  const m = location.hash.match(/^#\/dama\/([\w-]+)/);
  if (m) {
    const d = $("#dlg-new");
    if (d.open) d.close();
    catalogueReady.then(() => load(m[1]));   // its texts drawn in the page's language
  }
}

