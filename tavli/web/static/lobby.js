/* The online start page (/ of `tavli serve`) and its entry module: "Play a friend" — the
 * New game dialog of tavli play (newgame.js: any game of the registry, Tavli matches, the
 * cube; a friend or the AI), the player's name, then the invitation and watch links to
 * copy — and the lobby of listed games waiting for an opponent (GET /api/online/lobby;
 * joining one takes its free seat: POST .../join without a token gives the seat's token).
 * Seat tokens are kept in localStorage per game (tavli.online.seat.ID), never put in an
 * address other than the invitation's fragment.
 * Every text is the catalogue's (i18n.js, in the page's language). Exports nothing.
 */
import "./theme.js";   // first: the colours before anything is drawn
import {S} from "./board.js";
import {copyLink} from "./copy.js";
import {api} from "./http.js";
import {loadCatalogue, t} from "./i18n.js";
import {fillNewGameMenus, gameDisplay, newGameRequest, syncNewDialog} from "./newgame.js";
import {registerServiceWorker} from "./pwa.js";
import {setupRules} from "./rules.js";
import {$, button, toast} from "./util.js";

function myName() {
  const n = $("#ng-name").value.trim();
  if (n) localStorage.setItem("tavli.online.name", n);
  return n;
}

async function create(evt) {
  evt.preventDefault();
  const name = myName();
  if (!name) { $("#ng-name").focus(); return; }
  const game = newGameRequest();   // against the AI, it takes the other side than `side`
  const body = {game, name, side: $("#ng-side").value};
  if ($("#ng-listed").checked && game.opponent === "human") body.listed = true;
  const clock = $("#ng-clock").value;  // "RESERVE:DELAY" in seconds (the server checks them)
  if (clock) {
    const [reserve, delay] = clock.split(":").map(Number);
    body.clock = {reserve, delay};
  }
  try {
    const g = await api("POST", "/api/online/games", body);
    localStorage.setItem(`tavli.online.seat.${g.id}`, g.token);
    if (g.invite) localStorage.setItem(`tavli.online.invite.${g.id}`, g.invite);
    $("#invite-link").value = g.invite || "";
    $("#created-invite").hidden = !g.invite;
    // against the AI there is no one to invite: say whom the game is against
    $("#created-text").textContent = g.invite ? t("on.created")
      : t("on.created_ai", {level: t(`level.${game.level}`)});
    $("#watch-link").value = g.watch;
    $("#go-game").href = `/online/${encodeURIComponent(g.id)}`;
    $("#created").hidden = false;
    document.body.dataset.created = g.id;
    loadLobby();
  } catch (e) {
    toast(e.message);
  }
}

async function joinListed(id) {
  const name = myName();
  if (!name) {
    toast(t("on.name_first"));
    $("#ng-name").focus();
    return;
  }
  try {
    const r = await api("POST", `/api/online/games/${encodeURIComponent(id)}/join`, {name});
    localStorage.setItem(`tavli.online.seat.${id}`, r.token);
    location.assign(`/online/${encodeURIComponent(id)}`);
  } catch (e) {
    toast(e.message);
    loadLobby();
  }
}

/** A listed game's title in the page's language (the registry's names: game.NAME). */
function gameTitle(g) {
  const name = gameDisplay(g.variant);
  return g.points > 1 ? t("on.title_match", {name, n: g.points}) : name;
}

async function loadLobby() {
  const ul = $("#lobby");
  try {
    const {games} = await api("GET", "/api/online/lobby");
    ul.replaceChildren(...games.map((g) => {
      const li = document.createElement("li");
      const what = document.createElement("span");
      what.className = "what";
      what.textContent = `${gameTitle(g)} · ${g.host}` +
        (g.clock ? ` · ${t("on.lobby_clock", {min: Math.round(g.clock.reserve / 60)})}` : "");
      const bt = button(t("on.join"), "primary", () => joinListed(g.id));
      bt.dataset.id = g.id;
      li.append(what, bt);
      return li;
    }));
    if (!games.length) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = t("on.no_open");
      ul.appendChild(li);
    }
  } catch (e) {
    toast(t("on.lobby_failed", {error: e.message}));
  }
}

async function init() {
  await loadCatalogue();
  for (const o of $("#ng-clock").options) {  // "RESERVE:DELAY" in seconds
    if (!o.value) continue;
    const [reserve, delay] = o.value.split(":").map(Number);
    o.textContent = t("on.clock_opt", {min: reserve / 60, s: delay});
  }
  $("#ng-name").value = localStorage.getItem("tavli.online.name") || "";
  $("#form-new").addEventListener("submit", create);
  for (const id of ["#ng-variant", "#ng-points", "#ng-opponent"]) {
    $(id).addEventListener("change", () => {
      syncNewDialog();
      $("#ng-listed-label").hidden = $("#ng-opponent").value !== "human";
    });
  }
  $("#lobby-refresh").addEventListener("click", loadLobby);
  $("#copy-invite").addEventListener("click", (e) => copyLink($("#invite-link"), e.target));
  $("#copy-watch").addEventListener("click", (e) => copyLink($("#watch-link"), e.target));
  try {
    S.info = await api("GET", "/api/info");
    fillNewGameMenus(S.info);
    $("#ng-opponent").value = "human";
    $("#ng-opponent").dispatchEvent(new Event("change"));
  } catch (e) {
    toast(t("toast.info_failed", {error: e.message}));
  }
  await loadLobby();
  document.body.dataset.ready = "1";
  setInterval(loadLobby, 15000);
}

setupRules(() => null);   // no game here: the list of the games' rules
registerServiceWorker();
init();
