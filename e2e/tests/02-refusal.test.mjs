// An illegal move is refused with its rule case: the toast names the case and its link opens the
// rules drawer at that case.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, idle, centreOn, hexPoint, unitOf, command, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

/**
 * Opens the rules drawer from the case link of the newest error toast and checks it stands at `kase`.
 * @param {import('playwright-core').Page} page @param {string} kase
 */
async function openRuleFromToast(page, kase) {
  const toast = page.locator('#toasts .toast-error').last();
  await toast.locator(`.toast-links a.case:has-text("${kase}")`).click();
  await page.waitForSelector('#rules-drawer.open[aria-hidden="false"]');
  const entry = page.locator(`#rules-drawer article.rule[data-case="${kase}"]`);
  await entry.waitFor({ state: 'visible' });
  // the drawer stands at the case: its entry has the focus and is in view
  await page.waitForFunction((k) => /** @type {HTMLElement|null} */ (document.activeElement)?.dataset?.case === k, kase);
  const box = await entry.boundingBox();
  const drawer = await page.locator('#rules-drawer').boundingBox();
  assert.ok(box && drawer && box.y >= drawer.y - 1 && box.y < drawer.y + drawer.height, `rule ${kase} is in view in the drawer`);
  assert.match(await entry.locator('.rule-case').innerText(), new RegExp(`^${kase.replace('.', '\\.')}$`));
}

test('3. an illegal move is refused with its case; the rules drawer opens at that case', { timeout: 60_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 42, mode: 'hotseat' });
  await api.act(g.id, 'end', g.seats.both);
  const page = await newPage(browser);
  await openBoard(page, server.base, g.links.both);
  const s0 = await api.state(g.id);
  assert.equal(unitOf(s0, 'RU.3').hex, '2514');
  assert.equal(unitOf(s0, 'PR.10').hex, '2515');

  // a move into an occupied hex, typed in the command box: refused by 5.32 (one unit per hex)
  await command(page, 'move PR.10 2514');
  const toast = page.locator('#toasts .toast-error').last();
  await toast.waitFor({ state: 'visible' });
  await idle(page);
  const text = await toast.innerText();
  assert.match(text, /5\.32/, `the toast names the case: ${text}`);
  assert.match(text, /Refused: move PR\.10 2514/);
  assert.match(text, /2514 holds RU\.3/);
  // the refused command stays in the box, to be corrected
  assert.equal(await page.locator('.cmd-input').inputValue(), 'move PR.10 2514');
  await shot(page, '03-refused-toast');

  await openRuleFromToast(page, '5.32');
  assert.match(await page.locator('#rules-drawer article.rule[data-case="5.32"]').innerText(), /One unit per hex/);
  await shot(page, '03-rules-drawer-5.32');

  // Escape closes the drawer
  await page.keyboard.press('Escape');
  await page.waitForSelector('#rules-drawer:not(.open)', { state: 'attached' });

  // the same refusal by the mouse: drag PR.10 onto RU.3's hex
  await page.evaluate(() => document.querySelectorAll('#toasts .toast').forEach((t) => t.remove()));
  await page.locator('.cmd-input').fill('');
  await centreOn(page, '2515');
  const [x0, y0] = await hexPoint(page, '2515');
  const [x1, y1] = await hexPoint(page, '2514');
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 5 });
  await page.mouse.move(x1, y1, { steps: 5 });
  await page.mouse.up();
  const toast2 = page.locator('#toasts .toast-error').last();
  await toast2.waitFor({ state: 'visible' });
  await idle(page);
  assert.match(await toast2.innerText(), /5\.32/);
  await shot(page, '03-refused-drop');

  // a move beyond the movement allowance: refused with 5.15
  await page.evaluate(() => document.querySelectorAll('#toasts .toast').forEach((t) => t.remove()));
  assert.equal(unitOf(s0, 'PR.AvGd').hex, '0529');
  await command(page, 'move PR.AvGd 0520');
  const toast3 = page.locator('#toasts .toast-error').last();
  await toast3.waitFor({ state: 'visible' });
  await idle(page);
  const t3 = await toast3.innerText();
  assert.match(t3, /Read rule 5\.15 →/, `the refusal names 5.15: ${t3}`);
  assert.match(t3, /movement allowance of 4/);
  await openRuleFromToast(page, '5.15');
  await shot(page, '03-rules-drawer-5.15');

  // nothing was recorded
  const s1 = await api.state(g.id);
  assert.equal(s1.actions_recorded, s0.actions_recorded);
  assert.equal(unitOf(s1, 'PR.10').hex, '2515');
  assert.equal(unitOf(s1, 'PR.AvGd').hex, '0529');
  assertNoPageErrors(page);
  await page.context().close();
});
