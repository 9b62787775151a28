/* The page as an installable app: registers the service worker (/sw.js, tavli/web/pwa.py),
 * which keeps the static shell so the page opens without a network. */
"use strict";

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => { /* the page works without it */ });
}
