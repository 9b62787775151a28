/* Tavli in the browser, tavli play's page around the board: the panel, the flow of play,
 * hints, reviews and the dialogs; it talks to the server's API (http.js).
 *
 * The page knows no rule: the server throws the dice and sends, with the state, the tree
 * of the turn (state.turn_tree: every step the rules allow next, with the board after it
 * and the dice left), how the two sides number the points (state.opposite) and the
 * boards of the last move step by step (state.last.frames). The page offers the steps of
 * the tree, draws the boards it was given and sends the chosen steps, which the server
 * checks again. The list of games and levels comes from GET /api/info.
 * The board itself (drawing, the turn tree, moving checkers) is board.js, shared with the
 * online game page; the New game dialog's menus are newgame.js, shared too.
 * Exports setupApp (play.js, the page's entry module, calls it), loadGame, openReview,
 * closeReview and clearGame (the Games dialog's: games.js).
 * No build step, no external resources.
 */
import {ownsKey} from "./a11y.js";
import {
  S, SIDES, completeMove, node, nodeSim, oppositeOf, pips, render, renderBoard, setBoardState,
  setBusy, setupBoard, simOf, simOfText, slide, tree, undo,
} from "./board.js";
import {copyText} from "./copy.js";
import {damaState, leaveDama} from "./dama.js";
import {TOKEN, api, tokenHeaders} from "./http.js";
import {loadCatalogue, t, tm} from "./i18n.js";
import {fillNewGameMenus, gameDisplay, newGameRequest, syncNewDialog} from "./newgame.js";
import {cubeText, drawReviewPanel, markEntry, pollReview, turnText} from "./review.js";
import {$, button, cap, option, sleep, toast} from "./util.js";

// --- the panel --------------------------------------------------------------------------------
function playerName(side) {
  const st = S.state;
  const p = st.players[SIDES[side]];
  if (p.name) return p.name;  // an imported file's or an online game's player
  if (p.type === "ai") {
    const name = t("pl.ai", {level: t(`level.${p.level}`)});
    return p.engine === "greedy" ? t("pl.heuristic", {name}) : name;
  }
  const humans = SIDES.filter((s) => st.players[s].type === "human").length;
  return humans === 2 ? cap(t(`side.${SIDES[side]}`)) : t("pl.you");
}

function statusText() {
  const st = S.state;
  if (!st) return "";
  if (S.review) {
    return S.reviewTurn ? t("st.review_turn") : t("st.review");
  }
  const human = (side) => st.players[side].type === "human";
  const solo = SIDES.filter(human).length === 1;
  // who a message is about: "you" or "ai" against the AI, else the side (its own messages:
  // the languages inflect the verb and the names differently)
  const actor = (side) => (solo ? (human(side) ? "you" : "ai") : side);
  const parts = [];
  const last = st.last;
  if (last && last.kind === "pass") {
    parts.push(t(`st.pass.${actor(last.side)}`, {dice: last.dice_text}));
  }
  if (last && last.kind === "opening" && st.phase === "move" && st.opening_text) {
    parts.push(st.opening_text);
  }
  if (S.aiMove && st.phase !== "over") parts.push(t("st.ai_played", {move: S.aiMove}));
  if (st.phase === "over") {
    parts.push(st.message);
  } else if (st.phase === "opening") {
    parts.push(t("st.opening"));
  } else if (st.ai_to_act) {
    parts.push(t("st.thinking"));
  } else if (st.phase === "roll") {
    const who = actor(st.turn);
    parts.push(t(st.cube.can_double ? `st.roll_double.${who}` : `st.roll.${who}`));
  } else if (st.phase === "double") {
    parts.push(t(`st.offered.${actor(SIDES[1 - SIDES.indexOf(st.turn)])}`,
                 {value: st.cube.value * 2}));
  } else if (st.phase === "move") {
    const who = t(`st.move.${solo ? "you" : st.turn}`, {dice: st.dice_text});
    parts.push(`${who} ${t(completeMove() ? "st.move_confirm" : "st.move_click")}`);
  }
  return parts.join(" ");
}

function renderPanel() {
  const st = S.state;
  const show = (id, on) => { $(id).hidden = !on; };
  if (!st) {
    $("#status").textContent = t("st.start");
    $("#title").textContent = "";
    $("#players").replaceChildren();
    $("#score").textContent = "";
    delete document.body.dataset.gameId;
    for (const id of ["#btn-roll", "#btn-double", "#btn-take", "#btn-drop", "#btn-undo",
                      "#btn-confirm", "#btn-next", "#btn-rematch", "#btn-hint",
                      "#btn-review", "#btn-cube-hint", "#btn-continue", "#cube-box",
                      "#ids-box"]) show(id, false);
    return;
  }
  $("#title").textContent = st.title;
  document.body.dataset.phase = st.phase;
  document.body.dataset.turn = st.turn;
  document.body.dataset.game = st.game;
  document.body.dataset.gameId = st.id;
  $("#status").textContent = statusText();
  // players
  const pl = $("#players");
  pl.replaceChildren();
  for (const side of [S.viewer, 1 - S.viewer]) {
    const row = document.createElement("div");
    row.className = "player" + (st.turn === SIDES[side] && st.phase !== "over" ? " to-act" : "");
    row.dataset.side = SIDES[side];
    row.innerHTML = `<span class="disc ${SIDES[side]}"></span><span class="name"></span>` +
      `<span class="pips"></span>`;
    const name = playerName(side);
    const sideName = t(`side.${SIDES[side]}`);
    row.querySelector(".name").textContent = name.toLowerCase() === sideName.toLowerCase()
      ? name : t("pl.with_side", {name, side: sideName});
    row.querySelector(".pips").textContent = t("pl.pips", {n: S.sim ? pips(S.sim, side) : ""});
    const lm = st.last_moves && st.last_moves[SIDES[side]];
    if (lm && !S.review) {
      const last = document.createElement("span");
      last.className = `last ${side === S.viewer ? "mine" : "theirs"}`;
      last.textContent = lm.pass ? t("pl.last_pass", {dice: lm.dice_text})
        : t("pl.last", {dice: lm.dice_text, move: lm.shown});
      last.title = t("pl.last_title");
      row.appendChild(last);
    }
    pl.appendChild(row);
  }
  // match
  const sc = $("#score");
  if (st.kind === "match") {
    const g = st.games.map((x, i) => `${i + 1}. ${gameDisplay(x.game)}` +
      (x.result ? ` — ${x.result.winner ? t(`side.${x.result.winner}`) : t("kind.draw")} ` +
                  `+${x.result.points}` : "")).join(", ");
    sc.textContent = scoreText(st);
    sc.title = g;
  } else {
    // in the review, the cube as it stood at the entry shown (as the board draws it)
    const cube = S.reviewTurn && S.reviewTurn.cube_state ? S.reviewTurn.cube_state : st.cube;
    sc.textContent = st.cube.used && cube.value > 1 ? t("sc.cube", {value: cube.value}) : "";
  }
  // buttons
  const humanToAct = st.phase !== "over" && !st.ai_to_act && !st.imported;
  const idle = !S.busy && !S.review;
  show("#btn-roll", idle && humanToAct && (st.phase === "roll" || st.phase === "opening"));
  $("#btn-roll").textContent = t(st.phase === "opening" ? "btn.opening" : "btn.roll");
  show("#btn-double", idle && humanToAct && st.phase === "roll" && st.cube.can_double);
  show("#btn-take", idle && humanToAct && st.phase === "double");
  show("#btn-drop", idle && humanToAct && st.phase === "double");
  show("#btn-undo", idle && humanToAct && st.phase === "move");
  $("#btn-undo").disabled = S.done.length === 0;
  show("#btn-confirm", idle && humanToAct && st.phase === "move");
  $("#btn-confirm").disabled = !completeMove();
  show("#btn-hint", idle && humanToAct && st.phase === "move" && st.legal_moves.length > 1);
  // the server says when a cube decision is due (before the roll, or a double to answer)
  show("#btn-cube-hint", idle && humanToAct && !!st.cube_hint && !S.cubeHint);
  show("#btn-continue", !S.busy && !!st.can_continue);
  show("#cube-box", !!S.cubeHint && !S.review);
  show("#btn-next", idle && st.phase === "over" && st.kind === "match" && !st.finished
       && !st.imported);
  show("#btn-rematch", idle && st.finished && !st.imported);
  $("#btn-rematch").textContent = t(st.kind === "match" ? "btn.rematch" : "btn.play_again");
  const turns = st.kind === "match" ? st.games.length > 1 || st.history.length > 0
    : st.history.length > 0;
  show("#btn-review", !S.busy && !S.review && turns && (st.phase === "over" || st.imported));
  // resigning, as online: what the server offers to concede (none in the opening)
  const concede = idle && humanToAct && st.resign_values ? st.resign_values : [];
  if (!concede.length) S.resigning = false;
  show("#btn-resign", concede.length > 0 && !S.resigning);
  show("#resign-box", concede.length > 0 && !!S.resigning);
  show("#hints", !!S.hints && !S.review);
  $("#autoroll-label").hidden = st.imported || st.finished;
  renderIds(st);
  // history
  const h = $("#history");
  h.replaceChildren();
  for (const line of st.history_text) {
    const li = document.createElement("li");
    li.textContent = line;
    h.appendChild(li);
  }
}

// --- loading and the flow of play ------------------------------------------------------------
function viewerOf(st) {
  const p = st.players;
  if (p.white.type === "ai" && p.black.type === "human") return 1;
  return 0;
}

function setState(st) {
  setBoardState(st, viewerOf(st));
  S.hints = null;
  $("#hints").replaceChildren();
  S.cubeHint = null;
  $("#cube-box").replaceChildren();
}

export async function loadGame(id, opts = {}) {
  S.token += 1;
  leaveDama();
  closeReview();
  setBusy(true);
  try {
    const st = await api("GET", `/api/games/${encodeURIComponent(id)}`);
    S.aiMove = null;
    setState(st);
    localStorage.setItem("tavli.play.game", id);
    if (location.hash !== `#/game/${id}`) history.replaceState(null, "", `#/game/${id}`);
    setBusy(false);
    render();
    if (st.imported && opts.review !== false) openReview();
    else proceed();
  } catch (e) {
    setBusy(false);
    if (e.status === 404) {
      localStorage.removeItem("tavli.play.game");
      history.replaceState(null, "", "#");
      S.state = null;
      S.sim = null;
      render();
      openNewDialog();
    } else {
      toast(e.message);
    }
  }
}


/** Show a new state from the server, animating what the other side did. */
async function showState(st) {
  const token = S.token;
  const last = st.last;
  if (last && (last.kind === "move" || last.kind === "next")) S.aiMove = null;
  if (last && last.kind === "move" && last.frames && st.players[last.side].type === "ai") {
    const side = SIDES.indexOf(last.side);
    const frames = last.frames;   // the boards the server gave, one after each step
    // the marks of the previous state while the AI's checkers slide (its own old move off)
    const marks = {...((S.state && S.state.last_moves) || {}), [last.side]: null};
    S.state = {...st, dice: last.dice, turn: last.side, phase: "animating", legal_moves: [],
               turn_tree: null, last_moves: marks};
    S.viewer = viewerOf(st);
    S.sim = simOfText(frames[0].board, st.opposite);
    S.replay = {side, all: frames[0].dice, left: frames[0].dice};
    S.done = [];
    render();
    await sleep(250);
    for (let k = 0; k < last.steps.length; k++) {
      if (token !== S.token) return;
      const [f, t] = last.steps[k];
      await slide(side, f, t, simOfText(frames[k + 1].board, st.opposite), 420);
      S.replay.left = frames[k + 1].dice;
      renderBoard();
      await sleep(120);
    }
    const lm = st.last_moves && st.last_moves[last.side];
    S.aiMove = lm ? lm.shown : last.move;
    await sleep(200);
  }
  if (token !== S.token) return;
  setState(st);
  render();
}

let proceeding = false;

/** Let the AI act, or roll for the human, as long as that is what comes next. */
async function proceed() {
  if (proceeding) return;
  proceeding = true;
  const token = S.token;
  try {
    while (S.state && token === S.token && !S.review) {
      const st = S.state;
      if (st.phase === "over" || st.imported) break;
      if (st.ai_to_act) {
        setBusy(true);
        render();
        const wait = st.phase === "move" ? 350 : 500;
        await sleep(wait);
        if (token !== S.token) break;
        const next = await api("POST", `/api/games/${st.id}/ai`);
        if (token !== S.token) break;
        await showState(next);
        if (next.last && ["roll", "pass", "opening"].includes(next.last.kind)) {
          await sleep(next.last.kind === "pass" ? 1400 : 650);
        } else if (next.last && ["double", "take", "drop"].includes(next.last.kind)) {
          await sleep(900);
        }
        continue;
      }
      if (st.phase === "roll" && !st.cube.can_double && $("#opt-autoroll").checked) {
        setBusy(true);
        render();
        await sleep(350);
        if (token !== S.token) break;
        const next = await api("POST", `/api/games/${st.id}/roll`);
        await showState(next);
        if (next.last && next.last.kind === "pass") await sleep(1400);
        continue;
      }
      break;
    }
  } catch (e) {
    toast(e.message);
  } finally {
    proceeding = false;
    if (token === S.token) {
      setBusy(false);
      render();
    }
  }
}

/** Show no game (the one shown was deleted): the board empties, the address forgets it. */
export function clearGame(message) {
  S.token += 1;
  closeReview();
  S.state = null;
  S.sim = null;
  S.replay = null;
  S.aiMove = null;
  S.hints = null;
  $("#hints").hidden = true;
  S.cubeHint = null;
  $("#cube-box").hidden = true;
  $("#history").replaceChildren();
  localStorage.removeItem("tavli.play.game");
  if (location.hash) history.replaceState(null, "", location.pathname);
  setBusy(false);
  render();
  if (message) $("#status").textContent = message;
}

/** Go on to the new game the server makes from this one: POST .../`what` with `body`. */
async function goOn(what, body) {
  if (!S.state || S.busy) return;
  setBusy(true);
  try {
    const st = await api("POST", `/api/games/${S.state.id}/${what}`, body);
    setBusy(false);
    await loadGame(st.id);
  } catch (e) {
    setBusy(false);
    toast(e.message);
    render();
  }
}

/** A new game or match with the settings of the finished one (the server's rematch). */
function rematch() { return goOn("rematch"); }

async function action(name, body) {
  if (!S.state || S.busy) return;
  setBusy(true);
  try {
    const st = await api("POST", `/api/games/${S.state.id}/${name}`, body);
    await showState(st);
    setBusy(false);
    if (st.last && st.last.kind === "pass") {
      render();
      await sleep(1400);
    }
    render();
    proceed();
  } catch (e) {
    setBusy(false);
    toast(e.message);
    render();
  }
}


/** The resign choices the state offers (resign_values, from a single game up) as buttons. */
function openResign() {
  S.resigning = true;
  $("#resign-values").replaceChildren(...S.state.resign_values.map((v) => {
    const b = button(t(`on.resign.${v}`), "", () => {
      S.resigning = false;
      action("resign", {value: v});
    });
    b.dataset.value = v;
    return b;
  }));
  render();
}

async function confirmMove() {
  const mv = completeMove();
  if (!mv) return;
  // the engine's steps of the move the node reached (the player's order may differ)
  await action("move", {steps: mv.steps.map(([f, t]) => [f, t])});
}

/** A match's score line: its length, the score, the game and Crawford ("" for a game). */
function scoreText(st) {
  if (!st || st.kind !== "match") return "";
  return t("sc.match", {target: st.target, white: st.score.white, black: st.score.black}) +
    ` · ${t("sc.game", {n: st.game_number, name: gameDisplay(st.game)})}` +
    (st.cube.crawford ? ` · ${t("sc.crawford")}` : "");
}

// --- hints -----------------------------------------------------------------------------------
async function showHints() {
  if (!S.state) return;
  setBusy(true);
  try {
    const h = await api("GET", `/api/games/${S.state.id}/hint`);
    S.hints = h;
    const box = $("#hints");
    box.replaceChildren();
    const table = document.createElement("table");
    const match = h.score !== undefined;  // at a match score: match equity and MWC
    table.innerHTML = "<thead><tr><th>#</th><th></th><th class='num'></th>" +
      (match ? "<th class='num'></th>" : "") + "<th class='num'></th></tr></thead>";
    const heads = table.querySelectorAll("th");
    heads[1].textContent = t("hint.move");
    heads[2].textContent = t("hint.equity");
    if (match) heads[3].textContent = t("hint.mwc");
    heads[heads.length - 1].textContent = t("hint.win");
    const body = document.createElement("tbody");
    h.moves.slice(0, 12).forEach((m, i) => {
      const tr = document.createElement("tr");
      tr.className = "hint";
      const eq = m.equity === null ? (m.score ?? 0).toFixed(3)
        : (m.equity >= 0 ? "+" : "") + m.equity.toFixed(3);
      if (m.ply !== undefined) tr.title = t("hint.valued", {ply: m.ply});
      const win = m.win === undefined ? "" : `${(m.win * 100).toFixed(1)}%`;
      const mwc = match ? `<td class="num">${(m.mwc * 100).toFixed(1)}%</td>` : "";
      tr.innerHTML = `<td>${i + 1}</td><td></td><td class="num">${eq}</td>${mwc}` +
        `<td class="num">${win}</td>`;
      tr.children[1].textContent = m.move;
      tr.addEventListener("click", () => previewHint(m, tr));
      body.appendChild(tr);
    });
    table.appendChild(body);
    const note = document.createElement("div");
    note.className = "opt";
    note.textContent = [
      h.engine === "neural" ? t("hint.neural", {ply: h.ply}) : t("hint.heuristic"),
      ...(match ? [t("hint.match", {context: scoreText(S.state)})] : []),
      t("hint.click")].join("; ");
    box.append(table, note);
  } catch (e) {
    toast(e.message);
  } finally {
    setBusy(false);
    render();
  }
}

/** The cube decision due now, as the server computes it (gnubg's figures). */
async function showCubeHint() {
  if (!S.state) return;
  const id = S.state.id;
  setBusy(true);
  try {
    const h = await api("GET", `/api/games/${id}/cube-hint`);
    if (!S.state || S.state.id !== id) return;
    S.cubeHint = h;
    drawCubeHint(h);
  } catch (e) {
    toast(e.message);
  } finally {
    setBusy(false);
    render();
  }
}

function drawCubeHint(h) {
  const box = $("#cube-box");
  box.replaceChildren();
  const div = (cls, text) => {
    const d = document.createElement("div");
    d.className = cls;
    d.textContent = text;
    box.appendChild(d);
    return d;
  };
  const sign = (x) => (x >= 0 ? "+" : "") + x.toFixed(3);
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  div("cube-advice", t(h.advice_key));
  div("cube-head", `${tm(h.situation_msg)} · ${t("cube.ply", {ply: h.ply})}` +
      (h.role === "take" ? ` · ${t("cube.for_doubler", {side: t(`side.${h.doubler}`)})}` : ""));
  const table = document.createElement("table");
  const mwc = h.rows.some((r) => r.mwc !== null);
  table.innerHTML = "<thead><tr><th></th><th class='num'></th>" +
    "<th class='num'></th>" + (mwc ? "<th class='num'></th>" : "") + "</tr></thead>";
  const heads = table.querySelectorAll("th");
  heads[0].textContent = t("cube.cubeful");
  heads[1].textContent = t("hint.equity");
  if (mwc) heads[3].textContent = t("hint.mwc");
  const body = document.createElement("tbody");
  for (const r of h.rows) {
    const tr = document.createElement("tr");
    tr.className = r.best ? "best" : "";
    tr.innerHTML = "<td></td><td class='num'></td><td class='num diff'></td>" +
      (mwc ? "<td class='num'></td>" : "");
    tr.children[0].textContent = t(r.name_key);
    tr.children[1].textContent = sign(r.equity);
    tr.children[2].textContent = r.diff === null ? "" : `(${sign(r.diff)})`;
    if (mwc) tr.children[3].textContent = pct(r.mwc);
    body.appendChild(tr);
  }
  table.appendChild(body);
  box.appendChild(table);
  div("cube-action", t("cube.proper", {action: tm(h.action_msg)}));
  const p = h.probabilities;
  div("cube-probs", t("cube.cubeless", {
    win: pct(p.win), wg: pct(p.win_gammon), wbg: pct(p.win_backgammon), lose: pct(p.lose),
    lg: pct(p.lose_gammon), lbg: pct(p.lose_backgammon), equity: sign(h.cubeless)}));
  if (h.note_key) div("cube-note", t(h.note_key));
}

/** The IDs of the position shown (from the state), each with a Copy button. */
function renderIds(st) {
  const box = $("#ids");
  $("#ids-box").hidden = !st.ids;
  if (!st.ids) return;
  const rows = [[t("ids.position"), st.ids.position_id], [t("ids.gnubg"), st.ids.gnubg],
                [t("ids.xgid"), st.ids.xgid]].filter(([, v]) => v);
  const key = rows.map(([, v]) => v).join(" ");
  if (box.dataset.key === key) return;   // keep a selection while nothing changed
  box.dataset.key = key;
  box.replaceChildren();
  for (const [label, value] of rows) {
    const row = document.createElement("div");
    row.className = "id-row";
    const name = document.createElement("span");
    name.className = "id-label";
    name.textContent = label;
    const code = document.createElement("code");
    code.textContent = value;
    const copy = button(t("btn.copy"), "", () => copyText(code, copy));
    copy.setAttribute("aria-label", t("ids.copy", {label}));
    row.append(name, copy, code);
    box.appendChild(row);
  }
}

/** An imported record goes on as a new game: against the AI, the player taking the
 * side to act now (the server's default). */
function continueGame() { return goOn("continue", {}); }

/** The nodes of a path from the root of the turn tree that plays `steps` (in some order
 * the tree has), or null. */
function pathOf(steps) {
  const walk = (at, rest) => {
    if (!rest.length) return [];
    for (const [f, t, i] of node(at).next) {
      const k = rest.findIndex(([a, b]) => a === f && b === t);
      if (k < 0) continue;
      const more = walk(i, rest.slice(0, k).concat(rest.slice(k + 1)));
      if (more) return [[f, t, i], ...more];
    }
    return null;
  };
  return tree() ? walk(0, steps.map(([f, t]) => [f, t])) : null;
}

function previewHint(m, tr) {
  const path = pathOf(m.steps);
  if (!path) return;
  document.querySelectorAll("#hints tr.hint").forEach((x) => x.classList.remove("active"));
  tr.classList.add("active");
  S.trail = [0, ...path.map((e) => e[2])];
  S.done = path.map(([f, t]) => [f, t]);
  S.groups = [path.length];
  S.sim = nodeSim();
  S.selected = null;
  render();
}

// --- review ------------------------------------------------------------------------------------
let reviewing = null;   // {token, done}: the review being fetched, a second call waits for it

/** Fetch and draw the review of the game shown. While one is on its way, a second call (the
 * button pressed again, or pressed as an imported game opens its review by itself) waits for
 * it rather than fetching and drawing the chart a second time under the reader's pointer. */
export function openReview() {
  if (!S.state) return Promise.resolve();
  if (reviewing?.token !== S.token) {       // none on its way for this game
    const mine = {token: S.token};
    mine.done = fetchReview(S.state.id).finally(() => {
      if (reviewing === mine) reviewing = null;
    });
    reviewing = mine;
  }
  return reviewing.done;
}

async function fetchReview(id) {
  const token = S.token;
  setBusy(true);
  render();                                 // the Review button hides while it is made
  $("#status").textContent = t("st.reviewing");
  try {
    const r = await pollReview(`/api/games/${encodeURIComponent(id)}/review`,
                               () => S.token !== token);   // another game opened meanwhile
    if (S.token !== token) return;
    S.review = r;
    drawReview();
  } catch (e) {
    if (S.token === token) toast(e.message);
  } finally {
    if (S.token === token) {
      setBusy(false);
      render();
    }
  }
}

export function closeReview() {
  S.review = null;
  S.reviewTurn = null;
  $("#review").hidden = true;
  $("#review-banner").hidden = true;
  if (S.state) {
    S.sim = simOf(S.state.position, S.state.opposite);
    S.viewer = viewerOf(S.state);
    S.done = [];
    S.trail = [0];
    S.groups = [];
  }
}

function drawReview() {
  const me = S.state && viewerOf(S.state) === 1 ? "black" : "white";
  drawReviewPanel(S.review, me, {turn: showReviewTurn, cube: showReviewCube});
}

function showReviewEntry(t, kind, i, text) {
  S.reviewTurn = t;
  S.sim = simOf(t.board, oppositeOf(t.board.game));
  S.done = [];
  S.selected = null;
  markEntry(kind, i, text);
  render();
}

function showReviewTurn(i) { showReviewEntry(S.review.turns[i], "move", i, turnText(S.review, i)); }

/** A cube decision: the position before the roll, and the server's words for it. */
function showReviewCube(i) { showReviewEntry(S.review.cube[i], "cube", i, cubeText(S.review, i)); }

// --- dialogs -------------------------------------------------------------------------------------
/** Fill the menus with the games, matches and levels of GET /api/info (the registry). */
function fillMenus(info) {
  fillNewGameMenus(info);
  // the Games dialog's filter: after "all games", before Dama
  const display = gameDisplay;
  $("#gf-variant").firstElementChild.after(
    ...info.rotations.map((r) => option(r.name, t("gl.rotation", {name: display(r.name)}))),
    ...info.games.map((g) => option(g.name, display(g.name))));
  $("#ng-variant").dispatchEvent(new Event("change"));
}

async function loadInfo() {
  try {
    S.info = await api("GET", "/api/info");
    fillMenus(S.info);
  } catch (e) {
    toast(t("toast.info_failed", {error: e.message}));
  }
}

function openNewDialog() {
  const d = $("#dlg-new");
  syncNewDialog();
  if (!d.open) d.showModal();
}

async function startNewGame(evt) {
  evt.preventDefault();
  const body = newGameRequest();
  try {
    const st = await api("POST", "/api/games", body);
    $("#dlg-new").close();
    await loadGame(st.id);
  } catch (e) {
    toast(e.message);
  }
}

async function importFile(evt) {
  const file = evt.target.files[0];
  if (!file) return;
  try {
    // any format the server reads (a tavli record, gnubg .mat or .sgf): it tells which
    // from the content
    const text = await file.text();
    const st = await api("POST", "/api/records", {text, name: file.name});
    $("#dlg-games").close();
    await loadGame(st.id);
  } catch (e) {
    toast(e.message);
  } finally {
    evt.target.value = "";
  }
}

/** With a token, a link to the API (Export) downloads through fetch, which sends it. */
async function downloadWithToken(evt) {
  const a = evt.target.closest && evt.target.closest('a[href^="/api/"]');
  if (!a || !TOKEN) return;
  evt.preventDefault();
  try {
    const r = await fetch(a.getAttribute("href"), {headers: tokenHeaders()});
    if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
    const url = URL.createObjectURL(await r.blob());
    const tmp = document.createElement("a");
    tmp.href = url;
    tmp.download = a.getAttribute("download") || "tavli.json";
    document.body.appendChild(tmp);
    tmp.click();
    tmp.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (e) {
    toast(e.message);
  }
}

// --- start ---------------------------------------------------------------------------------------
/** Set up tavli play's page and open the game of the address (or the last one played, or
 * the New game dialog). */
// --- the engine's first start ------------------------------------------------------------
/** While the server prepares the engine on a first run (compiling it once: GET
 * /api/warmup), a bar under the header says what is being prepared and how far it is;
 * a hint or AI move asked meanwhile waits for it, and the bar says why. */
async function watchWarmup() {
  for (;;) {
    let st;
    try { st = await api("GET", "/api/warmup"); } catch (e) { return; }
    const box = $("#warmup");
    if (st.ready || !st.cold) { box.hidden = true; return; }
    box.hidden = false;
    $("#warmup-text").textContent = t("warm.title", {what: t(st.key), done: st.done,
                                                      total: st.total});
    $("#warmup-bar").max = st.total;
    $("#warmup-bar").value = st.done;
    await new Promise((r) => setTimeout(r, 1000));   // not sleep(): that one skips motion
  }
}

export function setupApp() {
  document.addEventListener("click", downloadWithToken);
  setupBoard({panel: renderPanel, confirm: confirmMove});
  $("#btn-new").addEventListener("click", openNewDialog);
  $("#import-file").addEventListener("change", importFile);
  $("#form-new").addEventListener("submit", startNewGame);
  $("#ng-cancel").addEventListener("click", () => $("#dlg-new").close());
  for (const id of ["#ng-variant", "#ng-points", "#ng-opponent"]) {
    $(id).addEventListener("change", syncNewDialog);
  }
  $("#btn-roll").addEventListener("click", () => action("roll"));
  $("#btn-double").addEventListener("click", () => action("double"));
  $("#btn-take").addEventListener("click", () => action("take"));
  $("#btn-drop").addEventListener("click", () => action("drop"));
  $("#btn-next").addEventListener("click", () => action("next"));
  $("#btn-rematch").addEventListener("click", rematch);
  $("#btn-undo").addEventListener("click", undo);
  $("#btn-confirm").addEventListener("click", confirmMove);
  $("#btn-hint").addEventListener("click", showHints);
  $("#btn-cube-hint").addEventListener("click", showCubeHint);
  $("#btn-continue").addEventListener("click", () => { closeReview(); continueGame(); });
  $("#btn-review").addEventListener("click", openReview);
  $("#btn-resign").addEventListener("click", openResign);
  $("#resign-cancel").addEventListener("click", () => { S.resigning = false; render(); });
  $("#btn-review-close").addEventListener("click", () => { closeReview(); render(); });
  $("#opt-autoroll").checked = localStorage.getItem("tavli.autoroll") !== "0";
  $("#opt-autoroll").addEventListener("change", (e) => {
    localStorage.setItem("tavli.autoroll", e.target.checked ? "1" : "0");
    proceed();
  });
  document.addEventListener("keydown", (e) => {
    // not in an open dialog, and not on a button, link or field, whose own Enter is
    // theirs (a11y.js ownsKey: one left focused in a dialog just closed is not)
    const tgt = e.target;
    if (ownsKey(tgt, "dialog[open], button, a[href], input, select, textarea, [role=button]")) {
      return;
    }
    if (e.key === "Enter" && completeMove()) confirmMove();
    else if ((e.key === "Backspace" || (e.key === "z" && (e.ctrlKey || e.metaKey)))
             && S.done.length) { e.preventDefault(); undo(); }
  });
  // a dialog closed: the focus back to the board shown (not left on the closed dialog's
  // button, or on the page, or on the button that opened it), so its keys work at once
  document.addEventListener("close", (e) => {
    if (!(e.target instanceof HTMLDialogElement)) return;
    setTimeout(() => {
      if (document.querySelector("dialog[open]")) return;
      const dama = document.body.dataset.mode === "dama";
      const board = dama ? $("#dama-board") : $("#board");
      const shown = dama ? damaState() : S.state;
      if (shown && board && board.getClientRects().length) board.focus();
    }, 0);
  }, true);
  window.addEventListener("hashchange", () => {
    const m = location.hash.match(/^#\/game\/([\w-]+)/);
    if (m && (!S.state || S.state.id !== m[1])) loadGame(m[1]);
  });
  loadCatalogue(tokenHeaders()).then(() => {
    render();
    watchWarmup();
    return loadInfo();
  }).then(() => {
    const m = location.hash.match(/^#\/game\/([\w-]+)/);
    const id = m ? m[1] : localStorage.getItem("tavli.play.game");
    if (location.hash.startsWith("#/dama/")) setBusy(false);   // dama.js loads it
    else if (id) loadGame(id);
    else {
      setBusy(false);
      openNewDialog();
    }
  });
}
