// What a browser test that drives the pages as a user does needs, written
// once: the environment run.sh gives, a signed-in session that records
// every script error, named steps that fail with what was expected, and a
// screenshot per step that must differ from the step before it (two steps
// that look the same mean the test saw nothing).

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { failFast } from './chromium.mjs';

export class Mismatch extends Error {}

/** `page` printed to PDF (A4, the print stylesheet) at `file` and its text
 *  as pdftotext reads it, columns kept. */
export async function printed(page, file) {
  await page.pdf({ path: file, format: 'A4', printBackground: true });
  return execFileSync('pdftotext', ['-layout', file, '-']).toString();
}

/** docs/tripoley.md's classic deal: each hand as typed, Dee dealing first. */
export const TRIPOLEY_DEAL = {
  Dee: 'Qh 3s 5s 7s Qs 3h 8h 6d 5c Qc',
  Ann: 'Ah 8s 9s Ts As Ad 8c 2d Jd 9c Ac',
  Bo: '8d 9d Td Th 7c 6h 5h 3d Qd Tc',
  Cy: 'Jh 2c 4s 6s Js 2h 7h 4d 3c Jc',
  spare: 'Kh Kd 4c 5d 2s Ks 4h 9h 7d 6c Kc',
};
/** Its seating, clockwise: seat 0 deals the first round. */
export const TRIPOLEY_SEATING = ['Dee', 'Ann', 'Bo', 'Cy'];

/** PITBOOK_URL, PITBOOK_ADMIN_PASSWORD and PITBOOK_OUT_DIR, checked. */
export function environment(script) {
  const base = process.env.PITBOOK_URL || '';
  const password = process.env.PITBOOK_ADMIN_PASSWORD;
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(base) || !password) {
    console.error(`${script}: PITBOOK_URL (http://127.0.0.1:PORT) and PITBOOK_ADMIN_PASSWORD must be set (run tests/browser/run.sh)`);
    process.exit(2);
  }
  return { base, password, out: process.env.PITBOOK_OUT_DIR || 'target/browser' };
}

export function expect(ok, what) {
  if (!ok) throw new Mismatch(what);
}

/** Waits until `locator` has an element whose whole text is `expected`. */
export async function expectText(locator, expected, what) {
  const quoted = expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  try {
    await locator.filter({ hasText: new RegExp(`^\\s*${quoted}\\s*$`) }).first().waitFor();
  } catch {
    const found = await locator.allTextContents().catch(() => []);
    throw new Mismatch(`${what}: expected "${expected}", found ${JSON.stringify(found.map((t) => t.trim()))}`);
  }
}

/** The trimmed text of the first element `selector` matches. */
export async function text(page, selector) {
  return ((await page.locator(selector).first().textContent()) || '').trim();
}

/**
 * A browser context signed in as `user`: `options` are the context's
 * (viewport, javaScriptEnabled…). Script errors, console errors and failed
 * requests are collected in `problems`, which every step checks.
 */
export async function signedIn(browser, env, options, user = 'admin', password = env.password) {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  failFast(page);
  const problems = [];
  page.on('pageerror', (e) => problems.push(`a script threw at ${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    // A refused form answers 422 on purpose; chromium logs that status.
    if (m.type() === 'error' && !/status of 422/.test(m.text())) problems.push(`console error at ${page.url()}: ${m.text()}`);
  });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.method()} ${r.url()}: ${r.failure()?.errorText}`));
  await page.goto(`${env.base}/login`);
  await page.locator('#username').fill(user);
  await page.locator('#password').fill(password);
  await Promise.all([
    page.waitForURL((u) => u.pathname !== '/login'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  return { context, page, problems };
}

/**
 * Named steps of one flow on `page`, each screenshotted into
 * OUT/DIR/NN-flow-step.png. A step's screenshot identical to the one
 * before it fails the step.
 */
export class Flow {
  constructor(env, dir, name, session) {
    this.dir = join(env.out, dir);
    this.name = name;
    this.page = session.page;
    this.problems = session.problems;
    this.count = 0;
    this.last = null;
    this.lastStep = '';
    mkdirSync(this.dir, { recursive: true });
  }

  async step(name, fn) {
    const where = `${this.name}: ${name}`;
    try {
      await fn(this.page);
      await this.noSidewaysScroll();
      expect(!this.problems.length, `the browser reported:\n  ${this.problems.join('\n  ')}`);
      await this.shoot(name);
    } catch (e) {
      await this.page.screenshot({ path: join(this.dir, 'failure.png'), fullPage: true }).catch(() => {});
      const kind = e instanceof Mismatch ? '' : `${e.stack}\n`;
      throw new Mismatch(`${where}: ${kind}${e.message}\n  at ${this.page.url()} (screenshot ${join(this.dir, 'failure.png')})`);
    }
    console.log(`  ok  ${where}`);
  }

  async noSidewaysScroll() {
    const [scroll, inner] = await this.page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(scroll <= inner, `the page scrolls sideways (${scroll} px wide in ${inner})`);
  }

  async shoot(name) {
    const shot = await this.page.screenshot({ fullPage: true });
    expect(
      !this.last || !shot.equals(this.last),
      `the page looks exactly as it did after "${this.lastStep}": the step changed nothing on screen`,
    );
    this.count += 1;
    const file = `${String(this.count).padStart(2, '0')}-${this.name}-${name}`.replace(/[^a-z0-9-]+/gi, '-').slice(0, 90);
    writeFileSync(join(this.dir, `${file}.png`), shot);
    this.last = shot;
    this.lastStep = name;
  }
}
