// Grognard's board: the entry point. `/` shows the start screen; `/#game=ID` the game, with
// `&seat=TOKEN&side=SIDE` (the side may be missing: the board then asks the server) taking a seat, which is then kept in localStorage
// so that coming back to `/#game=ID` keeps it.

import { startScreen } from './js/start.js';
// the rules systems' panels register themselves (web/systems/<id>/); the board picks one by the
// state view's `system`
import './systems/naw/index.js';
import { Game } from './js/game.js';
import { saveSeat, loadSeat } from './js/api.js';

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
  if (seat) {
    const side = params.get('side') || loadSeat(id)?.side || undefined;
    saveSeat(id, { token: seat, side, mode: loadSeat(id)?.mode || (side === 'both' ? 'hotseat' : undefined) });
    // the seat now lives in this browser: keep it out of the address bar (and out of shared links)
    history.replaceState(null, '', `#game=${encodeURIComponent(id)}`);
  }
  current = new Game(root, id);
  current.start();
  // a handle for debugging in the console and for the browser checks in web/dev/
  /** @type {any} */ (window).grognard = current;
}

window.addEventListener('hashchange', route);
route();
