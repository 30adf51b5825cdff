// The return page of an external browser opened by the sign-in page: hands the resume code to that page (only to a
// window of this gateway's own origin) and closes. Without an opener, or without JavaScript, the page's form continues
// the sign-in here.
(() => {
  "use strict";
  const marker = document.querySelector("[data-resume-nonce]");
  if (!marker || !window.opener) return;
  try {
    window.opener.postMessage({ type: "haapi-gateway-resume", nonce: marker.dataset.resumeNonce }, window.location.origin);
  } catch (error) {
    return; // the opener is gone or elsewhere: continue here
  }
  const sent = document.querySelector("[data-resume-sent]");
  if (sent) sent.hidden = false;
  for (const form of document.querySelectorAll("form")) form.hidden = true;
  window.close();
})();
