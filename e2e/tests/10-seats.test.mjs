// Per-seat views (docs/api.md "Per-seat views"): the board sends its seat token on every game
// request that takes one and opens the WebSocket with `?seat=`; an action it may not see (an
// empty `action`) reads "(hidden action)"; a record withheld (403) is a clear message. Napoleon
// at War hides nothing, so the last two are played by rewriting the real server's replies the
// way a system with hidden information answers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, idle, boardState, assertNoPageErrors, centreOn, clickHex,
} from './helpers.mjs';

useFixture();

test('10a. the board sends its seat token on every game request and opens the WebSocket with ?seat=', { timeout: 60_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 11, mode: 'hotseat' });
  const token = g.seats.both;
  await api.act(g.id, 'end', token); // the French have no movement on turn 1: the Allies move
  const page = await newPage(browser);
  /** @type {{url: string, auth: string|undefined}[]} */
  const seen = [];
  page.on('request', (r) => {
    if (r.url().includes(`/api/games/${g.id}`)) seen.push({ url: r.url(), auth: r.headers().authorization });
  });
  /** @type {string[]} */
  const sockets = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await openBoard(page, server.base, g.links.both);
  // select an Allied unit that may move: the moves query goes out with the token
  const s = (await api.call(`/api/games/${g.id}`, { token })).json;
  const mv = s.legal_actions.find((/** @type {any} */ a) => a.kind === 'move');
  assert.ok(mv && mv.unit && mv.from && mv.to, `a structured move: ${JSON.stringify(mv)}`);
  await centreOn(page, mv.from);
  await clickHex(page, mv.from);
  await page.waitForFunction((u) => /** @type {any} */ (window).grognard.moves?.unit === u, mv.unit);
  // the record (export) goes out with the token too
  const download = page.waitForEvent('download');
  await page.locator('.card-log button:has-text("Export the game record")').click();
  await download;
  await idle(page);
  const paths = (/** @type {string} */ re) => seen.filter((x) => re && new RegExp(re).test(new URL(x.url).pathname));
  for (const [what, re] of [['state', `^/api/games/${g.id}$`], ['map', '/map$'], ['moves', '/moves/'], ['record', '/record$']]) {
    const reqs = paths(re);
    assert.ok(reqs.length, `the board asked for the ${what}`);
    for (const r of reqs) assert.equal(r.auth, `Bearer ${token}`, `${what} ${r.url} carries the seat token`);
  }
  await page.waitForFunction(() => /** @type {any} */ (window).grognard.ws?.readyState === 1);
  assert.ok(sockets.length, 'the board opened a WebSocket');
  for (const u of sockets) assert.equal(new URL(u).searchParams.get('seat'), token, `${u} names the seat`);
  assertNoPageErrors(page);
  await page.context().close();

  // a spectator sends no token and opens the WebSocket without a seat
  const watcher = await newPage(browser);
  /** @type {(string|undefined)[]} */
  const auths = [];
  watcher.on('request', (r) => { if (r.url().includes(`/api/games/${g.id}`)) auths.push(r.headers().authorization); });
  /** @type {string[]} */
  const wsUrls = [];
  watcher.on('websocket', (ws) => wsUrls.push(ws.url()));
  await openBoard(watcher, server.base, `/#game=${g.id}`);
  await watcher.waitForFunction(() => /** @type {any} */ (window).grognard.ws?.readyState === 1);
  assert.ok(auths.length);
  assert.deepEqual(auths.filter(Boolean), [], 'a spectator sends no token');
  assert.ok(wsUrls.length && wsUrls.every((u) => !new URL(u).searchParams.has('seat')));
  assertNoPageErrors(watcher);
  await watcher.context().close();
});

test('10b. hidden information: an empty action reads "(hidden action)"; a withheld record (403) is a clear message', { timeout: 60_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', mode: 'online' });
  await api.act(g.id, 'end', g.seats.French);
  const s = (await api.call(`/api/games/${g.id}`, { token: g.seats.Allied })).json;
  const mv = s.legal_actions.find((/** @type {any} */ a) => a.kind === 'move');
  await api.act(g.id, mv.text, g.seats.Allied);

  const page = await newPage(browser);
  // the French seat's view as a system with hidden information gives it: the Allied action's
  // text is empty until the game is over, and the record is withheld
  await page.route(new RegExp(`/api/games/${g.id}$`), async (route) => {
    const res = await route.fetch();
    const view = await res.json();
    view.log = view.log.map((/** @type {any} */ e) => (e.side === 'Allied' ? { ...e, action: '' } : e));
    await route.fulfill({ response: res, json: view });
  });
  await page.route(new RegExp(`/api/games/${g.id}/record$`), (route) => route.fulfill({
    status: 403, contentType: 'application/json',
    json: { error: { status: 403, kind: 'forbidden', why: 'the record of a game that hides information is given out when it is over' } },
  }));
  await openBoard(page, server.base, g.links.French);
  assert.equal((await boardState(page)).actions_recorded, 2);
  const log = page.locator('.card-log .log-list');
  await log.locator('.hidden-action').first().waitFor({ state: 'visible' });
  const text = await log.innerText();
  assert.match(text, /\(hidden action\)/);
  assert.doesNotMatch(text, new RegExp(mv.text), 'the hidden action is not shown');
  assert.match(text, /French\s+end/, 'the seat\'s own action is shown');
  await page.locator('.card-log button:has-text("Export the game record")').click();
  const toast = page.locator('#toasts .toast:has-text("The record is not available yet")').last();
  await toast.waitFor({ state: 'visible' });
  assert.match(await toast.innerText(), /when the game is over/);
  assert.equal(await page.locator('#toasts .toast-error').count(), 0, 'no error toast');
  await shot(page, '10-hidden-action-and-record');
  assertNoPageErrors(page);
  await page.context().close();
});
