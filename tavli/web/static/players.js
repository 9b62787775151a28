/* A player's profile (/players/NAME of `tavli serve`) and its entry module: the name, the
 * date he joined, his rating in each game, a chart of his ratings over time (an inline
 * SVG, one line per game, with a title, a description and the same numbers as a table),
 * and his finished games, each a link to its page (/online/ID). On one's own profile:
 * change the password, delete the account (the password asked again). Everything comes
 * from GET /api/players/NAME: the page computes no rating.
 * Every text is the catalogue's (i18n.js, in the page's language). Exports nothing.
 */
import "./theme.js";   // first: the colours before anything is drawn
import {
  ACCOUNT, RATED_GAMES, fillRows, forget, formatDate, formatRating, playerLink, setupAccount,
} from "./account.js";
import {api} from "./http.js";
import {gameName, loadCatalogue, t} from "./i18n.js";
import {registerServiceWorker} from "./pwa.js";
import {setupRules} from "./rules.js";
import {$, el, toast} from "./util.js";

const NAME = decodeURIComponent(location.pathname.split("/").pop());
const PAGE = 50;   // finished games a request brings (the server's default)
const P = {profile: null};
const rating = formatRating;

/** A game's or match's name: the game, a match's length. */
function title(variant, points) {
  const name = gameName(variant);
  return points > 1 ? t("on.title_match", {name, n: points}) : name;
}

function ratingsTable(p) {
  fillRows($("#pf-ratings"), RATED_GAMES.map((g) => {
    const r = p.ratings[g];
    return [gameName(g), r ? rating(r.rating) : t("pf.not_rated"), String(r ? r.played : 0),
            String(r ? r.experience : 0)];
  }));
}

// --- the chart ------------------------------------------------------------------------------
const BOX = {w: 640, h: 260, left: 52, right: 18, top: 14, bottom: 30};

/** The ratings over time: x is the order of the rated games (0: before the first), y the
 * rating after each; a game's line starts at its rating before its first rated game. */
function drawChart(p) {
  const chart = p.chart;
  const box = $("#pf-chart");
  if (!chart.length) {
    const none = document.createElement("p");
    none.className = "muted";
    none.textContent = t("pf.chart_empty");
    box.replaceChildren(none);
    $("#pf-legend").replaceChildren();
    $("#pf-chart-data").hidden = true;
    return;
  }
  BOX.w = Math.max(300, Math.min(900, box.clientWidth || 640));  // text at its own size
  BOX.h = Math.round(Math.max(200, Math.min(300, BOX.w * 0.45)));
  const values = chart.flatMap((c) => [c.old, c.rating]);
  const lo = Math.floor((Math.min(...values) - 10) / 10) * 10;
  const hi = Math.ceil((Math.max(...values) + 10) / 10) * 10;
  const n = chart.length;
  const x = (i) => BOX.left + (i * (BOX.w - BOX.left - BOX.right)) / n;
  const y = (v) => BOX.top + ((hi - v) * (BOX.h - BOX.top - BOX.bottom)) / (hi - lo);
  const svg = el("svg", {viewBox: `0 0 ${BOX.w} ${BOX.h}`, role: "img", class: "chart",
                         "aria-labelledby": "pf-chart-title pf-chart-desc"});
  el("title", {id: "pf-chart-title"}, svg).textContent = t("pf.chart");
  el("desc", {id: "pf-chart-desc"}, svg).textContent = t("pf.chart_desc", {name: p.username});
  for (const v of [lo, Math.round((lo + hi) / 2), hi]) {
    el("line", {x1: BOX.left, x2: BOX.w - BOX.right, y1: y(v), y2: y(v), class: "grid"}, svg);
    el("text", {x: BOX.left - 6, y: y(v) + 4, class: "tick", "text-anchor": "end"}, svg)
      .textContent = String(v);
  }
  const dates = [[0, chart[0].at, "start"], [n, chart[n - 1].at, "end"]];
  if (formatDate(chart[0].at) === formatDate(chart[n - 1].at)) dates.pop();  // one day
  for (const [i, at, anchor] of dates) {
    el("text", {x: x(i), y: BOX.h - 8, class: "tick", "text-anchor": anchor}, svg)
      .textContent = formatDate(at);
  }
  const shown = RATED_GAMES.filter((g) => chart.some((c) => c.game === g));
  for (const g of shown) {
    const first = chart.findIndex((c) => c.game === g);
    const pts = [[first, chart[first].old]];
    chart.forEach((c, i) => { if (c.game === g) pts.push([i + 1, c.rating]); });
    el("polyline", {points: pts.map(([i, v]) => `${x(i)},${y(v)}`).join(" "),
                    class: `line g-${g}`, "data-game": g}, svg);
    el("circle", {cx: x(pts[0][0]), cy: y(pts[0][1]), r: 3.5, class: `start g-${g}`}, svg);
    chart.forEach((c, i) => {
      if (c.game !== g) return;
      const dot = el("circle", {cx: x(i + 1), cy: y(c.rating), r: 4, class: `dot g-${g}`}, svg);
      el("title", {}, dot).textContent =
        `${formatDate(c.at)} · ${gameName(g)} · ${rating(c.rating)}`;
    });
  }
  box.replaceChildren(svg);
  $("#pf-legend").replaceChildren(...shown.map((g) => {
    const li = document.createElement("li");
    const sw = document.createElement("span");
    sw.className = `swatch g-${g}`;
    sw.setAttribute("aria-hidden", "true");
    li.append(sw, gameName(g));
    return li;
  }));
  $("#pf-chart-data").hidden = false;
  fillRows($("#pf-chart-data table"), chart.map((c) => [
    formatDate(c.at, true), gameName(c.game), opponent(c.opponent, c.opponent,
                                                       c.opponent_deleted),
    rating(c.rating)]));
}

// --- the games --------------------------------------------------------------------------------
/** The opponent: his profile's link (an account), the guest's name, or "deleted player". */
function opponent(name, player, deleted) {
  if (deleted) return t("pf.deleted");
  return player ? playerLink(player) : name;
}

/** A score from the player's side: a match's "3–1", or the points of a game. */
function score(g) {
  if (!Array.isArray(g.score)) return String(g.score);
  const [w, b] = g.score;
  return g.side === "white" ? `${w}–${b}` : `${b}–${w}`;
}

function change(g) {
  if (!g.rating) return g.rated ? "" : t("pf.unrated");
  const d = g.rating.new - g.rating.old;
  return `${rating(g.rating.old)} → ${rating(g.rating.new)} (${d >= 0 ? "+" : ""}${rating(d)})`;
}

const RESULT = {won: "pf.won", lost: "pf.lost", draw: "pf.drawn"};

function gamesTable(p) {
  const table = $("#pf-games");
  if (!p.games.length) {
    const none = document.createElement("p");
    none.className = "muted";
    none.id = "pf-no-games";
    none.textContent = t("pf.no_games");
    table.hidden = true;
    if (!$("#pf-no-games")) table.after(none);
    return;
  }
  fillRows(table, p.games.map((g) => {
    const a = document.createElement("a");
    a.href = `/online/${encodeURIComponent(g.id)}`;
    a.textContent = title(g.variant, g.points);
    const res = document.createElement("span");
    res.className = `result ${g.result}`;
    res.textContent = t(RESULT[g.result]);
    return [formatDate(g.at, true), a,
            opponent(g.opponent, g.opponent_player, g.opponent_deleted), res,
            t(`kind.${g.how}`), score(g), change(g)];
  }));
  for (const [i, tr] of [...table.tBodies[0].rows].entries()) tr.dataset.id = p.games[i].id;
}

// --- one's own account ------------------------------------------------------------------------
function showMine() {
  const p = P.profile;
  $("#pf-mine").hidden = !p || ACCOUNT.me.username !== p.username;
}

async function changePassword(evt) {
  evt.preventDefault();
  try {
    await api("POST", "/api/account/password", {old: $("#pw-old").value, new: $("#pw-new").value});
    $("#pw-old").value = "";
    $("#pw-new").value = "";
    toast(t("ac.password_changed"), "info");
  } catch (e) {
    toast(e.message);
  }
}

async function deleteAccount(evt) {
  evt.preventDefault();
  try {
    await api("POST", "/api/account/delete", {password: $("#del-pass").value});
    toast(t("ac.deleted"), "info");
    forget();
    await load();
  } catch (e) {
    toast(e.message);
  }
}

function setupMine() {
  $("#pw-form").addEventListener("submit", changePassword);
  $("#del-open").addEventListener("click", () => {
    $("#del-form").hidden = false;
    $("#del-open").hidden = true;
    $("#del-pass").focus();
  });
  $("#del-cancel").addEventListener("click", () => {
    $("#del-form").hidden = true;
    $("#del-open").hidden = false;
    $("#del-pass").value = "";
  });
  $("#del-form").addEventListener("submit", deleteAccount);
}

/** The next finished games, after those shown. */
async function moreGames() {
  const p = P.profile;
  try {
    const next = await api("GET", `/api/players/${encodeURIComponent(NAME)}` +
                           `?limit=${PAGE}&offset=${p.games.length}`);
    p.games.push(...next.games);
    gamesTable(p);
    $("#pf-more").hidden = next.games.length < PAGE;
  } catch (e) {
    toast(t("pf.load_failed", {error: e.message}));
  }
}

// --- the page -----------------------------------------------------------------------------------
async function load() {
  let p;
  try {
    p = await api("GET", `/api/players/${encodeURIComponent(NAME)}`);
  } catch (e) {
    P.profile = null;
    for (const id of ["#profile", "#pf-chart-box", "#pf-games-box", "#pf-mine"]) {
      $(id).hidden = true;
    }
    $("#missing").textContent = e.status === 404 || e.status === 422 ? e.message
      : t("pf.load_failed", {error: e.message});
    $("#missing").hidden = false;
    document.body.dataset.profile = "missing";
    return;
  }
  P.profile = p;
  document.title = `${p.username} · ${t("on.title")}`;
  $("#pf-name").textContent = p.username;
  $("#pf-since").textContent = t("pf.member_since", {date: formatDate(p.created)});
  ratingsTable(p);
  drawChart(p);
  gamesTable(p);
  $("#pf-more").hidden = p.games.length < PAGE;
  for (const id of ["#profile", "#pf-chart-box", "#pf-games-box"]) $(id).hidden = false;
  $("#missing").hidden = true;
  showMine();
  document.body.dataset.profile = p.username;
}

async function init() {
  await loadCatalogue();
  setupMine();
  $("#pf-more").addEventListener("click", moreGames);
  let width = 0;
  new ResizeObserver(() => {   // the chart drawn again at its box's new width
    const w = $("#pf-chart").clientWidth;
    if (P.profile && w && Math.abs(w - width) > 20) drawChart(P.profile);
    width = w;
  }).observe($("#pf-chart"));
  await setupAccount(showMine);
  await load();
  document.body.dataset.ready = "1";
}

setupRules(() => null);   // no game here: the list of the games' rules
registerServiceWorker();
init();
