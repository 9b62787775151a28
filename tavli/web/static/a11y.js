/* Accessibility of the board, shared by tavli play's page (app.js) and the online game page
 * (online.js), whose entry modules call setupA11y before setupKeys (keys.js) and their own
 * set-up.
 *
 * - the settings: reduced motion (checkers jump instead of sliding; default: the system's
 *   prefers-reduced-motion), sound (off by default) and quick play (no pauses before and
 *   between the opponent's steps; off by default), kept in localStorage ("tavli.motion",
 *   "tavli.sound", "tavli.quick": "1"/"0"), changed in the help dialog ("?");
 * - the board's description for screen readers (#board-desc, the board's
 *   aria-describedby): whose turn, the dice, the pip counts, the score, the position in
 *   words and the last move of each side, rewritten whenever the board is drawn;
 * - announcements (#a11y-live, a polite live region): each move played (the opponent's
 *   and the AI's too), "your turn", what the keyboard cursor is on;
 * - the pip counts and the match score drawn on the board's frame (always in sight);
 * - the "your turn" cue (body[data-your-turn="1"], styled in style.css).
 * Every text by key (i18n.js); the page knows no rule: the words say what the state says.
 * Exports setupA11y, announce, sayCursor, liveRegions (Dama's board has its own), ownsKey,
 * openHelp, sideName and labelOf (keys.js's words).
 */
import {BARW, BAR_X, COLORS, S, SIDES, TRAYW, TRAY_X, Y_BOT, Y_TOP, boardHooks, fromView, pips}
  from "./board.js";
import {t} from "./i18n.js";
import {playSound} from "./sound.js";
import {THEMES, setTheme, theme} from "./theme.js";
import {MOTION, button, cap, el, option} from "./util.js";

const A11Y = {
  lastKeys: null,      // the last turns announced: {side: key}, per game
  gameId: null,
  yourTurn: false,
};

// --- settings ------------------------------------------------------------------------------
function prefOn(name, dflt) {
  const v = localStorage.getItem(`tavli.${name}`);
  return v === null ? dflt : v === "1";
}

function systemReducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

function applyPrefs() {
  MOTION.reduced = prefOn("motion", systemReducedMotion());
  document.body.dataset.reducedMotion = MOTION.reduced ? "1" : "0";
  document.body.dataset.sound = prefOn("sound", false) ? "1" : "0";
  MOTION.quick = prefOn("quick", false);
}

function setPref(name, on) {
  localStorage.setItem(`tavli.${name}`, on ? "1" : "0");
  applyPrefs();
}

// --- announcements -------------------------------------------------------------------------
/** Say `text` through the live region `id` (a log: a screen reader reads each line added;
 * the last few stay). */
export function announce(text, id = "a11y-live") {
  const live = document.getElementById(id);
  if (!live || !text) return;
  const line = document.createElement("p");
  line.textContent = text;
  live.appendChild(line);
  while (live.childElementCount > 6) live.firstElementChild.remove();
}

/** Say what the keyboard's cursor is on (its own region: each text replaces the last). */
export function sayCursor(text) {
  const region = document.getElementById("a11y-cursor");
  if (region) region.textContent = text;
}

export function sideName(side) { return t(`side.${SIDES[side]}`); }

/** The last turn of each side as the state tells it (last_moves: tavli play's state and
 * the online page's board have it): {side: {key, text}}. */
function lastTurns(st) {
  const out = {};
  const say = (side, dice, move, pass) => (pass
    ? t("a11y.passed", {side: cap(sideName(side)), dice})
    : t("a11y.played", {side: cap(sideName(side)), dice, move}));
  if (st.last_moves) {
    for (const side of [0, 1]) {
      const lm = st.last_moves[SIDES[side]];
      if (!lm) continue;
      out[SIDES[side]] = {key: `${st.game_number}:${lm.turn}:${lm.move}`,
                          text: say(side, lm.dice_text, lm.shown, lm.pass)};
    }
  }
  return out;
}

/** Announce the turns played since the last drawing (none on a game's first drawing). */
function announceMoves(st) {
  if (!st || st.phase === "animating") return;
  const turns = lastTurns(st);
  const fresh = A11Y.gameId !== st.id || A11Y.lastKeys === null;
  const said = [];
  for (const [side, lt] of Object.entries(turns)) {
    if (!fresh && A11Y.lastKeys[side] !== lt.key) said.push(lt.text);
  }
  A11Y.gameId = st.id;
  A11Y.lastKeys = Object.fromEntries(Object.entries(turns).map(([s, lt]) => [s, lt.key]));
  if (said.length) {
    announce(said.join(" "));
    playSound("move");
  }
}

// --- the "your turn" cue ---------------------------------------------------------------------
function yourTurnNow() {
  const st = S.state;
  if (!st || S.busy || S.review || S.sliding || st.imported) return false;
  if (["over", "animating"].includes(st.phase) || st.ai_to_act) return false;
  if (st.status && st.status !== "playing") return false;   // online: not begun, or over
  return st.can_act !== false;
}

function updateYourTurn() {
  const on = yourTurnNow();
  document.body.dataset.yourTurn = on ? "1" : "0";
  if (on && !A11Y.yourTurn) {
    const st = S.state;
    const two = !!st.players && SIDES.every((s) => st.players[s] && st.players[s].type === "human");
    announce(two ? t("a11y.turn_of", {side: cap(t(`side.${st.turn}`))}) : t("a11y.your_turn"));
    playSound("turn");
  }
  A11Y.yourTurn = on;
}

// --- the board's description ------------------------------------------------------------------
/** The printed number of the viewer's point v (the numbers on the board). */
export function labelOf(v) {
  const st = S.state;
  const side = st && st.numbering && !S.reviewTurn ? SIDES.indexOf(st.numbering) : S.viewer;
  return side === S.viewer ? v : S.sim.opposite[v];
}

/** One side's checkers in words: "2 on 24, 5 on 13; 1 on the bar; 3 borne off". */
function sideWords(sim, side) {
  const parts = [];
  const pts = [];
  for (let v = 1; v <= 24; v++) {
    const p = fromView(side, v);
    const n = sim.s[side].pts[p];
    // a pinned checker (Plakoto) lies under the other side's: it is not in the count
    if (n || sim.s[side].pinned.has(p)) pts.push([labelOf(v), n, sim.s[side].pinned.has(p)]);
  }
  pts.sort((a, b) => b[0] - a[0]);
  for (const [label, n, pinned] of pts) {
    if (n) parts.push(t("a11y.on", {n, point: label}));
    if (pinned) parts.push(t("a11y.pinned", {point: label}));
  }
  if (sim.s[side].bar) parts.push(t("a11y.bar", {n: sim.s[side].bar}));
  if (sim.s[side].off) parts.push(t("a11y.off", {n: sim.s[side].off}));
  return t("a11y.side", {side: cap(sideName(side)), list: parts.join(", ") || t("a11y.none")});
}

// a side's points in the match: the local app's state names the sides ({white, black}), the
// online state lists them ([white, black])
function sidePoints(st, side) {
  return Array.isArray(st.score) ? st.score[side] : st.score[SIDES[side]];
}

function scoreWords(st) {
  if (!st || !st.score || !st.target) return "";
  return t("a11y.score", {white: sidePoints(st, 0), black: sidePoints(st, 1), target: st.target});
}

function describe(st) {
  const lines = [];
  const status = document.getElementById("status");
  if (status && status.textContent) lines.push(status.textContent);
  if (st && st.dice_text && st.phase === "move") {
    lines.push(t("a11y.dice", {dice: st.dice_text}));
  }
  if (S.sim) {
    lines.push(t("a11y.pips", {white: pips(S.sim, 0), black: pips(S.sim, 1)}));
    const score = scoreWords(st);
    if (score) lines.push(score);
    lines.push(`${sideWords(S.sim, 0)}.`, `${sideWords(S.sim, 1)}.`);
  }
  if (st && !S.reviewTurn) {
    for (const lt of Object.values(lastTurns(st))) lines.push(lt.text);
  }
  return lines.join(" ");
}

// --- the pip counts and the score on the frame --------------------------------------------------
function drawFrameTexts(svg, st) {
  if (!S.sim) return;
  const text = (x, y, s, cls, title) => {
    const g = el("g", {class: "frame-text", "aria-hidden": "true"}, svg);
    el("title", {}, g).textContent = title;     // a tooltip for the mouse
    const e = el("text", {x, y, "text-anchor": "middle", "font-size": 15, "font-weight": 700,
                          fill: COLORS.num, class: cls}, g);
    e.textContent = s;
  };
  for (const side of [0, 1]) {
    const y = side === S.viewer ? Y_BOT + 19 : Y_TOP - 7;
    const n = pips(S.sim, side);
    text(TRAY_X + TRAYW / 2, y, String(n), `pip-count ${SIDES[side]}`,
         t("a11y.pips_of", {side: sideName(side), n}));
    if (st && st.target && st.score && !S.reviewTurn) {
      const pts = sidePoints(st, side);
      text(BAR_X + BARW / 2, y, `${pts}/${st.target}`, `score ${SIDES[side]}`,
           t("a11y.score_of", {side: sideName(side), n: pts, target: st.target}));
    }
  }
}

// --- the help dialog (keyboard and settings) ---------------------------------------------------
const KEYS_HELP = [
  ["← → ↑ ↓", "a11y.key.arrows"], ["Enter, Space", "a11y.key.enter"],
  ["Esc", "a11y.key.escape"], ["R", "a11y.key.roll"], ["D", "a11y.key.double"],
  ["T", "a11y.key.take"], ["P", "a11y.key.drop"], ["U, Backspace", "a11y.key.undo"],
  ["C", "a11y.key.confirm"], ["H", "a11y.key.hint"], ["N", "a11y.key.next"],
  ["B", "a11y.key.board"], ["?", "a11y.key.help"],
];
// while a Dama game is shown (dama.js's keys)
const KEYS_HELP_DAMA = [
  ["← → ↑ ↓", "a11y.key.dama_arrows"], ["Enter, Space", "a11y.key.dama_enter"],
  ["Esc", "a11y.key.dama_escape"], ["U", "a11y.key.undo"], ["N", "a11y.key.next"],
  ["B", "a11y.key.board"], ["?", "a11y.key.help"],
];

function helpDialog() {
  let d = document.getElementById("dlg-help");
  if (d) return d;
  d = document.createElement("dialog");
  d.id = "dlg-help";
  d.setAttribute("aria-labelledby", "help-title");
  document.body.appendChild(d);
  return d;
}

function fillHelp(d) {
  d.replaceChildren();
  const h = document.createElement("h2");
  h.id = "help-title";
  h.textContent = t("a11y.help.title");
  const table = document.createElement("table");
  table.className = "keys";
  const caption = document.createElement("caption");
  caption.textContent = t("a11y.help.keys");
  table.appendChild(caption);
  const body = document.createElement("tbody");
  const dama = document.body.dataset.mode === "dama";
  for (const [keys, what] of dama ? KEYS_HELP_DAMA : KEYS_HELP) {
    if (what === "a11y.key.hint" && !document.getElementById("btn-hint")) continue;
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    for (const k of keys.split(", ")) {
      const kbd = document.createElement("kbd");
      kbd.textContent = k;
      th.append(kbd, " ");
    }
    const td = document.createElement("td");
    td.textContent = t(what);
    tr.append(th, td);
    body.appendChild(tr);
  }
  table.appendChild(body);
  const fs = document.createElement("fieldset");
  const lg = document.createElement("legend");
  lg.textContent = t("a11y.help.settings");
  fs.appendChild(lg);
  for (const [name, key, dflt] of [["motion", "a11y.opt.motion", systemReducedMotion()],
                                   ["sound", "a11y.opt.sound", false],
                                   ["quick", "a11y.opt.quick", false]]) {
    const label = document.createElement("label");
    label.className = "opt-line";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.id = `opt-${name}`;
    box.checked = prefOn(name, dflt);
    box.addEventListener("change", () => {
      setPref(name, box.checked);
      if (name === "sound" && box.checked) playSound("turn");
    });
    const span = document.createElement("span");
    span.textContent = t(key);
    label.append(box, " ", span);
    fs.appendChild(label);
  }
  fs.appendChild(themeMenu());
  const buttons = document.createElement("div");
  buttons.className = "buttons";
  const close = button(t("btn.close"), "primary", () => d.close());
  close.id = "help-close";
  buttons.appendChild(close);
  d.append(h, table, fs, buttons);
}

/** The settings' colours: the system's, light or dark (theme.js keeps the choice). */
function themeMenu() {
  const label = document.createElement("label");
  label.className = "opt-line";
  const span = document.createElement("span");
  span.textContent = t("a11y.opt.theme");
  const menu = document.createElement("select");
  menu.id = "opt-theme";
  menu.append(...THEMES.map((v) => option(v, t(`a11y.theme.${v}`))));
  menu.value = theme();
  menu.addEventListener("change", () => setTheme(menu.value));
  label.append(span, " ", menu);
  return label;
}

export function openHelp() {
  const d = helpDialog();
  if (d.open) return;
  fillHelp(d);
  d.showModal();
  d.querySelector("#opt-motion").focus();
}

// --- lists whose items are clicked: the review's mistakes, the hint's moves ----------------------
const CLICKABLE = "#mistakes li.mistake, #hints tr.hint";

/** Make the items of those lists reachable by Tab and pressed by Enter or Space. */
function keyboardLists() {
  const mark = () => {
    for (const e of document.querySelectorAll(CLICKABLE)) {
      if (e.tabIndex === 0) continue;
      e.tabIndex = 0;
      e.setAttribute("role", "button");
    }
  };
  for (const id of ["mistakes", "hints"]) {
    const box = document.getElementById(id);
    if (box) new MutationObserver(mark).observe(box, {childList: true, subtree: true});
  }
  document.addEventListener("keydown", (e) => {
    if ((e.key !== "Enter" && e.key !== " ") || !e.target.matches) return;
    if (!e.target.matches(CLICKABLE)) return;
    e.preventDefault();
    e.stopPropagation();
    e.target.click();
  }, true);
}

/** Whether a key pressed on `el` is that element's own (a field's, a button's, an open
 * dialog's, by the selector `owners`) rather than the page's. An element left focused in
 * a dialog that has just closed (the focus moves back to the board a moment later) owns
 * no keys: the page's keys work at once. */
export function ownsKey(el, owners) {
  if (!el.closest || !el.closest(owners)) return false;
  return !el.closest("dialog:not([open])");
}

// --- set-up -----------------------------------------------------------------------------------
/** A text only screen readers meet (`.sr-only`), with the attributes `attrs`. */
function srRegion(id, attrs = {}) {
  const e = document.createElement("div");
  e.id = id;
  e.className = "sr-only";
  for (const [name, value] of Object.entries(attrs)) e.setAttribute(name, value);
  return e;
}

/** A board's two live regions: `${prefix}-live`, a log of what was played, and
 * `${prefix}-cursor`, what the keyboard's cursor is on (each text replaces the last). */
export function liveRegions(prefix) {
  return [srRegion(`${prefix}-live`, {"aria-live": "polite", role: "log"}),
          srRegion(`${prefix}-cursor`, {"aria-live": "polite", "aria-atomic": "true"})];
}

export function setupA11y() {
  applyPrefs();
  const board = document.getElementById("board");
  const wrap = document.getElementById("board-wrap");
  const desc = srRegion("board-desc");
  wrap.append(desc, ...liveRegions("a11y"));
  board.setAttribute("role", "application");
  board.setAttribute("aria-roledescription", "board");
  board.setAttribute("aria-describedby", "board-desc");
  board.setAttribute("tabindex", "0");
  // the help and settings button, in the top bar (placed by style.css)
  const header = document.querySelector("header");
  if (header) {
    const b = button("?", "", openHelp);
    b.id = "btn-help";
    b.setAttribute("aria-keyshortcuts", "?");
    b.setAttribute("data-i18n-label", "a11y.help.button");
    b.setAttribute("aria-label", t("a11y.help.button"));
    header.appendChild(b);
  }
  boardHooks.push((svg) => {
    const st = S.state;
    board.setAttribute("aria-roledescription", t("a11y.board"));
    drawFrameTexts(svg, st);
    desc.textContent = describe(st);
    announceMoves(st);
    updateYourTurn();
  });
  // the state changes the page writes after the board (the status line, the buttons)
  new MutationObserver(() => {
    desc.textContent = describe(S.state);
    updateYourTurn();
  }).observe(document.body, {attributes: true, attributeFilter: ["data-busy"]});
  keyboardLists();
}
