// Dev checks under a flag nothing writes: folded to false, esbuild keeps if(0){…} for the
// vars its body declares, and with it the functions its tests call; the built page has the
// statement rewritten to the vars named elsewhere (falseifs.go), and those functions gone.
export let dev = false;
export function setDev(v) {
  dev = v;
}
function tooMany(items) {
  return items.length > 2 ? "dev check: many" : "";
}
function tooFew(items) {
  return items.length < 2 ? "dev check: few" : "";
}
export function count(items) {
  let total = 0;
  const late = () => typeof label;
  if (dev) {
    if (tooMany(items)) var label = "many";
    if (tooFew(items)) var other = "few";
  }
  for (const i of items) total += i;
  return [total, late(), typeof other];
}
