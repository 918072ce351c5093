// Shared helpers for the browser checks: launches Debian's chromium through playwright-core.
// playwright-core is installed outside the repository (npm install --prefix /tmp/webtest
// playwright-core); PLAYWRIGHT_DIR points there.
import { createRequire } from 'node:module';
import path from 'node:path';

const dir = process.env.PLAYWRIGHT_DIR || '/tmp/webtest';
const require = createRequire(path.resolve(dir, 'package.json'));
const { chromium } = require('playwright-core');

export const BASE = process.env.BASE || 'http://127.0.0.1:8814';
export const OUT = process.env.OUT || path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../test-artifacts');

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A page that records console errors and failed requests. */
export async function page(browser, opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...opts });
  const p = await ctx.newPage();
  p.errors = [];
  p.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') p.errors.push(`console.${m.type()}: ${m.text()}`); });
  p.on('pageerror', (e) => p.errors.push(`pageerror: ${e.message}\n${e.stack}`));
  p.on('requestfailed', (r) => p.errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  p.on('request', (r) => { const u = new URL(r.url()); if (!['127.0.0.1', 'localhost'].includes(u.hostname) && u.protocol !== 'data:') p.errors.push(`external request: ${r.url()}`); });
  return p;
}
