/* A review drawn in the panel, shared by tavli play's page (app.js) and the online game
 * page (online.js): the server's review (GET .../review, docs/web.md "Reviews") — the
 * summary lines, the chart of the viewer's chance to win before each roll, the list of
 * marked moves and cube decisions — into the elements #review, #review-summary, #chart,
 * #mistakes and #review-banner. Each page shows the board of an entry its own way (the
 * callbacks of drawReviewPanel); this module writes the entry's words.
 */
import {api} from "./http.js";
import {t, tm} from "./i18n.js";
import {$, cap, el, sleep} from "./util.js";

/** The review at `path` once it is made: asked again while the server answers 202 (its
 * progress in #status); null when `stale()` says the page has moved on meanwhile. */
export async function pollReview(path, stale = () => false) {
  let r = await api("GET", path);
  while (r && r.status === "running") {   // 202: the review is being made
    if (stale()) return null;
    $("#status").textContent = t("st.reviewing_pct", {pct: Math.round(100 * r.progress)});
    await sleep(700);
    r = await api("GET", path);
  }
  return stale() ? null : r;
}

/** A review mark ("very bad", "bad", "doubtful") in the page's language. */
export function markText(mark) { return mark ? t("mark." + mark.replace(" ", "_")) : ""; }

/** The banner of the review's turn `i`. */
export function turnText(r, i) {
  const u = r.turns[i];
  const params = {game: u.game, turn: u.turn, side: t(`side.${u.side}`), dice: u.dice_text,
                  played: u.played || t("rv.no_move"), mark: markText(u.mark), best: u.best,
                  eq_best: u.equity_best.toFixed(3), eq_played: u.equity_played.toFixed(3),
                  to_move: cap(t(`side.${u.side}`)), pct: (u.white_win * 100).toFixed(1)};
  const multi = r.games.length > 1 ? "_game" : "";
  return t(`rv.banner${multi}`, params) + (u.mark ? ` — ${t("rv.banner_best", params)}` : "") +
    t("rv.banner_end", params);
}

/** The banner of the review's cube decision `i`: the server's words and the equities. */
export function cubeText(r, i) {
  const c = r.cube[i];
  const e = c.equities;
  return t("rv.cube_banner", {
    text: cap(c.text_msg ? tm(c.text_msg) : c.text), nd: e.no_double.toFixed(3),
    dt: e.double_take.toFixed(3), dp: e.double_pass.toFixed(3), ply: c.ply});
}

/** The entry shown: its line in the list marked, the banner saying what it is. */
export function markEntry(kind, i, text) {
  document.querySelectorAll("#mistakes li").forEach((x) =>
    x.classList.toggle("active", x.dataset.kind === kind && Number(x.dataset.index) === i));
  const b = $("#review-banner");
  b.hidden = false;
  b.textContent = text;
  b.dataset.index = i;
}

/** Draw the review `r` for the viewer `me` ("white" or "black": whose chance the chart
 * shows); `show.turn(i)` and `show.cube(i)` show an entry's board. */
export function drawReviewPanel(r, me, show) {
  $("#review").hidden = false;
  const sum = $("#review-summary");      // the server's lines: per player, then the ply
  sum.replaceChildren(...(r.summary_msgs || r.summary).map((line) => {
    const div = document.createElement("div");
    div.textContent = tm(line);
    return div;
  }));
  drawChart(r, me, show);
  drawMistakes(r, show);
}

function drawChart(r, me, show) {
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
    const tick = el("text", {x: L - 4, y: yOf(p) + 4, "text-anchor": "end", "font-size": 10,
                             fill: "#6f6459"}, svg);
    tick.textContent = `${Math.round(p * 100)}%`;
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
  // a cube decision's index counts the cube decisions, not the turns: only the moves'
  // marks go on the turns' points
  const marks = new Map(r.mistakes.filter((m) => m.kind !== "cube").map((m) => [m.index, m]));
  const multi = r.games.length > 1 ? "_game" : "";
  r.curve.forEach((c, i) => {
    const m = marks.get(i);
    // a point is a button: Tab reaches the chart once (its first point), the arrow keys
    // go from point to point, Enter or Space shows the position as a click does
    const dot = el("circle", {cx: xOf(i), cy: yOf(val(c)), r: m ? 4 : 2.5,
                              fill: m ? "#b3261e" : "#1f6f50", class: "pt",
                              "data-index": i, role: "button", tabindex: i ? -1 : 0}, svg);
    const title = el("title", {}, dot);
    const u = r.turns[i];
    title.textContent = t("rv.point", {side: t(`side.${u.side}`), dice: u.dice_text,
                                       played: u.played || t("rv.no_move")}) +
      (m ? ` — ${t("rv.point_best", {mark: markText(m.mark), best: m.best})}` : "");
    dot.setAttribute("aria-label", t(`rv.point_label${multi}`, {
      game: u.game, turn: u.turn, side: t(`side.${u.side}`), dice: u.dice_text,
      played: u.played || t("rv.no_move"), loss: (u.loss || 0).toFixed(3)}) +
      (m ? ` (${markText(m.mark)})` : ""));
    dot.addEventListener("click", () => show.turn(i));
    dot.addEventListener("keydown", (e) => chartKey(e, i, n, show));
  });
  const xl = el("text", {x: L, y: ch - 6, "font-size": 10, fill: "#6f6459"}, svg);
  xl.textContent = t("rv.axis", {side: t(`side.${me}`)});
}

function drawMistakes(r, show) {
  const ol = $("#mistakes");
  ol.replaceChildren();
  if (!r.mistakes.length) {
    const li = document.createElement("li");
    li.textContent = t("rv.none");
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
      mk.textContent = markText(m.mark);
      li.append(mk, " ");
    }
    if (m.kind === "cube") {
      const tag = document.createElement("span");
      tag.className = "cube-tag";
      tag.textContent = t("rv.cube_tag");
      li.append(tag, " ");
    }
    li.append(m.text_msg ? tm(m.text_msg) : m.text);
    li.addEventListener("click", () => m.kind === "cube" ? show.cube(m.index)
                                                         : show.turn(m.index));
    ol.appendChild(li);
  }
}

/** A key on the chart's point i of n: Enter or Space shows it, the arrows (Home, End) go
 * to another point (the one reachable by Tab). */
function chartKey(e, i, n, show) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const to = {ArrowRight: i + 1, ArrowUp: i + 1, ArrowLeft: i - 1, ArrowDown: i - 1,
              Home: 0, End: n - 1}[e.key];
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    e.stopPropagation();
    show.turn(i);
  } else if (to !== undefined) {
    e.preventDefault();
    const dots = document.querySelectorAll("#chart circle.pt");
    const k = Math.max(0, Math.min(n - 1, to));
    dots.forEach((d, j) => d.setAttribute("tabindex", j === k ? 0 : -1));
    dots[k].focus();
  }
}
