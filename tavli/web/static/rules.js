/* The Rules button (any element with data-rules): opens the rules page of the game on the
 * board (GET /rules/{game}, tavli/web/rules.py) with the rule options it was started with,
 * in the page's language; without a game, the list of the games' rules. The page knows
 * no rule: it passes on the state's game, options (state.rules; Dama's rules and huffing)
 * and match. Exports setupRules, which each page's entry module calls.
 */
import {I18N} from "./i18n.js";

/** The address of the rules page of the state `st` (null: no game). */
function rulesUrl(st) {
  const q = new URLSearchParams({lang: I18N.lang || "en"});
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

/** Make the Rules buttons open the rules of the game `shownState()` gives (the page's
 * state of the game on the board, or null: the list of the games' rules). */
export function setupRules(shownState) {
  document.addEventListener("click", (e) => {
    const button = e.target.closest && e.target.closest("[data-rules]");
    if (!button) return;
    e.preventDefault();
    window.open(rulesUrl(shownState()), "_blank", "noopener");
  });
}
