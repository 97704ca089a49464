// A flag only setVerbose writes, which the page never calls: the unwritten bindings' pass
// (unwritten.go) writes it as its value and has esbuild minify the module again.
export let verbose = false;
export function setVerbose(v) {
  verbose = v;
}
