// Hydration helpers under a flag nothing writes (Svelte's get_first_child): folded, the
// hydrating branch is a return, and what follows it never runs; esbuild keeps the if after it
// for the var its body declares, and with it the functions that if calls. The built page has
// the statements after the return taken out (unreachable.go), and those functions gone.
export let hydrating = false;
export function setHydrating(v) {
  hydrating = v;
}
function mergeText(node) {
  node.textContent += " (hydration merged)";
}
export function firstChild(node, isText) {
  if (!hydrating) return node.firstChild;
  var child = node.firstChild;
  if (child === null) child = node.appendChild(document.createTextNode("hydration text"));
  else if (isText && child.nodeType !== 3) {
    var text = document.createTextNode("hydration text");
    child.before(text);
    mergeText(text);
    return text;
  }
  return child;
}
