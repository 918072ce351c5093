// The Napoleonic Battles activation system on the board (issue 14): the start screen offers the
// systems that can play a scenario and the chosen system's computer players; a game under it
// shows counters with their strength points, facing and markers, leaders with their ratings, who
// has the initiative and the formations' state; a unit of an activation moves by clicks.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, waitBoard, idle, boardState, waitActions, centreOn, clickHex, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

const RULES = 'napoleonic-battles';

test('1. the start screen offers the activation system for a Battle of Nations scenario', { timeout: 90_000 }, async () => {
  const page = await newPage(browser);
  await page.goto(server.base + '/');
  await page.waitForSelector('.scenario-card input[value="bon-first-day"]');
  await page.check('.scenario-card input[value="bon-first-day"]');
  // the rules chooser: the scenario's own system first, then the activation system
  await page.waitForSelector('.rules-choice:not([hidden]) #rules');
  const options = await page.locator('#rules option').evaluateAll((os) => os.map((o) => /** @type {HTMLOptionElement} */ (o).value));
  assert.deepEqual(options, ['naw', RULES]);
  await page.selectOption('#rules', RULES);
  // against the computer: the levels are those the chosen system offers
  const offered = (await api.call(`/api/players?system=${RULES}`)).json;
  const want = (offered.levels.length ? offered.levels.map((/** @type {any} */ l) => l.spec) : offered.players).join(',');
  await page.check('input[name="mode"][value="computer"]');
  await page.waitForFunction((w) => [...document.querySelectorAll('#level option')].map((o) => /** @type {HTMLOptionElement} */ (o).value).join(',') === w, want);
  await page.check('input[name="mode"][value="hotseat"]');
  await page.click('details.advanced summary');
  await page.fill('#seed', '5');
  await shot(page, '15-start-rules');
  await page.click('button[type="submit"]');
  await waitBoard(page);
  const id = await page.evaluate(() => /** @type {any} */ (window).grognard.id);
  const s = await api.state(id);
  assert.equal(s.system, RULES);
  assert.equal(s.to_act, 'Allied');
  assert.equal(s.initiative.side, 'Allied');

  // counters: every unit and leader on the map, a unit's face with its SP, facing notches
  const onMap = s.units.filter((/** @type {any} */ u) => u.status === 'map');
  assert.equal(await page.locator('svg.board .layer-counters .counter').count(), onMap.length);
  const unit = onMap.find((/** @type {any} */ u) => u.type === 'infantry');
  const counter = page.locator(`svg.board .counter[data-unit="${unit.id}"]`);
  assert.equal(await counter.locator('text.sp').textContent(), `${unit.strength}`);
  assert.ok(await counter.locator('.facing').count() === 1, 'a unit on the map shows its facing');
  const leader = onMap.find((/** @type {any} */ u) => u.type === 'leader');
  assert.ok(leader, 'a leader is on the map');
  assert.equal(await page.locator(`svg.board .counter.leader[data-unit="${leader.id}"]`).count(), 1);
  assert.match(await page.locator(`svg.board .counter.leader[data-unit="${leader.id}"] text.ratings`).textContent() || '', /^\d·\d$/);

  // the panels: the initiative and the formations
  assert.match(await page.locator('.card-nb-initiative').innerText(), /Allied has the initiative/);
  const formations = page.locator('.card-nb-formations .nb-formation');
  assert.equal(await formations.count(), s.formations.length);
  assert.match(await page.locator('.card-nb-formations').innerText(), /SP lost/);
  await shot(page, '15-board');
  await centreOn(page, leader.hex);
  await shot(page, '15-board-zoomed');
  assertNoPageErrors(page);
  await page.context().close();
});

/**
 * Plays seeded random legal actions of a hot-seat game through the API until the state is a
 * movement step with a unit's move among the legal actions; returns that state.
 * @param {string} id @param {string} token
 */
async function toMovement(id, token) {
  let seed = 7;
  const pick = (/** @type {number} */ n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  let s = await api.state(id);
  for (let i = 0; i < 400; i++) {
    if (s.step === 'movement' && s.legal.some((/** @type {string} */ a) => a.startsWith('move '))) return s;
    const legal = s.legal.filter((/** @type {string} */ a) => !a.startsWith('march ') && a !== 'pass');
    const pool = legal.length ? legal : s.legal;
    await api.act(id, pool[pick(pool.length)], token);
    s = await api.state(id);
  }
  throw new Error('no movement step reached');
}

test('2. a unit of an activation moves by clicks; spent and active formations are shown', { timeout: 120_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 11, mode: 'hotseat', rules: RULES });
  const token = g.seats.both;
  const s = await toMovement(g.id, token);
  const move = s.legal_actions.find((/** @type {any} */ a) => a.kind === 'move' && s.units.find((/** @type {any} */ u) => u.id === a.unit)?.type !== 'leader');
  assert.ok(move, 'a unit may move');
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  const v0 = await boardState(page);
  assert.equal(v0.step, 'movement');
  assert.ok(v0.activation && v0.activation.units.includes(move.unit), 'the unit is in the activation');
  // the unit's counter carries the `active` marker
  assert.match(await page.locator(`svg.board .counter[data-unit="${move.unit}"] title`).textContent() || '', /active/);
  assert.match(await page.locator('.card-nb-initiative').innerText(), /activation/);
  await centreOn(page, move.to);
  await page.evaluate((u) => /** @type {any} */ (window).grognard.selectUnit(u), move.unit);
  await page.waitForSelector(`.layer-dest .dest[data-hex="${move.to}"]`);
  const n = v0.actions_recorded;
  await clickHex(page, move.to);
  await waitActions(page, n);
  await idle(page);
  const after = await api.state(g.id);
  assert.equal(after.units.find((/** @type {any} */ u) => u.id === move.unit).hex, move.to);
  await shot(page, '15-moved');
  assertNoPageErrors(page);
  await page.context().close();
});
