// The card picker for inputs marked data-cards="N": rank and suit buttons
// (joker, ⌫, clear) append to the card input last focused; typing still
// works. Attached on load and on `pitbook:page`.
(function () {
  'use strict';
  function attach() {
    var inputs = document.querySelectorAll('input[data-cards]');
    if (!inputs.length) return;
    var form = inputs[0].form;
    if (!form) return;
    var target = inputs[0];
    var rank = '';
    var ranks = ['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3', '2'];
    var suits = [['s', '\u2660', 'spades'], ['h', '\u2665', 'hearts'], ['d', '\u2666', 'diamonds'], ['c', '\u2663', 'clubs']];

    var panel = document.createElement('div');
    panel.className = 'card-picker';
    panel.setAttribute('role', 'group');
    panel.setAttribute('aria-label', 'Card picker');
    var where = document.createElement('p');
    where.className = 'target';
    where.setAttribute('aria-live', 'polite');
    panel.appendChild(where);

    function button(text, label, onTap, cls) {
      var b = document.createElement('button');
      b.type = 'button';
      // For touch: a keyboard types the cards, so Tab goes on to the form.
      b.tabIndex = -1;
      b.textContent = text;
      b.setAttribute('aria-label', label);
      if (cls) b.className = cls;
      b.addEventListener('click', onTap);
      return b;
    }

    function cardsIn(input) {
      return input.value.split(/[\s,]+/).filter(function (t) { return t; });
    }

    function show() {
      var n = cardsIn(target).length;
      var want = target.getAttribute('data-cards');
      var name = target.getAttribute('aria-label') || (target.labels && target.labels[0] && target.labels[0].textContent) || 'cards';
      where.textContent = 'Adding to ' + name + ' — ' + n + ' of ' + want + ' cards' + (rank ? ', rank ' + rank + ': now its suit' : '');
      inputs.forEach(function (i) { i.classList.toggle('picking', i === target); });
    }

    function put(card) {
      var cards = cardsIn(target);
      cards.push(card);
      target.value = cards.join(' ');
      target.dispatchEvent(new Event('input', { bubbles: true }));
      rank = '';
      rankKeys.forEach(function (b) { b.setAttribute('aria-pressed', 'false'); });
      // A full input hands on (seven to the next seven, five to its two).
      var want = target.getAttribute('data-cards');
      if (cards.length >= Number(want)) {
        var list = Array.prototype.slice.call(inputs);
        var after = list.slice(list.indexOf(target) + 1);
        var next = want === '7'
          ? after.filter(function (i) { return i.getAttribute('data-cards') === '7' && !i.value; })[0]
          : want === '5' ? after.filter(function (i) { return !i.value; })[0] : null;
        if (next) target = next;
      }
      show();
    }

    var keys = document.createElement('div');
    keys.className = 'keys';
    var rankKeys = ranks.map(function (r) {
      var shown = r === 'T' ? '10' : r;
      var b = button(shown, 'rank ' + shown, function () {
        rank = rank === r ? '' : r;
        rankKeys.forEach(function (k) { k.setAttribute('aria-pressed', String(k === b && rank !== '')); });
        show();
      });
      b.setAttribute('aria-pressed', 'false');
      keys.appendChild(b);
      return b;
    });
    panel.appendChild(keys);
    var suitKeys = document.createElement('div');
    suitKeys.className = 'keys';
    suits.forEach(function (s) {
      suitKeys.appendChild(button(s[1] + ' ' + s[0], s[1] + ' ' + s[0] + ', ' + s[2], function () {
        if (rank) put(rank + s[0]);
        else where.textContent = 'Choose a rank first, then its suit.';
      }, s[0] === 'h' || s[0] === 'd' ? 'red' : ''));
    });
    suitKeys.appendChild(button('Joker', 'joker', function () { put('JK'); }));
    suitKeys.appendChild(button('\u232B', 'remove the last card', function () {
      var cards = cardsIn(target);
      cards.pop();
      target.value = cards.join(' ');
      show();
    }, 'tool'));
    suitKeys.appendChild(button('Clear', 'clear this input', function () {
      target.value = '';
      show();
    }, 'tool'));
    panel.appendChild(suitKeys);

    inputs.forEach(function (i) {
      i.addEventListener('focus', function () { target = i; show(); });
      i.addEventListener('input', show);
    });
    var submit = form.querySelector('button[type="submit"]');
    form.insertBefore(panel, submit);
    show();
  }
  document.addEventListener('DOMContentLoaded', attach);
  document.addEventListener('pitbook:page', attach);
})();
