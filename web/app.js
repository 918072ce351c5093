// Grognard's board: the entry point. `/` shows the start screen; `/#game=ID` the game, with
// `&seat=TOKEN&side=SIDE` (the side may be missing: the board asks the server) offering a seat:
// the board checks the token with the server at once, keeps it in localStorage when it is good
// (so that coming back to `/#game=ID` keeps it, and the token leaves the address bar) and says so
// at once when it is wrong or stale.

import { startScreen } from './js/start.js';
// the rules systems' panels register themselves (web/systems/<id>/); the board picks one by the
// state view's `system`
import './systems/naw/index.js';
import './systems/napoleonic-battles/index.js';
import './systems/leipzig-1813/index.js';
import './systems/hex-miniatures/index.js';
import { Game } from './js/game.js';

/** @type {Game|null} */
let current = null;

function route() {
  const root = /** @type {HTMLElement} */ (document.getElementById('app'));
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const id = params.get('game');
  if (current) {
    current.destroy();
    current = null;
  }
  if (!id) {
    startScreen(root);
    return;
  }
  const seat = params.get('seat');
  current = new Game(root, id, seat ? { token: seat, side: params.get('side') || undefined } : null);
  current.start();
  // a handle for debugging in the console and for the browser checks in web/dev/
  /** @type {any} */ (window).grognard = current;
}

window.addEventListener('hashchange', route);
route();
