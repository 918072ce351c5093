// The hex-miniatures rules on the board (issue 16): a rout. The attacks of a player-turn are
// resolved with a click on End; a combat result routs a battalion ([9.8]) and it falls back,
// away from the enemy toward its army's rear ([8.8.3]): the board draws it routed (its RTD tag, its
// card) in the hex it fell back to, and the events panel lists the change of state and the
// withdrawal. A hot-seat game of Möckern with a fixed seed, brought to the position by replaying
// the actions of two heuristic players through the API (tests/data/hm-rout.json; the server
// rolls the same numbers from the same seed).
//
// After a rules change the record is made again by (from the workspace's root):
//   HM_E2E_DATA=e2e/tests/data cargo test -p systems --test hm_e2e_data -- --ignored

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, boardState, waitActions, centreOn, command, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

/** @param {any} s @param {string} id */
const unitOf = (s, id) => s.units.find((/** @type {any} */ u) => u.id === id);

test('Möckern: a battalion routed by a combat result is drawn routed where it fell back', { timeout: 240_000 }, async () => {
  const data = JSON.parse(readFileSync(new URL('./data/hm-rout.json', import.meta.url), 'utf8'));
  const g = await api.create({ scenario: data.scenario, seed: data.seed, mode: 'hotseat', rules: data.rules });
  for (const a of data.actions) await api.act(g.id, a, g.seats.both);
  const s0 = await api.state(g.id);
  const unit = unitOf(s0, data.unit);
  assert.equal(unit.hex, data.from, `${data.unit} stands in ${data.from}`);
  assert.notEqual(unit.order, 'routed');
  assert.ok(s0.legal_actions.some((/** @type {any} */ a) => a.text === data.act), `${data.act} is legal`);

  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  await centreOn(page, data.from);
  const counter = page.locator(`svg.board .layer-counters .counter[data-unit="${data.unit}"]`);
  await counter.waitFor();
  assert.equal(await counter.locator('.marker-routed').count(), 0, 'not drawn routed yet');
  await shot(page, '18-hm-rout-before');
  const n = s0.actions_recorded;
  if (data.act === 'end') await page.locator('.card-orders button.btn-end[data-key="act:end"]').click();
  else await command(page, data.act);
  await waitActions(page, n);
  const s = await boardState(page);
  const events = s.log.filter((/** @type {any} */ e) => e.n > n).flatMap((/** @type {any} */ e) => e.events);
  const routed = events.find((/** @type {any} */ e) => e.kind === 'state_changed' && e.unit === data.unit && e.order === 'routed');
  assert.ok(routed, `${data.unit} is routed`);
  assert.equal(routed.text, data.routed.text);
  // it falls back once or more (a withdrawal may take it on again), from where it stood to where
  // it ends
  const falls = events.filter((/** @type {any} */ e) => e.kind === 'withdrew' && e.unit === data.unit);
  assert.ok(falls.length, `${data.unit} falls back`);
  const fell = falls[0];
  assert.equal(fell.from, data.from);
  assert.equal(falls[falls.length - 1].to, data.hex);
  const u = unitOf(s, data.unit);
  assert.equal(u.order, 'routed');
  assert.equal(u.hex, data.hex, 'where it fell back to');
  assert.ok(u.markers.includes('routed'));
  // drawn routed, in its new hex, moving away: the board's arrow from where it stood
  await centreOn(page, data.hex);
  await counter.locator('.marker-routed').waitFor();
  assert.match(await counter.locator('title').textContent() || '', /routed/);
  const trail = page.locator(`svg.board .layer-lastmoves .last-move[data-unit="${data.unit}"]`);
  await trail.waitFor();
  assert.equal(await trail.getAttribute('data-from'), data.from);
  assert.equal(await trail.getAttribute('data-to'), data.hex);
  // the events panel lists the change of state and the withdrawal, each with its rule
  const list = page.locator('.card-events .events-list');
  await list.locator('li.ev-state_changed').filter({ hasText: `${data.unit} is now routed` }).first().waitFor();
  await list.locator('li.ev-withdrew').filter({ hasText: `${data.unit} falls back from ${data.from} to ${fell.to}` }).first().waitFor();
  await shot(page, '18-hm-routed');
  assertNoPageErrors(page);
  await page.context().close();
});
