/* The Games dialog of tavli play's page: the stored games a page at a time
 * (GET /api/games), filtered by game, status and a text in the title; open, resume,
 * review, export or delete one. Exports setupGames (play.js calls it after app.js's and
 * dama.js's set-up).
 */
import {clearGame, closeReview, loadGame, openReview} from "./app.js";
import {S} from "./board.js";
import {damaState, leaveDama} from "./dama.js";
import {api} from "./http.js";
import {I18N, t} from "./i18n.js";
import {$, button, toast} from "./util.js";

const PAGE = 20;
const L = {offset: 0, total: 0, timer: null, token: 0};

function query() {
  const p = new URLSearchParams({limit: PAGE, offset: L.offset});
  const variant = $("#gf-variant").value, status = $("#gf-status").value;
  const text = $("#gf-q").value.trim();
  if (variant) p.set("variant", variant);
  if (status) p.set("status", status);
  if (text) p.set("q", text.slice(0, 100));
  return p.toString();
}

function filtered() {
  return $("#gf-variant").value || $("#gf-status").value || $("#gf-q").value.trim();
}

/** The game shown in the page now: {app, id} or null. */
function current() {
  const d = damaState();
  if (document.body.dataset.mode === "dama" && d) return {app: "dama", id: d.id};
  return S.state ? {app: "tavli", id: S.state.id} : null;
}

async function load() {
  const token = ++L.token;
  try {
    let out = await api("GET", `/api/games?${query()}`);
    if (token !== L.token) return;
    if (!out.games.length && out.total && L.offset > 0) {   // past the end: the last page
      L.offset = Math.max(0, Math.floor((out.total - 1) / PAGE) * PAGE);
      out = await api("GET", `/api/games?${query()}`);
      if (token !== L.token) return;
    }
    L.total = out.total;
    draw(out.games);
  } catch (e) {
    toast(e.message);
  }
}

function draw(games) {
  const body = $("#games-table tbody");
  body.replaceChildren();
  for (const g of games) body.appendChild(row(g));
  if (!games.length) {
    const tr = document.createElement("tr");
    tr.className = "empty";
    const td = document.createElement("td");
    td.colSpan = 5;
    td.textContent = t(filtered() ? "gl.no_match" : "gl.none");
    tr.appendChild(td);
    body.appendChild(tr);
  }
  const first = games.length ? L.offset + 1 : 0;
  $("#gp-info").textContent = t("gl.range", {first, last: L.offset + games.length,
                                             total: L.total});
  $("#gp-prev").disabled = L.offset === 0;
  $("#gp-next").disabled = L.offset + games.length >= L.total;
  $("#games-pager").hidden = L.total <= PAGE && L.offset === 0;
}

function row(g) {
  const d = $("#dlg-games");
  const tr = document.createElement("tr");
  tr.dataset.id = g.id;
  tr.dataset.kind = g.app;
  const cells = ["title", "score", "status", "when", "acts"].map((c) => {
    const td = document.createElement("td");
    td.className = c;
    tr.appendChild(td);
    return td;
  });
  cells[0].textContent = g.title;
  cells[1].textContent = g.score ? `${g.score[0]}–${g.score[1]}` : "";
  cells[2].textContent = t(`gl.${g.status}`);
  cells[3].textContent = new Date(g.updated * 1000).toLocaleString(I18N.lang);
  const acts = cells[4];
  const open = button(t(g.status === "playing" ? "gl.resume" : "gl.open"), "open", () => {
    d.close();
    if (g.app === "dama") {
      closeReview();
      location.hash = `#/dama/${g.id}`;   // dama.js loads it
    } else {
      loadGame(g.id, {review: true});
    }
  });
  const parts = [open];
  if (g.app === "tavli") {
    parts.push(button(t("btn.review"), "review", async () => {
      d.close();
      await loadGame(g.id, {review: false});
      openReview();
    }));
    // the formats the server can write this game in: the tavli record, and for
    // gnubg's games also .mat and .sgf (kept together on one line)
    const group = document.createElement("span");
    group.className = "exports";
    parts.push(group);
    for (const fmt of g.formats || ["json"]) {
      const exp = document.createElement("a");
      exp.href = `/api/games/${g.id}/record?download=true&format=${fmt}`;
      exp.textContent = fmt === "json" ? t("gl.export") : `.${fmt}`;
      exp.title = fmt === "json" ? t("gl.export_json_tip") : t("gl.export_file_tip", {fmt});
      exp.className = `export export-${fmt}`;
      exp.setAttribute("download", `tavli-${g.id}.${fmt}`);
      group.appendChild(exp);
    }
  }
  parts.push(button(t("gl.delete"), "delete", () => confirmDelete(g, acts, parts)));
  acts.append(...parts);
  return tr;
}

/** Ask in the row itself; Delete removes the game for good, Keep puts the row back. */
function confirmDelete(g, acts, parts) {
  const ask = document.createElement("span");
  ask.className = "ask";
  ask.textContent = t("gl.delete_ask");
  const yes = button(t("gl.delete"), "danger confirm-delete", () => remove(g));
  const no = button(t("gl.keep"), "keep", () => acts.replaceChildren(...parts));
  acts.replaceChildren(ask, yes, no);
  no.focus();
}

async function remove(g) {
  try {
    await api("DELETE", `/api/games/${g.id}`);
  } catch (e) {
    if (e.status !== 404) { toast(e.message); return; }   // gone already: list again
  }
  const cur = current();
  if (cur && cur.app === g.app && cur.id === g.id) {
    if (g.app === "dama") leaveDama();
    clearGame(t("gl.deleted"));
  }
  await load();
}

async function openList() {
  const d = $("#dlg-games");
  L.offset = 0;
  await load();
  if (!d.open) d.showModal();
}

function refilter() {
  L.offset = 0;
  load();
}

/** Set up the Games dialog (its button, filters and pages). */
export function setupGames() {
  $("#btn-games").addEventListener("click", openList);
  $("#games-close").addEventListener("click", () => $("#dlg-games").close());
  $("#gf-variant").addEventListener("change", refilter);
  $("#gf-status").addEventListener("change", refilter);
  $("#gf-q").addEventListener("input", () => {
    clearTimeout(L.timer);
    L.timer = setTimeout(refilter, 250);
  });
  $("#games-filter").addEventListener("submit", (e) => { e.preventDefault(); refilter(); });
  $("#gp-prev").addEventListener("click", () => {
    L.offset = Math.max(0, L.offset - PAGE);
    load();
  });
  $("#gp-next").addEventListener("click", () => {
    L.offset += PAGE;
    load();
  });
}

