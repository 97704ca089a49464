// check.mjs: bundle's offline check, compiled to WebAssembly (bundle-check.wasm, built by
// scripts/build-wasm), run in Node's node:wasi (Node 20 or later).
//
//   import { check } from "./check.mjs";
//   const { code, report } = await check(pageBytes, { name: "page.html", single_file: true });
//   // code: 0 clean, 1 findings, 2 bad options, 3 the checker failed
//   // report: what `bundle check --format json` prints: { schema_version, clean, files, findings }
//   for (const f of report.findings) console.log(`${f.file}:${f.line}:${f.column}: ${f.message}\n  ${f.note}`);
//
// page is a Uint8Array (a Buffer) or a string (written as UTF-8); options are those of
// offline.Request: name, link_domains, single_file, allowed_domains, policy, file_sizes. The
// third argument may name the .wasm file ({ wasm: path }); by default it is the one beside
// this file. The module is compiled once per path; each call runs a fresh instance, with
// no file system and no network (the page goes in on standard input, through a private
// temporary file, as node:wasi takes only file descriptors).
import { WASI } from "node:wasi";
import { setFlagsFromString } from "node:v8";
import { readFileSync, openSync, closeSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// V8's fast API calls into node:wasi crash the process after some hundreds of instances
// (nodejs/node#53087; Node 20.20 here, about one run in two of TestWasmSameVerdicts): turn
// them off before anything is compiled. Calls become a little slower; nothing else changes.
setFlagsFromString("--no-turbo-fast-api-calls");

const modules = new Map();

function compile(path) {
  let m = modules.get(path);
  if (!m) {
    m = WebAssembly.compile(readFileSync(path));
    modules.set(path, m);
  }
  return m;
}

export async function check(page, options = {}, { wasm = fileURLToPath(new URL("./bundle-check.wasm", import.meta.url)) } = {}) {
  const module = await compile(wasm);
  const bytes = typeof page === "string" ? Buffer.from(page, "utf8") : Buffer.from(page.buffer, page.byteOffset, page.byteLength);
  const dir = mkdtempSync(join(tmpdir(), "bundle-check-"));
  try {
    const inPath = join(dir, "in"), outPath = join(dir, "out"), errPath = join(dir, "err");
    writeFileSync(inPath, Buffer.concat([Buffer.from(JSON.stringify(options) + "\n", "utf8"), bytes]));
    writeFileSync(outPath, "");
    writeFileSync(errPath, "");
    const fds = [openSync(inPath, "r"), openSync(outPath, "w"), openSync(errPath, "w")];
    let code;
    try {
      const wasi = new WASI({ version: "preview1", args: ["bundle-check"], env: {}, stdin: fds[0], stdout: fds[1], stderr: fds[2], returnOnExit: true });
      const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
      code = wasi.start(instance);
    } finally {
      fds.forEach((fd) => closeSync(fd));
    }
    const stdout = readFileSync(outPath, "utf8");
    const stderr = readFileSync(errPath, "utf8");
    if (code > 1) {
      const err = new Error(stderr.trim() || `bundle-check.wasm exited with ${code}`);
      err.code = code;
      throw err;
    }
    return { code, report: JSON.parse(stdout), stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
