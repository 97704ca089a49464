// Runs modules for the tests (package testnode), one after another, each as `node module.mjs`
// (or `node script.cjs`, a CommonJS module) runs it, in a realm of its own: a fresh vm context (its own global
// object and built-ins) holding Node's globals a script reads (console, timers, URL, …), the
// module's node: imports linked to Node's own modules. A module is done, as a process is,
// when its evaluation has settled and no timer or immediate it set is left; an exception it
// did not catch or a promise rejection it did not handle ends it at once, its timers cleared,
// as they end the process.
//
// Each line of stdin is a request, JSON: {"code": the module's text, "commonjs": true for a
// CommonJS module}; each line of stdout is the answer,
// JSON: {"out": what console.log printed, "threw": true when the process would have exited
// with an error, "err": util.inspect of what was thrown, whose "Error: …" line the test reads
// as it read node's stderr, "harness": what the runner cannot run, when set}.
// Run with --experimental-vm-modules (vm.SourceTextModule).
import * as vm from "node:vm";
import * as util from "node:util";
import { builtinModules, createRequire } from "node:module";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";

// What a module's global object holds of Node's, beyond the ECMAScript built-ins each context
// has of its own.
const nodeGlobals = ["URL", "URLSearchParams", "TextEncoder", "TextDecoder", "atob", "btoa", "structuredClone"];

const nodeRequire = createRequire(import.meta.url);
let current = null; // the run in progress

// An exception no code caught (in a timer, a microtask) or a rejection no code handled ends
// the run in progress, as it ends the node process.
process.on("uncaughtException", (e) => current ? current.fail(e) : fatal(e));
process.on("unhandledRejection", (e) => current ? current.fail(e) : fatal(e));

// Harness is what the runner cannot run as node would.
class Harness extends Error {}

function fatal(e) {
  process.stderr.write("testnode: " + util.inspect(e) + "\n");
  process.exit(3);
}

function run({ code, commonjs }) {
  return new Promise((resolve) => {
    let out = "";
    const timers = new Map(); // every timer and immediate the module set and that is pending
    let settled = false, ended = false;
    let loading = 0; // imports of Node's modules under way (each a promise of Node's loader)
    const end = (answer) => {
      if (ended) return;
      ended = true;
      for (const [t, clear] of timers) clear(t);
      timers.clear();
      current = null;
      resolve({ out, ...answer });
    };
    const self = {
      fail(e) {
        end(e instanceof Harness ? { threw: true, harness: e.message } : isMissingGlobal(e) ?? { threw: true, err: util.inspect(e) });
      },
    };
    current = self;
    // done ends the run once the module's evaluation settled and nothing it set is pending,
    // seen after the microtasks of the last callback and one turn of the event loop.
    const done = () => setImmediate(() => {
      if (!ended && timers.size === 0 && loading === 0) {
        end(settled ? { threw: false } : { threw: true, err: "Warning: Detected unsettled top-level await" });
      }
    });
    const wrap = (set, clear) => (fn, ...args) => {
      const t = set((...a) => {
        timers.delete(t);
        if (ended) return;
        try {
          if (typeof fn === "function") fn(...a);
        } catch (e) {
          self.fail(e);
          return;
        }
        done();
      }, ...args);
      timers.set(t, clear);
      return t;
    };
    const interval = (fn, ms, ...args) => {
      const t = setInterval((...a) => {
        if (ended) return;
        try {
          fn(...a);
        } catch (e) {
          self.fail(e);
        }
      }, ms, ...args);
      timers.set(t, clearInterval);
      return t;
    };
    const clearer = (clear) => (t) => {
      timers.delete(t);
      clear(t);
      done();
    };
    // console.log's text, taken as it is written (a Writable whose write is done at once).
    const sink = new Writable({ decodeStrings: false, write(s, _, next) { out += s; next(); } });
    const discard = new Writable({ write(_, __, next) { next(); } });
    const sandbox = {
      console: new console.Console({ stdout: sink, stderr: discard }),
      setTimeout: wrap(setTimeout, clearTimeout),
      setImmediate: wrap(setImmediate, clearImmediate),
      setInterval: interval,
      clearTimeout: clearer(clearTimeout),
      clearImmediate: clearer(clearImmediate),
      clearInterval: clearer(clearInterval),
      queueMicrotask: (fn) => queueMicrotask(() => { if (!ended) fn(); }),
    };
    for (const name of nodeGlobals) sandbox[name] = globalThis[name];
    const context = vm.createContext(sandbox);
    // link gives an import what node's loader gives it: Node's own module, or a module of a
    // data: URL (its text as fetch reads the URL), once for the run however often imported.
    const modules = new Map();
    const link = (specifier) => {
      if (!modules.has(specifier)) modules.set(specifier, load(specifier));
      return modules.get(specifier);
    };
    const load = async (specifier) => {
      if (specifier.startsWith("data:")) {
        // node's loader (lib/internal/modules/esm/load.js, get_format.js): the URL's path, not
        // its query (a "?" ends the text), percent-decoded, base64 or UTF-8.
        const match = /^([^/]+\/[^,;]+)(?:[^,]*?)(;base64)?,([\s\S]*)$/.exec(new URL(specifier).pathname);
        if (!match || !/^(text|application)\/javascript$/.test(match[1])) {
          throw new Harness(`testnode imports data: URLs of JavaScript only, not ${specifier}`);
        }
        const text = Buffer.from(decodeURIComponent(match[3]), match[2] ? "base64" : "utf8").toString("utf8");
        return new vm.SourceTextModule(text, { context, identifier: specifier, importModuleDynamically });
      }
      const name = specifier.startsWith("node:") ? specifier.slice(5) : specifier;
      if (!builtinModules.includes(name)) {
        throw new Harness(`testnode links Node's own modules and data: URLs only, not ${specifier}: a module of a file would be another test's`);
      }
      const ns = await import("node:" + name);
      const names = Object.keys(ns);
      return new vm.SyntheticModule(names, function () {
        for (const n of names) this.setExport(n, ns[n]);
      }, { context });
    };
    const importModuleDynamically = async (specifier) => {
      loading++;
      try {
        const m = await link(specifier);
        if (m.status === "unlinked") await m.link(link);
        await m.evaluate();
        return m;
      } finally {
        loading--;
        done();
      }
    };
    if (commonjs) {
      // Node's CommonJS loader: the text as the body of a function of exports, require,
      // module, __filename and __dirname (sloppy unless it says "use strict"), called with
      // module.exports as this.
      let body;
      try {
        body = vm.compileFunction(code, ["exports", "require", "module", "__filename", "__dirname"], { parsingContext: context, filename: "/script.cjs" });
      } catch (e) {
        self.fail(e);
        return;
      }
      const module = { exports: {} };
      const require = (specifier) => {
        const name = specifier.startsWith("node:") ? specifier.slice(5) : specifier;
        if (!builtinModules.includes(name)) {
          throw new Harness(`testnode requires Node's own modules only, not ${specifier}`);
        }
        return nodeRequire("node:" + name);
      };
      try {
        body.call(module.exports, module.exports, require, module, "/script.cjs", "/");
      } catch (e) {
        self.fail(e);
        return;
      }
      settled = true;
      done();
      return;
    }
    let mod;
    try {
      mod = new vm.SourceTextModule(code, { context, identifier: "file:///module.mjs", importModuleDynamically });
    } catch (e) {
      self.fail(e); // a SyntaxError, as node gives it before running anything
      return;
    }
    loading++;
    mod.link(link)
      .then(() => {
        loading--;
        const evaluated = mod.evaluate();
        // An evaluation that never settles, with nothing pending, is node's unsettled
        // top-level await: done says so once the event loop has turned.
        done();
        return evaluated;
      })
      .then(() => {
        settled = true;
        done();
      }, (e) => self.fail(e));
  });
}

// isMissingGlobal answers a ReferenceError for a global Node has and this runner does not give
// a module, which would otherwise pass for the module's own error.
function isMissingGlobal(e) {
  const m = e instanceof Error || (e && typeof e.message === "string") ? /^(\S+) is not defined$/.exec(e.message) : null;
  if (e?.name !== "ReferenceError" || !m || !(m[1] in globalThis)) return null;
  return { threw: true, harness: `the module reads Node's global ${m[1]}, which the runner (internal/testnode/runner.mjs) does not give a module: add it to nodeGlobals` };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  const answer = await run(JSON.parse(line));
  process.stdout.write(JSON.stringify(answer) + "\n");
}
