// Training a new dealer in a real browser, on the e2e server.
//   1. The admin adds a trainee account (its one-time password read off
//      /users);
//   2. the trainee, on a phone (390 px, touch), signs in, chooses a new
//      password, opens Training from the home page and starts a practice
//      run of ACTION-seat drills;
//   3. the drill is drawn as the table (the dice thrown, a key for every
//      seat but the PD's); answers the first drill wrong by keyboard (a
//      seat key, Enter): "Wrong", the correct seat (checked against the
//      rule worked out here) and the explanation;
//   4. taps Next drill and answers right by tapping the seat: "Right", 1 of 2;
//   4b. a two-question test, one answer wrong: FAIL against the pass mark,
//      the wrong answer beside the right one, and the practice it offers
//      started in one tap;
//   5. opens their progress: 4 attempts, 50%, the chart over attempts; on the
//      phone the sections are folded under Menu, which opens them;
//   6. the admin sees the trainee on the side-by-side page, and prints
//      the trainee's record to sign (read back with pdftotext).
// Every page is checked for sideways scrolling; a page or console error
// fails the run.
//
// Environment: PITBOOK_URL, PITBOOK_ADMIN_PASSWORD, PITBOOK_OUT_DIR.

import { join } from 'node:path';
import { failFast, launch } from './chromium.mjs';
import { printed } from './harness.mjs';

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

/** The question's words (folded under the drawing: read as text, not as shown). */
async function questionWords() {
  return (await page.locator('#question').textContent()).trim();
}

/** The ACTION seat of the question on screen, worked out from its words. */
async function actionSeat() {
  const q = await questionWords();
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
    await page.locator('#ask').waitFor();
    expect((await text('#drill h2')) === 'Drill 1', `not the first drill: ${await text('#drill h2')}`);
  });
  let seat;
  await step('the first drill is drawn as the table and answered wrong by keyboard', async () => {
    seat = await actionSeat();
    const thrown = (await page.locator('#dice-thrown .die-key').allInnerTexts()).join(',');
    const [, , a, b, c] = /seat (\d+) at a \d+-seat table and throws (\d+), (\d+) and (\d+)/.exec(await questionWords());
    expect(thrown === [a, b, c].join(','), `the dice shown: ${thrown}`);
    expect((await page.locator('.table-drawing .seat').count()) > 0, 'the table is drawn');
    await page.screenshot({ path: join(OUT, 'training-drill-drawn.png'), fullPage: true });
    const keys = await page.locator('#seat-keys button').evaluateAll((bs) => bs.map((b) => Number(b.value)));
    const wrong = keys.find((k) => k !== seat);
    await page.locator(`#answer-seat-${wrong}`).focus();
    await page.keyboard.press('Enter');
    await page.locator('#verdict').waitFor();
    expect((await text('#verdict')) === 'Wrong', `verdict: ${await text('#verdict')}`);
    expect((await text('#correct')) === `Seat ${seat}.`, `the correct answer shown: ${await text('#correct')}, worked out: ${seat}`);
    expect((await text('#explanation')).includes(`seat ${seat} gets the first pile`), 'the explanation');
  });
  await step('the next drill answered right, by tapping the seat', async () => {
    await page.locator('#next-drill').tap();
    await page.locator('#seat-keys').waitFor();
    seat = await actionSeat();
    await page.locator(`#answer-seat-${seat}`).tap();
    await page.locator('#verdict').waitFor();
    expect((await text('#verdict')) === 'Right', `verdict: ${await text('#verdict')}`);
    expect((await text('#score')) === '1 of 2', `score: ${await text('#score')}`);
  });
  await step('a two-question test, one wrong: FAIL, the wrong answer beside the right, the practice in one tap', async () => {
    await page.goto(`${BASE}/training`);
    await page.locator('#kind').selectOption('action-seat');
    await page.getByLabel('1 · easy').check();
    await page.locator('#mode input[value="test"]').check();
    await page.locator('#questions').fill('2');
    await Promise.all([page.waitForURL(/\/training\/runs\/[0-9a-f-]+$/), page.locator('#start').tap()]);
    for (const [n, right] of [[1, false], [2, true]]) {
      await page.locator('#drill h2', { hasText: `Question ${n} of 2` }).waitFor();
      const s = await actionSeat();
      const keys = await page.locator('#seat-keys button').evaluateAll((bs) => bs.map((b) => Number(b.value)));
      await page.locator(`#answer-seat-${right ? s : keys.find((k) => k !== s)}`).tap();
    }
    await page.locator('#test-verdict').waitFor();
    expect((await text('#test-verdict')) === 'FAIL', `the verdict: ${await text('#test-verdict')}`);
    expect((await text('#short-of')).includes('1 right of 2'), `what fell short: ${await text('#short-of')}`);
    expect((await page.locator('#wrong li').count()) === 1, 'one wrong answer listed');
    await page.screenshot({ path: join(OUT, 'training-test-fail.png'), fullPage: true });
    const next = page.locator('#next-run button');
    expect((await next.innerText()).includes('Practise ACTION seat at level 1 again'), `the next drill: ${await next.innerText()}`);
    await Promise.all([page.waitForURL(/\/training\/runs\/[0-9a-f-]+$/), next.tap()]);
    await page.locator('#ask').waitFor();
    expect((await text('#drill h2')) === 'Drill 1', 'a new practice run');
  });
  await step('the progress page: four attempts, half right, the chart', async () => {
    await page.goto(`${BASE}/training`);
    await Promise.all([page.waitForURL((u) => u.pathname === '/training/progress'), page.locator('#progress-link').tap()]);
    const row = await page.locator('#kind-action-seat td').allInnerTexts();
    expect(row[0] === '4' && row[1] === '50%', `the action-seat row: ${row.join(' | ')}`);
    expect(await page.locator('#trend-action-seat circle').count() === 1, 'four attempts are one point on the chart');
    const shown = await page.locator('#trend-action-seat .value, #trend-action-seat .attempt').allTextContents();
    expect(shown.join(' ') === '50% 4', `the point reads 50% over attempt 4: ${shown.join(' ')}`);
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
  const traineePage = page;
  page = adminPage;
  await step('the admin sees the trainee side by side with the others', async () => {
    await page.goto(`${BASE}/training/trainees`);
    const row = await text('#trainee-tina');
    expect(row.includes('50% of 4'), `tina's row: ${row}`);
  });
  await step("the trainee's record prints as a document to sign", async () => {
    await page.goto(`${BASE}/training/trainees/tina`);
    const paper = await printed(page, join(OUT, 'trainee-record.pdf'));
    expect(/tina's progress/.test(paper) && /ACTION seat\s+4\s+50%/.test(paper), `the record's skills:\n${paper}`);
    expect(/Trainee:[\s\S]*Supervisor:/.test(paper), `the signature lines:\n${paper}`);
    expect(!/Sign out|Sign tina off/.test(paper), 'no navigation or controls on the paper');
  });
  page = traineePage;
  await step('a house-way drill set by tapping its cards into the two hands', async () => {
    await page.goto(`${BASE}/training`);
    await page.locator('#kind').selectOption('house-way');
    await page.getByLabel('1 · easy').check();
    await page.getByLabel('Practice').check();
    await Promise.all([page.waitForURL(/\/training\/runs\/[0-9a-f-]+$/), page.locator('#start').tap()]);
    const seven = /Set (.+) by the house way/.exec(await text('#question'))[1].split(' ');
    expect(seven.length === 7, `seven cards: ${seven.join(' ')}`);
    const picker = page.locator('.card-picker');
    const suits = { s: 'spades', h: 'hearts', d: 'diamonds', c: 'clubs' };
    for (const card of seven) {
      if (card === 'JK') {
        await picker.getByRole('button', { name: 'joker', exact: true }).tap();
        continue;
      }
      await picker.getByRole('button', { name: `rank ${card[0] === 'T' ? '10' : card[0]}`, exact: true }).tap();
      await picker.locator(`button[aria-label$=", ${suits[card[1]]}"]`).tap();
    }
    const [high, low] = [seven.slice(0, 5).join(' '), seven.slice(5).join(' ')];
    const filled = [await page.locator('#answer-high').inputValue(), await page.locator('#answer-low').inputValue()];
    expect(filled[0] === high && filled[1] === low, `the picker filled five then two: ${filled.join(' | ')}`);
    await page.screenshot({ path: join(OUT, 'training-house-way-picked.png'), fullPage: true });
    await page.locator('#submit-answer').tap();
    await page.locator('#verdict').waitFor();
    const given = await text('#given');
    expect(given.includes(high) && given.includes(low), `the answer as tapped: ${given}`);
  });
  console.log('training: passed');
} catch (e) {
  console.error(`training: failed at "${current}": ${e.message}`);
  if (page) await page.screenshot({ path: join(OUT, 'failure.png'), fullPage: true }).catch(() => {});
  process.exitCode = 1;
} finally {
  await browser.close();
}
