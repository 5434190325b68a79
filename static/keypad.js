// pitbook's money keypad: progressive enhancement of every input marked
// data-keypad (the PD's bank, a wager's amount). Big keys — 1 to 9, 0, 00,
// the point, ⌫ and Clear — and the quick amounts the server lists in
// data-quick (within the table's limits) put the amount in without the
// on-screen keyboard: the input gets inputmode="none" while the keypad is
// there, and a real keyboard still types. Without this script the input is
// typed as before. Attached when a page loads and each time enhance.js
// shows a new page in place (the `pitbook:page` event).
'use strict';

(() => {
  function key(input, text, label, press, cls) {
    const b = document.createElement('button');
    b.type = 'button';
    // The keyboard types the amount itself: Tab goes on to the form.
    b.tabIndex = -1;
    b.textContent = text;
    b.setAttribute('aria-label', label);
    if (cls) b.className = cls;
    b.addEventListener('click', () => {
      input.value = press(input.value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    return b;
  }

  function row(cls, keys) {
    const div = document.createElement('div');
    div.className = cls;
    div.append(...keys);
    return div;
  }

  function keypad(input) {
    if (input.dataset.keypadOn) return;
    input.dataset.keypadOn = 'yes';
    input.setAttribute('inputmode', 'none');
    // Named "Keypad" alone, its keys by what they type: the field's own
    // label stays the only one that names the field.
    const pad = document.createElement('div');
    pad.className = 'keypad';
    pad.setAttribute('role', 'group');
    pad.setAttribute('aria-label', 'Keypad');
    const quick = (input.dataset.quick || '').split(' ').filter(Boolean);
    if (quick.length) {
      // Set apart from the digits, which add to the amount: a quick amount
      // replaces it.
      const caption = document.createElement('p');
      caption.className = 'keypad-caption';
      caption.textContent = 'The whole amount in one tap:';
      pad.append(caption, row('keypad-quick', quick.map((q) => key(input, q, `${q} in one tap`, () => q, 'quick'))));
    }
    const typed = (s) => (v) => v + s;
    const digits = ['7', '8', '9', '4', '5', '6', '1', '2', '3', '00', '0', '.'];
    pad.append(
      row('keypad-keys', [
        ...digits.map((d) => key(input, d, d === '.' ? 'point' : d, typed(d))),
        key(input, '\u232B', 'remove the last digit', (v) => v.slice(0, -1), 'tool'),
        key(input, 'Clear', 'clear', () => '', 'tool'),
      ]),
    );
    input.insertAdjacentElement('afterend', pad);
  }

  const attach = () => document.querySelectorAll('input[data-keypad]').forEach(keypad);
  document.addEventListener('DOMContentLoaded', attach);
  document.addEventListener('pitbook:page', attach);
})();
