// Hot-seat play on the board: start a game from the start screen, move a unit by clicks, take a
// move back with the Undo button.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, waitBoard, idle, boardState, waitActions, centreOn, clickHex, hexPoint, unitOf, command, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

/** A hot-seat game of bon-first-day, French turn 1 already ended: the Allied movement phase. */
async function alliedMovement(seed = 42) {
  const g = await api.create({ scenario: 'bon-first-day', seed, mode: 'hotseat' });
  const token = g.seats.both;
  assert.ok(token, 'a hot-seat game has one token for both sides');
  const r = await api.act(g.id, 'end', token);
  assert.equal(r.change.phasing, 'Allied');
  assert.equal(r.change.step, 'movement');
  return { g, token };
}

test('1. a hot-seat game of bon-first-day from the start screen shows the map and the counters', { timeout: 60_000 }, async () => {
  const page = await newPage(browser);
  await page.goto(server.base + '/');
  await page.waitForSelector('.scenario-card input[value="bon-first-day"]');
  await page.check('.scenario-card input[value="bon-first-day"]');
  await page.check('input[name="mode"][value="hotseat"]');
  await page.click('details.advanced summary');
  await page.fill('#seed', '42');
  await shot(page, '01-start-screen');

  await page.click('button[type="submit"]');
  await waitBoard(page);
  const id = await page.evaluate(() => /** @type {any} */ (window).grognard.id);
  assert.match(id, /^g_/);
  assert.ok(!(await page.evaluate(() => location.hash)).includes('seat='), 'the seat token is kept out of the address bar');

  // the server has the game, as the board shows it
  const s = await api.state(id);
  assert.equal(s.scenario, 'bon-first-day');
  assert.equal(s.turn, 1);
  assert.equal(s.phasing, 'French');
  const onMap = s.units.filter((/** @type {any} */ u) => u.status === 'map');
  assert.ok(onMap.length > 50, `units on the map: ${onMap.length}`);

  // the map: terrain of several kinds, hexsides, place names
  for (const t of ['clear', 'forest', 'town']) assert.equal(await page.locator(`svg.board .terrain path.t-${t}`).count(), 1, `terrain ${t} drawn`);
  // every unit on the map has its counter, with its strength-movement
  assert.equal(await page.locator('svg.board .layer-counters .counter').count(), onMap.length);
  const fr4 = unitOf(s, 'FR.4');
  const counter = page.locator('svg.board .counter[data-unit="FR.4"]');
  assert.equal(await counter.locator('text.sm').textContent(), `${fr4.strength}-${fr4.movement}`);
  assert.equal(await page.evaluate((h) => /** @type {any} */ (window).grognard.board.unitAt.get(h)?.id, fr4.hex), 'FR.4');
  // the top bar: the turn track of 5 turns, the phase, who acts
  assert.equal(await page.locator('.turn-track li').count(), 5);
  assert.match(await page.locator('.phase').innerText(), /Turn 1/);
  assert.match(await page.locator('.actor').innerText(), /French to act/);
  await shot(page, '01-board');

  // zoomed in on Leipzig's southern front
  await centreOn(page, '2315');
  await shot(page, '01-board-zoomed');
  assertNoPageErrors(page);
  await page.context().close();
});

test('2. move a unit: click it, click a shaded destination, the server has it in its new hex', { timeout: 60_000 }, async () => {
  const { g } = await alliedMovement();
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  const before0 = await api.state(g.id);
  assert.equal(unitOf(before0, 'PR.9').hex, '2516');
  assert.ok(before0.legal.includes('move PR.9 2416'));

  await centreOn(page, '2416');
  await clickHex(page, '2516');
  // its legal destinations are shaded, each with its cost
  await page.waitForSelector('.layer-dest .dest[data-hex="2416"]');
  const n = await page.locator('.layer-dest .dest').count();
  assert.ok(n > 5, `PR.9 has ${n} destinations shaded`);
  assert.equal(await page.locator('.sidebar .unit-card .unit-id').first().innerText().then((t) => t.split(/\s/)[0]), 'PR.9');
  // hovering a destination draws the path
  const [hx, hy] = await hexPoint(page, '2414');
  await page.mouse.move(hx, hy);
  await page.waitForSelector('.layer-path .path-line');
  await shot(page, '02-destinations');

  const n0 = (await boardState(page)).actions_recorded;
  await clickHex(page, '2416');
  await waitActions(page, n0);
  const after0 = await api.state(g.id);
  assert.equal(unitOf(after0, 'PR.9').hex, '2416', 'the server has PR.9 in 2416');
  assert.equal(unitOf(after0, 'PR.9').moved, true);
  assert.equal(after0.log.at(-1).action, 'move PR.9 2416');
  // and the board draws it there
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).grognard.board.unitAt.get('2416')?.id), 'PR.9');
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).grognard.board.unitAt.get('2516')?.id ?? null), null);
  await page.waitForSelector('svg.board .counter.moved[data-unit="PR.9"]');
  await shot(page, '02-moved');
  assertNoPageErrors(page);
  await page.context().close();
});

test('5. undo a move with the Undo button: the unit is back', { timeout: 60_000 }, async () => {
  const { g } = await alliedMovement();
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  const s0 = await api.state(g.id);
  assert.equal(unitOf(s0, 'RU.3').hex, '2514');

  // select RU.3, then drag its counter to its first destination at a cost of 1
  await centreOn(page, '2514');
  await clickHex(page, '2514');
  await page.waitForSelector('.layer-dest .dest');
  const dest = await page.evaluate(() => /** @type {any} */ (window).grognard.moves.list.find((/** @type {any} */ d) => d.cost <= 1).hex);
  const [x0, y0] = await hexPoint(page, '2514');
  const [x1, y1] = await hexPoint(page, dest);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 5 });
  await page.mouse.move(x1, y1, { steps: 5 });
  await page.mouse.up();
  await waitActions(page, s0.actions_recorded);
  const s1 = await api.state(g.id);
  assert.equal(unitOf(s1, 'RU.3').hex, dest, `drag and drop moved RU.3 to ${dest}`);
  assert.ok(s1.undoable > 0);
  await shot(page, '05-before-undo');

  const undo = page.locator('button[aria-label="Undo"]');
  await page.waitForSelector('button[aria-label="Undo"]:not([disabled])');
  await undo.click();
  await page.waitForFunction((n) => /** @type {any} */ (window).grognard.state.actions_recorded === n, s0.actions_recorded);
  await idle(page);
  await page.waitForSelector(`.toast:has-text("Took back: move RU.3 ${dest}")`);
  const s2 = await api.state(g.id);
  assert.equal(s2.actions_recorded, s0.actions_recorded);
  assert.equal(unitOf(s2, 'RU.3').hex, '2514', 'the server has RU.3 back in 2514');
  assert.equal(unitOf(s2, 'RU.3').moved, false);
  assert.equal(s2.state_hash, s0.state_hash, 'the position is the one before the move');
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).grognard.board.unitAt.get('2514')?.id), 'RU.3');
  assert.equal(await page.evaluate((h) => /** @type {any} */ (window).grognard.board.unitAt.get(h)?.id ?? null, dest), null);
  await shot(page, '05-undone');
  assertNoPageErrors(page);
  await page.context().close();
});

// Regression: the accepted action re-renders the sidebar, which used to copy the sent text into
// the new command box.
test('2b. an accepted command clears the command box', {
  timeout: 30_000,
}, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 42, mode: 'hotseat' });
  const page = await newPage(browser);
  try {
    await openBoard(page, server.base, g.links.both);
    await command(page, 'end');
    await waitActions(page, 0);
    assert.equal((await api.state(g.id)).phasing, 'Allied');
    assert.equal(await page.locator('.cmd-input').inputValue(), '', 'the accepted command is cleared');
  } finally {
    await page.context().close();
  }
});
