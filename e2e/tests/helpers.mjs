// Shared helpers of the end-to-end tests: a fresh `grognard serve` per test file (its own
// sqlite database in a temporary directory), Debian's chromium through playwright-core, the
// server's REST API from Node, and the board's handles (window.grognard, see web/app.js).
//
// Environment (set by scripts/e2e):
//   GROGNARD_BIN        the grognard binary (default ../target/debug/grognard)
//   GROGNARD_ARTIFACTS  where screenshots go (default ../test-artifacts/e2e)
//   CHROMIUM            the browser (default /usr/bin/chromium)

import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

export const BIN = process.env.GROGNARD_BIN || path.join(root, 'target/debug/grognard');
export const ARTIFACTS = process.env.GROGNARD_ARTIFACTS || path.join(root, 'test-artifacts/e2e');
mkdirSync(ARTIFACTS, { recursive: true });

/** How long a single wait on the page may take before the test fails. */
export const STEP_MS = 20_000;

// ------------------------------------------------------------------ the server

/**
 * Starts `grognard serve --port 0 --database sqlite:<tmp>/g.sqlite` and waits for the address
 * it prints ("Grognard is serving http://127.0.0.1:PORT/").
 * @returns {Promise<{base: string, stop: () => Promise<void>, log: () => string}>}
 */
export async function startServer() {
  const dir = mkdtempSync(path.join(tmpdir(), 'grognard-e2e-'));
  const child = spawn(BIN, ['serve', '--port', '0', '--database', `sqlite:${path.join(dir, 'g.sqlite')}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' },
  });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => { err += d; if (err.length > 200_000) err = err.slice(-100_000); });
  child.stdout.setEncoding('utf8');
  const onExit = () => { try { child.kill('SIGKILL'); } catch { /* gone */ } };
  process.once('exit', onExit);
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`grognard serve printed no address in 30 s\nstdout: ${out}\nstderr: ${err}`)), 30_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/serving (https?:\/\/[^\s]+)/);
      if (m) { clearTimeout(timer); resolve(m[1].replace(/\/$/, '')); }
    });
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('exit', (code, sig) => { clearTimeout(timer); reject(new Error(`grognard serve exited (${code ?? sig}) before serving\nstdout: ${out}\nstderr: ${err}`)); });
  });
  child.removeAllListeners('exit');
  let stopped = false;
  return {
    base,
    log: () => err,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT');
        const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await gone;
        clearTimeout(t);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ------------------------------------------------------------------ the REST API from Node

/**
 * A small client of docs/api.md.
 * @param {string} base
 */
export function rest(base) {
  /** Every request but a read carries a JSON body (`{}` when none is given), as the server demands.
   *  @param {string} p @param {{method?: string, body?: any, token?: string}} [o] */
  const call = async (p, o = {}) => {
    const method = o.method || 'GET';
    const read = method === 'GET' || method === 'HEAD';
    /** @type {Record<string,string>} */
    const headers = { Accept: 'application/json' };
    if (!read) headers['Content-Type'] = 'application/json';
    if (o.token) headers.Authorization = `Bearer ${o.token}`;
    const res = await fetch(base + p, { method, headers, body: read ? undefined : JSON.stringify(o.body === undefined ? {} : o.body), signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
    return { status: res.status, json, text };
  };
  const ok = async (/** @type {string} */ p, o = {}) => {
    const r = await call(p, o);
    assert.ok(r.status >= 200 && r.status < 300, `${o.method || 'GET'} ${p} -> ${r.status} ${r.text}`);
    return r.json;
  };
  return {
    call,
    /** @param {any} body @returns {Promise<{id: string, seats: Record<string,string>, links: Record<string,string>}>} */
    create: (body) => ok('/api/games', { method: 'POST', body }),
    /** @param {string} id */
    state: (id) => ok(`/api/games/${id}`),
    /** @param {string} id @param {string} action @param {string} token */
    act: (id, action, token) => ok(`/api/games/${id}/actions`, { method: 'POST', body: { action }, token }),
  };
}

/** @param {any} state @param {string} id */
export const unitOf = (state, id) => state.units.find((/** @type {any} */ u) => u.id === id);

// ------------------------------------------------------------------ the browser

/**
 * Debian's chromium, headless. A browser that dies while starting (seen once in CI: SIGSEGV
 * before any page, on a loaded machine) is started again, up to three tries; a test's own
 * failures are never retried.
 */
export async function launchBrowser() {
  for (let attempt = 1; ; attempt++) {
    try {
      return await chromium.launch({
        executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
    } catch (e) {
      if (attempt >= 3) throw e;
      console.error(`chromium did not start (try ${attempt} of 3): ${String(e).split('\n')[0]}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/**
 * A page in a fresh context (its own localStorage, so its own seats) that records page errors
 * and refuses any request that would leave the machine.
 * @param {import('playwright-core').Browser} browser
 */
export async function newPage(browser, opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...opts });
  ctx.setDefaultTimeout(STEP_MS);
  await ctx.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/]|data:|blob:)/, (r) => {
    errorsOf(page).push(`external request: ${r.request().url()}`);
    return r.abort();
  });
  const page = await ctx.newPage();
  /** @type {string[]} */
  const errors = [];
  pageErrors.set(page, errors);
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}\n${e.stack}`));
  page.on('console', (m) => {
    // refusals are answered 4xx on purpose: the browser logs them as failed resources
    if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) errors.push(`console.error: ${m.text()}`);
  });
  // every request the board sends to the API that is not a read must be JSON (the server
  // refuses others with 415): the header, and a body that parses
  /** @type {{method: string, path: string, type: string|undefined, body: string|null}[]} */
  const posts = [];
  pagePosts.set(page, posts);
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (!url.pathname.startsWith('/api/') || r.method() === 'GET' || r.method() === 'HEAD') return;
    const type = r.headers()['content-type'];
    const body = r.postData();
    posts.push({ method: r.method(), path: url.pathname, type, body });
    if (!/^application\/json(;|$)/i.test(type || '')) errors.push(`${r.method()} ${url.pathname} without Content-Type: application/json (${type})`);
    try { JSON.parse(body ?? ''); } catch { errors.push(`${r.method()} ${url.pathname} with a body that is not JSON: ${body}`); }
  });
  return page;
}

/** @type {WeakMap<object, {method: string, path: string, type: string|undefined, body: string|null}[]>} */
const pagePosts = new WeakMap();
/** The requests other than reads the page sent to the API, in order. @param {import('playwright-core').Page} page */
export function postsOf(page) {
  return pagePosts.get(page) || [];
}

/** @type {WeakMap<object, string[]>} */
const pageErrors = new WeakMap();
/** @param {any} page */
function errorsOf(page) {
  return pageErrors.get(page) || [];
}

/** Fails when the page logged errors (uncaught exceptions, console errors, external requests). @param {import('playwright-core').Page} page */
export function assertNoPageErrors(page) {
  const e = errorsOf(page);
  assert.deepEqual(e, [], `the page logged errors:\n${e.join('\n')}`);
}

/** Saves a screenshot of the board as a test artefact. @param {import('playwright-core').Page} page @param {string} name */
export async function shot(page, name) {
  // transitions (the rules drawer sliding in, toasts) are fast-forwarded to their end
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), animations: 'disabled' });
}

/**
 * Opens a game's board at `/#game=ID&seat=TOKEN` and waits for the map and the counters.
 * @param {import('playwright-core').Page} page @param {string} base @param {string} link the link of the create call (or `/#game=ID`)
 */
export async function openBoard(page, base, link) {
  await page.goto(base + link);
  await waitBoard(page);
}

/** Waits for the board to be drawn from the server's state. @param {import('playwright-core').Page} page */
export async function waitBoard(page) {
  await page.waitForSelector('svg.board .layer-counters .counter');
  await page.waitForFunction(() => !!(/** @type {any} */ (window).grognard?.state) && !!document.querySelector('.sidebar .card-orders'));
  await idle(page);
}

/** Waits until the board is not waiting for a reply of the server. @param {import('playwright-core').Page} page */
export async function idle(page) {
  await page.waitForFunction(() => {
    const g = /** @type {any} */ (window).grognard;
    return !!g && !g.busy && !document.body.classList.contains('busy');
  });
}

/** The live state the board holds. @param {import('playwright-core').Page} page */
export async function boardState(page) {
  return page.evaluate(() => /** @type {any} */ (window).grognard.state);
}

/** Waits until the board's state has recorded more than `n` actions. @param {import('playwright-core').Page} page @param {number} n */
export async function waitActions(page, n) {
  await page.waitForFunction((k) => (/** @type {any} */ (window).grognard?.state?.actions_recorded ?? -1) > k, n);
  await idle(page);
}

/**
 * Centres the map on a hex (readable zoom) and returns its client point.
 * @param {import('playwright-core').Page} page @param {string} hex
 */
export async function hexPoint(page, hex) {
  return page.evaluate((h) => /** @type {any} */ (window).grognard.board.clientPoint(h), hex);
}

/** Centres the view between hexes at a readable zoom. @param {import('playwright-core').Page} page @param {string} hex */
export async function centreOn(page, hex) {
  await page.evaluate((h) => /** @type {any} */ (window).grognard.board.centreOn(h, 1.4), hex);
}

/** Clicks the centre of a hex with the mouse. @param {import('playwright-core').Page} page @param {string} hex */
export async function clickHex(page, hex) {
  const [x, y] = await hexPoint(page, hex);
  await page.mouse.click(x, y);
}

/** Types an action in the command box and submits it. @param {import('playwright-core').Page} page @param {string} action */
export async function command(page, action) {
  await page.waitForSelector('.cmd-input:not([disabled])');
  const box = page.locator('.cmd-input');
  await box.fill(action);
  await box.press('Enter');
}

/** Runs `fn` with a time limit. @template T @param {number} ms @param {string} what @param {() => Promise<T>} fn @returns {Promise<T>} */
export async function within(ms, what, fn) {
  let t;
  const limit = new Promise((_, reject) => { t = setTimeout(() => reject(new Error(`${what}: not done in ${ms / 1000} s`)), ms); });
  try {
    return await Promise.race([fn(), limit]);
  } finally {
    clearTimeout(t);
  }
}

// ------------------------------------------------------------------ one test file's fixture

/** The test file's server, set by the `before` hook of {@link useFixture}. @type {Awaited<ReturnType<typeof startServer>>} */
export let server;
/** The test file's REST client of {@link server}. @type {ReturnType<typeof rest>} */
export let api;
/** The test file's browser. @type {import('playwright-core').Browser} */
export let browser;

/**
 * Gives the calling test file a fresh server, its REST client and a browser before its tests,
 * and stops them after: the importers see them through the live bindings `server`, `api` and
 * `browser` (each test file runs in its own process).
 */
export function useFixture() {
  before(async () => {
    server = await startServer();
    api = rest(server.base);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
}
