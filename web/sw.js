// The page's service worker: it keeps a copy of every file the page needs, so that the page
// loads and plays with no network after its first visit (docs/web.md, "Install and
// offline").
//
// scripts/web.sh writes target/web/sw.js from this file, with FILES (the page's files, as
// it put them in target/web/) and VERSION (a hash of their contents) filled in: a build
// that changes any file changes this script, which is how browsers learn that there is a new
// version. The two lines below are those web.sh replaces (as they are here, the worker keeps
// nothing at install: web/ alone is not the site, which needs target/web/'s .wasm files).
const VERSION = "unbuilt";
const FILES = [];

// One cache per version, so that the page never mixes the files of two builds (a page.js of
// one with a chariot.wasm of the other): files are taken from the network only all together,
// at install, and the old version's cache is deleted once the new one is complete.
const PREFIX = "chariot-page-";
const CACHE = PREFIX + VERSION;

// The engine is built twice; the page loads the one with 128-bit SIMD where the browser has
// it (chariot.js, the same test), so the other, some 5 MB, is not kept. If it is ever asked
// for, it is fetched and kept like any file not in FILES.
const SIMD_TEST = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);
function unused() {
  let simd = false;
  try {
    simd = WebAssembly.validate(SIMD_TEST);
  } catch {
    // no WebAssembly here: keep both
    return null;
  }
  return simd ? "chariot.wasm" : "chariot-simd.wasm";
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const skip = unused();
      // "no-cache": the browser asks the server, which answers 304 for what the page has
      // just loaded (no second download) and the new file for what changed.
      const requests = FILES.filter((f) => f !== skip).map((f) => new Request(f, { cache: "no-cache" }));
      await cache.addAll(requests);
      // The new version serves the next load at once: it is complete, and the old one's
      // files are no longer on the server.
      await self.skipWaiting();
    })()
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
      }
      await self.clients.claim();
    })()
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  event.respondWith(answer(event, request, url));
});

// Cache first; what the cache lacks comes from the network and is kept for next time.
async function answer(event, request, url) {
  const cache = await caches.open(CACHE);
  // The page's address is its folder ("./", the manifest's start_url) or index.html, with
  // any query: both are the one index.html kept.
  const navigation = request.mode === "navigate";
  const key = navigation && url.pathname.endsWith("/") ? new URL("index.html", url).href : request;
  const kept = await cache.match(key, { ignoreSearch: navigation });
  if (kept) return kept;
  const response = await fetch(request);
  // Only whole, successful answers of this origin are kept (not a 404, not a Range's 206).
  if (response.status === 200 && response.type === "basic") {
    event.waitUntil(cache.put(request, response.clone()).catch(() => {}));
  }
  return response;
}
