// A class whose private method is called only where a flag nothing writes is true (Svelte's
// Batch, whose #commit runs where async_mode_flag is): the built page has the branch, the
// method and the function only the method called taken out (privatemethods.go).
export let asyncMode = false;
export function setAsyncMode(v) {
  asyncMode = v;
}
function commitLog(n) {
  return "committed " + n;
}
export class Batch {
  #count = 0;
  #commit(n) {
    return commitLog(n);
  }
  #step() {
    this.#count++;
    return this.#count;
  }
  run(n) {
    const seen = [];
    for (let i = 0; i < n; i++) seen.push(this.#step());
    if (asyncMode) seen.push(this.#commit(n));
    return seen;
  }
}
