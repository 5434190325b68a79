// Counts what a dealer does by touch alone for three Lucky Chances hands at
// a tablet's 1024×768: taps, characters typed on the on-screen keyboard
// (names only, never `keyboard.type`) and page loads (with the scripts on,
// a step is shown in place: a load is a whole page fetched).
//   (b) the first hand at a new table: the PD and six wagers from six new
//       names, the dice, the two winners and "All the rest: PD wins",
//       each settlement step confirmed, the hand closed;
//   (a) the next hand at the same table, the same six bettors: the PD
//       proposed, last hand's wagers again, the rest as (b);
//   (c) as (a), with one disputed seat decided by its cards (and the PD's)
//       on the card picker.
// Prints one JSON line per hand. Environment: PITBOOK_URL, PITBOOK_USER,
// PITBOOK_PASSWORD. Run by scripts/measure-dealer-hand.sh, which starts
// the server on a fresh database.

import { launch } from './chromium.mjs';

const BASE = process.env.PITBOOK_URL;
if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(BASE || '')) throw new Error('PITBOOK_URL must be http://127.0.0.1:PORT');

const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, hasTouch: true });
const page = await context.newPage();
page.setDefaultTimeout(15_000);

let counts;
const reset = () => (counts = { taps: 0, typed_characters: 0, page_loads: 0 });
reset();
page.on('load', () => counts.page_loads++);

/** A tap, and the page it leads to (in place or loaded). */
async function tap(locator) {
  await locator.tap();
  counts.taps++;
  await page.waitForLoadState('load');
}
/** A name typed on the on-screen keyboard into the focused field. */
async function typeName(locator, text) {
  await locator.fill(text);
  counts.typed_characters += text.length;
}
const heading = (text) => page.locator('h2#step', { hasText: text }).waitFor();
const seatOnDrawing = (seat) => page.locator(`svg.table-drawing a.seat-link[aria-label="Seat ${seat}"]`);

// Seven seats: Dana banks 500 at seat 1; six bettors on seats 2-7.
const PD = { seat: '1', player: 'Dana', bank: '500' };
const WAGERS = [
  ['2', 'Ann', '25'], ['3', 'Bo', '20'], ['4', 'Cy', '25'],
  ['5', 'Di', '10'], ['6', 'Ed', '20'], ['7', 'Flo', '5'],
];
const WINNERS = ['3', '6'];

async function signIn() {
  await page.goto(`${BASE}/login`);
  await page.locator('#username').fill(process.env.PITBOOK_USER);
  await page.locator('#password').fill(process.env.PITBOOK_PASSWORD);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in' }).click()]);
}

async function newTable() {
  await page.goto(`${BASE}/tables`);
  const form = page.locator('form#new-table');
  await form.getByLabel('Name').fill('M-1');
  await form.getByLabel('Game profile').selectOption('lucky-chances');
  await form.getByLabel('Seats').fill('7');
  await Promise.all([page.waitForNavigation(), form.getByRole('button', { name: 'Create table' }).click()]);
}

/** The PD: the seat tapped and the name typed unless proposed; the bank
 *  and the option by taps. */
async function setPd() {
  await heading('1. Who banks?');
  const form = page.locator('#pd-form');
  if ((await form.locator('#seat').inputValue()) !== PD.seat) await tap(seatOnDrawing(PD.seat));
  if ((await form.locator('#player').inputValue()) !== PD.player) {
    await tap(form.locator('#player'));
    await typeName(form.locator('#player'), PD.player);
  }
  await tap(form.getByRole('group', { name: 'Keypad' }).getByRole("button", { name: `${PD.bank} in one tap`, exact: true }));
  if (!(await form.getByLabel('Bank two hands').isChecked())) await tap(form.getByLabel('Bank two hands'));
  await tap(form.getByRole('button', { name: 'Set the PD' }));
  await heading('2. Wagers');
}

/** One wager by touch: the seat on the drawing, the bettor (a name seen
 *  here, else typed), the amount in one tap, Add. */
async function wager([seat, bettor, amount], n) {
  await tap(seatOnDrawing(seat));
  const form = page.locator('#wager-form');
  await form.locator('#seat').and(page.locator(`[value="${seat}"]`)).waitFor();
  const seen = form.locator('#bettors-seen').getByLabel(bettor, { exact: true });
  if (await seen.count()) {
    await tap(seen);
  } else {
    if (!(await form.locator('#bettor').evaluate((e) => e === document.activeElement))) await tap(form.locator('#bettor'));
    await typeName(form.locator('#bettor'), bettor);
  }
  await tap(form.getByRole('group', { name: 'Keypad' }).getByRole("button", { name: `${amount} in one tap`, exact: true }));
  await tap(form.getByRole('button', { name: 'Add wager' }));
  await page.locator('#wagers tbody tr').nth(n).waitFor();
}

async function dice() {
  const form = page.locator('#dice-form');
  for (const [n, v] of [[1, '1'], [2, '2'], [3, '1']]) await tap(form.locator(`#die-${n}`).getByLabel(v, { exact: true }));
  await tap(form.getByRole('button', { name: 'Set the ACTION seat' }));
  await heading('4. Hands');
}

/** The disputed seat's seven cards and the PD's, on the card picker. */
async function cardsFor(seat, cards) {
  const fieldset = page.locator(`#results-form #seat-${seat}`);
  await tap(fieldset.locator('summary'));
  await tap(fieldset.locator(`#cards_${seat}`));
  const picker = page.getByRole('group', { name: 'Card picker' });
  for (const card of cards) {
    await tap(picker.getByRole('button', { name: `rank ${card[0]}`, exact: true }));
    await tap(picker.getByRole('button', { name: new RegExp(` ${card[1]}, `) }));
  }
}

async function resultsAndSettle(disputed) {
  if (disputed) {
    await cardsFor(PD.seat, ['2c', '3d', '4h', '7s', '9c', 'Jd', 'Kh']);
    await cardsFor(disputed, ['As', 'Ad', 'Kc', 'Ks', 'Qh', 'Qd', '5c']);
  }
  const form = page.locator('#results-form');
  for (const seat of WINNERS.filter((s) => s !== disputed)) {
    await tap(form.locator(`#seat-${seat}`).getByLabel('Player', { exact: true }));
  }
  await tap(form.getByRole('button', { name: 'All the rest: PD wins' }));
  await heading('5. Settlement');
  const now = page.locator('#now');
  for (let i = 0; i < WAGERS.length; i++) {
    await tap(now.getByRole('button', { name: /^(Paid|Collected|Returned) / }));
  }
  await tap(now.getByRole('button', { name: 'Close the hand', exact: true }));
  await page.locator('#closed').waitFor();
}

async function firstHand() {
  await page.goto(`${BASE}/tables/M-1`);
  reset();
  await tap(page.getByRole('button', { name: 'Start a new hand' }));
  await setPd();
  for (const [n, w] of WAGERS.entries()) await wager(w, n);
  await dice();
  await resultsAndSettle(null);
}

async function nextHand(disputed) {
  await tap(page.getByRole('button', { name: /Start the next hand/ }));
  await setPd();
  await tap(page.locator('#again-all'));
  await page.locator('#wagers tbody tr').nth(WAGERS.length - 1).waitFor();
  await dice();
  await resultsAndSettle(disputed);
}

const HANDS = [
  ['(b) the first hand at a new table, six new names', firstHand],
  ['(a) the next hand, the same six bettors', () => nextHand(null)],
  ['(c) the next hand, seat 4 decided by its cards', () => nextHand('4')],
];

try {
  await signIn();
  await newTable();
  for (const [name, hand] of HANDS) {
    reset();
    await hand();
    console.log(JSON.stringify({ hand: name, ...counts }));
    await page.screenshot({ path: `/tmp/measure-${name.slice(1, 2)}.png` });
  }
} catch (e) {
  await page.screenshot({ path: '/tmp/measure-failure.png', fullPage: true });
  console.error(`measure: failed at ${page.url()}: ${e.message}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
