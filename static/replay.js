// The replay's keys (templates/double_hand_poker/replay.html): ← and →
// follow the Previous and Next links, Home and End the First and Last.
// The links work without this script; it only adds the keys, and leaves
// them alone while typing or with a modifier held.
(function () {
  'use strict';
  var keys = {
    ArrowLeft: 'replay-prev',
    ArrowRight: 'replay-next',
    Home: 'replay-first',
    End: 'replay-last'
  };
  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && target.closest && target.closest('input, textarea, select, [contenteditable]')) return;
    var id = keys[event.key];
    if (!id) return;
    var link = document.getElementById(id);
    if (!link || !link.href) return;
    event.preventDefault();
    window.location.assign(link.href);
  });
})();
