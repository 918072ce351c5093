// Touch: two fingers spreading apart on the map zoom in, pinching together zoom out (real touch
// events through the browser's input layer, as a phone or tablet sends them).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

/**
 * Two fingers from `d0` to `d1` pixels apart, horizontally around (x, y).
 * @param {import('playwright-core').CDPSession} cdp @param {number} x @param {number} y @param {number} d0 @param {number} d1
 */
async function pinch(cdp, x, y, d0, d1) {
  const at = (/** @type {number} */ d) => [{ x: x - d / 2, y, id: 0 }, { x: x + d / 2, y, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(d0) });
  const steps = 8;
  for (let i = 1; i <= steps; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(d0 + ((d1 - d0) * i) / steps) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

test('9. pinch-zoom on a touch screen', { timeout: 60_000 }, async () => {
  const g = await api.create({ scenario: 'bon-first-day', seed: 1, mode: 'hotseat' });
  const page = await newPage(browser, { hasTouch: true, viewport: { width: 900, height: 760 } });
  await openBoard(page, server.base, g.links.both);
  const box = await page.locator('svg.board').boundingBox();
  assert.ok(box, 'the map is drawn');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const k = () => page.evaluate(() => /** @type {any} */ (window).grognard.board.view.k);
  const k0 = await k();
  const cdp = await page.context().newCDPSession(page);
  await pinch(cdp, x, y, 60, 240);
  const k1 = await k();
  assert.ok(k1 > k0 * 2, `spreading two fingers zooms in: ${k0} -> ${k1}`);
  await shot(page, '09-pinch-in');
  await pinch(cdp, x, y, 240, 80);
  const k2 = await k();
  assert.ok(k2 < k1 * 0.6, `pinching zooms out: ${k1} -> ${k2}`);
  // a pinch is not a click: nothing was selected or sent
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).grognard.state.actions_recorded), 0);
  assertNoPageErrors(page);
  await page.context().close();
});
