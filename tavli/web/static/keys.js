/* Playing by keyboard, shared by tavli play's page and the online game page, whose entry
 * modules call setupKeys after setupA11y (a11y.js) and before their own set-up.
 *
 * The board (#board, focusable) has a cursor over its slots: the arrow keys move it
 * (left/right along a row, wrapping to the other row; up/down between the rows), Enter
 * or Space picks up the checker under it or puts the one picked up down there (the same
 * as a click: board.js's clickSlot, so only the steps of the engine's turn tree are
 * offered), and, once the steps make a whole move, confirms it; Escape puts the checker
 * back. Letter keys press the panel's buttons (R roll, D double, T take, P drop, U undo,
 * C confirm, H hint, N next game / play again; in Dama U and N too), B goes to the board
 * shown (Dama's has its own cursor: dama.js), ? opens the help;
 * letters are read by their place on the keyboard (KeyR), so a Greek layout works too.
 * Exports setupKeys.
 */
import {labelOf, openHelp, ownsKey, sayCursor, sideName} from "./a11y.js";
import {
  AREA_H, BARW, BAR_X, MID_BOT, MID_TOP, PW, S, TRAYW, Y_TOP, boardHooks, canPlayHere, clickSlot,
  completeMove, confirmMove, fromView, isTop, moverSide, options, render, renderBoard, slotX,
  stackAt, toView, trayRect,
} from "./board.js";
import {t} from "./i18n.js";
import {el} from "./util.js";

// the viewer's slots in the board's two rows, left to right ("bar" and "off" in both)
const KB_ROWS = [[13, 14, 15, 16, 17, 18, "bar", 19, 20, 21, 22, 23, 24, "off"],
                 [12, 11, 10, 9, 8, 7, "bar", 6, 5, 4, 3, 2, 1, "off"]];
const KB = {row: 1, col: 12};

const SHORTCUTS = {
  KeyR: ["#btn-roll"], KeyD: ["#btn-double"], KeyT: ["#btn-take"], KeyP: ["#btn-drop"],
  KeyU: ["#btn-undo", "#dama-undo"], KeyC: ["#btn-confirm"], KeyH: ["#btn-hint"],
  KeyN: ["#btn-next", "#btn-rematch", "#dama-rematch"],
};

/** The mover's slot under the cursor (25 the bar, 0 off), or null without a board. */
function cursorSlot() {
  if (!S.sim) return null;
  const v = KB_ROWS[KB.row][KB.col];
  if (v === "bar") return 25;
  if (v === "off") return 0;
  return fromView(moverSide(), v);
}

/** Put the cursor on the mover's slot p. */
function placeCursor(p) {
  if (!S.sim) return;
  if (p === 25) { KB.col = 6; return; }
  if (p === 0) {
    KB.col = 13;
    KB.row = moverSide() === S.viewer ? 1 : 0;
    return;
  }
  const v = toView(moverSide(), p);
  KB.row = isTop(v) ? 0 : 1;
  KB.col = KB_ROWS[KB.row].indexOf(v);
}

/** The cursor's frame round the slot under it. */
function drawCursor(svg) {
  if (!S.sim) return;
  svg.dataset.cursor = String(cursorSlot());
  const v = KB_ROWS[KB.row][KB.col];
  let r;
  if (v === "bar") r = {x: BAR_X, y: Y_TOP, w: BARW, h: AREA_H};
  else if (v === "off") {
    const tr = trayRect(KB.row === 1 ? S.viewer : 1 - S.viewer);
    r = {x: tr.x, y: tr.y, w: TRAYW, h: tr.h};
  } else {
    r = {x: slotX(v), y: isTop(v) ? Y_TOP : MID_BOT - 30, w: PW, h: MID_TOP - Y_TOP + 30};
  }
  const g = el("g", {class: "kb-cursor", "aria-hidden": "true"}, svg);
  el("rect", {x: r.x + 2, y: r.y + 2, width: r.w - 4, height: r.h - 4, rx: 6,
              class: "kb-outer"}, g);
  el("rect", {x: r.x + 2, y: r.y + 2, width: r.w - 4, height: r.h - 4, rx: 6,
              class: "kb-inner"}, g);
}

function redrawCursor() {
  const svg = document.getElementById("board");
  const old = svg.querySelector(".kb-cursor");
  if (old) old.remove();
  drawCursor(svg);
}

/** What the cursor is on, in words (for the live region). */
function cursorWords() {
  const p = cursorSlot();
  if (p === null) return "";
  const mover = moverSide();
  const count = (n, side) => t("a11y.cur.count", {n, side: sideName(side)});
  let where, what = [];
  if (p === 25) {
    where = t("a11y.cur.bar");
    for (const side of [0, 1]) if (S.sim.s[side].bar) what.push(count(S.sim.s[side].bar, side));
  } else if (p === 0) {
    const side = KB.row === 1 ? S.viewer : 1 - S.viewer;
    where = t("a11y.cur.off", {side: sideName(side)});
    if (S.sim.s[side].off) what.push(count(S.sim.s[side].off, side));
  } else {
    const v = toView(mover, p);
    where = t("a11y.cur.point", {point: labelOf(v)});
    const n = [0, 0];
    for (const c of stackAt(S.sim, v)) n[c.side] += 1;
    for (const side of [0, 1]) if (n[side]) what.push(count(n[side], side));
  }
  const opts = options();
  const flags = [];
  if (S.selected === p) flags.push(t("a11y.cur.selected"));
  else if (S.selected !== null && (opts.get(S.selected) || new Map()).has(p)) {
    flags.push(t("a11y.cur.dest"));
  } else if (S.selected === null && opts.has(p)) flags.push(t("a11y.cur.movable"));
  return `${where}: ${what.join(", ") || t("a11y.cur.empty")}` +
    (flags.length ? `. ${flags.join(". ")}` : "");
}

function moveCursor(key) {
  const n = KB_ROWS[0].length;
  if (key === "ArrowRight" || key === "ArrowLeft") {
    const d = key === "ArrowRight" ? 1 : -1;
    KB.col += d;
    if (KB.col >= n) { KB.col = 0; KB.row = 1 - KB.row; }
    if (KB.col < 0) { KB.col = n - 1; KB.row = 1 - KB.row; }
  } else {
    KB.row = key === "ArrowUp" ? 0 : 1;
  }
  redrawCursor();
  sayCursor(cursorWords());
}

/** Enter or Space on the board: pick up, put down, or confirm a whole move. */
function pressCursor() {
  const p = cursorSlot();
  if (p === null || !canPlayHere()) return;
  const opts = options();
  const before = S.selected;
  if (before !== null && (opts.get(before) || new Map()).has(p)) {
    clickSlot(p);   // put down: the steps play (the checker slides unless motion is off)
    return;
  }
  if (opts.has(p) || before !== null) {
    clickSlot(p);
    if (S.selected !== null && S.selected !== before) {
      // picked up: the cursor goes to the first place it may go
      const first = (opts.get(S.selected) || new Map()).keys().next();
      if (!first.done) placeCursor(first.value);
      renderBoard();
      sayCursor(`${t("a11y.picked", {point: p === 25 ? t("a11y.cur.bar") : p})} ` +
               cursorWords());
    } else {
      sayCursor(cursorWords());
    }
    return;
  }
  if (completeMove()) confirmMove();
}

/** Press the first of the buttons `ids` that is shown and enabled. */
function pressButton(ids) {
  for (const id of ids) {
    const b = document.querySelector(id);
    if (b && !b.hidden && !b.disabled && b.offsetParent !== null) {
      b.click();
      return true;
    }
  }
  return false;
}

export function setupKeys() {
  const board = document.getElementById("board");
  boardHooks.push((svg) => drawCursor(svg));
  board.addEventListener("focus", () => {
    // on a turn's first visit: the cursor on the first checker that may move
    const opts = options();
    if (S.selected === null && opts.size && !opts.has(cursorSlot())) {
      placeCursor(opts.keys().next().value);
      redrawCursor();
    }
  });
  board.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key.startsWith("Arrow")) {
      e.preventDefault();
      moveCursor(e.key);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();     // not the page's own Enter (confirm) as well
      pressCursor();
    } else if (e.key === "Escape" && S.selected !== null) {
      e.preventDefault();
      S.selected = null;
      render();
      sayCursor(cursorWords());
    }
  });
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const tgt = e.target;
    if (ownsKey(tgt, "dialog[open], input, select, textarea")) return;
    if (e.key === "?") {
      e.preventDefault();
      openHelp();
      return;
    }
    if (e.code === "KeyB") {   // the board shown: tavli's, or Dama's (dama.js's keys)
      e.preventDefault();
      const dama = document.body.dataset.mode === "dama" && document.getElementById("dama-board");
      (dama || board).focus();
      return;
    }
    if (e.key === "Escape" && S.selected !== null) {
      S.selected = null;
      render();
      return;
    }
    const ids = SHORTCUTS[e.code];
    if (ids && !e.shiftKey && pressButton(ids)) e.preventDefault();
  });
}

