const eager = import.meta.glob("./modules/*.ts", { eager: true, import: "default" });
const lazy = import.meta.glob(["./modules/*.ts", "!./modules/*.test.ts"]);
const raw = import.meta.glob<string>("./modules/a.ts", { eager: true, query: "?raw", import: "default" });
const upper = import.meta.glob("./modules/*.ts", { import: "upper" });
const lazyKeys = Object.keys(lazy);
const loaded = await Promise.all(lazyKeys.map((k) => lazy[k]().then((m: any) => m.default)));
(window as any).result = {
  eager: eager,
  lazyKeys,
  loaded,
  raw: Object.values(raw)[0].trim(),
  upper: await upper["./modules/b.ts"](),
};
