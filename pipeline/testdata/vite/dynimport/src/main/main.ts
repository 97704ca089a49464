const lang = "fr";
const loc = await import(`../locale/${lang}.json`);
const raw = await import(`../locale/${lang}.json?raw`);
const url = await import(`../locale/${lang}.json?url`);
// A name that is not there rejects the promise; it does not throw where import() is called.
let rejected = "";
let threw = false;
try {
  import(`../locale/${"zz"}.json?raw`).catch((e: Error) => (rejected = e.message));
} catch {
  threw = true;
}
const page = "about";
const mod = await import(
  /* a comment that holds ) */ `../pages/${page}.js`
);
const concat = await import("../pages/" + page + ".js");
const base = "hi";
const alias = await import(`@/${base}.js`);
const subpath = await import(`#alias/${base}.js`);
const { default: W } = await import(`../alias/${"work"}.js?worker`);
const worker: Worker = new W();
const said = await new Promise((r) => { worker.onmessage = (e) => r(e.data); worker.postMessage(1); });
await new Promise((r) => setTimeout(r));

(window as any).result = {
  loc: loc.default.hello,
  raw: raw.default.trim(),
  url: url.default.startsWith("data:application/json"),
  rejected,
  threw,
  mod: mod.default,
  concat: concat.default,
  alias: alias.default,
  subpath: subpath.default,
  said,
};
