/* The page's texts in the player's language: the catalogue comes from the server
 * (GET /api/i18n, the gettext catalogues of tavli/locale) and every text is looked up in
 * it by key: t("btn.roll"), tn("n.points", 3), and in the HTML data-i18n="key" (the text),
 * data-i18n-label (aria-label), data-i18n-placeholder, data-n (a {n} to fill).
 * The language chosen is kept in localStorage ("tavli.lang") and sent with every request
 * (X-Tavli-Lang), so the API's errors come in it too; without a choice the server follows
 * the browser's Accept-Language. A key missing from the catalogue shows as the key.
 * Exports I18N (the catalogue), t, tn, tm, gameName, langHeaders, loadCatalogue and
 * catalogueReady.
 */
import {option} from "./util.js";

export const I18N = {lang: "en", languages: {en: "English"}, messages: {}};

function fillText(s, params) {
  return s.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
}

/** The message `key`, its {placeholders} filled from `params`. */
export function t(key, params) {
  const s = I18N.messages[key];
  return fillText(typeof s === "string" ? s : key, params);
}

/** The message `key` in its form for the number `n` (the four languages: one, other). */
export function tn(key, n, params) {
  const forms = I18N.messages[key];
  const s = Array.isArray(forms) ? forms[n === 1 ? 0 : 1] : key;
  return fillText(s, {n, ...(params || {})});
}

/** A message the server sent as {key, params} (a param may be such a message too), in
 * the page's language; a plain string stays as it is. */
export function tm(m) {
  if (Array.isArray(m)) return m.map(tm).join(", ");   // a list of messages
  if (!m || typeof m !== "object") return m === undefined || m === null ? "" : String(m);
  const params = {};
  for (const [k, v] of Object.entries(m.params || {})) {
    params[k] = v && typeof v === "object" ? tm(v) : v;
  }
  // a plural entry takes its form from the message's n ("over 1 decision")
  if (Array.isArray(I18N.messages[m.key]) && typeof params.n === "number") {
    return tn(m.key, params.n, params);
  }
  return t(m.key, params);
}

/** A game's name: the catalogue's (game.NAME), else `fallback` (the registry's name of a
 * game the catalogues do not know yet), else the name itself. */
export function gameName(name, fallback) {
  const key = "game." + name;
  return key in I18N.messages ? t(key) : fallback || name;
}

/** Translate the marked elements under `root` (without a catalogue they keep their text). */
function applyI18n(root) {
  if (!Object.keys(I18N.messages).length) return;   // no catalogue (offline): the HTML's English
  for (const e of root.querySelectorAll("[data-i18n]")) {
    e.textContent = t(e.dataset.i18n, e.dataset.n === undefined ? {} : {n: e.dataset.n});
  }
  for (const e of root.querySelectorAll("[data-i18n-label]")) {
    e.setAttribute("aria-label", t(e.dataset.i18nLabel));
  }
  for (const e of root.querySelectorAll("[data-i18n-placeholder]")) {
    e.setAttribute("placeholder", t(e.dataset.i18nPlaceholder));
  }
}

/** The header that asks the server for the page's language. */
export function langHeaders() { return {"X-Tavli-Lang": I18N.lang}; }

let catalogueLoaded;
/** Resolved once the catalogue is in (loadCatalogue): what draws text waits for it, so
 * that no message key shows on the page. */
export const catalogueReady = new Promise((resolve) => { catalogueLoaded = resolve; });

/** Load the catalogue of the chosen language (or the browser's), translate the page and
 * fill the language menu; `headers`: what every request carries (the access token). */
export async function loadCatalogue(headers) {
  const chosen = localStorage.getItem("tavli.lang");
  try {
    const r = await fetch("/api/i18n" + (chosen ? `?lang=${encodeURIComponent(chosen)}` : ""),
                          {headers: headers || {}});
    if (r.ok) Object.assign(I18N, await r.json());
  } catch (e) { /* the page stays in English */ }
  document.documentElement.lang = I18N.lang;
  applyI18n(document);
  const menu = document.querySelector("#lang");
  if (menu) {
    menu.replaceChildren(...Object.entries(I18N.languages).map(([code, name]) =>
      option(code, name)));
    menu.value = I18N.lang;
    menu.addEventListener("change", () => {
      localStorage.setItem("tavli.lang", menu.value);
      location.reload();
    });
  }
  catalogueLoaded();
}
