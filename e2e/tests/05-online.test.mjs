// An online game in two browser contexts, each with its own seat: one acts, the other's board
// follows over the WebSocket; neither can act for the other's side.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useFixture, server, api, browser, newPage, shot, waitBoard, openBoard, idle, boardState, waitActions, centreOn, clickHex, unitOf, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

/**
 * Tries to act through the board's own code path (as a click on an offered button would) and
 * expects the server's refusal as a "Not your turn" toast.
 * @param {import('playwright-core').Page} page @param {string} action
 */
async function expectNotYourTurn(page, action) {
  const before0 = (await boardState(page)).actions_recorded;
  const ok = await page.evaluate((a) => /** @type {any} */ (window).grognard.act(a), action);
  assert.equal(ok, false, `${action} is refused`);
  await page.locator('#toasts .toast-warn:has-text("Not your turn")').last().waitFor({ state: 'visible' });
  assert.match(await page.locator('#toasts .toast-warn').last().innerText(), /not yours/);
  await idle(page);
  assert.equal((await boardState(page)).actions_recorded, before0);
}

test('7. two contexts play one online game with their own seats; the other board follows by WebSocket', { timeout: 90_000 }, async () => {
  // ---- the French player creates the game from the start screen and gets two links
  const french = await newPage(browser);
  await french.goto(server.base + '/');
  await french.check('.scenario-card input[value="bon-first-day"]');
  await french.check('input[name="mode"][value="online"]');
  // an online game's dice are the server's secret: the seed field is shut, and says why
  await french.click('details.advanced summary');
  assert.equal(await french.locator('#seed').isDisabled(), true, 'no seed for an online game');
  assert.match(await french.locator('#seed-online').innerText(), /secret/);
  const [created] = await Promise.all([
    french.waitForResponse((r) => r.url().endsWith('/api/games') && r.request().method() === 'POST'),
    french.click('button[type="submit"]'),
  ]);
  assert.equal(created.status(), 201);
  assert.equal(JSON.parse(created.request().postData() || '{}').seed, undefined, 'the board sent no seed');
  /** @type {{id: string, seats: Record<string,string>, links: Record<string,string>, urls?: Record<string,string>}} */
  const g = await created.json();
  assert.ok(g.seats.French && g.seats.Allied && g.seats.French !== g.seats.Allied, 'one token per side');
  const frInput = french.locator('input[aria-label="Link for the French player"]');
  const alInput = french.locator('input[aria-label="Link for the Allied player"]');
  await alInput.waitFor({ state: 'visible' });
  const frLink = await frInput.inputValue();
  const alLink = await alInput.inputValue();
  // the links shown are the create call's, absolute (the server's own when it gives them), and
  // carry the side
  assert.equal(frLink, g.urls?.French ?? `${server.base}${g.links.French}`);
  assert.equal(alLink, g.urls?.Allied ?? `${server.base}${g.links.Allied}`);
  assert.ok(frLink.endsWith('&side=French') && alLink.endsWith('&side=Allied'));
  await shot(french, '07-online-links');

  await french.click('button:has-text("Play as French")');
  await waitBoard(french);

  // ---- the Allied player opens the other link in a browser of their own
  const allied = await newPage(browser);
  await allied.goto(alLink);
  await waitBoard(allied);
  assert.ok(!(await allied.evaluate(() => location.hash)).includes('seat='), 'the seat is kept out of the address bar');
  assert.equal(await allied.evaluate((id) => JSON.parse(localStorage.getItem('grognard.seats') || '{}')[id]?.token, g.id), g.seats.Allied);
  assert.equal(await french.evaluate((id) => JSON.parse(localStorage.getItem('grognard.seats') || '{}')[id]?.token, g.id), g.seats.French);

  // French to act: the French board offers the end; the Allied board waits, its command box shut
  assert.match(await french.locator('.actor').innerText(), /French to act \(you\)/);
  assert.match(await allied.locator('.actor').innerText(), /Waiting for French/);
  assert.match(await allied.locator('.card-orders').innerText(), /Waiting for the French player/);
  assert.equal(await allied.locator('.cmd-input').isDisabled(), true);
  assert.equal(await allied.locator('.card-orders button.btn-end').count(), 0);
  // the Allied seat cannot act for the French, neither through its board nor by the API
  await expectNotYourTurn(allied, 'end');
  {
    const r = await api.call(`/api/games/${g.id}/actions`, { method: 'POST', body: { action: 'end' }, token: g.seats.Allied });
    assert.equal(r.status, 409);
    assert.equal(r.json.error.kind, 'conflict');
  }
  await shot(allied, '07-allied-waiting');

  // ---- French ends; the Allied board follows by the WebSocket
  const n0 = (await boardState(french)).actions_recorded;
  await french.locator('.card-orders button.btn-end').click();
  await waitActions(french, n0);
  await allied.waitForFunction((n) => {
    const s = /** @type {any} */ (window).grognard.state;
    return s.actions_recorded > n && s.phasing === 'Allied' && s.to_act === 'Allied';
  }, n0);
  await idle(allied);
  assert.match(await allied.locator('.actor').innerText(), /Allied to act \(you\)/);
  assert.match(await french.locator('.actor').innerText(), /Waiting for Allied/);
  assert.equal(await allied.locator('.cmd-input').isDisabled(), false);
  assert.equal(await french.locator('.cmd-input').isDisabled(), true);

  // ---- Allied moves PR.9 by clicks; the French board shows it in its new hex
  const n1 = (await boardState(allied)).actions_recorded;
  await centreOn(allied, '2416');
  await clickHex(allied, '2516');
  await allied.waitForSelector('.layer-dest .dest[data-hex="2416"]');
  await clickHex(allied, '2416');
  await waitActions(allied, n1);
  assert.equal(unitOf(await api.state(g.id), 'PR.9').hex, '2416');
  await french.waitForFunction(() => /** @type {any} */ (window).grognard.board.unitAt.get('2416')?.id === 'PR.9');
  assert.equal(await french.evaluate(() => /** @type {any} */ (window).grognard.board.unitAt.get('2516')?.id ?? null), null);
  assert.equal((await boardState(french)).state_hash, (await boardState(allied)).state_hash);
  await french.locator('svg.board .counter.moved[data-unit="PR.9"]').waitFor({ state: 'attached' });
  await centreOn(french, '2416');
  await shot(french, '07-french-sees-allied-move');
  await shot(allied, '07-allied-moved');

  // ---- and the French seat cannot act for the Allies
  await expectNotYourTurn(french, 'move PR.10 2415');
  {
    const r = await api.call(`/api/games/${g.id}/actions`, { method: 'POST', body: { action: 'move PR.10 2415' }, token: g.seats.French });
    assert.equal(r.status, 409);
    const u = await api.call(`/api/games/${g.id}/undo`, { method: 'POST', body: {}, token: g.seats.French });
    assert.ok(u.status === 409 || u.status === 401 || u.status === 422, `French cannot take back the Allied move: ${u.status}`);
  }
  assert.equal(unitOf(await api.state(g.id), 'PR.9').hex, '2416');
  assert.equal(unitOf(await api.state(g.id), 'PR.10').hex, '2515');

  // ---- a link without its side works too: the board asks the server which side the token holds
  const bare = await newPage(browser);
  await openBoard(bare, server.base, `/#game=${g.id}&seat=${g.seats.French}`);
  await bare.waitForFunction(() => /** @type {any} */ (window).grognard.side === 'French');
  assert.equal(await bare.evaluate((id) => JSON.parse(localStorage.getItem('grognard.seats') || '{}')[id]?.token, g.id), g.seats.French);
  await expectNotYourTurn(bare, 'end');
  await shot(bare, '07-bare-link-refused');

  for (const p of [french, allied, bare]) {
    assertNoPageErrors(p);
    await p.context().close();
  }
});
