// Counts what a dealer does for two Lucky Chances hands through the pages:
// page loads, typed fields, keystrokes and clicks for
// (1) an 8-wager hand with cards for every seat and (2) the next hand at the
// same table with the same players. FLOW=before drives the pages without
// their shortcuts (every field typed); FLOW=after uses what the pages
// offer now (the previous hand's wagers offered again, the seat from the
// drawing, the card picker). Prints one JSON line per hand.
//
// Environment: PITBOOK_URL, PITBOOK_USER, PITBOOK_PASSWORD, FLOW.
// Run by scripts/measure-dealer-hand.sh, which starts the server.

import { launch } from './chromium.mjs';

const BASE = process.env.PITBOOK_URL;
const FLOW = process.env.FLOW || 'after';
if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(BASE || '')) throw new Error('PITBOOK_URL must be http://127.0.0.1:PORT');

const browser = await launch();
const page = await (await browser.newContext({ viewport: { width: 1024, height: 768 } })).newPage();
page.setDefaultTimeout(15_000);

let counts;
const reset = () => (counts = { page_loads: 0, typed_fields: 0, keystrokes: 0, clicks: 0 });
reset();
page.on('load', () => counts.page_loads++);
/** A field typed: one field, its characters as keystrokes. */
async function type(locator, text) {
  await locator.fill(text);
  counts.typed_fields++;
  counts.keystrokes += text.length;
}
/** A tap (a click, a radio, a checkbox, a link). */
async function tap(locator) {
  await Promise.all([locator.click(), page.waitForLoadState()]);
  counts.clicks++;
  await page.waitForLoadState('load');
}

// Seven seats: the PD at seat 1, primary wagers on seats 2-7, and two
// backline wagers: eight wagers. Cards: seven for every seat, PD's included.
const PD = { seat: '1', player: 'Dana', bank: '500' };
const WAGERS = [
  ['2', 'Ann', '50', false], ['3', 'Bo', '40', false], ['4', 'Cy', '60', false],
  ['5', 'Di', '30', false], ['6', 'Ed', '20', false], ['7', 'Flo', '25', false],
  ['3', 'Gus', '10', true], ['5', 'Hal', '15', true],
];
const DECK = [...'AKQJT98765432'].flatMap((r) => [...'shdc'].map((s) => r + s));
const cardsOf = (seat, hand) => {
  const off = (hand * 3 + (Number(seat) - 1) * 7) % 49;
  return Array.from({ length: 7 }, (_, i) => DECK[(off + i) % 49]).join(' ');
};
const SEATS = ['1', '2', '3', '4', '5', '6', '7'];

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

async function beforeHand(handNumber) {
  // From the table page, as a dealer starts each hand.
  await tap(page.getByRole('button', { name: 'Start a new hand' }));
  const pd = page.locator('#pd-form');
  // The rotation may propose the PD (seat and player filled in): the dealer
  // types only what is empty.
  if ((await pd.getByLabel('PD seat').inputValue()) !== PD.seat) await type(pd.getByLabel('PD seat'), PD.seat);
  if ((await pd.getByLabel('PD player').inputValue()) !== PD.player) await type(pd.getByLabel('PD player'), PD.player);
  await type(pd.getByLabel('Bank', { exact: true }), PD.bank);
  if (!(await pd.getByLabel('Bank two hands').isChecked())) await tap(pd.getByLabel('Bank two hands'));
  await tap(pd.getByRole('button', { name: 'Set the PD' }));
  for (const [seat, bettor, amount, backline] of WAGERS) {
    const form = page.locator('#wager-form');
    await type(form.getByLabel('Seat', { exact: true }), seat);
    await type(form.getByLabel('Bettor'), bettor);
    await type(form.getByLabel('Amount'), amount);
    if (backline) await tap(form.getByLabel(/Backline/));
    await tap(form.getByRole('button', { name: 'Add wager' }));
  }
  await tap(page.getByRole('link', { name: /to the dice/ }));
  const dice = page.locator('#dice-form');
  for (const [i, d] of ['1', '2', '3'].entries()) await type(dice.getByLabel(`die ${i + 1}`), d);
  await tap(dice.getByRole('button', { name: 'Set the ACTION seat' }));
  await tap(page.getByRole('link', { name: 'Enter the cards instead' }));
  const results = page.locator('#results-form');
  for (const seat of SEATS) await type(results.getByLabel(`seat ${seat} seven cards`), cardsOf(seat, handNumber));
  await tap(results.getByRole('button', { name: 'Decide the hands' }));
  await tap(page.getByRole('button', { name: 'Confirm all remaining steps' }));
  await tap(page.getByRole('button', { name: 'Close the hand', exact: true }));
  await page.locator('#closed').waitFor();
  await tap(page.getByRole('link', { name: /← Table/ }));
}

async function afterHand(handNumber) {
  // The first hand from the table page; the next from the hand just closed.
  const next = page.getByRole('button', { name: /Start the next hand/ });
  await tap((await next.count()) ? next : page.getByRole('button', { name: 'Start a new hand' }));
  const pd = page.locator('#pd-form');
  if ((await pd.getByLabel('PD seat').inputValue()) !== PD.seat) await type(pd.getByLabel('PD seat'), PD.seat);
  if ((await pd.getByLabel('PD player').inputValue()) !== PD.player) await type(pd.getByLabel('PD player'), PD.player);
  await type(pd.getByLabel('Bank', { exact: true }), PD.bank);
  if (!(await pd.getByLabel('Bank two hands').isChecked())) await tap(pd.getByLabel('Bank two hands'));
  await tap(pd.getByRole('button', { name: 'Set the PD' }));
  await page.locator('#wager-form').waitFor();
  if (await page.locator('#again-all').count()) {
    // The same players: last hand's wagers, all at once.
    await tap(page.locator('#again-all'));
  } else {
    // A first hand: the wagers typed as lines, one field and one tap
    // (the separators between the words are keystrokes, as Tab is not).
    const lines = WAGERS.map(([seat, bettor, amount, backline]) => `${seat} ${bettor} ${amount}${backline ? ' b' : ''}`);
    await type(page.locator('#wager_lines'), lines.join('\n'));
    await tap(page.getByRole('button', { name: 'Add these wagers' }));
  }
  await page.locator('#wagers tbody tr').nth(WAGERS.length - 1).waitFor();
  // The dice beside the wagers, the first die's keys focused: a digit
  // picks a die and moves on, one field's worth of typing.
  const dice = page.locator('#dice-form');
  const first = dice.locator('#die-1 input').first();
  await first.waitFor();
  if (!(await first.evaluate((e) => e === document.activeElement))) await tap(first);
  await page.keyboard.type('123');
  counts.typed_fields++;
  counts.keystrokes += 3;
  await tap(dice.getByRole('button', { name: 'Set the ACTION seat' }));
  // Every seat's cards on one form: open already when the last hand was
  // entered as cards; typed as a dealer types fastest, nothing between.
  await page.locator('#results-form').waitFor();
  const open = page.getByRole('link', { name: "Show every seat's cards" });
  if (await open.count()) await tap(open);
  const results = page.locator('#results-form');
  for (const seat of SEATS) {
    await type(results.locator(`#cards_${seat}`), cardsOf(seat, handNumber).replaceAll(' ', ''));
  }
  await tap(results.getByRole('button', { name: 'Record the results' }));
  await tap(page.getByRole('button', { name: 'Confirm all and close the hand' }));
  await page.locator('#closed').waitFor();
}

const FLOWS = { before: beforeHand, after: afterHand };
const hand = FLOWS[FLOW];
if (!hand) throw new Error(`FLOW must be one of ${Object.keys(FLOWS)}`);

try {
  await signIn();
  await newTable();
  for (const [i, name] of ['1: 8 wagers, cards for every seat', '2: the next hand, the same players'].entries()) {
    reset();
    await hand(i);
    console.log(JSON.stringify({ flow: FLOW, hand: name, ...counts }));
  }
} catch (e) {
  await page.screenshot({ path: '/tmp/measure-failure.png', fullPage: true });
  console.error(`measure: failed at ${page.url()}: ${e.message}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
