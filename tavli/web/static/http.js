/* The API's JSON calls, the same for every page (tavli play's and the online pages): the
 * page's language in every request (i18n.js: the server's errors come in it), and the
 * access token of tavli play on the network.
 */
import {langHeaders} from "./i18n.js";

// the access token of a server on the network (tavli play --host): given once in the
// address (?token=...), kept for this tab, sent with every request
export const TOKEN = (() => {
  const given = new URLSearchParams(location.search).get("token");
  if (given) {
    sessionStorage.setItem("tavli.token", given);
    history.replaceState(null, "", location.pathname + location.hash);
  }
  return sessionStorage.getItem("tavli.token");
})();

/** The headers that carry the access token (none without one). */
export function tokenHeaders() { return TOKEN ? {"X-Tavli-Token": TOKEN} : {}; }

/** `method` `path` with the JSON `body` (none when undefined) and the extra `headers`:
 * the answer's JSON (null without). A refusal throws an Error of the server's text — in
 * another language than English, the text and the English detail — with the answer's
 * `status` and `code`. */
export async function api(method, path, body, headers = {}) {
  const opts = {method, headers: {...langHeaders(), ...tokenHeaders(), ...headers}};
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    const text = data && data.error &&
      (data.detail ? `${data.error} (${data.detail})` : data.error);
    const err = new Error(text || `${r.status} ${r.statusText}`);
    err.code = data && data.code;
    err.status = r.status;
    throw err;
  }
  return data;
}
