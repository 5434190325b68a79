// Training a new dealer in a real browser, on the e2e server.
//   1. The admin adds a trainee account (its one-time password read off
//      /users);
//   2. the trainee, on a phone (390 px, touch), signs in, chooses a new
//      password, opens Training from the home page and starts a practice
//      run of ACTION-seat drills;
//   3. answers the first drill wrong (typed, sent with Enter): "Wrong",
//      the correct seat (checked against the rule worked out here) and the
//      explanation;
//   4. taps Next drill and answers right (tapping Answer): "Right", 1 of 2;
//   5. opens their progress: 2 attempts, 50%, the day's chart; on the
//      phone the sections are folded under Menu, which opens them;
//   6. the admin sees the trainee on the side-by-side page.
// Every page is checked for sideways scrolling; a page or console error
// fails the run.
//
// Environment: PITBOOK_URL, PITBOOK_ADMIN_PASSWORD, PITBOOK_OUT_DIR.

import { join } from 'node:path';
import { failFast, launch } from './chromium.mjs';

const BASE = process.env.PITBOOK_URL;
const PASSWORD = process.env.PITBOOK_ADMIN_PASSWORD;
const OUT = process.env.PITBOOK_OUT_DIR || 'target/browser';
if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(BASE || '')) throw new Error('PITBOOK_URL must be http://127.0.0.1:PORT');

class Mismatch extends Error {}
const browser = await launch();
const problems = [];
let current = 'start';
let page;

function watch(p) {
  failFast(p);
  p.on('pageerror', (e) => problems.push(`page error at ${p.url()}: ${e.message}`));
  p.on('console', (m) => m.type() === 'error' && problems.push(`console error at ${p.url()}: ${m.text()}`));
  return p;
}

async function step(name, fn) {
  current = name;
  await fn();
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scroll > inner) throw new Mismatch(`${name}: the page scrolls sideways (${scroll} px wide in ${inner})`);
  if (problems.length) throw new Mismatch(problems.join('\n'));
  console.log(`  ok  ${name}`);
}

function expect(ok, what) {
  if (!ok) throw new Mismatch(what);
}

async function text(selector) {
  return (await page.locator(selector).first().innerText()).trim();
}

async function signIn(p, user, password) {
  await p.goto(`${BASE}/login`);
  await p.locator('#username').fill(user);
  await p.locator('#password').fill(password);
  await Promise.all([p.waitForURL((u) => u.pathname !== '/login'), p.getByRole('button', { name: 'Sign in' }).click()]);
}

/** The ACTION seat of the question on screen, worked out from its words. */
async function actionSeat() {
  const q = await text('#question');
  const m = /seat (\d+) at a (\d+)-seat table and throws (\d+), (\d+) and (\d+)/.exec(q);
  expect(m, `not an ACTION-seat question: ${q}`);
  const [pd, seats, a, b, c] = m.slice(1).map(Number);
  const position = (a + b + c - 1) % seats;
  return ((pd - 1 + position) % seats) + 1;
}

const admin = await browser.newContext({ viewport: { width: 1024, height: 768 } });
const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
try {
  page = watch(await admin.newPage());
  await signIn(page, 'admin', PASSWORD);
  let oneTime;
  await step('the admin adds a trainee', async () => {
    await page.goto(`${BASE}/users`);
    await page.locator('#add-username').fill('tina');
    await page.locator('#add-role').selectOption('trainee');
    await page.getByRole('button', { name: 'Add with a one-time password' }).click();
    await page.locator('#one-time-password').waitFor();
    oneTime = await text('#one-time-password');
    expect(/^[0-9a-f]{24}$/.test(oneTime), `no one-time password: ${oneTime}`);
  });
  const adminPage = page;

  page = watch(await phone.newPage());
  await step('the trainee signs in and chooses a password', async () => {
    await signIn(page, 'tina', oneTime);
    expect(new URL(page.url()).pathname === '/password', `not sent to /password: ${page.url()}`);
    await page.locator('#current').fill(oneTime);
    await page.locator('#new').fill('trainee-passphrase-2026');
    await page.locator('#confirm').fill('trainee-passphrase-2026');
    await Promise.all([page.waitForURL((u) => u.pathname === '/'), page.getByRole('button', { name: 'Change password' }).tap()]);
    await page.locator('#training-link').waitFor();
  });
  await step('a practice run of ACTION-seat drills from the home page', async () => {
    await Promise.all([page.waitForURL((u) => u.pathname === '/training'), page.locator('#training-link').tap()]);
    await page.locator('#kind').selectOption('action-seat');
    await page.getByLabel('1 · easy').check();
    await page.getByLabel('Practice').check();
    await Promise.all([page.waitForURL(/\/training\/runs\/[0-9a-f-]+$/), page.locator('#start').tap()]);
    await page.locator('#question').waitFor();
    expect((await text('#drill h2')) === 'Drill 1', `not the first drill: ${await text('#drill h2')}`);
  });
  let seat;
  await step('the first drill answered wrong, typed and sent with Enter', async () => {
    seat = await actionSeat();
    const seats = Number(/(\d+)-seat table/.exec(await text('#question'))[1]);
    const wrong = (seat % seats) + 1;
    await page.locator('#answer-seat').fill(String(wrong));
    await page.locator('#answer-seat').press('Enter');
    await page.locator('#verdict').waitFor();
    expect((await text('#verdict')) === 'Wrong', `verdict: ${await text('#verdict')}`);
    expect((await text('#correct')) === `Seat ${seat}.`, `the correct answer shown: ${await text('#correct')}, worked out: ${seat}`);
    expect((await text('#explanation')).includes(`seat ${seat} gets the first pile`), 'the explanation');
  });
  await step('the next drill answered right, by touch', async () => {
    await page.locator('#next-drill').tap();
    await page.locator('#answer-seat').waitFor();
    seat = await actionSeat();
    await page.locator('#answer-seat').tap();
    await page.keyboard.type(String(seat));
    await page.locator('#submit-answer').tap();
    await page.locator('#verdict').waitFor();
    expect((await text('#verdict')) === 'Right', `verdict: ${await text('#verdict')}`);
    expect((await text('#score')) === '1 of 2', `score: ${await text('#score')}`);
  });
  await step('the progress page: two attempts, half right, the chart', async () => {
    await page.goto(`${BASE}/training`);
    await Promise.all([page.waitForURL((u) => u.pathname === '/training/progress'), page.locator('#progress-link').tap()]);
    const row = await page.locator('#kind-action-seat td').allInnerTexts();
    expect(row[0] === '2' && row[1] === '50%', `the action-seat row: ${row.join(' | ')}`);
    expect(await page.locator('#trend-action-seat circle').count() === 1, 'one day on the chart');
    await page.screenshot({ path: join(OUT, 'training-progress.png'), fullPage: true });
  });
  await step('on the phone the sections fold under Menu, which opens them', async () => {
    const menu = page.locator('#menu-toggle');
    expect((await menu.innerText()).trim() === 'Menu · Training', `the menu names the section: ${await menu.innerText()}`);
    const tables = page.locator('#sections-nav').getByRole('link', { name: 'Tables' });
    expect(!(await tables.isVisible()), 'the sections are folded');
    await menu.tap();
    expect(await menu.getAttribute('aria-expanded') === 'true', 'the menu says it is open');
    await Promise.all([page.waitForURL((u) => u.pathname === '/tables'), tables.tap()]);
    await page.locator('h1', { hasText: 'Tables' }).waitFor();
  });
  page = adminPage;
  await step('the admin sees the trainee side by side with the others', async () => {
    await page.goto(`${BASE}/training/trainees`);
    const row = await text('#trainee-tina');
    expect(row.includes('50% of 2'), `tina's row: ${row}`);
  });
  console.log('training: passed');
} catch (e) {
  console.error(`training: failed at "${current}": ${e.message}`);
  if (page) await page.screenshot({ path: join(OUT, 'failure.png'), fullPage: true }).catch(() => {});
  process.exitCode = 1;
} finally {
  await browser.close();
}
