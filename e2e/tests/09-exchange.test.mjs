// An exchange (7.6) that leaves the attacker a choice of losses: the board offers a button per
// choice the rules allow, and a click on one is the action. The position comes from a game of
// two heuristic computer players (tests/data/exchange-choice.json: its actions are replayed
// through the API; the server rolls the same dice from the same seed).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, idle, waitActions, boardState, unitOf, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

test('4b. an exchange with a choice of losses: one button a choice, the click loses those units', { timeout: 90_000 }, async () => {
  const data = JSON.parse(readFileSync(new URL('./data/exchange-choice.json', import.meta.url), 'utf8'));
  const g = await api.create({ scenario: data.scenario, seed: data.seed, mode: 'hotseat' });
  for (const a of data.actions) await api.act(g.id, a, g.seats.both);
  const s = await api.state(g.id);
  assert.equal(s.step, 'losses', `the exchange waits for its losses (step ${s.step})`);
  assert.deepEqual(s.legal, data.choices);

  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  const card = page.locator('.card-orders');
  await card.locator('h3:has-text("Choose the exchange losses")').waitFor({ state: 'visible' });
  for (const a of data.choices) await card.locator(`button[data-key="act:${a}"]`).waitFor({ state: 'visible' });
  assert.equal(await card.locator('button[data-key^="act:lose "]').count(), data.choices.length);
  await shot(page, '04b-exchange-choice');

  const choice = data.choices[data.choices.length - 1];
  const lost = choice.replace(/^lose\s+/, '').split(/\s*,\s*/);
  const n = (await boardState(page)).actions_recorded;
  await card.locator(`button[data-key="act:${choice}"]`).click();
  await waitActions(page, n);
  await idle(page);
  const after1 = await api.state(g.id);
  assert.equal(after1.log[n].action, choice, 'the click sent that choice');
  for (const u of lost) assert.equal(unitOf(after1, u).status, 'eliminated', `${u} is lost`);
  for (const u of lost) assert.equal(unitOf(await boardState(page), u).status, 'eliminated', `the board shows ${u} lost`);
  assert.equal((await boardState(page)).state_hash, after1.state_hash);
  await shot(page, '04b-exchange-chosen');
  assertNoPageErrors(page);
  await page.context().close();
});
