// check.mjs: bundle's offline check, compiled to WebAssembly by scripts/build-wasm, run in
// Node's node:wasi (Node 20 or later).
//
//   import { check } from "./check.mjs";
//   const { code, report } = await check(pageBytes, { name: "page.html", single_file: true });
//   // code: 0 clean, 1 findings; bad options (2) and a failed checker (3) throw, err.code set
//   // report: what `bundle check --format json` prints: { schema_version, clean, files, findings }
//   for (const f of report.findings) console.log(`${f.file}:${f.line}:${f.column}: ${f.message}\n  ${f.note}`);
//
// page is a Uint8Array (a Buffer) or a string (written as UTF-8); options are those of
// offline.Request: name, link_domains, single_file, allowed_domains, policy, file_sizes. The
// third argument may name the module ({ wasm: path }); by default it is
// bundle-check-reactor.wasm beside this file. A reactor module (the build's
// -buildmode=c-shared) starts once and is called for each page; a command module
// (bundle-check.wasm, which any WASI runtime runs with the input on standard input) runs a
// fresh instance per page, its input through a private temporary file (node:wasi takes only
// file descriptors). Either has no file system and no network. Modules are compiled once
// per path.
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

const modules = new Map(); // path → Promise<WebAssembly.Module>
const reactors = new Map(); // path → Promise<exports>, dropped when an instance traps

function compile(path) {
  let m = modules.get(path);
  if (!m) {
    m = WebAssembly.compile(readFileSync(path));
    modules.set(path, m);
  }
  return m;
}

function input(page, options) {
  const bytes = typeof page === "string" ? Buffer.from(page, "utf8") : Buffer.from(page.buffer, page.byteOffset, page.byteLength);
  return Buffer.concat([Buffer.from(JSON.stringify(options) + "\n", "utf8"), bytes]);
}

function result(code, text) {
  if (code > 1) {
    const err = new Error(text.trim() || `bundle-check exited with ${code}`);
    err.code = code;
    throw err;
  }
  return { code, report: JSON.parse(text), stdout: text };
}

export async function check(page, options = {}, { wasm = fileURLToPath(new URL("./bundle-check-reactor.wasm", import.meta.url)) } = {}) {
  const module = await compile(wasm);
  const isReactor = WebAssembly.Module.exports(module).some((e) => e.name === "_initialize");
  return isReactor ? callReactor(wasm, module, input(page, options)) : runCommand(module, input(page, options));
}

async function callReactor(path, module, bytes) {
  let r = reactors.get(path);
  if (!r) {
    r = (async () => {
      const wasi = new WASI({ version: "preview1", args: ["bundle-check"], env: {}, returnOnExit: true });
      const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
      wasi.initialize(instance);
      return instance.exports;
    })();
    reactors.set(path, r);
  }
  const x = await r;
  try {
    const at = x.bundle_check_input(bytes.length);
    new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
    const code = x.bundle_check();
    const text = Buffer.from(new Uint8Array(x.memory.buffer, x.bundle_check_output(), x.bundle_check_output_len())).toString("utf8");
    return result(code, text);
  } catch (err) {
    if (err instanceof WebAssembly.RuntimeError) reactors.delete(path); // the instance is gone: start another next time
    throw err;
  }
}

async function runCommand(module, bytes) {
  const dir = mkdtempSync(join(tmpdir(), "bundle-check-"));
  try {
    const inPath = join(dir, "in"), outPath = join(dir, "out"), errPath = join(dir, "err");
    writeFileSync(inPath, bytes);
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
    return result(code, readFileSync(code > 1 ? errPath : outPath, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
