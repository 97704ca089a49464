export function put(el, m) {
  el.innerHTML = m;
}
