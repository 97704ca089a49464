// The page's three module scripts import it: the browser evaluates it once.
export function mark(name) {
  (window.order ||= []).push(name);
}
