// Taking back a move in an online game needs the opponent's consent (5.14, 5.17): in two
// browser contexts, the Allied player's Undo becomes a request the French board shows with
// Allow and Decline; a decline leaves the move standing, a consent takes it back on both boards.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, idle, boardState, unitOf, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

test('7b. an online take-back waits for the opponent, who declines, then allows it', { timeout: 90_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', mode: 'online' });
  const french = await newPage(browser);
  await openBoard(french, server.base, g.links.French);
  const allied = await newPage(browser);
  await openBoard(allied, server.base, g.links.Allied);
  assert.equal(await allied.evaluate(() => /** @type {any} */ (window).grognard.side), 'Allied');

  // French ends the movement phase; the Allied player moves PR.9 (by the API with the Allied
  // token: the boards follow by WebSocket)
  await api.act(g.id, 'end', g.seats.French);
  await api.act(g.id, 'move PR.9 2416', g.seats.Allied);
  for (const p of [french, allied]) {
    await p.waitForFunction(() => /** @type {any} */ (window).grognard.state.actions_recorded === 2);
    await idle(p);
  }
  assert.equal(unitOf(await boardState(allied), 'PR.9').hex, '2416');
  // the Allied board offers the undo (the French board has nothing of its own to take back)
  const undo = allied.locator('button.tool[aria-label="Undo"]');
  await allied.waitForFunction(() => !(/** @type {HTMLButtonElement} */ (document.querySelector('button.tool[aria-label="Undo"]'))).disabled);

  // ---- asked, and declined
  await undo.click();
  await allied.locator('.takeback-bar:has-text("Waiting for your opponent")').waitFor({ state: 'visible' });
  const bar = french.locator('.takeback-bar');
  await bar.locator('text=Allied asks to take back move PR.9 2416').waitFor({ state: 'visible' });
  await shot(french, '07b-takeback-asked');
  await bar.locator('button[data-key="takeback-decline"]').click();
  await bar.waitFor({ state: 'hidden' });
  await allied.locator('.takeback-bar').waitFor({ state: 'hidden' });
  await allied.locator('#toasts .toast:has-text("Take-back declined")').first().waitFor({ state: 'visible' });
  assert.equal(unitOf(await api.state(g.id), 'PR.9').hex, '2416', 'a declined take-back leaves the move');
  assert.equal((await api.state(g.id)).actions_recorded, 2);

  // ---- asked again, and allowed: both boards show PR.9 back in its hex
  await idle(allied);
  await undo.click();
  await bar.locator('button[data-key="takeback-accept"]').waitFor({ state: 'visible' });
  await bar.locator('button[data-key="takeback-accept"]').click();
  for (const p of [french, allied]) {
    await p.waitForFunction(() => /** @type {any} */ (window).grognard.state.actions_recorded === 1);
    await idle(p);
    assert.equal(unitOf(await boardState(p), 'PR.9').hex, '2516');
    await p.locator('.takeback-bar').waitFor({ state: 'hidden' });
  }
  assert.equal(unitOf(await api.state(g.id), 'PR.9').hex, '2516');
  assert.equal((await boardState(french)).state_hash, (await boardState(allied)).state_hash);
  await shot(allied, '07b-takeback-allowed');

  // ---- a new action cancels a pending request
  await api.act(g.id, 'move PR.9 2416', g.seats.Allied);
  await allied.waitForFunction(() => /** @type {any} */ (window).grognard.state.actions_recorded === 2);
  await idle(allied);
  await undo.click();
  await bar.locator('button[data-key="takeback-accept"]').waitFor({ state: 'visible' });
  await api.act(g.id, 'move PR.10 2415', g.seats.Allied);
  await bar.waitFor({ state: 'hidden' });
  const r = await api.call(`/api/games/${g.id}/takeback`, { method: 'POST', body: { accept: true }, token: g.seats.French });
  assert.equal(r.status, 409);

  for (const p of [french, allied]) {
    assertNoPageErrors(p);
    await p.context().close();
  }
});
