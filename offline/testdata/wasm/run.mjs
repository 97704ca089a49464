// Runs the cases of offline's TestWasmSameVerdicts through check.mjs, the documented call.
//   node run.mjs DIR/check.mjs MODULE.wasm CASES.json OUT.json
// CASES.json: [{ options, page (base64) }]; OUT.json: [{ code, stdout, error }].
// With BENCH=N, runs the first case N times after one warm-up and prints
// {"ms_per_check": …} (each a fresh instance, the module compiled once).
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [wrapper, wasm, casesPath, outPath] = process.argv.slice(2);
const { check } = await import(pathToFileURL(wrapper).href);
const cases = JSON.parse(readFileSync(casesPath, "utf8"));
const bench = Number(process.env.BENCH || 0);
if (bench > 0) {
  const page = Buffer.from(cases[0].page, "base64");
  await check(page, cases[0].options, { wasm });
  const t0 = performance.now();
  for (let i = 0; i < bench; i++) await check(page, cases[0].options, { wasm });
  writeFileSync(outPath, JSON.stringify({ ms_per_check: (performance.now() - t0) / bench }));
} else {
  const out = [];
  for (const c of cases) {
    try {
      const r = await check(Buffer.from(c.page, "base64"), c.options, { wasm });
      out.push({ code: r.code, stdout: r.stdout });
    } catch (err) {
      out.push({ code: err.code ?? -1, error: String(err.message) });
    }
  }
  writeFileSync(outPath, JSON.stringify(out));
}
