// Combat on the board: play to the Allied combat phase of bon-first-day, declare an obliged
// attack by two clicks, read the odds, end the declarations, resolve, see the die and the result
// in the log, and carry out the retreat or advance the result calls for.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, idle, boardState, waitActions, centreOn, clickHex, unitOf, command, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

/** Clicks the end button of the orders card and waits for the reply. @param {import('playwright-core').Page} page @param {RegExp} label */
async function clickEnd(page, label) {
  const n = (await boardState(page)).actions_recorded;
  const btn = page.locator('.card-orders button.btn-end');
  await btn.waitFor({ state: 'visible' });
  assert.match(await btn.innerText(), label);
  await btn.click();
  await waitActions(page, n);
}

test('4. declare and resolve an attack: odds, die and result, then the retreat or advance', { timeout: 90_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 42, mode: 'hotseat' });
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);

  // French turn 1: no movement (14.62), no attack possible: end
  let s = await boardState(page);
  assert.equal(s.phasing, 'French');
  assert.equal(s.step, 'declare');
  await clickEnd(page, /end/i);
  s = await boardState(page);
  assert.equal(s.phasing, 'Allied');
  assert.equal(s.step, 'movement');

  // Allied movement: PR.9 steps next to FR.26 (typed), then the phase ends (button)
  let n = s.actions_recorded;
  await command(page, 'move PR.9 2416');
  await waitActions(page, n);
  await clickEnd(page, /End the Allied movement phase/);
  s = await api.state(g.id);
  assert.equal(s.phase, 'combat');
  assert.equal(s.step, 'declare');
  // PR.9 must attack (7.12), FR.26 must be attacked (7.11): the board lists and rings them
  assert.deepEqual(s.obligations.map((/** @type {any} */ o) => `${o.unit} ${o.case}`).sort(), ['FR.26 7.11', 'PR.9 7.12']);
  const obl = page.locator('.card-orders .obligations');
  await obl.waitFor({ state: 'visible' });
  assert.match(await obl.innerText(), /PR\.9[\s\S]*7\.12[\s\S]*must attack/);
  assert.match(await obl.innerText(), /FR\.26[\s\S]*7\.11[\s\S]*must be attacked/);
  assert.equal(await page.locator('.card-orders button.btn-end').count(), 0, 'no end while an obligation is unmet');
  await centreOn(page, '2416');
  await shot(page, '04-obligations');

  // declare: click the attacker, then the defender
  n = s.actions_recorded;
  await clickHex(page, '2416');
  await page.waitForSelector('.card-orders button.btn-attack:has-text("Attack FR.26")');
  await clickHex(page, '2316');
  await waitActions(page, n);
  s = await api.state(g.id);
  assert.equal(s.combats.length, 1);
  const cb = s.combats[0];
  assert.deepEqual(cb.attackers, ['PR.9']);
  assert.deepEqual(cb.defenders, ['FR.26']);
  // the odds, as the server computes them (10 against 16 doubled in town: 1-2), on the card and the map
  const card = page.locator('.card-combats .combat-card').first();
  await card.waitFor({ state: 'visible' });
  assert.equal(await card.locator('.odds').innerText(), cb.column);
  assert.equal(cb.column, '1-2');
  assert.match(await card.locator('.combat-strengths').innerText(), new RegExp(`${cb.attack} attack against ${cb.defence} defence`));
  assert.match(await card.innerText(), /town doubles the defender/);
  assert.equal(await page.locator('svg.board .layer-combats .odds-badge').count(), 1);
  assert.match(await page.locator('svg.board .layer-combats .odds-badge').textContent(), /1-2/);
  await shot(page, '04-declared');

  // end the declarations, then resolve from the combat card
  await clickEnd(page, /Done declaring/);
  s = await api.state(g.id);
  assert.equal(s.step, 'choose');
  const resolve = page.locator('.card-combats button[data-key="resolve:0"]');
  await resolve.waitFor({ state: 'visible' });
  await shot(page, '04-choose');
  n = s.actions_recorded;
  await resolve.click();
  await waitActions(page, n);

  // the die and the result: in the server's log, in the board's log, and in a toast
  s = await api.state(g.id);
  const roll = s.log.find((/** @type {any} */ e) => e.n > n && /^roll \d$/.test(e.action || ''));
  assert.ok(roll, `a die was rolled: ${JSON.stringify(s.log.slice(-3))}`);
  const die = Number(roll.action.split(' ')[1]);
  const result = roll.events.find((/** @type {any} */ e) => e.case === '7.6');
  assert.ok(result, 'the roll has its combat result (7.6)');
  assert.match(result.text, new RegExp(`die ${die}`));
  // the server types it (docs/api.md "Events"): the board reads these facts, not the sentence
  assert.equal(result.kind, 'combat');
  assert.equal(result.die, die);
  assert.equal(result.column, cb.column);
  assert.deepEqual(result.attackers, ['PR.9']);
  assert.deepEqual(result.defenders, ['FR.26']);
  assert.equal(result.attack, cb.attack);
  assert.equal(result.defence, cb.defence);
  assert.match(result.result, /^(Ae|Ar|Ex|Dr|De)$/);
  const logList = page.locator('.card-log .log-list');
  await logList.locator(`code:text-is("roll ${die}")`).waitFor({ state: 'attached' });
  assert.ok((await logList.innerText()).includes(result.text), `the board's log shows "${result.text}"`);
  await page.waitForSelector(`#toasts .toast-result svg.die[aria-label="die shows ${die}"]`);
  assert.match(await page.locator('#toasts .toast-result').last().innerText(), /Combat result/);
  await page.waitForSelector('.card-combats .combat-card .combat-result');
  // the combat card shows the typed event's die and result
  await page.waitForSelector(`.card-combats .combat-result svg.die[aria-label="die shows ${die}"]`);
  assert.equal((await page.locator('.card-combats .combat-result .result-code').innerText()).trim(), result.result);
  await shot(page, '04-result');

  // carry out what the result calls for: retreats by clicking a highlighted hex, advances and
  // exchange losses by their buttons, until the combat is done
  const pr9Before = unitOf(s, 'PR.9').hex;
  const fr26Before = unitOf(s, 'FR.26').hex;
  for (let i = 0; i < 10; i++) {
    s = await api.state(g.id);
    if (!['retreat', 'advance', 'losses'].includes(s.step)) break;
    n = s.actions_recorded;
    if (s.step === 'retreat') {
      const act = s.legal.find((/** @type {string} */ a) => a.startsWith('retreat '));
      const [, unit, hex] = act.split(' ');
      // the unit to retreat is selected, its retreat hexes highlighted and offered as buttons
      await page.waitForSelector(`.card-orders button[data-key="act:${act}"]`);
      await page.waitForSelector('svg.board .layer-cand .cand-retreat');
      await centreOn(page, hex);
      await shot(page, `04-retreat-${i}`);
      const selected = await page.evaluate(() => /** @type {any} */ (window).grognard.selected);
      if (selected !== unit) await clickHex(page, unitOf(s, unit).hex);
      await clickHex(page, hex);
    } else if (s.step === 'advance') {
      const act = s.legal.find((/** @type {string} */ a) => a.startsWith('advance ')) || s.legal.find((/** @type {string} */ a) => a === 'hold');
      await shot(page, `04-advance-${i}`);
      await page.locator(`.card-orders button[data-key="act:${act}"]`).click();
    } else {
      const act = s.legal.find((/** @type {string} */ a) => a.startsWith('lose '));
      await page.locator(`.card-orders button[data-key="act:${act}"]`).click();
    }
    await waitActions(page, n);
  }
  s = await api.state(g.id);
  assert.ok(!['retreat', 'advance', 'losses'].includes(s.step), `the combat is done (step ${s.step})`);
  assert.ok(s.combats.every((/** @type {any} */ c) => c.resolved) || s.phasing === 'French', 'the combat is resolved');
  if (/\bAr\b/.test(result.text)) assert.notEqual(unitOf(s, 'PR.9').hex, pr9Before, 'the attacker retreated');
  if (/\bDr\b/.test(result.text)) assert.notEqual(unitOf(s, 'FR.26').hex, fr26Before, 'the defender retreated');
  // the board agrees with the server
  const b = await boardState(page);
  assert.equal(b.state_hash, s.state_hash);
  for (const id of ['PR.9', 'FR.26']) {
    const u = unitOf(s, id);
    if (u.status === 'map') assert.equal(await page.evaluate((h) => /** @type {any} */ (window).grognard.board.unitAt.get(h)?.id, u.hex), id);
  }
  await idle(page);
  await shot(page, '04-after-combat');
  assertNoPageErrors(page);
  await page.context().close();
});
