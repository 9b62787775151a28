/* The entry module of tavli play's page (index.html): sets the page up in the order its
 * parts depend on — the board's accessibility (a11y.js) and keyboard (keys.js), the game
 * and its panel (app.js), Dama (dama.js), the Games dialog (games.js), the Rules button
 * (rules.js) and the service worker (pwa.js) — and sets the page's test and debug surface,
 * window.tavli (docs/web.md). Exports nothing.
 */
import "./theme.js";   // first: the colours before anything is drawn
import {setupA11y} from "./a11y.js";
import {setupApp} from "./app.js";
import {S} from "./board.js";
import {D, damaState, setupDama} from "./dama.js";
import {setupGames} from "./games.js";
import {setupKeys} from "./keys.js";
import {registerServiceWorker} from "./pwa.js";
import {setupRules} from "./rules.js";
import {SOUND} from "./sound.js";
import {MOTION} from "./util.js";

setupA11y();
setupKeys();
setupApp();
setupDama();
setupGames();
// the game on the board: Dama's while its address is shown, else tavli's
setupRules(() => (location.hash.startsWith("#/dama/") ? damaState() : S.state));
registerServiceWorker();
// the page's test and debug surface (docs/web.md): the game's state and the board's, Dama's,
// the motion settings and the sound
window.tavli = {state: () => S.state, S, dama: {state: damaState, D}, MOTION, SOUND};
