// Forms Oxc's minifier writes shorter than esbuild's (shorterforms.go): new Error(…) for the
// global error constructors, (x & N) !== 0 read only as a test, and arrays of strings. The
// flags come from the page, so that no minifier knows them.
export function shorterForms(flags) {
  const seen = [];
  const errors = [];
  for (const make of [
    () => new Error("plain", { cause: flags }),
    () => new TypeError("type"),
    () => new RangeError("range"),
    () => new AggregateError([1, 2], "aggregate"),
  ]) {
    try {
      throw make();
    } catch (e) {
      errors.push([e.constructor.name, e.message, e.cause ?? null, e.errors ?? null, Object.getPrototypeOf(e) === e.constructor.prototype]);
    }
  }
  seen.push(errors);
  // A class expression named Error: new Error() inside it is the class.
  const Own = class Error {
    constructor(m) { this.m = m; }
    static make() { return new Error("own"); }
  };
  seen.push(Own.make().m);
  const effect = { f: flags };
  if ((effect.f & 2048) !== 0) seen.push("destroyed");
  if ((effect.f & 4) === 0) seen.push("clean");
  (effect.f & 2) !== 0 && seen.push("dirty");
  seen.push((effect.f & 1) !== 0 ? "one" : "not one");
  seen.push((effect.f & 8) === 0 || (effect.f & 16) !== 0 ? "either" : "neither");
  let a = flags, n = 0;
  for (; (a & 2) !== 0; ) (a >>= 1), n++;
  seen.push(n);
  // Read as values, not tests: kept.
  seen.push((effect.f & 2) !== 0, (effect.f & 4) === 0);
  // Arrays of six or more strings, written "a.b.….f".split(".") (split(",") where a string
  // holds a dot).
  const days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
  const versions = ["v1.0", "v1.1", "v2.0", "v2.1", "v3.0", "v3.1"];
  seen.push(days[flags % 7], days.length, versions.indexOf("v2.1"));
  return seen;
}
