import workerURL from "./inner.ts?worker&url";
const ask = (w: Worker, msg: unknown) =>
  new Promise<string>((resolve, reject) => {
    w.onmessage = (e) => resolve(e.data);
    w.onerror = (e) => reject(e.message);
    w.postMessage(msg);
  });
const self3 = await ask(new Worker(new URL("./self.ts", import.meta.url)), 3);
const nested = await ask(new Worker(new URL("./outer.ts", import.meta.url), { type: "module" }), "go");
const classic = await ask(
  new Worker(
    new URL("./inner.ts", import.meta.url),
    // a comment that holds )
  ),
  "go",
);
const module = await ask(new Worker(new URL("./module.ts", import.meta.url), { type: "module", name: "m" }), "go");
const byURL = await ask(new Worker(workerURL), "go");
(window as any).result = { self3, nested, classic, module, byURL };
