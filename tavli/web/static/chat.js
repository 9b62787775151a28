/* The players' chat on the online game page (docs/server.md, "Chat"): the messages the
 * server lets this page read (GET .../chat, then the WebSocket's "chat" messages), a line
 * to write for a seat whose chat is on (POST .../chat with the seat's token), the seat's
 * switches (chat on or off, mute the opponent: POST .../chat/settings). Spectators read.
 * A message is shown as text (textContent), never as HTML. The server decides what may be
 * written and read; refusals are shown as toasts.
 */
import {api} from "./http.js";
import {t} from "./i18n.js";
import {$, toast} from "./util.js";

const C = {game: null, seat: null, side: null, on: false, muted: false, ids: new Set()};

function url(suffix = "") {
  return `/api/online/games/${encodeURIComponent(C.game)}/chat${suffix}`;
}

function seatHeaders() { return C.seat ? {"X-Tavli-Seat": C.seat} : {}; }

/** Add ``messages`` to the log (each once, in order of their numbers). */
export function addMessages(messages) {
  const log = $("#chat-log");
  for (const m of messages) {
    if (C.ids.has(m.id)) continue;
    C.ids.add(m.id);
    const li = document.createElement("li");
    li.dataset.side = m.side;
    const who = document.createElement("b");
    who.textContent = t("chat.who", {name: m.name || t(`side.${m.side}`)});
    const text = document.createElement("span");
    text.textContent = m.text;   // text, never HTML
    li.append(who, " ", text);
    log.appendChild(li);
  }
  $("#chat-empty").hidden = C.ids.size > 0;
  log.scrollTop = log.scrollHeight;
}

function renderSwitches() {
  const seat = C.side !== null;
  $("#chat-form").hidden = !seat || !C.on;
  $("#chat-off").hidden = !seat || C.on;
  $("#chat-seat").hidden = !seat || !C.on;
  $("#chat-mute").checked = C.muted;
}

async function load() {
  const v = await api("GET", url(), undefined, seatHeaders());
  C.side = v.side;
  C.on = v.on;
  C.muted = v.muted;
  renderSwitches();
  addMessages(v.messages);
}

async function send(evt) {
  evt.preventDefault();
  const input = $("#chat-text");
  const text = input.value.trim();
  if (!text) return;
  try {
    addMessages([await api("POST", url(), {text}, seatHeaders())]);
    input.value = "";
  } catch (e) {
    toast(e.message);
  }
}

async function settings(change) {
  try {
    const v = await api("POST", url("/settings"), change, seatHeaders());
    C.on = v.on;
    C.muted = v.muted;
    renderSwitches();
    $("#chat-log").replaceChildren();   // what this seat may read now (a mute hides all
    C.ids.clear();                      // of the opponent's, an unmute shows them again)
    addMessages(v.messages);
  } catch (e) {
    toast(e.message);
  }
}

/** The chat of game ``game`` for the seat token ``seat`` (null: a spectator). */
export async function setupChat(game, seat) {
  C.game = game;
  C.seat = seat;
  $("#chat-form").addEventListener("submit", send);
  $("#chat-enable").addEventListener("click", () => settings({on: true}));
  $("#chat-disable").addEventListener("click", () => settings({on: false}));
  $("#chat-mute").addEventListener("change", (e) => settings({mute: e.target.checked}));
  try {
    await load();
  } catch (e) {
    toast(e.message);
  }
}

/** The seat of this page is known (the WebSocket's welcome): reload the switches. */
export function chatSeat() {
  if (C.game) load().catch(() => {});
}
