// A whole short scenario against the computer: bon-first-day (5 turns), created from the start
// screen with the computer playing the Allies; the human side (French) is driven through the
// command box with legal actions (`end` when allowed, else the first legal action) until the
// game-over banner shows the result.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useFixture, server, api, browser, newPage, shot, waitBoard, idle, boardState, command, within, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

test('6. a short scenario against the computer, played to the end', { timeout: 150_000 }, async () => {
  const page = await newPage(browser);
  await page.goto(server.base + '/');
  await page.check('.scenario-card input[value="bon-first-day"]');
  await page.check('input[name="mode"][value="computer"]');
  await page.selectOption('#side', 'French');
  await page.click('details.advanced summary');
  await page.fill('#seed', '7');
  // the level chooser: the quick rule-of-thumb player keeps this whole game short
  await page.locator('#level[data-loaded="true"] option[value="heuristic"]').waitFor({ state: 'attached' });
  await page.selectOption('#level', 'heuristic');
  await shot(page, '06-start-computer');
  const [req] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith('/api/games') && r.method() === 'POST'),
    page.click('button[type="submit"]'),
  ]);
  assert.equal(JSON.parse(req.postData() || '{}').computer, 'heuristic', 'the chosen level is sent');
  await waitBoard(page);
  const id = await page.evaluate(() => /** @type {any} */ (window).grognard.id);
  const seat = await page.evaluate((g) => JSON.parse(localStorage.getItem('grognard.seats') || '{}')[g], id);
  assert.equal(seat.side, 'French');
  assert.equal(seat.mode, 'computer');
  assert.match(await page.locator('.actor').innerText(), /French to act \(you\)/);

  let turnShot = 0;
  let actions = 0;
  let computerToasts = 0;
  await within(120_000, 'playing bon-first-day to the end', async () => {
    for (;;) {
      const s = await boardState(page);
      if (s.outcome) break;
      assert.equal(s.to_act, 'French', `the computer has played its part: ${s.to_act} to act (step ${s.step})`);
      assert.ok(actions < 300, 'the game ends within 300 French actions');
      if (s.turn > turnShot && s.step === 'movement') {
        turnShot = s.turn;
        await shot(page, `06-turn-${s.turn}`);
      }
      const action = s.legal.includes('end') ? 'end' : s.legal[0];
      assert.ok(action, `a legal action: ${JSON.stringify(s.legal)}`);
      await command(page, action);
      await page.waitForFunction((n) => {
        const g = /** @type {any} */ (window).grognard;
        return g.state.actions_recorded > n && !g.busy;
      }, s.actions_recorded);
      if (await page.locator('#toasts .toast:has-text("(computer) played")').count()) computerToasts++;
      actions++;
    }
  });
  await idle(page);
  const s = await api.state(id);
  assert.ok(s.outcome, 'the server has an outcome');
  assert.equal(s.step, 'over');
  assert.deepEqual(s.legal, []);
  assert.ok(s.turn <= 5);
  // the Allied actions were the computer's, explained in a toast after each French action
  assert.ok(computerToasts > 0, 'the computer explained its moves');
  assert.ok(s.log.some((/** @type {any} */ e) => e.side === 'Allied'), 'the computer played the Allies');

  // the game-over banner, with the result and its case
  const banner = page.locator('.outcome-banner');
  await banner.waitFor({ state: 'visible' });
  const title = s.outcome.winner ? `${s.outcome.winner} victory` : 'The battle is drawn';
  assert.equal(await banner.locator('.banner-title').innerText(), title);
  assert.match(await banner.locator('.banner-why').innerText(), new RegExp(s.outcome.case.replace('.', '\\.')));
  assert.ok((await banner.innerText()).includes(s.outcome.why));
  assert.match(await page.locator('.phase').innerText(), /Game over/);
  assert.equal(await page.locator('.cmd-input').isDisabled(), true, 'no more commands once the game is over');
  await shot(page, '06-game-over-toasts');
  // the computer's explanations stack up as toasts; dismiss them to see the banner
  for (let i = 0; i < 10; i++) {
    const close = page.locator('#toasts .toast:not(.leaving) .toast-close').first();
    if (!(await close.count())) break;
    await close.click();
  }
  await page.waitForFunction(() => !document.querySelector('#toasts .toast'));
  await shot(page, '06-game-over');
  assertNoPageErrors(page);
  await page.context().close();
});
