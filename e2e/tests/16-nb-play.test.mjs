// Playing the Napoleonic Battles activation system on the board (issue 14): an activation by a
// commander's command point (his points go down, the officer's formation activates), with the
// commander's command range shaded from the server's overlay; a stack turned to face a hexside
// by clicking an arrow on the map (the arrows are the server's legal facings); a melee shown with
// its strengths, column shifts (each with its rule) and chances before the die, then confirmed
// and resolved; a unit back from elimination in the night's recovery placed by its owner with a
// click on one of the hexes the server shades (NB78). Hot-seat games with fixed seeds; clicks
// where the board offers them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, idle, boardState, waitActions, centreOn, clickHex, hexPoint, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

const RULES = 'napoleonic-battles';
const DIRS = ['E', 'NE', 'NW', 'W', 'SW', 'SE'];

/** @param {any} s @param {string} id */
const unitOf = (s, id) => s.units.find((/** @type {any} */ u) => u.id === id);

/**
 * Clicks a hex; when it holds a stack, picks `id` in the dialog the board opens.
 * @param {import('playwright-core').Page} page @param {string} hex @param {string} id
 */
async function selectIn(page, hex, id) {
  // first put down what is selected (its card's ×): a click would otherwise move it there
  const deselect = page.locator('.card-orders .unit-card button[aria-label="Deselect"]');
  if (await deselect.count()) await deselect.click();
  await page.waitForFunction(() => /** @type {any} */ (window).grognard.selected === null);
  await centreOn(page, hex);
  await clickHex(page, hex);
  const pick = page.locator(`dialog.pick-unit button[data-unit="${id}"]`);
  if (await page.locator('dialog.pick-unit').count()) await pick.click();
  await page.waitForFunction((u) => /** @type {any} */ (window).grognard.selected === u, id);
  await idle(page);
}

test('1. a commander spends a command point on an officer; his formation activates; a stack turns by a click on the map', { timeout: 120_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 11, mode: 'hotseat', rules: RULES });
  const page = await newPage(browser);
  /** @type {string[]} */
  const rulesAsked = [];
  page.on('request', (r) => { if (new URL(r.url()).pathname === '/api/rules') rulesAsked.push(r.url()); });
  await openBoard(page, server.base, g.links.both);
  const s0 = await boardState(page);
  assert.equal(s0.step, 'choose');
  assert.equal(s0.to_act, 'Allied');
  // a command the rules allow now, and the commander who gives it
  const command = s0.legal_actions.find((/** @type {any} */ a) => a.kind === 'command');
  assert.ok(command, 'a commander may spend a command point');
  const commander = unitOf(s0, command.unit);
  const officer = command.target;
  assert.equal(commander.command_points_used, 0);

  // pointing at the commander shades his command range (the server's overlay); selecting him
  // keeps it shaded and offers his orders
  await centreOn(page, commander.hex);
  assert.equal(await page.locator('svg.board .layer-range path.range').count(), 0);
  const [cx, cy] = await hexPoint(page, commander.hex);
  await page.mouse.move(cx, cy);
  await page.locator('svg.board .layer-range path.range').waitFor();
  await selectIn(page, commander.hex, commander.id);
  const range = s0.overlays.range[commander.id];
  assert.ok(range && range.includes(commander.hex) && range.includes(unitOf(s0, officer).hex), 'the officer is within the range');
  assert.ok(((await page.locator('svg.board .layer-range path.range').getAttribute('d')) || '').length > 0, 'the range is shaded');
  const orders = page.locator(`.card-orders .unit-orders[data-unit="${commander.id}"]`);
  await orders.waitFor();
  await shot(page, '16-commander-range');
  let n = s0.actions_recorded;
  await orders.locator(`button[data-key="act:${command.text}"]`).click();
  await waitActions(page, n);
  let s = await boardState(page);
  assert.equal(s.step, 'designate');
  // the designation done: Go
  n = s.actions_recorded;
  await page.locator('.card-orders button[data-key="act:go"]').first().click();
  await waitActions(page, n);
  s = await boardState(page);
  assert.equal(s.step, 'movement');
  assert.equal(unitOf(s, commander.id).command_points_used, 1, 'the commander has spent a command point');
  assert.equal(s.activation.how, 'command');
  assert.equal(s.activation.commander, commander.id);
  assert.deepEqual(s.activation.officers, [officer]);
  assert.ok(s.activation.units.length > 0, 'units activate');
  const formation = s.formations.find((/** @type {any} */ f) => f.officer === officer);
  for (const id of s.activation.units) assert.equal(unitOf(s, id).formation, formation.name, `${id} is of ${officer}'s formation`);
  assert.match(await page.locator('.card-nb-initiative .nb-activation').innerText(), new RegExp(`${commander.id}'s command under ${officer}`));
  assert.equal(await page.locator(`.card-nb-formations .nb-formation[data-formation="${formation.name}"]`).getAttribute('data-state'), 'active');

  // (b) facing: the arrows are the server's legal facings of an activated stack
  const face = s.legal_actions.find((/** @type {any} */ a) => a.kind === 'face');
  assert.ok(face, 'an activated stack may turn');
  const unit = s.units.find((/** @type {any} */ u) => u.hex === face.from && u.type !== 'leader');
  await selectIn(page, face.from, unit.id);
  const arrows = page.locator(`svg.board .layer-facings .facing-choice[data-hex="${face.from}"]`);
  const offered = (await arrows.evaluateAll((els) => els.map((e) => e.getAttribute('data-dir')))).sort();
  const legal = s.legal_actions.filter((/** @type {any} */ a) => a.kind === 'face' && a.from === face.from).map((/** @type {any} */ a) => a.target).sort();
  assert.deepEqual(offered, legal, 'one arrow per legal facing, no more');
  assert.ok(!offered.includes(DIRS[unit.facing]), 'no arrow at the hexside faced now');
  await shot(page, '16-facing-arrows');
  const dir = legal[0];
  n = s.actions_recorded;
  await page.locator(`svg.board .layer-facings .facing-choice[data-hex="${face.from}"][data-dir="${dir}"] .facing-arrow`).click();
  await waitActions(page, n);
  s = await boardState(page);
  assert.equal(s.log[s.log.length - 1].action, `face ${face.from} ${dir}`);
  for (const u of s.units.filter((/** @type {any} */ x) => x.hex === face.from && x.type !== 'leader')) assert.equal(DIRS[u.facing], dir, `${u.id} faces ${dir}`);
  assert.equal(await page.locator(`svg.board .counter[data-unit="${unit.id}"] .facing`).getAttribute('data-facing'), dir);
  await shot(page, '16-faced');
  // the rules reference (the drawer, the track's titles) is this game's system's
  await page.locator('button.tool[aria-label="Rules"]').click();
  await page.locator('#rules-drawer.open').waitFor();
  assert.ok(rulesAsked.length > 0, 'the board asked for the rules reference');
  for (const u of rulesAsked) assert.equal(new URL(u).searchParams.get('system'), RULES, u);
  assertNoPageErrors(page);
  await page.context().close();
});

/**
 * Plays seeded random legal actions of a hot-seat game through the API (no passes, no march
 * orders) until `found` gives something for the state; returns the state and what it gave.
 * @template T
 * @param {string} id @param {string} token @param {string} what
 * @param {(s: any) => Promise<T|null>} found
 * @returns {Promise<{s: any, got: T}>}
 */
async function playUntil(id, token, what, found) {
  let seed = 7;
  const pick = (/** @type {number} */ n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  let s = await api.state(id);
  for (let i = 0; i < 1500; i++) {
    const got = await found(s);
    if (got) return { s, got };
    assert.notEqual(s.to_act, 'over', `the game ended before ${what}`);
    const legal = s.legal.filter((/** @type {string} */ a) => a !== 'pass' && !a.startsWith('march '));
    const pool = legal.length ? legal : s.legal;
    await api.act(id, pool[pick(pool.length)], token);
    s = await api.state(id);
  }
  throw new Error(`${what}: not reached`);
}

/**
 * Plays to a melee step that offers a melee with at least one column shift; returns the state,
 * that melee's action and its preview.
 * @param {string} id @param {string} token
 */
async function toShiftedMelee(id, token) {
  const { s, got } = await playUntil(id, token, 'a melee with a shift', async (x) => {
    if (x.step !== 'melee') return null;
    for (const m of x.legal.filter((/** @type {string} */ a) => a.startsWith('melee '))) {
      const p = (await api.call(`/api/games/${id}/preview?action=${encodeURIComponent(m)}`)).json;
      if (p?.melee?.shifts?.length) return { melee: m, preview: p.melee };
    }
    return null;
  });
  return { s, ...got };
}

test('2. a melee shows its strengths, shifts with their rules and chances before the die, then is resolved', { timeout: 180_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 11, mode: 'hotseat', rules: RULES });
  const { s: s0, melee, preview } = await toShiftedMelee(g.id, g.seats.both);
  const [, from, to] = melee.split(' ');
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  const v = await boardState(page);
  assert.equal(v.step, 'melee');
  assert.equal(v.actions_recorded, s0.actions_recorded);
  // select an attacking unit, then point at the enemy hex: the hover card has the odds
  const attacker = v.units.find((/** @type {any} */ u) => u.hex === from && u.type !== 'leader' && u.active);
  await selectIn(page, from, attacker.id);
  assert.ok(await page.locator(`svg.board .layer-cand .cand-target`).count() > 0, 'the hexes it may attack are marked');
  const [x, y] = await hexPoint(page, to);
  await page.mouse.move(x, y);
  await page.waitForSelector('.hover-card .nb-melee-preview');
  // clicking the enemy hex shows the melee before its die, to confirm
  await clickHex(page, to);
  const box = page.locator(`.card-orders .confirm-box[data-action="${melee}"]`);
  await box.locator('.nb-melee-preview').waitFor();
  const text = await box.innerText();
  assert.match(text, new RegExp(`${preview.attack} against ${preview.defence} SP`));
  assert.ok(text.includes(`read on ${preview.base}`), 'the base column');
  const shifts = box.locator('.nb-shift');
  assert.equal(await shifts.count(), preview.shifts.length);
  const first = preview.shifts[0];
  assert.ok((await shifts.first().innerText()).includes(first.why), 'the shift says why');
  assert.ok((await shifts.first().innerText()).includes(first.rule), 'and names its rule');
  assert.equal(await box.locator('.nb-melee-preview').getAttribute('data-column'), preview.column);
  // the shift's rule opens the system's rules reference at that section
  const link = box.locator('.nb-shift').first().locator('a.case');
  await link.waitFor();
  await link.click();
  await page.locator(`#rules-drawer.open .rule[data-case="${first.rule}"]`).waitFor();
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('#rules-drawer.open'));
  assert.equal(await box.locator('.nb-results tbody tr').count(), preview.results.length, 'the chance of each result');
  // nothing was sent yet: no die rolled
  assert.equal((await api.state(g.id)).actions_recorded, v.actions_recorded);
  await shot(page, '16-melee-before-the-die');
  // the charts light the melee table's column it would be fought on
  await page.locator('button[data-key="charts"]').click();
  await page.locator(`.crt-table th.hl-col[data-column="${preview.column}"]`).waitFor();
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('.tables-drawer.open'));
  // confirmed: the melee is declared and its die rolled by the server
  const n = v.actions_recorded;
  await box.locator('button[data-key="confirm-go"]').click();
  await waitActions(page, n);
  let s = await boardState(page);
  const declared = s.log.find((/** @type {any} */ e) => e.n > n && e.action === melee);
  assert.ok(declared, 'the melee is declared');
  const ev = declared.events.find((/** @type {any} */ e) => e.kind === 'melee_declared');
  assert.ok(ev && ev.text.includes(first.why), `the declaration lists its shifts: ${ev?.text}`);
  if (s.step === 'evade') {
    // the defending cavalry's choice: it stands
    const m = s.actions_recorded;
    await page.locator('.card-orders button[data-key="act:stand"]').first().click();
    await waitActions(page, m);
    s = await boardState(page);
  }
  const resolved = s.log.filter((/** @type {any} */ e) => e.n > n).flatMap((/** @type {any} */ e) => e.events).find((/** @type {any} */ e) => e.kind === 'melee_resolved');
  assert.ok(resolved, 'the to-hit die is rolled and the melee resolved');
  assert.equal(await page.locator('.card-orders .confirm-box').count(), 0, 'the preview is put away');
  await shot(page, '16-melee-resolved');
  assertNoPageErrors(page);
  await page.context().close();
});

test('3. a reaction face change is made by a click on the map too', { timeout: 180_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 11, mode: 'hotseat', rules: RULES });
  const { s: s0, got: react } = await playUntil(g.id, g.seats.both, 'a reaction', async (x) => (x.step === 'reaction' ? x.legal_actions.find((/** @type {any} */ a) => a.kind === 'react') || null : null));
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  const v = await boardState(page);
  assert.equal(v.step, 'reaction');
  assert.equal(v.actions_recorded, s0.actions_recorded);
  await centreOn(page, react.from);
  // the reacting stack's arrows are drawn without a selection: one per legal reaction
  const arrows = page.locator(`svg.board .layer-facings .facing-choice[data-hex="${react.from}"]`);
  const offered = (await arrows.evaluateAll((els) => els.map((e) => e.getAttribute('data-dir')))).sort();
  const legal = v.legal_actions.filter((/** @type {any} */ a) => a.kind === 'react' && a.from === react.from).map((/** @type {any} */ a) => a.target).sort();
  assert.deepEqual(offered, legal);
  // declining is a button of its own
  assert.equal(await page.locator(`.card-orders button[data-key="act:hold ${react.from}"]`).count(), 1);
  await shot(page, '16-reaction');
  const n = v.actions_recorded;
  await page.locator(`svg.board .layer-facings .facing-choice[data-hex="${react.from}"][data-dir="${react.target}"] .facing-arrow`).click();
  await waitActions(page, n);
  const s = await boardState(page);
  assert.ok(s.log.some((/** @type {any} */ e) => e.n > n && e.action === react.text), `${react.text} is recorded`);
  assertNoPageErrors(page);
  await page.context().close();
});

test('4. a unit back from elimination is placed by a click on one of the shaded hexes', { timeout: 240_000 }, async () => {
  // a Grand Battle of two heuristic players up to the night of turn 6 (tests/data/nb-placement.json:
  // its actions are replayed through the API; the server rolls the same dice from the same seed)
  const data = JSON.parse(readFileSync(new URL('./data/nb-placement.json', import.meta.url), 'utf8'));
  const g = await api.create({ scenario: data.scenario, seed: data.seed, mode: 'hotseat', rules: data.rules });
  for (const a of data.actions) await api.act(g.id, a, g.seats.both);
  const s0 = await api.state(g.id);
  assert.equal(s0.step, 'place', `a recovered unit waits for its owner (step ${s0.step})`);
  const p = s0.placing;
  assert.ok(p && p.hexes.length > 0, 'the hexes it may return in');
  // its legal actions: the board's moves of the unit into exactly those hexes
  assert.deepEqual(s0.legal_actions.map((/** @type {any} */ a) => a.to), p.hexes);
  assert.ok(s0.legal_actions.every((/** @type {any} */ a) => a.kind === 'move' && a.unit === p.unit && a.text === `place ${p.unit} ${a.to}`));

  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  await page.locator('.card-nb-placing .nb-placing').waitFor();
  assert.match(await page.locator('.card-nb-placing').innerText(), new RegExp(`${p.unit} is back from elimination`));
  // the unit is taken up for its owner, and the hexes it may return in are shaded
  await page.waitForFunction((u) => /** @type {any} */ (window).grognard.selected === u, p.unit);
  await page.locator('svg.board .layer-range path.range').waitFor();
  assert.ok(((await page.locator('svg.board .layer-range path.range').getAttribute('d')) || '').length > 0, 'the hexes are shaded');
  const to = p.hexes[p.hexes.length - 1];
  await centreOn(page, to);
  await shot(page, '16-placement');
  const n = s0.actions_recorded;
  await clickHex(page, to);
  await waitActions(page, n);
  const s = await api.state(g.id);
  assert.equal(s.log[n].action, `place ${p.unit} ${to}`, 'the click placed it there');
  assert.equal(unitOf(s, p.unit).hex, to);
  assert.equal(unitOf(s, p.unit).sp, 1);
  // the night goes on: the next recovery roll, or another unit back to place
  assert.ok(s.step !== 'place' || s.placing.unit !== p.unit, `${p.unit} is placed`);
  assert.equal(unitOf(await boardState(page), p.unit).hex, to, 'the board shows it back');
  await shot(page, '16-placed');
  assertNoPageErrors(page);
  await page.context().close();
});
