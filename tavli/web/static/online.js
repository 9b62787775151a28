/* The online game page (/online/ID, served by `tavli serve`) and its entry module: one
 * WebSocket to the server (docs/server.md, "The WebSocket protocol"), the board of
 * board.js drawing the server's state, and the fair-dice check of fairdice.js.
 *
 * The seat token comes once in the address's fragment (#seat=TOKEN, never sent to a
 * server), is kept in localStorage per game id and removed from the address bar; it
 * travels only in the WebSocket's hello and the join request's body. Without a token the
 * page watches: no move controls. The page knows no rule: it offers the state's turn tree
 * (step by step, as tavli play does) and its legal moves, and sends the chosen steps.
 * Every text is the catalogue's (i18n.js, in the page's language).
 * Exports nothing; sets the page's test surface window.tavli (docs/web.md).
 */
import "./theme.js";   // first: the colours before anything is drawn
import {playerLink} from "./account.js";
import {setupA11y} from "./a11y.js";
import {
  S, SIDES, completeMove, oppositeOf, render, renderBoard, setBoardState, setBusy, setupBoard,
  simOf, simOfText, slide, undo,
} from "./board.js";
import {addMessages, chatSeat, setupChat} from "./chat.js";
import {copyLink} from "./copy.js";
import {verifyDice} from "./fairdice.js";
import {api} from "./http.js";
import {I18N, gameName, loadCatalogue, t, tn} from "./i18n.js";
import {setupKeys} from "./keys.js";
import {registerServiceWorker} from "./pwa.js";
import {cubeText, drawReviewPanel, markEntry, pollReview, turnText} from "./review.js";
import {setupRules} from "./rules.js";
import {SOUND} from "./sound.js";
import {$, MOTION, backoff, button, cap, sleep, toast} from "./util.js";

const GAME_ID = decodeURIComponent(location.pathname.split("/").pop());
const KEY = (what) => `tavli.online.${what}.${GAME_ID}`;

const O = {
  ws: null,
  side: null,          // this page's seat ("white", "black") or null: a spectator
  raw: null,           // the server's last state
  seq: null,           // the last action number seen
  pending: null,       // the number of the action sent and not yet answered
  presence: null,      // {seats: {white, black}, spectators}
  wasAway: {},         // side -> true once seen offline (to say "reconnected")
  retries: 0,
  welcomed: false,
  seeding: false,
  resigning: false,
  animating: false,
  queue: [],           // states waiting while a move is animated
  animated: 0,         // moves animated so far
  clockTimer: null,
  sawPlay: false,      // a state without a rematch was shown (a spectator follows it)
  review: null,        // the finished game's review, while it is shown
};

// --- after the game: the review ----------------------------------------------------------
async function openReview() {
  $("#btn-review").disabled = true;
  $("#status").textContent = t("st.reviewing");
  try {
    const r = await pollReview(`/api/online/games/${encodeURIComponent(GAME_ID)}/review`);
    O.review = r;
    drawReviewPanel(r, O.side || "white", {turn: showReviewTurn, cube: showReviewCube});
  } catch (e) {
    toast(e.message);
  } finally {
    $("#btn-review").disabled = false;
    renderPanel();
  }
}

/** The board of a review entry (a turn, or the position of a cube decision). */
function showReviewEntry(entry, kind, i, text) {
  // as tavli play's review: the entry's own dice and cube, and not the game's last moves
  // (the marks of the end would stand on a board they do not belong to)
  S.reviewTurn = entry;
  S.sim = simOf(entry.board, oppositeOf(entry.board.game));
  S.done = [];
  S.selected = null;
  markEntry(kind, i, text);
  renderBoard();
}

function showReviewTurn(i) { showReviewEntry(O.review.turns[i], "move", i, turnText(O.review, i)); }

function showReviewCube(i) { showReviewEntry(O.review.cube[i], "cube", i, cubeText(O.review, i)); }

function closeReview() {
  O.review = null;
  S.reviewTurn = null;
  $("#review").hidden = true;
  $("#review-banner").hidden = true;
  if (O.raw) setBoard(O.raw);
  render();
}

// --- the seat token -------------------------------------------------------------------------
function readToken() {
  const m = location.hash.match(/(?:^#|&)seat=([A-Za-z0-9_-]{1,200})/);
  if (m) {
    localStorage.setItem(KEY("seat"), m[1]);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return localStorage.getItem(KEY("seat"));
}
const SEAT = readToken();

function newClientSeed() {
  const b = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

// --- the connection ---------------------------------------------------------------------------
function setConn(kind, text) {
  const c = $("#conn");
  c.dataset.conn = kind;
  c.textContent = text;
  document.body.dataset.conn = kind;
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/online/${encodeURIComponent(GAME_ID)}`);
  O.ws = ws;
  O.welcomed = false;
  setConn("connecting", t(O.retries ? "on.conn.reconnecting" : "on.conn.connecting"));
  ws.addEventListener("open", () => {
    const hello = {type: "hello"};
    if (SEAT) hello.token = SEAT;
    if (O.seq !== null) hello.seq = O.seq;
    ws.send(JSON.stringify(hello));
  });
  ws.addEventListener("message", (evt) => {
    let msg;
    try { msg = JSON.parse(evt.data); } catch (e) { return; }
    onMessage(msg);
  });
  ws.addEventListener("close", (evt) => {
    if (O.ws !== ws) return;
    O.ws = null;
    O.pending = null;
    if (evt.code === 4404) {
      setConn("gone", t("on.conn.gone"));
      $("#status").textContent = t("on.no_game");
      setBusy(false);
      return;
    }
    const wait = backoff(O.retries);
    O.retries += 1;
    setConn("offline", t("on.conn.offline"));
    setTimeout(connect, wait);
  });
}

function send(msg) {
  if (!O.ws || O.ws.readyState !== WebSocket.OPEN) return false;
  O.ws.send(JSON.stringify(msg));
  return true;
}

/** Send an action of this seat as the game's next number. */
function act(action) {
  if (!O.side || !O.raw || O.pending !== null) return;
  const seq = O.raw.seq + 1;
  if (send({type: "act", seq, action})) {
    O.pending = seq;
    setBusy(true);
    render();
  } else {
    toast(t("on.not_connected"));
  }
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      O.welcomed = true;
      O.retries = 0;
      O.side = msg.side;
      setConn("online", O.side ? t("on.conn.seat", {side: t(`side.${O.side}`)})
        : t("on.conn.watching"));
      if (SEAT && !O.side) toast(t("on.bad_seat"));
      chatSeat();   // the seat's chat switches (a join may have given it an account)
      show(msg.state, false);
      break;
    case "update":
      show(msg.state, true, msg.actions || []);
      break;
    case "ack":
      if (O.pending === msg.seq) O.pending = null;
      setBusy(false);
      render();
      break;
    case "presence":
      O.presence = msg;
      renderPresence();
      break;
    case "chat":
      addMessages(msg.messages);
      break;
    case "error":
      if (msg.seq !== undefined && O.pending === msg.seq) O.pending = null;
      setBusy(false);
      if (msg.code === "stale") resync();
      else toast(errorText(msg));
      render();
      break;
    default:
      break;
  }
}

/** A server error in the page's language: the catalogue's text of its code (the
 * protocol's messages are English: in English, the server's own words). */
function errorText(msg) {
  const key = "err." + msg.code;   // any code: without a text, the server's own words
  if (I18N.lang === "en" || !I18N.messages[key]) return msg.error;
  return t(key);
}

/** Say hello again on a new connection (after a stale action: the state moved on). */
function resync() {
  if (O.ws) O.ws.close();   // the close handler reconnects with the last number seen
}

// --- the state ----------------------------------------------------------------------------------
/** The server's state as board.js reads it (its board fields at the top level). */
function boardState(st) {
  const b = st.board || {};
  const mine = O.side !== null && st.status !== "over" && st.turn === O.side
    && O.pending === null;
  return {
    ...st, ...b,
    id: st.id,
    position: b.position,
    numbering: O.side || "white",
    cube: {used: b.cube_used, value: st.cube.value, owner: st.cube.owner,
           can_double: st.can_double},
    can_act: mine && joined(O.side, st),
    last: null,
  };
}

function joined(side, st) {
  const s = (st || O.raw).seats.find((x) => x.side === side);
  return !!(s && s.joined);
}

function seatOf(side, st) {
  return (st || O.raw).seats.find((x) => x.side === side) || {};
}

function setBoard(st) {
  setBoardState(boardState(st), O.side === "black" ? 1 : 0);
}

/** Show a state; with `animate`, slide the checkers of the opponent's move first (when the
 * update carries a move of the other side). */
async function show(st, animate, actions = []) {
  if (O.animating) {
    O.queue.push([st, animate, actions]);
    return;
  }
  const prev = O.raw;
  O.raw = st;
  O.seq = st.seq;
  if (!localStorage.getItem(KEY("commitment")) && st.commitment) {
    localStorage.setItem(KEY("commitment"), st.commitment);  // as shown before the first roll
  }
  const last = st.board && st.board.last;
  const moved = actions.some((a) => a.action && a.action.type === "move" && a.side !== O.side);
  const still = MOTION.reduced;   // the page's setting (a11y.js; the system's by default)
  if (animate && prev && moved && last && !last.pass && last.frames && last.side !== O.side
      && !still && O.queue.length === 0) {   // behind: catch up without animating
    O.animated += 1;
    O.animating = true;
    try {
      await animateMove(st, last);
    } finally {
      O.animating = false;
    }
  }
  setBoard(st);
  setBusy(O.pending !== null);
  render();
  afterState();
  const next = O.queue.shift();
  if (next) show(...next);
}

async function animateMove(st, last) {
  const side = SIDES.indexOf(last.side);
  S.state = {...boardState(st), dice: last.dice, turn: last.side, phase: "animating",
             turn_tree: null, can_act: false};
  S.viewer = O.side === "black" ? 1 : 0;
  S.sim = simOfText(last.frames[0].board, st.board.opposite);
  S.replay = {side, all: last.frames[0].dice, left: last.frames[0].dice};
  render();
  await sleep(150);
  for (let k = 0; k < last.steps.length && k + 1 < last.frames.length; k++) {
    const [f, to] = last.steps[k];
    await slide(side, f, to, simOfText(last.frames[k + 1].board, st.board.opposite), 260);
    S.replay.left = last.frames[k + 1].dice;
    renderBoard();
  }
  await sleep(120);
}

/** What comes after a state: the join form, the client seed. */
function afterState() {
  const st = O.raw;
  if (!O.side) return;
  $("#join").hidden = joined(O.side, st);
  if (!joined(O.side, st)) {
    const n = $("#join-name");
    if (!n.value) n.value = localStorage.getItem("tavli.online.name") || "";
    return;
  }
  const seat = seatOf(O.side, st);
  if (!seat.seeded && !O.seeding && O.pending === null && st.status !== "over") {
    O.seeding = true;
    let seed = localStorage.getItem(KEY("seed"));
    if (!seed) {
      seed = newClientSeed();
      localStorage.setItem(KEY("seed"), seed);
    }
    act({type: "seed", seed});
    setTimeout(() => { O.seeding = false; }, 1500);
  }
}

async function join(evt) {
  evt.preventDefault();
  const name = $("#join-name").value.trim();
  if (!name) return;
  try {
    localStorage.setItem("tavli.online.name", name);
    await api("POST", `/api/online/games/${encodeURIComponent(GAME_ID)}/join`,
              {token: SEAT, name});
    $("#join").hidden = true;
    chatSeat();   // the seat is taken: its chat switches (on for an account)
  } catch (e) {
    toast(e.message);
  }
}

// --- the panel --------------------------------------------------------------------------------
function nameOf(side) {
  const s = seatOf(side);
  if (s.player === "ai") {
    return s.level ? t("pl.ai", {level: t(`level.${s.level}`)}) : t("pl.ai_any");
  }
  return s.name || (s.joined ? cap(t(`side.${side}`)) : t("on.waiting_seat"));
}

/** An outcome's kind (single, gammon, resign, time…) in the page's language. */
function kindText(kind) {
  return I18N.messages[`kind.${kind}`] ? t(`kind.${kind}`) : kind;
}

function statusText() {
  const st = O.raw;
  if (!st) return t("on.st.connecting");
  const me = O.side;
  const b = st.board || {};
  const parts = [];
  if (b.last && b.last.pass && st.phase !== "over") {
    const dice = b.last.dice.join("-");
    parts.push(b.last.side === me ? t("st.pass.you", {dice})
      : t("on.st.pass", {name: nameOf(b.last.side), dice}));
  }
  const both = (sides) => (sides.length > 1 ? "both" : sides[0]);
  if (st.status === "open") {
    const waiting = st.seats.filter((s) => s.player === "human" && !s.joined)
      .map((s) => s.side);
    parts.push(me && waiting.includes(me) ? t("on.st.enter_name")
      : t(`on.st.waiting.${both(waiting)}`));
    return parts.join(" ");
  }
  const unseeded = st.seats.filter((s) => !s.seeded).map((s) => s.side);
  if (st.phase === "over" || st.outcome) {
    const o = st.outcome;
    if (o) {
      const kind = kindText(o.kind);
      if (!o.winner) parts.push(t("on.st.drawn"));
      else if (o.winner === me) parts.push(tn("on.st.win.you", o.points, {kind}));
      else parts.push(tn("on.st.win.other", o.points, {name: nameOf(o.winner), kind}));
    }
    if (st.kind === "match") {
      const [w, k] = st.score || [0, 0];
      const lead = w > k ? "white" : "black";
      parts.push(b.match_over ? t("on.st.match_over", {name: nameOf(lead), won: Math.max(w, k),
                                                       lost: Math.min(w, k)})
        : t("on.st.next_game"));
    }
    return parts.join(" ");
  }
  if (unseeded.length && st.phase === "opening") {
    parts.push(t(`on.st.seed.${both(unseeded)}`));
    return parts.join(" ");
  }
  const turn = st.turn;
  const mine = me === turn;
  if (st.phase === "opening") {
    parts.push(t("st.opening"));
  } else if (st.phase === "roll") {
    parts.push(mine ? t(st.can_double ? "on.st.roll_double.you" : "on.st.roll.you")
      : t("on.st.roll.other", {name: nameOf(turn)}));
  } else if (st.phase === "double") {
    parts.push(mine ? t("on.st.doubles", {name: nameOf(SIDES[1 - SIDES.indexOf(turn)]),
                                          value: st.cube.value * 2})
      : t("on.st.double_thinking", {name: nameOf(turn)}));
  } else if (st.phase === "move") {
    if (mine) {
      parts.push(`${t("st.move.you", {dice: b.dice_text})} ` +
                 t(completeMove() ? "st.move_confirm" : "on.st.move_tap"));
    } else {
      parts.push(t("on.st.move.other", {name: nameOf(turn), dice: b.dice_text}));
    }
  }
  return parts.join(" ");
}

function clockText(clock, side) {
  let left = clock.reserve[side];
  if (clock.running === side) {
    left -= Math.max(0, Date.now() / 1000 - clock.since - clock.delay);
  }
  left = Math.max(0, left);
  const m = Math.floor(left / 60), s = Math.floor(left % 60);
  return `${m}:${String(s).padStart(2, "0")}`;
}

function renderPresence() {
  const p = O.presence;
  const box = $("#presence");
  if (!p || !O.raw) { box.textContent = ""; return; }
  const parts = [];
  for (const side of SIDES) {
    const s = seatOf(side);
    if (s.player !== "human" || !s.joined || side === O.side) continue;
    if (p.seats[side] === false) {
      O.wasAway[side] = true;
      parts.push(t("on.pr.offline", {name: nameOf(side)}));
    } else if (O.wasAway[side]) {
      parts.push(t("on.pr.back", {name: nameOf(side)}));
    }
  }
  parts.push(tn("on.n.spectators", p.spectators || 0));
  box.textContent = parts.join(" ");
  renderPlayers();
}

function renderPlayers() {
  const st = O.raw;
  const pl = $("#players");
  pl.replaceChildren();
  if (!st) return;
  const order = O.side === "black" ? ["black", "white"] : ["white", "black"];
  for (const side of order) {
    const row = document.createElement("div");
    const live = st.phase !== "over" && st.status === "playing";
    row.className = "player" + (st.turn === side && live ? " to-act" : "");
    row.dataset.side = side;
    row.innerHTML = '<span class="disc"></span><span class="name"></span>' +
      '<span class="pips"></span><span class="clock" hidden></span><span class="away"></span>';
    row.querySelector(".disc").classList.add(side);
    const text = t(side === O.side ? "on.pl.row_you" : "on.pl.row",
                   {name: nameOf(side), side: t(`side.${side}`)});
    const account = seatOf(side).account;   // a player's profile, when he has an account
    row.querySelector(".name").replaceChildren(account ? playerLink(account, text) : text);
    const b = st.board || {};
    row.querySelector(".pips").textContent = b.pips ? t("pl.pips", {n: b.pips[side]}) : "";
    if (st.clock) {
      const c = row.querySelector(".clock");
      c.hidden = false;
      c.textContent = clockText(st.clock, side);
      c.classList.toggle("running", st.clock.running === side);
    }
    const away = st.absent && st.absent[side];
    const online = O.presence ? O.presence.seats[side] : null;
    const s = seatOf(side);
    const dot = row.querySelector(".away");
    if (s.player === "human" && s.joined) {
      dot.textContent = online === false || (away !== null && away !== undefined)
        ? (away ? t("on.pl.away", {s: Math.round(away)}) : t("on.pl.offline")) : "";
    }
    pl.appendChild(row);
  }
}

function renderPanel() {
  const st = O.raw;
  const show = (id, on) => { $(id).hidden = !on; };
  $("#status").textContent = statusText();
  renderPlayers();
  if (!st) return;
  const b = st.board || {};
  document.body.dataset.phase = st.phase;
  document.body.dataset.turn = st.turn;
  document.body.dataset.status = st.status;
  document.body.dataset.side = O.side || "";
  document.body.dataset.seq = String(st.seq);
  const game = gameName(st.game, cap(st.game));
  $("#title").textContent = (st.kind === "match"
    ? t("on.title.match", {target: b.target, name: game, n: b.game_number}) : game) +
    (st.rated ? ` · ${t("on.rated_game")}` : "");
  // the score
  const sc = $("#score");
  if (st.kind === "match" && st.score) {
    sc.textContent = t("on.sc.score", {white: nameOf("white"), w: st.score[0],
                                       b: st.score[1], black: nameOf("black")}) +
      (b.cube_used && st.cube.value > 1 ? ` · ${t("sc.cube", {value: st.cube.value})}` : "");
  } else {
    sc.textContent = b.cube_used && st.cube.value > 1 ? t("sc.cube", {value: st.cube.value})
      : "";
  }
  // the controls: a seat that has joined, its turn, nothing in flight
  const seat = O.side && joined(O.side, st) && st.status !== "open";
  const idle = seat && O.pending === null && !O.animating;
  const live = st.phase !== "over" && !st.outcome;
  const mine = idle && live && st.turn === O.side;
  const seeded = st.seats.every((s) => s.seeded);
  show("#btn-roll", mine && seeded && (st.phase === "roll" || st.phase === "opening")
       || (idle && live && seeded && st.phase === "opening"));
  $("#btn-roll").textContent = t(st.phase === "opening" ? "btn.opening" : "btn.roll");
  show("#btn-double", mine && st.phase === "roll" && st.can_double);
  show("#btn-take", mine && st.phase === "double");
  show("#btn-drop", mine && st.phase === "double");
  show("#btn-undo", mine && st.phase === "move");
  $("#btn-undo").disabled = S.done.length === 0;
  show("#btn-confirm", mine && st.phase === "move");
  $("#btn-confirm").disabled = !completeMove();
  show("#btn-next", idle && !live && st.kind === "match" && !b.match_over);
  show("#btn-resign", idle && live && st.phase !== "opening" && b.resign_values
       && b.resign_values.length > 0 && !O.resigning);
  show("#resign-box", idle && live && O.resigning);
  // the contract's fields (a clock, draws, rematch, abandonment) when the server has them
  const hasDraw = "draw_offer" in st;
  show("#btn-draw", idle && live && hasDraw && st.draw_offer === null && st.phase !== "opening"
       && st.draws !== false);
  show("#btn-draw-accept", idle && live && hasDraw && st.draw_offer !== null
       && st.draw_offer !== O.side);
  show("#btn-draw-decline", idle && live && hasDraw && st.draw_offer !== null
       && st.draw_offer !== O.side);
  const other = O.side ? SIDES[1 - SIDES.indexOf(O.side)] : null;
  const away = st.absent && other ? st.absent[other] : null;
  show("#btn-claim", idle && live && st.abandon_after != null && away != null
       && away >= st.abandon_after);
  const rm = st.rematch;
  show("#btn-rematch", idle && !live && "rematch" in st && b.match_over
       && !(rm && rm.offered_by === O.side) && !(rm && rm.id));
  $("#btn-rematch").textContent = rm && rm.offered_by && rm.offered_by !== O.side
    ? t("on.accept_rematch") : t("btn.rematch");
  // the players go to the rematch, and so does a spectator who saw it agreed; one who
  // opens the finished game later stays on it, with a link to the rematch
  if (rm && rm.id && (O.side || O.sawPlay)) goRematch(rm.id);
  if (!(rm && rm.id)) O.sawPlay = true;
  show("#watch-rematch", !!(rm && rm.id) && !O.side);
  if (rm && rm.id) $("#watch-rematch").href = `/online/${encodeURIComponent(rm.id)}`;
  // the legal moves as a list (tap one to play it whole)
  const moves = mine && st.phase === "move" ? st.legal_moves : [];
  show("#moves-box", moves.length > 0);
  const mv = $("#moves");
  if (mv.dataset.seq !== String(st.seq) || mv.dataset.mine !== String(moves.length)) {
    mv.dataset.seq = String(st.seq);
    mv.dataset.mine = String(moves.length);
    mv.replaceChildren(...moves.map((m) => button(m.move, "move", () => playWhole(m))));
  }
  // fair dice
  $("#commitment").textContent = st.commitment;
  $("#commitment").title = t("on.commitment_title");
  const seed = localStorage.getItem(KEY("seed"));
  $("#my-seed").textContent = O.side && seed ? t("on.my_seed", {seed}) : "";
  show("#btn-verify", st.status === "over");
  // after the game: its review and its files
  show("#after", st.status === "over");
  show("#btn-review", st.status === "over" && !O.review);
  const base = `/api/online/games/${encodeURIComponent(GAME_ID)}/export?download=true`;
  $("#export-json").href = `${base}&format=json`;
  for (const fmt of ["mat", "sgf"]) {   // the files the server can write of this game
    $(`#export-${fmt}`).href = `${base}&format=${fmt}`;
    show(`#export-${fmt}`, (st.exports || []).includes(fmt));
  }
  // links (the creator's page keeps the invitation until the seat is taken)
  const invite = localStorage.getItem(KEY("invite"));
  show("#links", !!O.side);
  show("#invite-row", !!invite && st.status === "open");
  $("#invite-link").value = invite || "";
  $("#watch-link").value = `${location.origin}/online/${GAME_ID}`;
  renderPresence();
}

function goRematch(id) {
  if (O.leaving) return;
  O.leaving = true;
  if (SEAT) localStorage.setItem(`tavli.online.seat.${id}`, SEAT);
  location.assign(`/online/${encodeURIComponent(id)}`);
}

// --- moving ----------------------------------------------------------------------------------
function confirmMove() {
  const mv = completeMove();
  if (!mv) return;
  act({type: "move", move: mv.move});   // the engine's notation of the move reached
}

function playWhole(m) {
  act({type: "move", move: m.move});
}

async function verify() {
  const out = $("#verify-result");
  out.textContent = t("on.fd.checking");
  out.dataset.result = "";
  try {
    const record = await api("GET", `/api/online/games/${encodeURIComponent(GAME_ID)}/record`);
    const res = await verifyDice(record, {commitment: localStorage.getItem(KEY("commitment")),
                                          seed: localStorage.getItem(KEY("seed")),
                                          side: O.side});
    if (res.problems.length === 0) {
      out.dataset.result = "match";
      out.textContent = tn("on.fd.match", res.rolls);
    } else {
      out.dataset.result = "mismatch";
      out.textContent = t("on.fd.mismatch", {problems: res.problems.slice(0, 5).join("; ")}) +
        (res.problems.length > 5 ? ` … ${tn("on.fd.more", res.problems.length)}` : "");
    }
  } catch (e) {
    out.dataset.result = "error";
    out.textContent = t("on.fd.error", {error: e.message});
  }
}

async function init() {
  await loadCatalogue();
  setupBoard({panel: renderPanel, confirm: confirmMove});
  $("#join").addEventListener("submit", join);
  $("#btn-roll").addEventListener("click", () => act({type: "roll"}));
  $("#btn-double").addEventListener("click", () => act({type: "double"}));
  $("#btn-take").addEventListener("click", () => act({type: "take"}));
  $("#btn-drop").addEventListener("click", () => act({type: "drop"}));
  $("#btn-next").addEventListener("click", () => act({type: "next"}));
  $("#btn-undo").addEventListener("click", undo);
  $("#btn-confirm").addEventListener("click", confirmMove);
  $("#btn-draw").addEventListener("click", () => act({type: "offer_draw"}));
  $("#btn-draw-accept").addEventListener("click", () => act({type: "accept_draw"}));
  $("#btn-draw-decline").addEventListener("click", () => act({type: "decline_draw"}));
  $("#btn-claim").addEventListener("click", () => act({type: "claim"}));
  $("#btn-rematch").addEventListener("click", () => act({type: "rematch"}));
  $("#btn-resign").addEventListener("click", () => {
    O.resigning = true;
    const box = $("#resign-values");
    box.replaceChildren(...(O.raw.board.resign_values || []).map((v) => {
      const bt = button(t(`on.resign.${v}`), "", () => {
        O.resigning = false;
        act({type: "resign", value: v});
      });
      bt.dataset.value = v;
      return bt;
    }));
    renderPanel();
  });
  $("#resign-cancel").addEventListener("click", () => { O.resigning = false; renderPanel(); });
  $("#btn-verify").addEventListener("click", verify);
  $("#btn-review").addEventListener("click", openReview);
  $("#btn-review-close").addEventListener("click", closeReview);
  $("#copy-invite").addEventListener("click", (e) => copyLink($("#invite-link"), e.target));
  $("#copy-watch").addEventListener("click", (e) => copyLink($("#watch-link"), e.target));
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("input, form")) return;
    if (e.key === "Enter" && completeMove()) confirmMove();
    else if (e.key === "Backspace" && S.done.length) { e.preventDefault(); undo(); }
  });
  O.clockTimer = setInterval(() => { if (O.raw && O.raw.clock) renderPlayers(); }, 1000);
  // the page's test and debug surface (docs/web.md): the server's last state and this
  // page's, the board's, the motion settings and the sound
  window.tavli = {state: () => O.raw, O, S, MOTION, SOUND};
  render();
  setupChat(GAME_ID, SEAT);
  connect();
}

setupA11y();
setupKeys();
init();
setupRules(() => O.raw);
registerServiceWorker();
