/* The leaderboard (/leaderboard of `tavli serve`) and its entry module: the best ratings
 * of the game chosen (GET /api/leaderboard/GAME: the server's order and numbers), each
 * name a link to the player's profile. The game chosen stays in the address (?game=).
 * Every text is the catalogue's (i18n.js, in the page's language). Exports nothing.
 */
import "./theme.js";   // first: the colours before anything is drawn
import {RATED_GAMES, fillRows, formatRating, playerLink, setupAccount} from "./account.js";
import {api} from "./http.js";
import {gameName, loadCatalogue, t} from "./i18n.js";
import {registerServiceWorker} from "./pwa.js";
import {setupRules} from "./rules.js";
import {$, option, toast} from "./util.js";

async function show(game) {
  document.body.dataset.ready = "0";
  try {
    const {players} = await api("GET", `/api/leaderboard/${encodeURIComponent(game)}`);
    fillRows($("#lb"), players.map((p, i) => [String(i + 1), playerLink(p.username),
                                              formatRating(p.rating), String(p.played)]));
    $("#lb").hidden = !players.length;
    $("#lb-empty").hidden = players.length > 0;
  } catch (e) {
    toast(t("lb.failed", {error: e.message}));
  }
  document.body.dataset.ready = "1";
}

async function init() {
  await loadCatalogue();
  const menu = $("#lb-game");
  menu.replaceChildren(...RATED_GAMES.map((g) => option(g, gameName(g))));
  const asked = new URLSearchParams(location.search).get("game");
  menu.value = RATED_GAMES.includes(asked) ? asked : RATED_GAMES[0];
  menu.addEventListener("change", () => {
    history.replaceState(null, "", `?game=${encodeURIComponent(menu.value)}`);
    show(menu.value);
  });
  setupAccount();
  await show(menu.value);
}

setupRules(() => null);   // no game here: the list of the games' rules
registerServiceWorker();
init();
