// The external-browser client operation, enhanced: the link opens the sign-in in a window of its own, and when that
// window comes back to this gateway (the return page, /external-browser/return) it hands over the resume code with
// postMessage; this page accepts it only from that window and from this gateway's own origin, fills the resume form
// and posts it as a person would. Without JavaScript the link and the form to paste the code work as they are.
(() => {
  "use strict";
  const link = document.querySelector("a[data-external-browser]");
  const form = document.querySelector("form[data-resume-form]");
  const field = form && form.querySelector("input[data-resume-field]");
  if (!link || !form || !field) return;
  let opened = null;

  link.addEventListener("click", (event) => {
    opened = window.open(link.href, "haapi-gateway-external-browser");
    // A blocked pop-up leaves the link to open as usual (in this tab), and the return page continues there.
    if (opened) event.preventDefault();
  });

  window.addEventListener("message", (event) => {
    if (opened === null || event.source !== opened || event.origin !== window.location.origin) return;
    const data = event.data;
    if (!data || data.type !== "haapi-gateway-resume" || typeof data.nonce !== "string") return;
    if (data.nonce.length === 0 || data.nonce.length > 512) return;
    opened = null; // one code, once
    field.value = data.nonce;
    form.submit();
  });
})();
