// Stockroom console: live figures. A page marked data-live follows the
// change feed through Server-Sent Events (/console/live); on a change it
// reads its own address again and swaps in the fresh #live region, so the
// figures on screen are the server's, read through the API, never computed
// here. Without JavaScript every page still works; it just does not update.
(function () {
  "use strict";
  var url = document.body.getAttribute("data-live");
  if (!url || !window.EventSource || !document.getElementById("live")) return;
  var timer = null, busy = false, again = false;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) {
        if (r.redirected || !r.ok) { if (r.redirected) location.reload(); return null; }
        return r.text();
      })
      .then(function (html) {
        if (html === null) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
        var here = document.getElementById("live");
        if (fresh && here && fresh.innerHTML !== here.innerHTML) {
          here.innerHTML = fresh.innerHTML;
          document.body.setAttribute("data-refreshed", String(Date.now()));
        }
      })
      .catch(function () {})
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }
  var source = new EventSource(url);
  source.onmessage = function () {
    clearTimeout(timer);
    timer = setTimeout(refresh, 50);
  };
  source.addEventListener("signedout", function () { source.close(); location.reload(); });
  source.onopen = function () { document.body.setAttribute("data-live-state", "open"); };
})();
