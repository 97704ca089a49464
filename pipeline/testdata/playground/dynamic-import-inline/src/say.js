export function say(sel, text) {
  document.querySelector(sel).textContent = text
}
