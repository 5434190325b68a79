// pitbook's money keypad for every input marked data-keypad: big keys and
// the server's quick amounts (data-quick), the on-screen keyboard kept away
// (inputmode="none"); a real keyboard still types, and without this script
// the input is typed. Also: a seat's seen bettors (data-picks-for) and a new
// name typed stay one or the other. Attached on load and on `pitbook:page`.
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
    // Named "Keypad", its keys by what they type: the field keeps its label.
    const pad = document.createElement('div');
    pad.className = 'keypad';
    pad.setAttribute('role', 'group');
    pad.setAttribute('aria-label', 'Keypad');
    const quick = (input.dataset.quick || '').split(' ').filter(Boolean);
    if (quick.length) {
      // Apart from the digits: a quick amount replaces the amount.
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

  // A seat's sheet: a name tapped among those seen clears the new name
  // typed, and a name typed clears the tap (the form sends one bettor).
  function picks(set) {
    const input = document.getElementById(set.dataset.picksFor);
    if (!input || set.dataset.picksOn) return;
    set.dataset.picksOn = 'yes';
    set.addEventListener('change', () => (input.value = ''));
    input.addEventListener('input', () => set.querySelectorAll('input:checked').forEach((r) => (r.checked = false)));
  }

  const attach = () => {
    document.querySelectorAll('input[data-keypad]').forEach(keypad);
    document.querySelectorAll('[data-picks-for]').forEach(picks);
  };
  document.addEventListener('DOMContentLoaded', attach);
  document.addEventListener('pitbook:page', attach);
})();
