// The clocks. A training run's (templates/training/run.html): the time so
// far up and a speed drill's time left down, from what the server
// rendered; at zero the page reloads (the server refuses a late answer
// anyway). Without it the times are as rendered. Started on load and on
// enhance.js's `pitbook:page`. The floor's refresh, which its user may stop.
(function () {
  'use strict';
  var timer = null;
  var tenths = function (ms) {
    var t = Math.floor(Math.max(ms, 0) / 100);
    return Math.floor(t / 10) + '.' + (t % 10) + ' s';
  };
  var start = function () {
    if (timer !== null) window.clearInterval(timer);
    timer = null;
    var up = document.querySelector('[data-elapsed-ms][data-running]');
    var down = document.querySelector('[data-left-ms]');
    if (!up && !down) return;
    var shown = Date.now();
    var reloaded = false;
    var tick = function () {
      var passed = Date.now() - shown;
      if (up) up.textContent = tenths(Number(up.dataset.elapsedMs) + passed);
      if (!down) return;
      var left = Number(down.dataset.leftMs) - passed;
      down.textContent = Math.ceil(Math.max(left, 0) / 1000) + ' s';
      if (left <= 0 && !reloaded) {
        reloaded = true;
        window.setTimeout(function () { window.location.reload(); }, 400);
      }
    };
    tick();
    timer = window.setInterval(tick, 200);
  };
  document.addEventListener('DOMContentLoaded', start);
  document.addEventListener('pitbook:page', start);
  // The floor: again every 20 s while ticked.
  window.setInterval(function () {
    var box = document.getElementById('auto-refresh');
    if (box && box.checked) window.location.reload();
  }, 20000);
  document.addEventListener('DOMContentLoaded', function () {
    var auto = document.getElementById('auto');
    if (auto) auto.hidden = false;
  });
})();
