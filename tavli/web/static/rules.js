/* The Rules button (any element with data-rules): opens the rules page of the game on the
 * board (GET /rules/{game}, tavli/web/rules.py) with the rule options it was started with,
 * in the page's language; without a game, the list of the games' rules. The page knows
 * no rule: it passes on the state's game, options (state.rules; Dama's rules and huffing)
 * and match. Its functions are kept out of the pages' shared global scope. */
(() => {
"use strict";

/** The address of the rules page of the state `st` (null: no game). */
function rulesUrl(st) {
  const q = new URLSearchParams({lang: (typeof I18N !== "undefined" && I18N.lang) || "en"});
  if (!st || !st.game) return `/rules?${q}`;
  if (st.game === "dama") {   // Dama: its rule set and huffing
    q.set("rules", st.rules);
    q.set("huffing", String(st.huffing));
    return `/rules/dama?${q}`;
  }
  for (const [name, value] of Object.entries(st.rules || {})) {
    if (name !== "game") q.set(name, String(value));
  }
  if (st.kind === "match" && st.variant && st.variant !== st.game) {
    q.set("match", st.variant);
    if (st.target) q.set("points", String(st.target));
  }
  return `/rules/${encodeURIComponent(st.game)}?${q}`;
}

/** The state of the game on the board: the app's, its Dama's or the online page's. */
function shownState() {
  const app = location.hash.startsWith("#/dama/") ? window.dama
    : window.tavli || window.tavliOnline;
  return app && app.state ? app.state() : null;
}

document.addEventListener("click", (e) => {
  const button = e.target.closest && e.target.closest("[data-rules]");
  if (!button) return;
  e.preventDefault();
  window.open(rulesUrl(shownState()), "_blank", "noopener");
});
})();
