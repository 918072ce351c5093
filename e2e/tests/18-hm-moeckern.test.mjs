// The hex-miniatures rules on the board (issue 16): Möckern opens with its own panels (the
// battle's clock, weather and sight; the victory table with each army's casualties and who
// holds the field; the orders); a Prussian battalion comes on by the Halle road at its entry
// hex, by a click on one of the hexes shaded for it, and Yorck rides on the same way; a French order to a formation far from its
// general rides by messenger, and the messenger is a counter on the map and a line of the orders
// panel until it arrives (with the ride still to go drawn as an arrow); a general selected shades
// his formations' troops; the map greys the hexes the side to act does not see. A hot-seat game with a fixed seed; the order typed in the command box.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, boardState, waitActions, command, centreOn, clickHex, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

/** @param {any} s @param {string} id */
const unitOf = (s, id) => s.units.find((/** @type {any} */ u) => u.id === id);

/** Types an action and waits for it to be recorded. @param {import('playwright-core').Page} page @param {string} action */
async function act(page, action) {
  const n = (await boardState(page)).actions_recorded;
  await command(page, action);
  await waitActions(page, n);
  return boardState(page);
}

test('Möckern: its panels, an arrival by the Halle road, an order carried by a messenger', { timeout: 120_000 }, async () => {
  const g = await api.create({ scenario: 'moeckern-1813', seed: 4, mode: 'hotseat' });
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  let s = await boardState(page);
  assert.equal(s.system, 'hex-miniatures');
  assert.equal(s.step, 'movement');
  assert.equal(s.to_act, 'Prussians');
  assert.equal(s.clock, '12:00');
  // the system's panels
  await page.locator('.sidebar .card-hm-battle').waitFor();
  assert.match(await page.locator('.sidebar .card-hm-battle').innerText(), /Weather: clear/);
  assert.match(await page.locator('.sidebar .card-hm-victory').innerText(), /The French hold the field/);
  assert.ok(await page.locator('.sidebar .card-hm-orders').count(), 'the orders panel');
  // the 2nd Marine stands in Möckern, drawn with its strength and base units
  const marine = unitOf(s, 'FR-21-2M-1');
  assert.equal(marine.hex, '1012');
  assert.equal(await page.locator('svg.board .layer-counters [data-unit="FR-21-2M-1"]').count(), 1);

  // the map greys what the side to act does not see: the Prussians have nobody on the table yet
  const greyed = async () => Number(await page.locator('svg.board .layer-sight path.out-of-sight').getAttribute('data-hexes').catch(() => '0'));
  const total = await page.evaluate(() => /** @type {any} */ (window).grognard.board.terrain.size);
  assert.equal(s.sight.Prussians.length, 0);
  assert.equal(await greyed(), total, 'every hex greyed');
  assert.match(await page.locator('.sidebar .card-hm-battle .hm-sight').innerText(), /no unit of the Prussians sees \(0 seen\)/);

  // Hiller's battalion comes on at the Halle road's edge hex: taken up from the reinforcements
  // list, the hexes it may enter shaded (the system's moves query: its legal moves), a click
  assert.equal(unitOf(s, 'PR-AG-1').status, 'waiting');
  await page.locator('[data-key="reinf:PR-AG-1"]').first().click();
  await page.waitForFunction(() => /** @type {any} */ (window).grognard.selected === 'PR-AG-1');
  const entries = s.legal_actions.filter((/** @type {any} */ a) => a.kind === 'move' && a.unit === 'PR-AG-1').map((/** @type {any} */ a) => a.to).sort();
  assert.ok(entries.includes('0112'));
  await page.locator('svg.board .layer-dest path.dest[data-hex="0112"]').waitFor();
  const shaded = (await page.locator('svg.board .layer-dest path.dest').evaluateAll((els) => els.map((e) => e.getAttribute('data-hex')))).sort();
  assert.deepEqual(shaded, entries, 'the hexes shaded are its legal moves');
  const q = await api.call(`/api/games/${g.id}/moves/PR-AG-1`);
  assert.equal(q.status, 200, 'the system answers the moves query');
  assert.deepEqual(q.json.destinations.map((/** @type {any} */ d) => d.hex).sort(), entries);
  assert.equal(await page.locator('.toast-error').count(), 0, 'no error shown');
  await centreOn(page, '0112');
  const n = s.actions_recorded;
  await clickHex(page, '0112');
  await waitActions(page, n);
  s = await boardState(page);
  assert.equal(s.log.find((/** @type {any} */ e) => e.n === n + 1)?.action, 'move PR-AG-1 0112', 'the click brought it on');
  // now it sees: only what it does not see stays greyed
  assert.ok(s.sight.Prussians.includes('0112'));
  await page.waitForFunction((k) => Number(document.querySelector('svg.board .layer-sight path.out-of-sight')?.getAttribute('data-hexes') || 0) === k, total - s.sight.Prussians.length);
  await shot(page, '18-hm-sight');
  assert.equal(unitOf(s, 'PR-AG-1').hex, '0112');
  await page.locator('svg.board .layer-counters [data-unit="PR-AG-1"]').waitFor();

  // Yorck rides onto the table the same way: his rides are the hexes shaded for him (a general's
  // ride is a move for the board), and a click on one sends it
  const rides = s.legal_actions.filter((/** @type {any} */ a) => a.text.startsWith('ride yorck ')).map((/** @type {any} */ a) => a.to).sort();
  assert.ok(rides.length > 0, 'Yorck may ride on');
  await page.locator('[data-key="reinf:yorck"]').first().click();
  await page.waitForFunction(() => /** @type {any} */ (window).grognard.selected === 'yorck');
  await page.locator(`svg.board .layer-dest path.dest[data-hex="${rides[0]}"]`).waitFor();
  const shadedRides = (await page.locator('svg.board .layer-dest path.dest').evaluateAll((els) => els.map((e) => e.getAttribute('data-hex')))).sort();
  assert.deepEqual(shadedRides, rides, 'the hexes shaded are his rides');
  const to = rides.includes('0111') ? '0111' : rides[0];
  await centreOn(page, to);
  const k = s.actions_recorded;
  await clickHex(page, to);
  await waitActions(page, k);
  s = await boardState(page);
  assert.equal(s.log.find((/** @type {any} */ e) => e.n === k + 1)?.action, `ride yorck ${to}`, 'the click rode him on');
  assert.equal(unitOf(s, 'yorck').hex, to);

  // the French orders stage: Marmont orders Normann's brigade, far off at Lindenthal, to hold,
  // or, when it holds already (no order repeats the standing one), to act at its discretion
  s = await act(page, 'end');
  assert.equal(s.step, 'orders');
  assert.equal(s.to_act, 'French');
  const order = ['hold', 'free'].map((o) => s.legal_actions.find((/** @type {any} */ a) => a.text === `order marmont FR-25C ${o}`)).find(Boolean);
  const words = order?.text.endsWith(' hold') ? 'hold' : 'at discretion';
  assert.ok(order, 'Marmont may order the 25th Light Cavalry Brigade');
  s = await act(page, order.text);
  assert.equal(s.messengers.length, 1, 'a messenger rides');
  const m = s.messengers[0];
  assert.equal(m.from, 'marmont');
  assert.equal(m.formation, 'FR-25C');
  assert.equal(m.order_text, words);
  // the messenger is a counter on the map, and a line of the orders panel
  await centreOn(page, m.hex);
  await page.locator(`svg.board .layer-counters [data-unit="${m.id}"]`).waitFor();
  const orders = page.locator('.sidebar .card-hm-orders');
  if (!(await orders.getAttribute('open'))) await orders.locator(':scope > summary').click();
  assert.ok((await orders.innerText()).includes(`marmont → FR-25C, "${words}"`), 'the order in transit is listed');
  // the messenger's ride still to go (the rules' route): a dashed arrow from where he is, and
  // its length in the orders panel
  assert.ok(Array.isArray(m.route) && m.route.length > 1, 'he has a ride to go');
  assert.equal(m.route[0], m.hex);
  const route = page.locator(`svg.board .layer-routes .map-route[data-route="${m.id}"]`);
  await route.waitFor();
  assert.equal(await route.getAttribute('data-from'), m.hex);
  assert.equal(await route.getAttribute('data-to'), m.route[m.route.length - 1]);
  assert.equal(await route.getAttribute('data-hexes'), m.route.join(' '));
  // drawn over the counters (it passes through occupied hexes), taking no clicks from them
  assert.ok(await page.evaluate(() => {
    const r = document.querySelector('svg.board .layer-routes');
    const c = document.querySelector('svg.board .layer-counters');
    return !!(r && c && (c.compareDocumentPosition(r) & Node.DOCUMENT_POSITION_FOLLOWING) && getComputedStyle(r).pointerEvents === 'none');
  }), 'the route layer lies over the counters and takes no clicks');
  assert.ok((await orders.innerText()).includes(`${m.route.length - 1} hex${m.route.length === 2 ? '' : 'es'} to ${m.route[m.route.length - 1]}`), 'the ride to go in the orders panel');
  await shot(page, '18-hm-messenger');

  // a general selected: his formations' troops are shaded on the map
  assert.equal(await page.locator('svg.board .layer-range path.range').count(), 0);
  await page.evaluate(() => /** @type {any} */ (window).grognard.selectUnit('marmont'));
  await page.locator('svg.board .layer-range path.range').waitFor();
  assert.ok(((await page.locator('svg.board .layer-range path.range').getAttribute('d')) || '').length > 0, 'some troops shaded');
  await shot(page, '18-hm-general');
  assertNoPageErrors(page);
});
