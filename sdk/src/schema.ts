// Arguments checked against a tool's inputSchema before execute runs. The subset of JSON Schema
// (draft 2020-12) it reads: type (a name or a list: object, array, string, number, integer,
// boolean, null), enum, const, minimum, maximum, exclusiveMinimum, exclusiveMaximum,
// minLength, maxLength (in code points), minItems, maxItems, items (one schema), required,
// properties, additionalProperties (false or a schema). Every other keyword is ignored, never
// guessed at.

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const obj = (v: any) => !!v && typeof v === "object" && !Array.isArray(v);
const num = (v: any) => typeof v === "number";
const str = (v: any) => typeof v === "string";

function is(type: unknown, v: any): boolean {
  return type === "integer" ? Number.isInteger(v) : type === "number" ? num(v) && isFinite(v) : type === "array" ? Array.isArray(v) : type === "object" ? obj(v) : type === "null" ? v === null : typeof v === type;
}

/** The keywords checked on one value: each returns true when v breaks it. */
const rules: [string, (v: any, b: any) => boolean][] = [
  ["type", (v, t) => ![].concat(t).some((x) => is(x, v))],
  ["enum", (v, e) => Array.isArray(e) && !e.some((x) => same(x, v))],
  ["const", (v, c) => !same(c, v)],
  ["minimum", (v, b) => num(v) && v < b],
  ["maximum", (v, b) => num(v) && v > b],
  ["exclusiveMinimum", (v, b) => num(v) && v <= b],
  ["exclusiveMaximum", (v, b) => num(v) && v >= b],
  ["minLength", (v, b) => str(v) && [...v].length < b],
  ["maxLength", (v, b) => str(v) && [...v].length > b],
  ["minItems", (v, b) => Array.isArray(v) && v.length < b],
  ["maxItems", (v, b) => Array.isArray(v) && v.length > b],
  ["required", (v, r) => obj(v) && Array.isArray(r) && r.some((k) => !own(v, k))],
];

/**
 * check returns the first way v breaks schema s, as "path: keyword value" (for example
 * `arguments.qty: minimum 1`), or "" when it fits.
 */
export function check(s: any, v: any, path: string): string {
  if (!obj(s)) return "";
  for (const [k, bad] of rules) if (own(s, k) && bad(v, s[k])) return `${path}: ${k} ${JSON.stringify(s[k])}`;
  let e = "";
  if (Array.isArray(v)) v.some((x, i) => (e = check(s.items, x, `${path}[${i}]`)));
  else if (obj(v)) {
    const props = obj(s.properties) ? s.properties : {};
    Object.keys(v).some((k) => {
      const sub = own(props, k) ? props[k] : s.additionalProperties;
      return (e = sub === false ? `${path}: property "${k}" is not allowed` : check(sub, v[k], path + "." + k));
    });
  }
  return e;
}
