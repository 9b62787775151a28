/* Tavli's service worker (served as /sw.js by tavli/web/pwa.py, which fills in the cache's
 * version and the list of the static shell): the page opens without a network, against
 * a server on this machine or from the cache when it is not running.
 *
 * Only the shell is kept: the pages, scripts, styles, icons, the manifest and the rules
 * pages once read. Every request is tried on the network first (so an updated page
 * is used at once) and the cache answers only when the network fails. Never cached:
 * the API (/api/...: games, states, the catalogue, which may carry an access token),
 * WebSockets (/ws/...; they do not pass through a service worker anyway), writes and
 * other sites. The page is cached as "/" without its ?token=.
 */
"use strict";

const PREFIX = "tavli-shell-";
const CACHE = PREFIX + "__VERSION__";
const SHELL = __SHELL__;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE)
      .map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

/** May the answer to `request` be kept? Same-site GETs of the shell only. */
function cacheable(request) {
  const url = new URL(request.url);
  return request.method === "GET" && url.origin === self.location.origin &&
    !url.pathname.startsWith("/api/") && !url.pathname.startsWith("/ws/") &&
    url.pathname !== "/sw.js";
}

async function networkFirst(request) {
  const url = new URL(request.url);
  const key = url.pathname === "/" ? "/" : request;   // never a ?token= in the cache
  try {
    const answer = await fetch(request);
    if (answer.ok && answer.type === "basic") {
      const cache = await caches.open(CACHE);
      await cache.put(key, answer.clone());
    }
    return answer;
  } catch (err) {
    const kept = await caches.match(key);
    if (kept) return kept;
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  if (!cacheable(event.request)) return;   // the API, writes, other sites: the network only
  event.respondWith(networkFirst(event.request));
});
