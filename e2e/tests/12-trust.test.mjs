// Online play strangers can trust, as the board sees it: a player's seat link reopens the seat in
// another browser (and a wrong or stale one is said at once); the links handed out for an online
// game are absolute (the server's own when it gives them, with a plain word when they point at
// this machine only); every request the board sends that is not a read is JSON; a "slow down"
// (429) is shown and the board recovers; a conflict (409) reloads the game and says so; a whole
// state message over the WebSocket mid-game is the board's new state.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, waitBoard, idle, boardState, waitActions, centreOn, clickHex, unitOf, assertNoPageErrors, postsOf,
} from './helpers.mjs';

useFixture();

/** The seats this page's browser keeps. @param {import('playwright-core').Page} page */
const keptSeats = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('grognard.seats') || '{}'));

test('12a. a seat link reopens the seat in a fresh browser, which can act; a wrong or stale one is said at once', { timeout: 90_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', mode: 'online' });
  const other = await api.create({ scenario: 'bon-first-day', mode: 'online' });

  // ---- the French player's board shows their own seat link, with what holding it means
  const home = await newPage(browser);
  await openBoard(home, server.base, g.links.French);
  const card = home.locator('.sidebar .card-seat');
  await card.waitFor({ state: 'visible' });
  assert.equal(await card.evaluate((d) => /** @type {HTMLDetailsElement} */ (d).open), true, 'open in an online game');
  const link = await card.locator('input[aria-label="Your seat link"]').inputValue();
  assert.equal(link, `${server.base}${g.links.French}`, 'the seat link is absolute, with game, token and side');
  assert.match(await card.innerText(), /Whoever holds this link plays French in this game/);
  await shot(home, '12-seat-link');

  // ---- the same player on another browser (no storage at all): the link restores the seat
  const away = await newPage(browser);
  await away.goto(link);
  await waitBoard(away);
  assert.equal(await away.evaluate(() => /** @type {any} */ (window).grognard.side), 'French');
  assert.equal((await keptSeats(away))[g.id]?.token, g.seats.French, 'the seat is kept in this browser too');
  assert.ok(!(await away.evaluate(() => location.hash)).includes('seat='), 'the token leaves the address bar');
  assert.match(await away.locator('.actor').innerText(), /French to act \(you\)/);
  assert.equal(await away.locator('#toasts .toast-warn').count(), 0, 'nothing to warn about');
  // and it acts: the end of the French movement phase, taken by the server
  const n0 = (await boardState(away)).actions_recorded;
  await away.locator('.card-orders button.btn-end').click();
  await waitActions(away, n0);
  assert.equal((await api.state(g.id)).phasing, 'Allied');
  // the first browser follows
  await home.waitForFunction(() => /** @type {any} */ (window).grognard.state.phasing === 'Allied');
  await shot(away, '12-seat-reopened');

  // ---- a stale token (another game's) in a fresh browser: said as the board opens, no seat taken
  const stale = await newPage(browser);
  await openBoard(stale, server.base, `/#game=${g.id}&seat=${other.seats.Allied}&side=Allied`);
  const warn = stale.locator('#toasts .toast-warn:has-text("This seat link is wrong or out of date")');
  await warn.waitFor({ state: 'visible' });
  assert.match(await warn.innerText(), /spectator/);
  await stale.locator('.actor .spectator').waitFor({ state: 'visible' });
  assert.match(await stale.locator('.card-orders .seat-note').innerText(), /wrong or out of date/);
  assert.deepEqual(await keptSeats(stale), {}, 'nothing kept');
  assert.equal(await stale.locator('.sidebar .card-seat').count(), 0, 'a spectator has no seat link');
  await shot(stale, '12-stale-link');

  // ---- a wrong link opened where a good seat is kept: the good seat stays, and the board says so
  await home.evaluate(() => { /** @type {any} */ (window).before = /** @type {any} */ (window).grognard; });
  await home.goto(`${server.base}/#game=${g.id}&seat=0123456789abcdef0123456789abcdef&side=Allied`);
  await home.waitForFunction(() => /** @type {any} */ (window).grognard !== /** @type {any} */ (window).before);
  await waitBoard(home);
  const kept = home.locator('#toasts .toast-warn:has-text("This seat link is wrong or out of date")');
  await kept.waitFor({ state: 'visible' });
  assert.match(await kept.innerText(), /You keep this browser's own seat \(French\)/);
  assert.equal(await home.evaluate(() => /** @type {any} */ (window).grognard.side), 'French');
  assert.equal((await keptSeats(home))[g.id]?.token, g.seats.French);

  for (const p of [home, away, stale]) {
    assertNoPageErrors(p);
    await p.context().close();
  }
});

test('12b. the links of an online game are absolute: the server\'s own when it gives them, else this page\'s, with a word on loopback addresses', { timeout: 60_000 }, async () => {
  // ---- the server gives no public address: links on this page's address, which is 127.0.0.1
  const page = await newPage(browser);
  await page.goto(server.base + '/');
  await page.check('.scenario-card input[value="bon-first-day"]');
  await page.check('input[name="mode"][value="online"]');
  const [made] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/games') && r.request().method() === 'POST'),
    page.click('button[type="submit"]'),
  ]);
  const online = await made.json();
  const fr = page.locator('input[aria-label="Link for the French player"]');
  const al = page.locator('input[aria-label="Link for the Allied player"]');
  await al.waitFor({ state: 'visible' });
  for (const input of [fr, al]) {
    const u = new URL(await input.inputValue());
    assert.equal(u.origin, server.base, 'an absolute link on the address the board was opened at');
    assert.match(u.hash, /^#game=g_\w+&seat=[0-9a-f]{32}&side=(French|Allied)$/);
  }
  const warning = page.locator('.online-links .loopback-warning');
  await warning.waitFor({ state: 'visible' });
  const words = await warning.innerText();
  assert.match(words, /a friend on another machine cannot open them/);
  assert.match(words, /grognard serve --listen 0\.0\.0\.0:8813/);
  assert.match(words, /--public-url/);
  // the sealed dice's commitment, when the server gives one, is shown to be kept
  if (online.commitment) assert.ok((await page.locator('.online-links .commitment').innerText()).includes(online.commitment));
  await page.locator('.online-links').scrollIntoViewIfNeeded();
  await shot(page, '12-links-loopback');
  await page.context().close();

  // ---- the server knows its public address: the links it gives (`urls`) are the ones handed out
  const pub = await newPage(browser);
  await pub.route(/\/api\/games$/, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const res = await route.fetch();
    const body = await res.json();
    body.urls = Object.fromEntries(Object.entries(body.links).map(([side, l]) => [side, `https://grognard.example.org${l}`]));
    await route.fulfill({ response: res, json: body });
  });
  await pub.goto(server.base + '/');
  await pub.check('.scenario-card input[value="bon-first-day"]');
  await pub.check('input[name="mode"][value="online"]');
  const [created] = await Promise.all([
    pub.waitForResponse((r) => r.url().endsWith('/api/games') && r.request().method() === 'POST'),
    pub.click('button[type="submit"]'),
  ]);
  const g = await created.json();
  const frp = pub.locator('input[aria-label="Link for the French player"]');
  await frp.waitFor({ state: 'visible' });
  assert.equal(await frp.inputValue(), g.urls.French);
  assert.equal(await pub.locator('input[aria-label="Link for the Allied player"]').inputValue(), g.urls.Allied);
  assert.equal(await pub.locator('.online-links .loopback-warning').count(), 0, 'a public address needs no warning');
  // the seat taken here keeps the server's link: the board's "your seat link" is that one
  await pub.click('button:has-text("Play as French")');
  await waitBoard(pub);
  assert.equal(await pub.locator('.sidebar .card-seat input[aria-label="Your seat link"]').inputValue(), g.urls.French);
  assertNoPageErrors(pub);
  await pub.context().close();
});

test('12c. every request the board sends that is not a read carries a JSON body and Content-Type: application/json', { timeout: 120_000 }, async () => {
  // ---- a hot-seat game from the start screen, with a seed too large for a JavaScript number
  const page = await newPage(browser);
  await page.goto(server.base + '/');
  await page.check('.scenario-card input[value="bon-first-day"]');
  await page.check('input[name="mode"][value="hotseat"]');
  await page.click('details.advanced summary');
  await page.fill('#seed', '18446744073709551557');
  await page.click('button[type="submit"]');
  await waitBoard(page);
  const create = postsOf(page).find((p) => p.path === '/api/games');
  assert.ok(create, 'the create request was seen');
  assert.equal(JSON.parse(create.body || '').seed, '18446744073709551557', 'a 64-bit seed is sent as its digits');
  const id = await page.evaluate(() => /** @type {any} */ (window).grognard.id);
  // an action, an undo, a branch
  await page.locator('.card-orders button.btn-end').click();
  await waitActions(page, 0);
  await centreOn(page, '2416');
  await clickHex(page, '2516');
  await page.waitForSelector('.layer-dest .dest[data-hex="2416"]');
  await clickHex(page, '2416');
  await waitActions(page, 1);
  await page.locator('button.tool[aria-label="Undo"]').click();
  await page.waitForFunction(() => /** @type {any} */ (window).grognard.state.actions_recorded === 1);
  await idle(page);
  // the record exported is the server's text: its 64-bit seed is exact
  const download = page.waitForEvent('download');
  await page.locator('.card-log button:has-text("Export the game record")').click();
  const file = await (await download).createReadStream();
  let text = '';
  for await (const chunk of file) text += chunk;
  assert.match(text, /"seed":\s*18446744073709551557\b/, 'the seed survives the export');
  await page.locator('button.tool[aria-label="Replay"]').click();
  await page.locator('.replay-bar button:has-text("Branch from here")').click();
  await page.waitForFunction((old) => /** @type {any} */ (window).grognard.id !== old, id);
  await waitBoard(page);

  // ---- an online take-back asked, and withdrawn
  const g = await api.create({ scenario: 'bon-first-day', mode: 'online' });
  await api.act(g.id, 'end', g.seats.French);
  await api.act(g.id, 'move PR.9 2416', g.seats.Allied);
  const allied = await newPage(browser);
  await openBoard(allied, server.base, g.links.Allied);
  await allied.locator('button.tool[aria-label="Undo"]').click();
  await allied.locator('.takeback-bar button[data-key="takeback-withdraw"]').click();
  await allied.locator('.takeback-bar').waitFor({ state: 'hidden' });
  await idle(allied);

  const posts = [...postsOf(page), ...postsOf(allied)];
  const kinds = new Set(posts.map((p) => p.path.replace(/^\/api\/games\/g_\w+/, '/api/games/{id}')));
  for (const k of ['/api/games', '/api/games/{id}/actions', '/api/games/{id}/undo', '/api/games/{id}/branch', '/api/games/{id}/takeback']) {
    assert.ok(kinds.has(k), `the board sent ${k} (sent: ${[...kinds].join(', ')})`);
  }
  for (const p of posts) {
    assert.match(p.type || '', /^application\/json/, `${p.method} ${p.path} is JSON`);
    assert.doesNotThrow(() => JSON.parse(p.body || ''), `${p.method} ${p.path} has a JSON body`);
  }
  for (const p of [page, allied]) {
    assertNoPageErrors(p);
    await p.context().close();
  }
});

test('12d. a "slow down" (429) shows the server\'s words, sends nothing until the wait is over, and the board recovers', { timeout: 90_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 42, mode: 'hotseat' });
  const page = await newPage(browser);
  // the state is refused once as the board loads: it waits as asked and loads
  let stateHits = 0;
  await page.route(new RegExp(`/api/games/${g.id}$`), (route) => {
    stateHits++;
    if (stateHits > 1) return route.continue();
    return route.fulfill({ status: 429, headers: { 'Retry-After': '1' }, contentType: 'application/json', json: { error: { status: 429, kind: 'rate_limited', why: 'too many requests from this address' } } });
  });
  await openBoard(page, server.base, g.links.both);
  assert.ok(stateHits >= 2, 'the state was asked again after the wait');

  // the first action is refused with 429 and a wait of 8 seconds
  const why = 'too many actions from this address: at most 30 a minute';
  let actionHits = 0;
  await page.route(new RegExp(`/api/games/${g.id}/actions$`), (route) => {
    actionHits++;
    if (actionHits > 1) return route.continue();
    return route.fulfill({ status: 429, headers: { 'Retry-After': '8' }, contentType: 'application/json', json: { error: { status: 429, kind: 'rate_limited', why } } });
  });
  const n0 = (await boardState(page)).actions_recorded;
  await page.locator('.card-orders button.btn-end').click();
  const toast = page.locator('#toasts .toast-warn:has-text("Not sent: end")').first();
  await toast.waitFor({ state: 'visible' });
  assert.match(await toast.innerText(), /slow down/);
  assert.ok((await toast.innerText()).includes(why), 'the server\'s words');
  const bar = page.locator('.limit-bar');
  await bar.waitFor({ state: 'visible' });
  assert.match(await bar.innerText(), /You can act again in \d+ seconds?/);
  await idle(page);
  assert.equal((await boardState(page)).actions_recorded, n0);
  await shot(page, '12-slow-down');
  // while the wait lasts, another try is refused by the board itself: nothing reaches the server
  assert.equal(await bar.isVisible(), true);
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).grognard.act('end')), false);
  assert.equal(actionHits, 1, 'nothing sent during the wait');
  // the wait over, the bar goes and the action goes through
  await bar.waitFor({ state: 'hidden' });
  await page.locator('.card-orders button.btn-end').click();
  await waitActions(page, n0);
  assert.equal(actionHits, 2);
  assert.equal((await api.state(g.id)).phasing, 'Allied');
  assertNoPageErrors(page);
  await page.context().close();
});

test('12e. a conflict (409) reloads the game and says so; a whole state message mid-game becomes the board\'s state', { timeout: 90_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 42, mode: 'hotseat' });
  const token = g.seats.both;
  const page = await newPage(browser);
  // the board's WebSocket as a server that misses the changes made through another server: its
  // `change` messages are dropped; the test sends a whole `state` message as that server would
  /** @type {import('playwright-core').WebSocketRoute|null} */
  let socket = null;
  await page.routeWebSocket(/\/api\/games\/[^/]+\/ws/, (ws) => {
    socket = ws;
    const upstream = ws.connectToServer();
    upstream.onMessage((m) => {
      if (JSON.parse(String(m)).type === 'change') return;
      ws.send(m);
    });
  });
  await openBoard(page, server.base, g.links.both);
  await page.waitForFunction(() => /** @type {any} */ (window).grognard.ws?.readyState === 1);
  const n0 = (await boardState(page)).actions_recorded;

  // ---- another client ends the French movement phase; this board does not hear of it and
  // sends its own end on the old state: the server answers 409, the board reloads and says so
  await api.act(g.id, 'end', token);
  await page.locator('.card-orders button.btn-end').click();
  const moved = page.locator('#toasts .toast-warn:has-text("The game moved on")');
  await moved.waitFor({ state: 'visible' });
  assert.match(await moved.innerText(), /as it stands now/);
  await idle(page);
  const server1 = await api.state(g.id);
  assert.equal(server1.actions_recorded, n0 + 1, 'the board\'s stale action was not taken');
  assert.equal((await boardState(page)).state_hash, server1.state_hash, 'the board shows the game as it is');
  assert.match(await page.locator('.actor').innerText(), /Allied to act/);

  // ---- another client moves PR.9; then the socket brings a whole state message
  await api.act(g.id, 'move PR.9 2416', token);
  const view = (await api.call(`/api/games/${g.id}`, { token })).json;
  assert.ok(socket, 'the board opened its WebSocket');
  /** @type {any} */ (socket).send(JSON.stringify({ type: 'state', state: view, events: [], takeback: null }));
  await page.waitForFunction((n) => /** @type {any} */ (window).grognard.state.actions_recorded === n, view.actions_recorded);
  await idle(page);
  assert.equal((await boardState(page)).state_hash, view.state_hash);
  assert.equal(unitOf(await boardState(page), 'PR.9').hex, '2416');
  await page.waitForFunction(() => /** @type {any} */ (window).grognard.board.unitAt.get('2416')?.id === 'PR.9');
  // and the board plays on from it
  await page.locator('.card-orders button.btn-end').click();
  await waitActions(page, view.actions_recorded);
  assert.equal((await api.state(g.id)).actions_recorded, view.actions_recorded + 1);
  await shot(page, '12-state-message');
  assertNoPageErrors(page);
  await page.context().close();
});
