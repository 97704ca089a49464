export function render(el, text) { el.textContent = text }
