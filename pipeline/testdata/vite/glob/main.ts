// Each form import.meta.glob takes in Vite; layout and comments must not change a thing.
const keysOf = async (mods: Record<string, () => Promise<any>>) => {
  const out: Record<string, string[]> = {};
  for (const [k, load] of Object.entries(mods)) out[k] = Object.keys(await load());
  return out;
};

const all = import.meta.glob(
  "/dir/**",
  // a comment that holds )
  /* and another ) */
);

const eager = import.meta.glob<string>('/dir/*.js', {
  eager: true,
  import: 'default', // trailing comma, Prettier's default
});

const nodeModules = import.meta.glob("/dir/node_modules/**", { eager: true, import: "default" });
const exhaustive = Object.keys(import.meta.glob("./dir/**/*.js", { exhaustive: true }));
const raw = import.meta.glob("./dir/*.json", { query: "?raw", import: "default", eager: true });
const inlineCSS = import.meta.glob("./dir/foo.css", { query: { inline: true }, eager: true, import: "default" });
const legacyAs = import.meta.glob("./dir/*.json", { as: "raw", eager: true });
const base = import.meta.glob("./*.json", { base: "./dir", eager: true, import: "default" });
const alias = import.meta.glob(["@dir/*.js", "!@dir/alias.js"], { eager: true, import: "default" });
const subpath = import.meta.glob("#imports/*", { eager: true, import: "default" });
const escaped = import.meta.glob("/escape/**/glob.js", { eager: true, import: "default" });
const literalParen = Object.keys(import.meta.glob("/escape/\\(paren\\)/*.js"));
const caseSensitive = Object.keys(import.meta.glob("./case/data-*.js"));
const caseInsensitive = Object.keys(import.meta.glob("./case/data-*.js", { caseSensitive: false }));
const values = Object.values(import.meta.glob(["./array/*.js", "!./array/excluded.js"], { eager: true, import: "default" }));
const linked = import.meta.glob("./follow/linked/*/components/*.js", { eager: true, import: "default" });
const pkg = Object.keys(import.meta.glob("glob-pkg/pages/*.js"));
const self = Object.keys(import.meta.glob("./*.ts"));
const nested = import.meta.glob("./dir/nested/bar.js", { eager: true, import: "json" });

const neverInvoke = () => { (window as any).asi = "broken"; };
const notInvocation = neverInvoke
import.meta.glob("./side/*.js", { eager: true })

;(window as any).result = {
  all: await keysOf(all),
  eager,
  nodeModules,
  exhaustive,
  raw: Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, JSON.parse(v as string)])),
  inlineCSS: Object.values(inlineCSS)[0],
  legacyAs: typeof Object.values(legacyAs)[0],
  base,
  alias,
  subpath,
  escaped,
  literalParen,
  caseSensitive,
  caseInsensitive,
  values,
  linked,
  pkg,
  self,
  nested,
  side: (window as any).sideEffect,
  asi: (window as any).asi ?? "kept",
  inline: (window as any).inline,
  unused: typeof notInvocation,
};
