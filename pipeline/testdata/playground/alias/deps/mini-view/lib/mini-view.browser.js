export const tag = 'browser'
export function mount(sel, text) {
  document.querySelector(sel).textContent = text
}
