import './lazy.css'

export const load = async () => {
  await import('./eager.js')
  document.body.classList.add('loaded')
}
