// A signal made as Svelte's source() makes it, its dev branch under a flag nothing writes:
// folded, var signal = {…}; return signal is left, which the built page writes as
// return {…} (returnedvars.go).
export let tracing = false;
export function setTracing(v) {
  tracing = v;
}
export function source(v) {
  var signal = { f: 0, v, reactions: null };
  if (tracing) signal.created = new Error("tracing created");
  return signal;
}
