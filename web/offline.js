// Offline use: registers the page's service worker (sw.js, beside this module), which keeps a
// copy of the page's files so that the page works with no network after its first visit.

/**
 * Registers sw.js for this folder. Resolves to the registration, or to null where there is
 * no service worker: an old browser, a private window that refuses one, or a page served
 * over plain http from another machine (service workers need a secure context: https, or
 * http on localhost). Never rejects: the page plays the same without it.
 */
export async function registerOffline() {
  try {
    if (typeof navigator === "undefined" || !navigator.serviceWorker || globalThis.isSecureContext === false) {
      return null;
    }
    return await navigator.serviceWorker.register(new URL("sw.js", import.meta.url), {
      scope: new URL("./", import.meta.url).href,
    });
  } catch (e) {
    console.warn("chariot: no offline copy:", e);
    return null;
  }
}
