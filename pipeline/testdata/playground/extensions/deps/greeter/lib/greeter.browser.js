import { render } from './render'
export function mount(sel, text) { render(document.querySelector(sel), text) }
