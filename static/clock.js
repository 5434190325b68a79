// The run's clock (templates/training/run.html): the time so far counts
// up and a speed drill's time left counts down, from what the server
// rendered; at zero the page reloads to show the run's end (the server
// refuses a late answer whatever this script does). Without it the page
// shows the times as of its rendering.
(function () {
  'use strict';
  var loaded = Date.now();
  var up = document.querySelector('[data-elapsed-ms][data-running]');
  var down = document.querySelector('[data-left-ms]');
  if (!up && !down) return;
  var tenths = function (ms) {
    var t = Math.floor(Math.max(ms, 0) / 100);
    return Math.floor(t / 10) + '.' + (t % 10) + ' s';
  };
  var reloaded = false;
  var tick = function () {
    var passed = Date.now() - loaded;
    if (up) up.textContent = tenths(Number(up.dataset.elapsedMs) + passed);
    if (down) {
      var left = Number(down.dataset.leftMs) - passed;
      down.textContent = Math.ceil(Math.max(left, 0) / 1000) + ' s';
      if (left <= 0 && !reloaded) {
        reloaded = true;
        window.setTimeout(function () { window.location.reload(); }, 400);
      }
    }
  };
  tick();
  window.setInterval(tick, 200);
})();
