// Seat tokens: the API refuses a missing or wrong bearer with 401; the board with a wrong seat
// says so clearly, and a board without a seat watches as a spectator.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, idle, boardState, unitOf, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

test('8a. the API refuses a wrong or missing seat token with 401', { timeout: 30_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', mode: 'online' });
  const other = await api.create({ scenario: 'bon-first-day', seed: 5, mode: 'hotseat' });
  const s0 = await api.state(g.id);
  const attempts = [
    ['a made-up token', '0123456789abcdef0123456789abcdef'],
    ['the token of another game', other.seats.both],
    ['no token', undefined],
  ];
  for (const [what, token] of attempts) {
    const r = await api.call(`/api/games/${g.id}/actions`, { method: 'POST', body: { action: 'end' }, token });
    assert.equal(r.status, 401, `actions with ${what}: ${r.text}`);
    assert.equal(r.json.error.kind, 'unauthorized');
    assert.equal(r.json.error.status, 401);
    assert.ok(r.json.error.why, 'the refusal says why');
    const u = await api.call(`/api/games/${g.id}/undo`, { method: 'POST', body: {}, token });
    assert.equal(u.status, 401, `undo with ${what}: ${u.text}`);
  }
  // a malformed Authorization header is refused the same way
  const raw = await fetch(`${server.base}/api/games/${g.id}/actions`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Basic Zm9vOmJhcg==' }, body: JSON.stringify({ action: 'end' }),
  });
  assert.equal(raw.status, 401);
  // nothing happened; the right token works
  const s1 = await api.state(g.id);
  assert.equal(s1.actions_recorded, s0.actions_recorded);
  assert.equal(s1.state_hash, s0.state_hash);
  const ok = await api.act(g.id, 'end', g.seats.French);
  assert.equal(ok.change.phasing, 'Allied');
  // reading needs no token (spectators see all)
  const spect = await api.call(`/api/games/${g.id}`);
  assert.equal(spect.status, 200);
});

test('8b. the board with a wrong seat says its token was refused; without a seat it is a spectator', { timeout: 60_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', mode: 'online' });

  // ---- a wrong seat token in the link: the board checks it with the server as it opens (the
  // seat route answers 401), says so at once and watches as a spectator
  const page = await newPage(browser);
  await openBoard(page, server.base, `/#game=${g.id}&seat=ffffffffffffffffffffffffffffffff&side=French`);
  const n0 = (await boardState(page)).actions_recorded;
  const toast = page.locator('#toasts .toast-warn:has-text("This seat link is wrong or out of date")').last();
  await toast.waitFor({ state: 'visible' });
  assert.match(await toast.innerText(), /spectator/);
  assert.match(await page.locator('.card-orders .seat-note').innerText(), /wrong or out of date/);
  assert.ok(!(await page.evaluate(() => location.hash)).includes('seat='), 'the refused token leaves the address bar');
  assert.equal(await page.evaluate(() => localStorage.getItem('grognard.seats')), null, 'nothing kept');
  await page.locator('.actor .spectator').waitFor({ state: 'visible' });
  assert.equal(await page.locator('.card-orders button.btn-end').count(), 0);
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).grognard.act('end')), false);
  await idle(page);
  assert.equal((await boardState(page)).actions_recorded, n0);
  assert.equal((await api.state(g.id)).actions_recorded, n0, 'the server recorded nothing');
  await shot(page, '08-wrong-seat-refused');
  assertNoPageErrors(page);
  await page.context().close();

  // ---- no seat at all: a spectator, who sees the game and its changes but is offered nothing
  const watcher = await newPage(browser);
  await openBoard(watcher, server.base, `/#game=${g.id}`);
  await watcher.locator('.actor .spectator').waitFor({ state: 'visible' });
  assert.match(await watcher.locator('.card-orders').innerText(), /You are watching this game/);
  assert.equal(await watcher.locator('.cmd-input').isDisabled(), true);
  assert.equal(await watcher.locator('.card-orders button.btn-end').count(), 0);
  assert.equal(await watcher.locator('button[aria-label="Undo"]').isDisabled(), true);
  // clicking a counter selects it (to read it) but shades no destination
  const s = await api.state(g.id);
  await watcher.evaluate((h) => /** @type {any} */ (window).grognard.board.centreOn(h, 1.4), unitOf(s, 'FR.4').hex);
  const [x, y] = await watcher.evaluate((h) => /** @type {any} */ (window).grognard.board.clientPoint(h), unitOf(s, 'FR.4').hex);
  await watcher.mouse.click(x, y);
  await watcher.waitForSelector('.card-orders .unit-card');
  assert.equal(await watcher.locator('.layer-dest .dest').count(), 0);
  // an action attempted anyway is stopped by the board: no seat
  assert.equal(await watcher.evaluate(() => /** @type {any} */ (window).grognard.act('end')), false);
  await watcher.locator('#toasts .toast-warn:has-text("You have no seat in this game")').waitFor({ state: 'visible' });
  // the spectator's board follows the game by the WebSocket
  await api.act(g.id, 'end', g.seats.French);
  await watcher.waitForFunction(() => /** @type {any} */ (window).grognard.state.phasing === 'Allied');
  await idle(watcher);
  assert.match(await watcher.locator('.card-orders').innerText(), /Allied to act/);
  await shot(watcher, '08-spectator');
  assertNoPageErrors(watcher);
  await watcher.context().close();
});
