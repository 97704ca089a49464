import { mark } from './shared.js';
mark('b');
const p = getComputedStyle(document.getElementById('p'));
window.result = {
  order: window.order,
  color: p.color,
  margin: p.marginLeft,
  weight: p.fontWeight,
  background: getComputedStyle(document.body).backgroundColor,
};
