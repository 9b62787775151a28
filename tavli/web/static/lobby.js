/* The online start page (/ of `tavli serve`) and its entry module: "Play a friend" — the
 * New game dialog of tavli play (newgame.js: any game of the registry, Tavli matches, the
 * cube; a friend or the AI), the player's name, then the invitation and watch links to
 * copy — the account bar (account.js: sign up, log in; a player logged in may make a game
 * Rated and give a listed game a range of ratings), Play now (POST /api/online/play-now:
 * the open seek that fits, else one's own) and the lobby of listed games waiting for an
 * opponent, live (/ws/lobby, reconnecting with backoff; GET /api/online/lobby meanwhile);
 * joining one takes its free seat: POST .../join without a token gives the seat's token.
 * Seat tokens are kept in localStorage per game (tavli.online.seat.ID), never put in an
 * address other than the invitation's fragment. The page knows no rule and no rating:
 * the server decides who may take a seek.
 * Every text is the catalogue's (i18n.js, in the page's language). Exports nothing.
 */
import "./theme.js";   // first: the colours before anything is drawn
import {ACCOUNT, playerLink, setupAccount} from "./account.js";
import {S} from "./board.js";
import {copyLink} from "./copy.js";
import {api} from "./http.js";
import {loadCatalogue, t} from "./i18n.js";
import {fillNewGameMenus, gameDisplay, newGameRequest, syncNewDialog} from "./newgame.js";
import {registerServiceWorker} from "./pwa.js";
import {setupRules} from "./rules.js";
import {$, backoff, button, toast} from "./util.js";

function myName() {
  const n = $("#ng-name").value.trim();
  if (n) localStorage.setItem("tavli.online.name", n);
  return n;
}

/** The Clock menu's choice as the requests say it: {reserve, delay} or null. */
function clockRequest() {
  const clock = $("#ng-clock").value;  // "RESERVE:DELAY" in seconds (the server checks them)
  if (!clock) return null;
  const [reserve, delay] = clock.split(":").map(Number);
  return {reserve, delay};
}

/** Whether the game is rated: the box shown (a player logged in, a person) and ticked. */
function rated() {
  return !$("#ng-rated-label").hidden && $("#ng-rated").checked;
}

/** The range of ratings given for a listed game ([low, high]), or null. */
function ratingRange() {
  const low = $("#ng-range-low").value, high = $("#ng-range-high").value;
  if ($("#ng-range").hidden || (low === "" && high === "")) return null;
  return [low === "" ? 0 : Number(low), high === "" ? 4000 : Number(high)];
}

/** The player's name, or "" after asking for it (a toast, the field focused). */
function askedName() {
  const name = myName();
  if (!name) {
    toast(t("on.name_first"));
    $("#ng-name").focus();
  }
  return name;
}

async function create(evt) {
  evt.preventDefault();
  const name = myName();
  if (!name) { $("#ng-name").focus(); return; }
  const game = newGameRequest();   // against the AI, it takes the other side than `side`
  const body = {game, name, side: $("#ng-side").value};
  if ($("#ng-listed").checked && game.opponent === "human") body.listed = true;
  if (rated()) body.rated = true;
  const range = body.listed && ratingRange();
  if (range) body.rating_range = range;
  const clock = clockRequest();
  if (clock) body.clock = clock;
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

/** Play now: the open seek of the game, length and clock chosen whose host is rated
 * nearest, else one's own seek; either way the game's page (waiting there, in the latter). */
async function playNow() {
  const name = askedName();
  if (!name) return;
  const body = {game: newGameRequest(), name, clock: clockRequest(), rated: rated()};
  $("#ng-play-now").disabled = true;
  try {
    const r = await api("POST", "/api/online/play-now", body);
    localStorage.setItem(`tavli.online.seat.${r.id}`, r.token);
    location.assign(`/online/${encodeURIComponent(r.id)}`);
  } catch (e) {
    toast(e.message);
    $("#ng-play-now").disabled = false;
  }
}

async function joinListed(id) {
  const name = askedName();
  if (!name) return;
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

/** One seek of the lobby: the game, its length and clock, the host (his profile when he
 * has an account) and rating, Rated, the range of ratings; Join, unless it is one's own or
 * a rated one and one is a guest (the server decides anyway). */
function seekItem(g) {
  const li = document.createElement("li");
  li.dataset.id = g.id;
  const what = document.createElement("span");
  what.className = "what";
  const title = document.createElement("strong");
  title.textContent = gameTitle(g);
  const host = document.createElement("span");
  host.className = "host";
  host.append(g.player ? playerLink(g.player) : g.host);
  if (g.player) host.append(` (${g.rating === null ? t("on.newcomer") : Math.round(g.rating)})`);
  const tags = [];
  if (g.clock) tags.push(t("on.lobby_clock", {min: Math.round(g.clock.reserve / 60)}));
  if (g.rated) tags.push(t("on.rated_tag"));
  if (g.range) {
    tags.push(t("on.range_tag", {low: Math.round(g.range[0]), high: Math.round(g.range[1])}));
  }
  what.append(title, " · ", host, ...tags.map((x) => ` · ${x}`));
  const me = ACCOUNT.me.username;
  if (me && g.player === me) {
    const mine = document.createElement("span");
    mine.className = "muted mine";
    mine.textContent = t("on.your_seek");
    li.append(what, mine);
    return li;
  }
  const bt = button(t("on.join"), "primary", () => joinListed(g.id));
  bt.dataset.id = g.id;
  bt.disabled = g.rated && !me;
  li.append(what, bt);
  return li;
}

const LOBBY = {games: [], ws: null, retries: 0};

function drawLobby(games) {
  LOBBY.games = games;
  const ul = $("#lobby");
  ul.replaceChildren(...games.map(seekItem));
  if (!games.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = t("on.no_open");
    ul.appendChild(li);
  }
}

async function loadLobby() {
  try {
    const {games} = await api("GET", "/api/online/lobby");
    drawLobby(games);
  } catch (e) {
    toast(t("on.lobby_failed", {error: e.message}));
  }
}

/** The lobby live: /ws/lobby sends it at once and whenever it changes; a dropped
 * connection comes back with backoff, the lobby read by GET meanwhile. */
function watchLobby() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/lobby`);
  LOBBY.ws = ws;
  ws.addEventListener("open", () => {
    LOBBY.retries = 0;
    document.body.dataset.live = "1";
  });
  ws.addEventListener("message", (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch (err) { return; }
    if (msg.type === "lobby") drawLobby(msg.games);
  });
  ws.addEventListener("close", () => {
    document.body.dataset.live = "0";
    LOBBY.ws = null;
    setTimeout(watchLobby, backoff(LOBBY.retries));
    LOBBY.retries += 1;
    loadLobby();
  });
}

/** The form as the choices allow: Rated for a player logged in against a person (a rated
 * game from here is listed), the range for a listed game, Play now against a person. */
function syncForm() {
  const human = $("#ng-opponent").value === "human";
  $("#ng-rated-label").hidden = !human || !ACCOUNT.me.username;
  $("#ng-listed-label").hidden = !human;
  const listed = $("#ng-listed");
  if (rated()) listed.checked = true;
  listed.disabled = rated();
  $("#ng-range").hidden = !human || !listed.checked;
  $("#ng-play-now").hidden = !human;
  $("#play-now-hint").hidden = !human;
}

function signedIn(me) {
  if (me.username) $("#ng-name").value = me.username;
  syncForm();
  drawLobby(LOBBY.games);
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
  for (const id of ["#ng-variant", "#ng-points", "#ng-opponent", "#ng-rated", "#ng-listed"]) {
    $(id).addEventListener("change", () => {
      syncNewDialog();
      syncForm();
    });
  }
  $("#ng-play-now").addEventListener("click", playNow);
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
  await setupAccount(signedIn);
  await loadLobby();
  watchLobby();
  document.body.dataset.ready = "1";
  setInterval(() => { if (!LOBBY.ws || LOBBY.ws.readyState !== WebSocket.OPEN) loadLobby(); },
              15000);
}

setupRules(() => null);   // no game here: the list of the games' rules
registerServiceWorker();
init();
