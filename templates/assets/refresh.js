// Pages that check again by themselves (a waiting polling step; kiosk pages that return to the start). A polling page
// asks its status address in the background at the server's interval and loads the next page only when the step has
// moved on, so the page (and a screen reader's place in it) stays put while nothing changes. Other pages go to their
// refresh address after the interval. Without JavaScript the page's <noscript> meta refresh does the same by reloading.
(() => {
  "use strict";
  const main = document.querySelector("main[data-refresh-url]");
  if (!main) return;
  const seconds = Math.min(60, Math.max(1, Number(main.dataset.refreshSeconds) || 2));
  const target = main.dataset.refreshUrl;
  const status = main.dataset.statusUrl;
  if (!status) {
    window.setTimeout(() => window.location.replace(target), seconds * 1000);
    return;
  }
  const check = async () => {
    try {
      const response = await fetch(status, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } });
      if (!response.ok) {
        window.location.replace(target); // let the page say what happened
        return;
      }
      const state = await response.json();
      if (state.changed) {
        window.location.replace("/");
        return;
      }
    } catch (error) {
      // A network hiccup: try again at the next interval.
    }
    window.setTimeout(check, seconds * 1000);
  };
  window.setTimeout(check, seconds * 1000);
})();
