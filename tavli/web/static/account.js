/* The account bar of the online pages (the start page, a profile, the leaderboard):
 * Sign up / Log in (one dialog: a username and a password), then "Signed in as NAME"
 * linking to the player's profile, and Log out. The session is the server's HttpOnly
 * cookie: the page never sees it, it asks GET /api/account who is logged in. A sign-up
 * sends the guest's seat tokens this browser kept (tavli.online.seat.ID) as its `claim`,
 * so the games played as a guest become the account's. Errors come from the server in
 * the page's language (http.js) and show as toasts.
 * Also the community pages' small helpers (profile links, dates, tables). Exports
 * ACCOUNT, RATED_GAMES, setupAccount, logout, forget, playerLink, fillRows, formatRating
 * and formatDate.
 */
import {api} from "./http.js";
import {I18N, t, tn} from "./i18n.js";
import {$, button, toast} from "./util.js";

/** Who is logged in: GET /api/account's answer ({username: null} for a guest). */
export const ACCOUNT = {me: {username: null}, listeners: []};

/** The games the server keeps a rating of (docs/server.md, "Accounts and ratings"). */
export const RATED_GAMES = ["portes", "plakoto", "fevga", "tavli", "backgammon"];

const SEAT_PREFIX = "tavli.online.seat.";
const CLAIM_MAX = 200;   // the server's limit of one claim

/** A link to the profile of the player `name` (its text `text`, the name by default). */
export function playerLink(name, text = name) {
  const a = document.createElement("a");
  a.href = `/players/${encodeURIComponent(name)}`;
  a.textContent = text;
  return a;
}

/** The seats this browser took as a guest: [{game, token}] (the claim of a sign-up). */
function guestSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith(SEAT_PREFIX)) {
      seats.push({game: key.slice(SEAT_PREFIX.length), token: localStorage.getItem(key)});
    }
  }
  return seats.slice(-CLAIM_MAX);
}

/** A label of the text `key` around a new input of `type` (its id `id`; `hint`: a key of
 * the hint under it). */
function field(id, key, type, autocomplete, hint) {
  const label = document.createElement("label");
  const span = document.createElement("span");
  span.textContent = t(key);
  const input = document.createElement("input");
  Object.assign(input, {id, type, autocomplete, required: true});
  label.append(span, input);
  if (hint) {
    const small = document.createElement("small");
    small.className = "muted";
    small.id = `${id}-hint`;
    small.textContent = t(hint);
    input.setAttribute("aria-describedby", small.id);
    label.append(small);
  }
  return label;
}

const NUMBER = new Intl.NumberFormat("en", {maximumFractionDigits: 2, useGrouping: false});

/** A rating as the server gives it (up to two decimals, no grouping). */
export function formatRating(v) { return NUMBER.format(v); }

/** The date of `at` (seconds since 1970) in the page's language. */
export function formatDate(at, withTime = false) {
  const opts = withTime ? {dateStyle: "medium", timeStyle: "short"} : {dateStyle: "medium"};
  return new Intl.DateTimeFormat(I18N.lang, opts).format(new Date(at * 1000));
}

/** Fill the body of `table` with `rows` (each a list of cells: a text or an element);
 * each cell is labelled with its column's head (data-label: a phone shows each row as a
 * card, the heads beside the values). */
export function fillRows(table, rows) {
  const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent);
  table.tBodies[0].replaceChildren(...rows.map((cells) => {
    const tr = document.createElement("tr");
    cells.forEach((c, i) => {
      const td = document.createElement("td");
      td.dataset.label = heads[i] || "";
      td.append(c);
      tr.append(td);
    });
    return tr;
  }));
}

function changed(me) {
  ACCOUNT.me = me;
  renderBar();
  for (const f of ACCOUNT.listeners) f(me);
}

// --- the dialog: sign up or log in ---------------------------------------------------------
function dialog() {
  let d = $("#dlg-account");
  if (d) return d;
  d = document.createElement("dialog");
  d.id = "dlg-account";
  d.setAttribute("aria-labelledby", "acc-title");
  const form = document.createElement("form");
  form.id = "acc-form";
  const h = document.createElement("h2");
  h.id = "acc-title";
  const hint = document.createElement("p");
  hint.id = "acc-hint";
  hint.className = "muted";
  const buttons = document.createElement("div");
  buttons.className = "buttons";
  const go = button("", "primary", () => {});   // the form's submit
  go.type = "submit";
  go.id = "acc-go";
  buttons.append(button(t("btn.cancel"), "", () => d.close()), go);
  form.append(h, hint, field("acc-user", "ac.username", "text", "username", "ac.username_rule"),
              field("acc-pass", "ac.password", "password", "current-password",
                    "ac.password_rule"), buttons);
  form.addEventListener("submit", (e) => { e.preventDefault(); submit(d); });
  d.append(form);
  // the toasts show in the dialog while it is open (the page under a modal dialog is
  // inert: a toast there would not be announced), and go back to the page after
  d.addEventListener("close", () => document.body.append($("#toast")));
  document.body.append(d);
  return d;
}

function openDialog(mode) {
  const d = dialog();
  d.dataset.mode = mode;
  const signup = mode === "signup";
  d.querySelector("#acc-title").textContent = t(signup ? "ac.signup_title" : "ac.login");
  d.querySelector("#acc-hint").textContent = signup ? t("ac.signup_hint") : "";
  d.querySelector("#acc-hint").hidden = !signup;
  d.querySelector("#acc-go").textContent = t(signup ? "ac.signup" : "ac.login");
  for (const id of ["#acc-user-hint", "#acc-pass-hint"]) d.querySelector(id).hidden = !signup;
  const pass = d.querySelector("#acc-pass");
  pass.autocomplete = signup ? "new-password" : "current-password";
  pass.minLength = signup ? 8 : 1;
  pass.value = "";
  d.showModal();
  d.append($("#toast"));
  d.querySelector("#acc-user").focus();
}

async function submit(d) {
  const username = d.querySelector("#acc-user").value.trim();
  const password = d.querySelector("#acc-pass").value;
  const signup = d.dataset.mode === "signup";
  const go = d.querySelector("#acc-go");
  go.disabled = true;
  try {
    const me = signup
      ? await api("POST", "/api/account/signup", {username, password, claim: guestSeats()})
      : await api("POST", "/api/account/login", {username, password});
    d.close();
    toast(signup && me.claimed && me.claimed.length
      ? `${t("ac.welcome", {name: me.username})} ${tn("ac.claimed", me.claimed.length)}`
      : t("ac.welcome", {name: me.username}), "info");
    changed(me);
  } catch (e) {
    toast(e.message);
  } finally {
    go.disabled = false;
  }
}

/** Log out (the server ends the session and clears its cookie). */
export async function logout() {
  try {
    changed(await api("POST", "/api/account/logout"));
  } catch (e) {
    toast(e.message);
  }
}

/** The account is gone (deleted): the page is a guest's again. */
export function forget() { changed({username: null}); }

function renderBar() {
  const bar = $("#account");
  if (!bar) return;
  const name = ACCOUNT.me.username;
  document.body.dataset.account = name || "";
  if (name) {
    const who = document.createElement("span");
    who.className = "who";
    const lead = document.createElement("span");
    lead.className = "lead";
    lead.textContent = `${t("ac.signed_in")} `;
    who.append(lead, playerLink(name));
    bar.replaceChildren(who, button(t("ac.logout"), "", logout));
    bar.lastChild.id = "acc-logout";
  } else {
    const up = button(t("ac.signup"), "", () => openDialog("signup"));
    up.id = "acc-signup";
    const inn = button(t("ac.login"), "", () => openDialog("login"));
    inn.id = "acc-login";
    bar.replaceChildren(up, inn);
  }
}

/** Ask the server who is logged in and draw the bar; `onChange(me)` is called now and at
 * every sign-up, login, logout and deletion. */
export async function setupAccount(onChange) {
  if (onChange) ACCOUNT.listeners.push(onChange);
  try {
    ACCOUNT.me = await api("GET", "/api/account");
  } catch (e) {
    ACCOUNT.me = {username: null};
  }
  changed(ACCOUNT.me);
  return ACCOUNT.me;
}
