// The hex-miniatures rules on the board (issue 16): a French battalion with Prussian cavalry near
// forms square by a click on its orders ([8.1.1]); the square is drawn (its SQU tag, its card);
// in the Prussian player-turn the cavalry's charge on the square is resolved ([9.3]) and shown
// in the events panel; the charts drawer shows the system's tables, the square attack's among them. A hot-seat game of Möckern with a fixed seed, brought to
// the position by replaying the actions of two heuristic players through the API
// (tests/data/hm-square.json; the server rolls the same numbers from the same seed).
//
// After a rules change the record is made again by (from the workspace's root):
//   HM_E2E_DATA=e2e/tests/data cargo test -p systems --test hm_e2e_data -- --ignored

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  useFixture, ARTIFACTS, server, api, browser, newPage, shot, openBoard, waitBoard, idle, boardState, waitActions, centreOn, clickHex, command, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

/** @param {any} s @param {string} id */
const unitOf = (s, id) => s.units.find((/** @type {any} */ u) => u.id === id);

/**
 * Clicks a hex; when it holds a stack, picks `id` in the dialog the board opens.
 * @param {import('playwright-core').Page} page @param {string} hex @param {string} id
 */
async function selectIn(page, hex, id) {
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

test('Möckern: a battalion forms square against cavalry by a click, and the charge on it is resolved', { timeout: 240_000 }, async () => {
  const data = JSON.parse(readFileSync(new URL('./data/hm-square.json', import.meta.url), 'utf8'));
  const g = await api.create({ scenario: data.scenario, seed: data.seed, mode: 'hotseat', rules: data.rules });
  for (const a of data.actions) await api.act(g.id, a, g.seats.both);
  const s0 = await api.state(g.id);
  assert.equal(s0.step, 'movement', `the record reaches a movement stage (${s0.step})`);
  const unit = unitOf(s0, data.unit);
  assert.equal(unit.hex, data.hex);
  assert.equal(unit.type, 'infantry');
  assert.notEqual(unit.formation, 'square');
  assert.equal(s0.to_act, unit.side);
  for (const c of data.cavalry) assert.equal(unitOf(s0, c).type, 'cavalry', `${c} is cavalry`);
  assert.ok(s0.legal_actions.some((/** @type {any} */ a) => a.text === data.form), `${data.form} is legal`);

  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  // the battalion taken up with a click on its hex: its orders offer the square
  await selectIn(page, data.hex, data.unit);
  const orders = page.locator(`.card-orders .unit-orders[data-unit="${data.unit}"]`);
  await orders.waitFor();
  const form = orders.locator(`button[data-key="act:${data.form}"]`);
  await form.waitFor();
  await shot(page, '18-hm-square-before');
  let n = s0.actions_recorded;
  await form.click();
  await waitActions(page, n);
  let s = await boardState(page);
  const formed = s.log.find((/** @type {any} */ e) => e.n === n + 1);
  assert.equal(formed?.action, data.form, 'the click formed the square');
  assert.ok(formed.events.some((/** @type {any} */ e) => e.kind === 'formed' && e.unit === data.unit && String(e.formation).toLowerCase() === 'square'), 'a formed event');
  assert.equal(unitOf(s, data.unit).formation, 'square');
  // drawn as a square: its tag on the counter, its state in the unit's card and the counter's title
  const counter = page.locator(`svg.board .layer-counters .counter[data-unit="${data.unit}"]`);
  await counter.locator('.marker-square').waitFor();
  assert.match(await counter.locator('title').textContent() || '', /square/);
  assert.match(await page.locator('.card-orders .unit-card').innerText(), /square/);
  await shot(page, '18-hm-square-formed');
  await counter.screenshot({ path: path.join(ARTIFACTS, '18-hm-square-counter.png'), animations: 'disabled' });

  // the rest of this player-turn and the other side's up to the action after which the charge
  // is resolved: the End of their declared attacks, or an action of the resolution before it (an
  // advance after an earlier combat)
  const then = data.then.slice(0, -1);
  const last = data.then[data.then.length - 1];
  for (const a of then) await api.act(g.id, a, g.seats.both);
  await page.reload();
  await waitBoard(page);
  s = await boardState(page);
  assert.equal(s.step, last === 'end' ? 'attacks' : 'resolution');
  assert.equal(unitOf(s, data.unit).formation, 'square', 'still in square');
  assert.equal(unitOf(s, data.unit).hex, data.hex, 'where it formed');
  const charger = data.charge.attackers[0];
  assert.ok(s.log.some((/** @type {any} */ e) => e.action === `attack ${charger} ${data.hex}`), `${charger} attacks the square`);
  // the attacks declared: the last action (End, or one of the resolution's) resolves the charge,
  // cavalry and squares first ([9])
  await centreOn(page, data.hex);
  n = s.actions_recorded;
  if (last === 'end') await page.locator('.card-orders button.btn-end[data-key="act:end"]').click();
  else await command(page, last);
  await waitActions(page, n);
  s = await boardState(page);
  const charge = s.log.filter((/** @type {any} */ e) => e.n > n).flatMap((/** @type {any} */ e) => e.events)
    .find((/** @type {any} */ e) => e.kind === 'charge' && e.square === data.unit);
  assert.ok(charge, 'the cavalry charges the square');
  assert.equal(charge.text, data.charge.text, 'as recorded');
  assert.equal(charge.case, '9.3');
  // the events panel lists it, with its rule
  const item = page.locator('.card-events .events-list li.ev-charge').filter({ hasText: `the square of ${data.unit}` });
  await item.first().waitFor();
  assert.match(await item.first().innerText(), /Charge on a square/i);
  assert.match(await item.first().innerText(), new RegExp(`${data.charge.result}`));
  await shot(page, '18-hm-square-charged');
  // the charts: the system's tables, among them the square attack table ([20]) the charge read
  await page.locator('button[data-key="charts"]').click();
  const square = page.locator('.tables-drawer.open details.chart-grid[data-chart="square"]');
  await square.waitFor();
  await square.locator(':scope > summary').click();
  assert.ok(await square.locator('tbody tr').count() > 0, 'the square attack table has rows');
  assert.ok(await page.locator('.tables-drawer.open .crt-table tbody tr').count() > 0, 'the combat results table');
  await square.scrollIntoViewIfNeeded();
  await shot(page, '18-hm-charts');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('.tables-drawer.open'));
  assertNoPageErrors(page);
  await page.context().close();
});
