// The start screen: choose a scenario and a mode (hot-seat, against the computer, online with a
// friend), create the game, and go to `/#game=ID` (the seat kept in this browser), or, online,
// hand out each seat's link.

import { api, saveSeat, knownGames, forgetSeat, absoluteLink, isLoopback, ApiError } from './api.js';
import { h, fill, copyText } from './util.js';

/** The largest seed (the server's seeds are unsigned 64-bit numbers). */
const MAX_SEED = 18446744073709551615n;

/**
 * The seed the player typed, as the API takes it: nothing when the field is empty, a number when
 * it is a safe integer, else its decimal digits (a 64-bit seed does not survive a JavaScript
 * number); an error sentence when it is not a seed.
 * @param {string} text
 * @returns {{seed?: number|string, error?: string}}
 */
export function seedOf(text) {
  const t = text.trim().replace(/[\s_]/g, '');
  if (t === '') return {};
  if (!/^\d+$/.test(t) || BigInt(t) > MAX_SEED) return { error: `The dice seed is a whole number from 0 to ${MAX_SEED}.` };
  const digits = t.replace(/^0+(?=\d)/, '');
  return { seed: Number.isSafeInteger(Number(digits)) ? Number(digits) : digits };
}

/** @param {HTMLElement} root */
export async function startScreen(root) {
  document.title = 'Grognard — The Battle of Nations';
  const scenBox = h('div', { class: 'scenarios', role: 'radiogroup', 'aria-label': 'Scenario' }, h('p', { class: 'muted' }, 'Loading scenarios…'));
  const sideSel = /** @type {HTMLSelectElement} */ (h('select', { id: 'side', 'aria-label': 'Your side' }, h('option', { value: 'French' }, 'French'), h('option', { value: 'Allied' }, 'Allied')));
  // the level's name in the selector, what it means beneath it (a long option would stretch the
  // selector past its card, and a phone's screen sideways)
  const levelAbout = h('span', { id: 'level-about', class: 'level-about small muted' });
  const levelSel = /** @type {HTMLSelectElement} */ (h('select', { id: 'level', 'aria-label': 'Computer level', 'aria-describedby': 'level-about', onchange: () => { levelSel.dataset.touched = 'true'; showAbout(); } },
    h('option', { value: 'heuristic' }, 'Easy'), h('option', { value: 'search@1s' }, 'Normal'), h('option', { value: 'search@2s', selected: true }, 'Hard')));
  const showAbout = () => { levelAbout.textContent = levelSel.selectedOptions[0]?.title || ''; };
  // the rules system to play the chosen battle with: shown when more than one can play it (the
  // scenario's own first; the server lists them in each scenario's `rules`)
  const rulesSel = /** @type {HTMLSelectElement} */ (h('select', { id: 'rules', 'aria-label': 'Rules', 'aria-describedby': 'rules-about', onchange: () => rulesChanged() }));
  const rulesAbout = h('span', { id: 'rules-about', class: 'small muted' });
  const rulesBox = h('p', { class: 'rules-choice', hidden: true }, h('label', { for: 'rules' }, 'Rules '), rulesSel, ' ', rulesAbout);
  const seed = /** @type {HTMLInputElement} */ (h('input', { id: 'seed', type: 'text', placeholder: 'random', inputmode: 'numeric', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'seed-about seed-online' }));
  const seedOnline = h('p', { id: 'seed-online', class: 'small seed-online', hidden: true },
    'Online games take no seed: the server draws a secret one, so that neither player can know the dice in advance.');
  const err = h('p', { class: 'error', role: 'alert' });
  const result = h('div', { class: 'online-links', 'aria-live': 'polite' });
  const go = /** @type {HTMLButtonElement} */ (h('button', { class: 'btn btn-primary btn-big', type: 'submit' }, 'Start the battle'));

  const mode = (/** @type {string} */ value, /** @type {string} */ title, /** @type {string} */ text, /** @type {Node|null} */ extra = null) =>
    h('label', { class: 'mode-card' },
      h('input', { type: 'radio', name: 'mode', value, checked: value === 'hotseat' }),
      h('span', { class: 'mode-title' }, title),
      h('span', { class: 'mode-text' }, text),
      extra);

  const form = h('form', { class: 'start-form', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); create(); } },
    h('fieldset', {}, h('legend', {}, '1. Choose a battle'), scenBox, rulesBox),
    h('fieldset', { class: 'modes' }, h('legend', {}, '2. Choose how to play'),
      mode('hotseat', 'Hot-seat', 'Both sides at this screen, taking turns.'),
      mode('computer', 'Against the computer', 'You command one side; the computer the other, and it explains its moves.',
        h('span', { class: 'mode-extra' },
          h('span', { class: 'mode-field' }, h('label', { for: 'side' }, 'Your side '), sideSel),
          h('span', { class: 'mode-field' }, h('label', { for: 'level' }, 'Level '), levelSel),
          levelAbout)),
      mode('online', 'Online with a friend', 'Two seats, two links: keep one, send the other.')),
    h('details', { class: 'advanced' }, h('summary', {}, 'Dice'),
      h('label', { for: 'seed' }, 'Dice seed (optional): '), seed,
      h('p', { id: 'seed-about', class: 'muted small' }, 'The same seed gives the same dice: a game can be replayed and checked exactly.'),
      seedOnline),
    err, go, result);

  // online games take no seed (the server keeps theirs secret): the field is shut in that mode
  const modeChanged = () => {
    const online = new FormData(/** @type {HTMLFormElement} */ (form)).get('mode') === 'online';
    seed.disabled = online;
    seedOnline.hidden = !online;
  };
  form.addEventListener('change', modeChanged);
  modeChanged();

  const known = knownGames();
  const yours = h('section', { class: 'card your-games', 'aria-label': 'Your games' });
  const renderKnown = () => {
    const list = knownGames();
    if (!list.length) { yours.hidden = true; return; }
    yours.hidden = false;
    fill(yours, h('h2', {}, 'Your games'),
      h('ul', { class: 'game-list' }, list.slice(0, 12).map((g) => h('li', {},
        h('a', { href: `#game=${encodeURIComponent(g.id)}` }, g.title || g.id),
        h('span', { class: 'muted small' }, ` ${g.mode || ''}${g.side && g.side !== 'both' ? ` · ${g.side}` : ''}${g.created ? ` · ${new Date(g.created).toLocaleString()}` : ''}`),
        h('button', { class: 'link-btn small', type: 'button', 'aria-label': `Forget game ${g.id}`, onclick: () => { forgetSeat(g.id); renderKnown(); } }, 'forget')))));
  };
  void known;

  fill(root, h('div', { class: 'start' },
    h('header', { class: 'start-head' },
      h('div', { class: 'brand-big' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, '⚑'), 'Grognard'),
      h('p', { class: 'tagline' }, 'The Battle of Nations — Leipzig, 16–19 October 1813. SPI’s Napoleon at War, with every rule enforced and every refusal explained.')),
    h('main', { id: 'main', class: 'start-main' }, h('section', { class: 'card' }, form), yours)));
  renderKnown();

  /** @type {{id: string, title: string, system?: string, rules?: {id: string, name: string}[], first_turn: number, last_turn: number, sides: string[], description?: string}[]} */
  let scenarios = [];
  try {
    scenarios = await api.scenarios();
  } catch (e) {
    fill(scenBox, h('p', { class: 'error' }, `The server did not answer: ${/** @type {Error} */ (e).message}`));
    go.disabled = true;
    return;
  }
  // the levels the server offers for a rules system (the strongest chosen by default); a system
  // without the named levels offers its computer players by their specs
  /** @type {Record<string, any>} */
  const levelsOf = {};
  /** @param {string} [system] */
  const loadLevels = (system) => {
    const key = system || '';
    const got = levelsOf[key] ? Promise.resolve(levelsOf[key]) : api.players(system);
    got.then((p) => {
      if (!p) return;
      levelsOf[key] = p;
      if ((rulesSel.value || '') !== key && system !== undefined) return; // chosen again since
      const levels = Array.isArray(p.levels) && p.levels.length ? p.levels
        : (Array.isArray(p.players) ? p.players.map((/** @type {string} */ spec) => ({ name: spec, spec, about: '' })) : []);
      if (!levels.length) return;
      const chosen = levelSel.dataset.touched ? levelSel.value : null;
      const keep = chosen && levels.some((/** @type {{spec: string}} */ l) => l.spec === chosen);
      fill(levelSel, levels.map((/** @type {{name: string, spec: string, about: string}} */ l, /** @type {number} */ i) => h('option', { value: l.spec, title: l.about, selected: keep ? l.spec === chosen : i === levels.length - 1 }, l.name)));
      levelSel.dataset.loaded = 'true';
      showAbout();
    }).catch(() => { /* keep the list there is */ });
  };
  loadLevels();
  /** The chosen scenario. */
  const chosenScenario = () => {
    const id = String(new FormData(/** @type {HTMLFormElement} */ (form)).get('scenario') || '');
    return scenarios.find((x) => x.id === id);
  };
  // the rules chooser follows the chosen scenario
  const scenarioChanged = () => {
    const sc = chosenScenario();
    const rules = sc?.rules || [];
    const before = rulesSel.value;
    fill(rulesSel, rules.map((r, i) => h('option', { value: r.id, selected: before ? r.id === before : i === 0 }, i === 0 ? `${r.name} (its own)` : r.name)));
    if (!rules.some((r) => r.id === before)) rulesSel.value = rules[0]?.id || '';
    rulesBox.hidden = rules.length < 2;
    rulesChanged();
  };
  function rulesChanged() {
    const sc = chosenScenario();
    const own = !sc || !rulesSel.value || rulesSel.value === (sc.rules?.[0]?.id || sc.system);
    rulesAbout.textContent = own ? '' : 'the same battle, map and troops under another rules system';
    if (rulesSel.value) loadLevels(rulesSel.value);
  }
  form.addEventListener('change', (e) => { if (/** @type {HTMLInputElement} */ (e.target).name === 'scenario') scenarioChanged(); });
  fill(scenBox, scenarios.map((sc, i) => h('label', { class: 'scenario-card' },
    h('input', { type: 'radio', name: 'scenario', value: sc.id, checked: i === 0 }),
    h('span', { class: 'scenario-title' }, scenarioName(sc.title).name),
    scenarioName(sc.title).date ? h('span', { class: 'scenario-date' }, scenarioName(sc.title).date) : null,
    h('span', { class: 'scenario-meta' }, `Game-turns ${sc.first_turn}–${sc.last_turn} · ${sc.sides.join(' against ')}`),
    sc.description ? h('span', { class: 'scenario-desc' }, sc.description.replace(/\s*\n\s*/g, ' ')) : null)));
  scenarioChanged();

  async function create() {
    err.textContent = '';
    const fd = new FormData(/** @type {HTMLFormElement} */ (form));
    const scenario = String(fd.get('scenario') || '');
    const m = String(fd.get('mode') || 'hotseat');
    if (!scenario) { err.textContent = 'Choose a scenario.'; return; }
    /** @type {{scenario: string, mode: string, seed?: number|string, computer_side?: string, computer?: string, rules?: string}} */
    const body = { scenario, mode: m };
    // another rules system than the scenario's own: named (its own needs no name)
    const sc = scenarios.find((x) => x.id === scenario);
    if (rulesSel.value && sc?.rules && rulesSel.value !== sc.rules[0]?.id) body.rules = rulesSel.value;
    if (m !== 'online') {
      const sd = seedOf(seed.value);
      if (sd.error) { err.textContent = sd.error; seed.focus(); return; }
      if (sd.seed !== undefined) body.seed = sd.seed;
    }
    const mySide = sideSel.value;
    if (m === 'computer') body.computer = levelSel.value;
    if (m === 'computer') body.computer_side = scenarios.find((x) => x.id === scenario)?.sides.find((x) => x !== mySide) || (mySide === 'French' ? 'Allied' : 'French');
    go.disabled = true;
    go.textContent = 'Setting up the battle…';
    try {
      const g = await api.create(body);
      const title = scenarios.find((x) => x.id === scenario)?.title || scenario;
      if (m === 'hotseat') {
        const token = g.seats.both || Object.values(g.seats)[0];
        saveSeat(g.id, { token, side: 'both', mode: m, title, url: g.urls?.both });
        location.hash = `game=${encodeURIComponent(g.id)}`;
      } else if (m === 'computer') {
        const token = g.seats[mySide] || Object.values(g.seats)[0];
        saveSeat(g.id, { token, side: mySide, mode: m, title, url: g.urls?.[mySide] });
        location.hash = `game=${encodeURIComponent(g.id)}`;
      } else {
        showLinks(g, title, scenarios.find((x) => x.id === scenario)?.sides || []);
      }
    } catch (e) {
      const x = /** @type {ApiError} */ (e);
      if (x instanceof ApiError && x.status === 429) {
        err.textContent = `The server asks you to slow down: ${x.why.replace(/\.?$/, '.')}${x.retryAfter ? ` Try again in ${x.retryAfter} s.` : ''}`;
      } else {
        err.textContent = `The game could not be created: ${x.message}`;
      }
    } finally {
      go.disabled = false;
      go.textContent = 'Start the battle';
    }
  }

  /**
   * Hands out the seats' links of an online game: absolute addresses (the server's own, `urls`,
   * when it knows its public address; else this page's), one to keep and one to send; an address
   * only this machine can open is said plainly, with how to serve the game to a friend.
   * @param {import('./api.js').Created} g @param {string} title @param {string[]} sides
   */
  function showLinks(g, title, sides) {
    const order = (/** @type {string} */ s) => (sides.indexOf(s) + 1) || 99;
    const entries = Object.entries(g.links).sort((a, b) => order(a[0]) - order(b[0]));
    /** @type {string[]} */
    const hrefs = [];
    const rows = entries.map(([side, link]) => {
      const url = new URL(absoluteLink(link, g.urls?.[side]));
      if (!/[#&]side=/.test(url.hash)) url.hash += `&side=${encodeURIComponent(side)}`;
      hrefs.push(url.href);
      const input = /** @type {HTMLInputElement} */ (h('input', { type: 'text', readonly: true, value: url.href, 'aria-label': `Link for the ${side} player`, class: 'link-input', onfocus: () => input.select() }));
      const copy = h('button', { type: 'button', class: 'btn', onclick: () => copyText(input, copy) }, 'Copy');
      const play = h('button', { type: 'button', class: 'btn btn-primary', onclick: () => {
        saveSeat(g.id, { token: g.seats[side], side, mode: 'online', title, url: url.href });
        location.hash = `game=${encodeURIComponent(g.id)}`;
      } }, `Play as ${side}`);
      return h('div', { class: 'link-row' }, h('label', { class: 'link-side' }, side), input, copy, play);
    });
    const local = hrefs.some(isLoopback);
    const at = hrefs.length ? new URL(hrefs[0]) : new URL(location.href);
    const host = at.host;
    fill(result, h('h3', {}, 'Your game is ready'),
      h('p', {}, 'Each link is a seat: whoever opens it plays that side. Keep one, send the other to your friend. Anyone who opens ',
        h('code', {}, `${at.origin}/#game=${g.id}`), ' without a seat watches.'),
      local ? h('div', { class: 'loopback-warning', role: 'note' },
        h('p', {}, h('strong', {}, `These links point to ${host}, this computer's own address: a friend on another machine cannot open them.`)),
        h('p', {}, 'To play with a friend elsewhere, serve the game where they can reach it: start the server with ',
          h('code', {}, 'grognard serve --listen 0.0.0.0:8813'), ' and open this board at this computer\'s network address (the links then use it), or give the server its public address with ',
          h('code', {}, '--public-url https://…'), '. The deployment guide (docs/deploy.md) tells how.')) : null,
      rows,
      g.commitment ? h('p', { class: 'small muted commitment' }, 'The dice are sealed: the server keeps their seed secret until the game ends and has committed to it (',
        h('code', { title: 'SHA-256 commitment to the seed and its salt' }, g.commitment),
        '). The finished game\'s record reveals the seed, and ', h('code', {}, 'grognard replay --verify'), ' checks it against this commitment.') : null);
    result.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  }
}

/** "The Battle of Nations: the First Day (16 October 1813)" -> name "The First Day", date "16 October 1813". @param {string} title */
function scenarioName(title) {
  const m = title.match(/^(?:.*?:\s*)?(.*?)\s*(?:\(([^)]*)\))?$/);
  const name = m ? m[1] : title;
  return { name: name.charAt(0).toUpperCase() + name.slice(1), date: m && m[2] ? m[2] : '' };
}
