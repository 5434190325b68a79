// The checks pages.mjs runs on every page, each a function of the page that
// returns what it found wrong (an empty list when nothing is).

/** Everything that must be at least 44 px high (or wide) but is not. */
export async function smallTargets(page, minTarget) {
  return page.evaluate((min) => {
    const small = [];
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && !el.closest('details:not([open]) > :not(summary)');
    };
    const describe = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.name ? `[name=${el.name}]` : ''} "${(el.textContent || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 30)}"`;
    const check = (el, what, needWidth = false) => {
      if (!visible(el)) return;
      const r = el.getBoundingClientRect();
      if (r.height < min - 0.5 || (needWidth && r.width < min - 0.5)) {
        small.push(`${what} ${describe(el)} is ${Math.round(r.width)}×${Math.round(r.height)} px`);
      }
    };
    document.querySelectorAll('button, select, a.button, summary, input:not([type=hidden]):not([type=checkbox]):not([type=radio])')
      .forEach((el) => check(el, 'target'));
    document.querySelectorAll('input[type=checkbox], input[type=radio]').forEach((el) => {
      const label = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`));
      // A box in a table cell is the cell's target (labelled by aria-label).
      check(label || el.closest('td') || el, 'box label');
    });
    document.querySelectorAll('svg a').forEach((el) => check(el, 'drawing link', true));
    return small;
  }, minTarget);
}

/** The navigation bar's links, and the labels of those marked current. */
export async function navigation(page) {
  return page.evaluate(() => {
    const links = [...document.querySelectorAll('header nav.sections a')];
    const current = links.filter((a) => a.getAttribute('aria-current') === 'page').map((a) => a.textContent.trim());
    return { links: links.length, current };
  });
}

/** Form controls named after a property of their form (`action`, `id`…). */
export async function shadowingControls(page) {
  return page.evaluate(() => {
    const blank = document.createElement('form');
    return [...document.querySelectorAll('form [name]')]
      .filter((control) => control.name in blank)
      .map((control) => `a control named "${control.name}" shadows its form's own property`);
  });
}


/** At a tablet's width: a word of a table's cell or header broken across
 * two lines ("Han|d", "2,000.|00"). Each word of each cell's text is
 * measured as a range: its boxes on more than one line is a break. */
export async function brokenWords(page) {
  return page.evaluate(() => {
    const broken = [];
    const root = document.querySelector('main');
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const cell = node.parentElement.closest('th, td');
      if (!cell || node.parentElement.closest('code, pre')) continue;
      for (const word of node.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom)));
        if (lines.size < 2) continue;
        // A double-barrelled name may wrap at its hyphen, as print does;
        // a code (FIT-CLOSED, TPPP-004217, house-way) never.
        const bottomOf = (i) => {
          range.setStart(node, word.index + i);
          range.setEnd(node, word.index + i + 1);
          return Math.round(range.getBoundingClientRect().bottom);
        };
        const first = bottomOf(0);
        let end = 1;
        while (end < word[0].length && bottomOf(end) === first) end++;
        const atHyphen = lines.size === 2 && /^[A-Z][a-z]+(-[A-Z][a-z]+)+\W*$/.test(word[0]) && word[0][end - 1] === '-';
        if (!atHyphen) broken.push(`"${word[0]}" breaks across ${lines.size} lines in ${cell.tagName.toLowerCase()} "${cell.textContent.trim().slice(0, 40)}"`);
      }
    }
    return broken.slice(0, 5);
  });
}

/** Money as a cashier reads it: every amount shown is `1,234.50` or
 * `−868.96` (never `2000.00`, `-868.96` or `$140`), no time is a raw
 * timestamp, and at a tablet's width (`aligned`) a cell holding only an
 * amount is right-aligned in tabular digits and never wrapped. */
export async function moneyProblems(page, aligned) {
  return page.evaluate((aligned) => {
    const problems = [];
    const skip = 'code, pre, textarea, script, style, .raw';
    const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    const bad = [
      [/(?<![\d,.\w:/#-])\d{4,}\.\d{2}(?![\d%])/, 'an amount without thousands separators'],
      [/(?<![\w.\-–—])-\d[\d,]*\.\d{2}\b/, 'a negative amount with "-", not "−"'],
      [/\$\d/, 'an amount with a dollar sign'],
      [/\d{4}-\d\d-\d\dT\d\d:\d\d/, 'a raw timestamp'],
    ];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest(skip)) continue;
      for (const [pattern, what] of bad) {
        const found = node.textContent.match(pattern);
        if (found) problems.push(`${what}: "${found[0]}" in "${node.textContent.trim().slice(0, 60)}"`);
      }
    }
    if (aligned) {
      const amount = /^[−-]?\d{1,3}(,\d{3})*\.\d{2}$/;
      for (const cell of document.querySelectorAll('main td, main tfoot th')) {
        if (!amount.test(cell.textContent.trim()) || cell.getBoundingClientRect().width === 0) continue;
        const style = getComputedStyle(cell);
        const right = ['right', 'end'].includes(style.textAlign);
        if (!right || !style.fontVariantNumeric.includes('tabular-nums') || style.whiteSpace !== 'nowrap') {
          problems.push(`amount cell "${cell.textContent.trim()}" is not right-aligned tabular nowrap (${style.textAlign}, ${style.fontVariantNumeric}, ${style.whiteSpace})`);
        }
      }
    }
    return [...new Set(problems)].slice(0, 6);
  }, aligned);
}
