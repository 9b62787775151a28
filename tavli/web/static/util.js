/* The small helpers every page uses (tavli play's, the online start page, the online game
 * page): the element look-up ($), SVG elements (el, svgPoint), the page's pace (MOTION,
 * sleep), the reconnections' backoff, the toast, menu options and buttons. No game state,
 * no text (i18n.js) and no rule; imports nothing.
 */

const SVGNS = "http://www.w3.org/2000/svg";

/** The first element the CSS selector `sel` matches, or null. */
export const $ = (sel) => document.querySelector(sel);

/** `s` with its first letter in capitals. */
export function cap(s) { return s[0].toUpperCase() + s.slice(1); }

/** A new SVG element `tag` with the attributes `attrs` (undefined and null left out),
 * appended to `parent` when given. */
export function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  if (parent) parent.appendChild(e);
  return e;
}

/** The point of the pointer event `evt` in the user units of the SVG element `svg`. */
export function svgPoint(svg, evt) {
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX;
  pt.y = evt.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

// the reduced-motion setting (a11y.js sets it: the player's choice, else the system's):
// checkers then jump instead of sliding; `slides` counts the slides drawn (for the tests);
// quick play (a11y.js): no pauses (sleep) before and between the opponent's steps
export const MOTION = {reduced: false, slides: 0, quick: false};

/** A pause of the page's pace (none with the quick-play setting, a11y.js). */
export function sleep(ms) { return new Promise((r) => setTimeout(r, MOTION.quick ? 0 : ms)); }

/** The wait (ms) before the `retries`-th reconnection of a WebSocket: 0.4 s doubling to
 * 10 s, jittered (so that a server's restart is not met by every page at once). */
export function backoff(retries) {
  return Math.min(10000, 400 * 2 ** retries) * (0.75 + Math.random() / 2);
}

/** Show `text` in the page's #toast for five seconds (`kind` "info": news, not an
 * error). */
export function toast(text, kind) {
  const t = $("#toast");
  t.textContent = text;
  t.dataset.kind = kind || "";
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 5000);
}

/** A menu's <option> `value` showing `text`. */
export function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

/** A button showing `text` (of the class `cls` when given) that calls `onClick`. */
export function button(text, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}
