// The Node side of nodetool: runs the app's own CSS tools (PostCSS and its plugins, Tailwind
// CSS v4's compiler, Sass), resolved from the app's node_modules, never installed or fetched.
// Requests arrive as JSON lines on stdin, answers leave as JSON lines on stdout:
//   {id, tool: "postcss", file, css, config}  → {id, css}
//   {id, tool: "tailwind", file, css, base, ignore: [dir…]} → {id, css}
//   {id, tool: "sass", file} → {id, css}
// A failure answers {id, error: {message, file?, line?, column?, missing?}}; `missing` names
// an npm package the app has not installed.
import { createRequire } from "node:module";
import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";

const cwd = process.cwd();

// load imports a package as the app's own code would: resolved from dir (the app folder).
async function load(name, dir = cwd) {
  let file;
  try {
    file = createRequire(path.join(dir, "_.js")).resolve(name);
  } catch {
    throw Object.assign(new Error(`${name} is not installed`), { missing: name });
  }
  const m = await import(pathToFileURL(file).href);
  return m.default ?? m;
}

async function postcss({ file, css, config }) {
  const post = await load("postcss");
  let cfg = (await import(pathToFileURL(config).href)).default;
  if (typeof cfg === "function") cfg = await cfg({ env: "production", file });
  const dir = path.dirname(config);
  let plugins = cfg?.plugins ?? [];
  if (!Array.isArray(plugins)) {
    // The object form: { "plugin-name": options } (options false turns one off).
    const list = [];
    for (const [name, opts] of Object.entries(plugins)) {
      if (opts === false) continue;
      const p = await load(name, dir);
      list.push(typeof p === "function" ? p(opts === true ? undefined : opts) : p);
    }
    plugins = list;
  }
  const out = await post(plugins.filter(Boolean)).process(css, { from: file, map: false, ...(cfg?.parser ? { parser: cfg.parser } : {}) });
  return { css: out.css };
}

async function tailwind({ file, css, base, ignore }) {
  const tw = await load("@tailwindcss/node", base);
  const { Scanner } = await load("@tailwindcss/oxide", base);
  const compiler = await tw.compile(css, { base: path.dirname(file), from: file, onDependency() {} });
  // The sources Tailwind scans for class names: the app folder (as @tailwindcss/postcss does
  // with its working directory), minus the build's own output.
  const root = compiler.root === "none" ? [] : compiler.root === null ? [{ base, pattern: "**/*", negated: false }] : [{ ...compiler.root, negated: false }];
  const sources = root.concat(compiler.sources, (ignore ?? []).map((dir) => ({ base: dir, pattern: "**/*", negated: true })));
  const candidates = new Scanner({ sources }).scan().sort();
  return { css: compiler.build(candidates) };
}

async function sass({ file }) {
  let s;
  try {
    s = await load("sass");
  } catch (e) {
    s = await load("sass-embedded").catch(() => Promise.reject(e));
  }
  return { css: s.compile(file, { style: "expanded" }).css };
}

const tools = { postcss, tailwind, sass };

function failure(e) {
  const err = { message: String(e?.reason ?? e?.message ?? e) };
  if (e?.missing) err.missing = e.missing;
  // PostCSS's CssSyntaxError, and Sass's exception with its span.
  if (e?.line) Object.assign(err, { file: e.file, line: e.line, column: e.column });
  const span = e?.span;
  if (span?.start) Object.assign(err, { file: span.url ? new URL(span.url).pathname : undefined, line: span.start.line + 1, column: span.start.column + 1, message: e.sassMessage ?? err.message });
  return err;
}

readline.createInterface({ input: process.stdin }).on("line", async (line) => {
  let req;
  try {
    req = JSON.parse(line);
    const out = await tools[req.tool](req);
    process.stdout.write(JSON.stringify({ id: req.id, ...out }) + "\n");
  } catch (e) {
    process.stdout.write(JSON.stringify({ id: req?.id, error: failure(e) }) + "\n");
  }
});
