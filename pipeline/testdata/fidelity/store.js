// A module that several module scripts import: the browser evaluates it once.
window.storeEvals = (window.storeEvals ?? 0) + 1;
export const log = [];
export const seen = new Set();
export function bump(who) {
  log.push(who + " " + document.readyState);
  // Read when the fingerprint is taken, at load: an async script has run by then.
  window.extra = { log, storeEvals: window.storeEvals, get seen() { return [...seen].sort(); } };
}
