/* The page's colours: light or dark. Without a choice the page follows the system's
 * (prefers-color-scheme, style.css); a choice made in the settings (a11y.js) is kept in
 * localStorage ("tavli.theme": "light" or "dark") and set on <html data-theme>, before the
 * page is drawn (every page's entry module imports this one first).
 * Exports THEMES, theme and setTheme.
 */

/** The settings' choices: the system's, light, dark. */
export const THEMES = ["system", "light", "dark"];

/** The theme chosen ("system" without a choice). */
export function theme() {
  let v = null;
  try { v = localStorage.getItem("tavli.theme"); } catch (e) { /* storage blocked */ }
  return v === "light" || v === "dark" ? v : "system";
}

function applyTheme() {
  const v = theme();
  if (v === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = v;
}

/** Choose `v` (one of THEMES) and keep it. */
export function setTheme(v) {
  try {
    if (v === "light" || v === "dark") localStorage.setItem("tavli.theme", v);
    else localStorage.removeItem("tavli.theme");
  } catch (e) { /* storage blocked: for this page only */ }
  applyTheme();
}

applyTheme();
