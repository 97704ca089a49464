// As tsc writes o.p ??= v and o.p ||= v for ES2020: a var of its own holds o.
let first = 1;
var _a;
(_a = globalThis).__pageConfig ?? (_a.__pageConfig = { mode: "page" });
export function init(inst, def) {
  var _a, _b;
  inst._zod ??= {};
  (_a = inst._zod).def ?? (_a.def = def);
  (_b = inst._zod).checks || (_b.checks = []);
  inst._zod.checks.push(def.kind, first);
  return inst;
}
