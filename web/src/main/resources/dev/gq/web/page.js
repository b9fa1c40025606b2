// gq web: the page is whole without this script; it only keeps the sections live.
// Each "section" event carries the section's name on its first line and its HTML, rendered and
// escaped by the daemon, on the rest; each "log" event carries new lines of the job's log as text.
(function () {
  'use strict';
  var url = document.body.getAttribute('data-events');
  var status = document.getElementById('live');
  if (!url || !window.EventSource) return;
  function say(text) { if (status) status.textContent = text; }
  function stamp() { return new Date().toLocaleTimeString(); }
  var events = new EventSource(url);
  events.onopen = function () { say('Live, updated ' + stamp()); };
  events.onerror = function () { say('Not live: the daemon does not answer; trying again.'); };
  events.addEventListener('section', function (e) {
    var nl = e.data.indexOf('\n');
    var name = e.data.slice(0, nl);
    var target = document.querySelector('[data-live="' + name + '"]');
    if (target) target.innerHTML = e.data.slice(nl + 1);
    say('Live, updated ' + stamp());
  });
  events.addEventListener('log', function (e) {
    var log = document.getElementById('log');
    if (!log) return;
    var follow = window.innerHeight + window.scrollY >= document.body.scrollHeight - 8;
    log.appendChild(document.createTextNode(e.data));
    if (follow) window.scrollTo(0, document.body.scrollHeight);
    say('Live, updated ' + stamp());
  });
})();
