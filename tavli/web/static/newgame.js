/* The New game dialog's menus and request, shared by tavli play's page (app.js) and the
 * online start page (lobby.js): the games, Tavli matches and AI levels come from
 * GET /api/info (the registry), never from a list here. The dialog's elements: #ng-variant,
 * #ng-points, #ng-opponent ("human" and "ai:LEVEL"), #ng-side, #ng-first. The names are
 * the catalogue's (game.NAME, level.LEVEL), in the page's language; GET /api/info's answer
 * is kept in board.js's S.info. Exports gameDisplay, fillNewGameMenus, syncNewDialog,
 * opponentRequest (also Dama's, dama.js) and newGameRequest.
 */
import {S} from "./board.js";
import {gameName, t} from "./i18n.js";
import {$, option} from "./util.js";

/** A game's or match's name in the page's language (the registry's, GET /api/info, where
 * the catalogue has none). */
export function gameDisplay(name) {
  const g = S.info && [...S.info.games, ...S.info.rotations].find((x) => x.name === name);
  return gameName(name, g && g.display);
}

/** The New game dialog's menus from GET /api/info: the matches that rotate through games,
 * then each game (before what the page's HTML lists itself, as Dama), and the AI levels
 * before the page's own opponents. */
export function fillNewGameMenus(info) {
  const display = gameDisplay;
  const variant = $("#ng-variant");
  variant.prepend(
    ...info.rotations.map((r) => option(r.name, t("ng.rotation", {
      name: display(r.name), games: r.games.map(display).join(t("ng.rotation_sep"))}))),
    ...info.games.map((g) => option(g.name, display(g.name))));
  variant.value = (info.rotations[0] || info.games[0]).name;
  const opponent = $("#ng-opponent");
  opponent.prepend(...info.levels.map((l) => option(`ai:${l}`,
                                                        t("ng.ai_level", {level: t(`level.${l}`)}))));
  opponent.value = `ai:${info.default_level}`;
}

function isRotation(name) {
  return !!(S.info && S.info.rotations.some((r) => r.name === name));
}

/** Keep the dialog consistent: a rotation is a match; the side menu only against the AI
 * (or where the page always shows it: data-always); who starts only in a single game. */
export function syncNewDialog() {
  const variant = $("#ng-variant").value;
  const pts = $("#ng-points");
  const single = pts.querySelector("option[value='1']");
  single.disabled = isRotation(variant);      // a rotation is a match
  if (single.disabled && pts.value === "1") pts.value = "5";
  const human = $("#ng-opponent").value === "human";
  $("#ng-side-label").hidden = human && !$("#ng-side-label").dataset.always;
  const first = $("#ng-first");
  if (!first) return;
  first.disabled = pts.value !== "1";
  if (first.disabled) first.value = "";
}

/** The opponent the dialog names, as the New game requests say it: {opponent: "human"}, or
 * the AI, its level and side (not #ng-side's: the side of the person creating the game). */
export function opponentRequest() {
  const opp = $("#ng-opponent").value;
  if (opp === "human") return {opponent: "human"};
  return {opponent: "ai", level: opp.split(":")[1],
          ai_side: $("#ng-side").value === "white" ? "black" : "white"};
}

/** The New game request (POST /api/games, or the "game" of POST /api/online/games) the
 * dialog describes. */
export function newGameRequest() {
  const body = {variant: $("#ng-variant").value, points: Number($("#ng-points").value),
                ...opponentRequest()};
  const first = $("#ng-first");
  if (first && first.value) body.first = first.value;
  return body;
}
