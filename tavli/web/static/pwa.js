/* The page as an installable app: registerServiceWorker registers the service worker
 * (/sw.js, tavli/web/pwa.py), which keeps the static shell so the page opens without a
 * network. Each page's entry module calls it. */

/** Register the service worker (where the browser has them). */
export function registerServiceWorker() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => { /* the page works without it */ });
  }
}
