// The hex-miniatures rules on the board (issue 16): sight at dusk. In the last hour before
// night the light shortens what each side sees to a few hexes ([24]); the map greys exactly the
// hexes no unit or general of the side to act sees (the rules' sight, `Game::sees`, recorded
// with the position by the command below), and the battle panel gives the weather, the light
// and the visible range. At a desktop's size and a phone's (which never scrolls sideways). A
// hot-seat game of Möckern with a fixed seed, brought to the Prussian movement stage at dusk by
// replaying a record's actions through the API (tests/data/hm-dusk.json; the server rolls the
// same numbers from the same seed).
//
// After a rules change the record is made again by (from the workspace's root):
//   HM_E2E_DATA=e2e/tests/data cargo test -p systems --test hm_e2e_data -- --ignored

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  useFixture, server, api, browser, newPage, shot, openBoard, assertNoPageErrors,
} from './helpers.mjs';

useFixture();

/**
 * Replays a record's actions through the API, waiting out the server's rate limit (20 actions a
 * second) when it answers 429.
 * @param {string} id @param {string} token @param {string[]} actions
 */
async function replay(id, token, actions) {
  for (const a of actions) {
    for (;;) {
      const r = await api.call(`/api/games/${id}/actions`, { method: 'POST', body: { action: a }, token });
      if (r.status === 429) {
        await new Promise((ok) => setTimeout(ok, 1000 * Number(r.json?.error?.retry_after || 1)));
        continue;
      }
      assert.ok(r.status === 200, `${a} -> ${r.status} ${r.text}`);
      break;
    }
  }
}

/**
 * The hexes the map greys: each hex of the board whose centre lies inside the out-of-sight shade.
 * @param {import('playwright-core').Page} page
 */
async function greyedHexes(page) {
  return page.evaluate(() => {
    const b = /** @type {any} */ (window).grognard.board;
    const path = /** @type {SVGPathElement|null} */ (document.querySelector('svg.board .layer-sight path.out-of-sight'));
    if (!path) return [];
    /** @type {string[]} */
    const out = [];
    for (const hx of b.terrain.keys()) {
      const [x, y] = b.c(hx);
      if (path.isPointInFill(new DOMPoint(x, y))) out.push(hx);
    }
    return out.sort();
  });
}

test('Möckern at dusk: the map greys what the side to act does not see, and the panel gives the light', { timeout: 300_000 }, async () => {
  const data = JSON.parse(readFileSync(new URL('./data/hm-dusk.json', import.meta.url), 'utf8'));
  const g = await api.create({ scenario: data.scenario, seed: data.seed, mode: 'hotseat', rules: data.rules });
  await replay(g.id, g.seats.both, data.actions);
  const s = await api.state(g.id);
  assert.equal(s.step, 'movement', `the record reaches a movement stage (${s.step})`);
  assert.equal(s.to_act, 'Prussians');
  assert.equal(s.clock, data.clock);
  assert.equal(s.conditions.light, data.light, 'dusk');
  assert.equal(s.conditions.visibility, data.visibility);
  assert.ok(data.visibility > 0 && data.visibility <= 3, 'a few hexes');
  // the state view's sight is the rules' (as the record's command read it from Game::sees)
  assert.deepEqual([...s.sight.Prussians].sort(), [...data.sight].sort());
  assert.ok(s.sight.Prussians.length > 0, 'the Prussians see something');

  for (const [name, viewport] of /** @type {const} */ ([['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]])) {
    const page = await newPage(browser, { viewport, ...(name === 'phone' ? { isMobile: true, hasTouch: true } : {}) });
    await openBoard(page, server.base, g.links.both);
    const total = await page.evaluate(() => /** @type {any} */ (window).grognard.board.terrain.size);
    const seen = new Set(s.sight.Prussians);
    // exactly the hexes out of the Prussians' sight are greyed
    const greyed = await greyedHexes(page);
    const expected = (await page.evaluate(() => [.../** @type {any} */ (window).grognard.board.terrain.keys()])).filter((/** @type {string} */ hx) => !seen.has(hx)).sort();
    assert.equal(greyed.length, total - seen.size, `${name}: the greyed hexes' count`);
    assert.deepEqual(greyed, expected, `${name}: the greyed hexes are those the rules say the Prussians do not see`);
    assert.equal(Number(await page.locator('svg.board .layer-sight path.out-of-sight').getAttribute('data-hexes')), total - seen.size);
    // the battle panel: the weather, the light at dusk and the visible range
    const card = page.locator('.sidebar .card-hm-battle');
    await card.waitFor();
    if (!(await card.evaluate((e) => e.hasAttribute('open')))) await card.locator(':scope > summary').click();
    const text = await card.innerText();
    assert.match(text, new RegExp(`Weather: ${s.conditions.weather}`));
    assert.match(text, new RegExp(`Light: dusk, ${data.light} hex`));
    assert.match(text, new RegExp(`Sight: ${data.visibility} hex`));
    assert.match(text, new RegExp(`no unit of the Prussians sees \\(${seen.size} seen\\)`));
    assert.match(text, new RegExp(data.clock));
    // a phone never scrolls sideways
    const [sw, cw] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    assert.ok(sw <= cw, `${name}: no sideways scrolling (${sw} > ${cw})`);
    await shot(page, `18-hm-dusk-${name}`);
    assertNoPageErrors(page);
    await page.context().close();
  }
});
