package pipeline

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
)

// fixtureText is a fixture file's text.
func fixtureText(pg, name string) string {
	b, err := os.ReadFile(filepath.Join(playgroundRoot, pg, filepath.FromSlash(name)))
	if err != nil {
		panic(err)
	}
	return string(b)
}

// compactJSON is JSON.stringify(JSON.parse(file)).
func compactJSON(pg, name string) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(fixtureText(pg, name))); err != nil {
		panic(err)
	}
	return buf.String()
}

// Why bundle's page cannot pass a check, by design.
const (
	besideThePage     = "the page loads a file kept beside it at run time (a URL the build cannot know, /* @vite-ignore */): a bundle is one file with nothing beside it"
	onlyHashedScripts = "the page runs code from a blob: or data: URL it makes at run time: the policy runs only the page's own scripts, by hash"
	workerURL         = "the worker's URL names its file beside the page; a bundle's worker starts from a blob: URL"
	customResolver    = "an alias's customResolver is a function of the config, a resolver plugin, which bundle does not run (the build warns, naming it)"
	pluginNotRun      = "a plugin of the config does it, and bundle runs no plugin (the build warns, naming it)"
)

// globAll is what import.meta.glob('/dir/**') gives in glob-import, eager or not.
const globAll = `{
  "/dir/alias.js": {"default": "hi"},
  "/dir/baz.json": {"msg": "baz", "default": {"msg": "baz"}},
  "/dir/foo.css": {},
  "/dir/foo.js": {"msg": "foo"},
  "/dir/index.js": {
    "modules": {"./alias.js": {"default": "hi"}, "./foo.js": {"msg": "foo"}, "./quote'.js": {"msg": "single-quote"}},
    "globWithAlias": {"/dir/alias.js": {"default": "hi"}}
  },
  "/dir/nested/bar.js": {"modules": {"../baz.json": {"msg": "baz", "default": {"msg": "baz"}}}, "msg": "bar"},
  "/dir/quote'.js": {"msg": "single-quote"}
}`

// playgrounds are the ported playgrounds, in the order.
var playgrounds = []playground{
	{name: "alias", checks: []check{
		tMatch("fs", ".fs", "\\[success\\] alias to fs path"),
		tMatch("fs directory", ".fs-dir", "\\[success\\] alias to directory"),
		tMatch("regex", ".regex", "\\[success\\] alias to directory via regex"),
		tMatch("dependency", ".dep", "\\[success\\]"),
		tMatch("js via script src", ".from-script-src", "\\[success\\] from script src"),
		tColor("css via link", "body", "grey"),
		tMatch("optimized dep", ".optimized", "\\[success\\] alias optimized"),
		tMatch("aliased module", ".aliased-module", "\\[success\\] aliased module"),
		tMatch("url conflict alias", ".url-conflict", "\\[success\\] url conflict alias"),
		tMatch("custom resolver", ".custom-resolver", "\\[success\\] alias to custom-resolver path").byDesignBecause(customResolver),
	}},
	{name: "resolve-tsconfig-paths", checks: []check{
		tMatch("import from .ts", ".ts", "\\[success\\]"),
		tMatch("import from .js", ".js", "\\[success\\]"),
		tMatch("import using # prefixed path", ".hash", "\\[success\\]"),
		tMatch("fallback works", ".fallback", "\\[success\\]"),
		tMatch("nested tsconfig.json & references / include works", ".nested-a", "\\[success\\] a"),
		tMatch("nested tsconfig.json & references / include works", ".nested-b", "\\[success\\] b"),
		tText("import.meta.glob resolves tsconfig paths", ".glob-eager", "[success] glob-a [success] glob-b"),
		tColor("css @import resolves tsconfig paths", ".paths-css", "darkcyan"),
		tColor("sass @use resolves tsconfig paths", ".paths-scss", "seagreen"),
		tColor("less @import does not resolve tsconfig paths (unsupported)", ".paths-less", "navy"),
	}},
	{name: "tsconfig-json", checks: []check{
		tJS("should respected each `tsconfig.json`s compilerOptions", `__pg.logs().includes("main side effect")`, "true"),
		tJS("should respected each `tsconfig.json`s compilerOptions", `__pg.logs().includes("data setter in MainBase")`, "false"),
		tJS("should respected each `tsconfig.json`s compilerOptions", `__pg.logs().includes("inner side effect")`, "false"),
		tJS("should respected each `tsconfig.json`s compilerOptions", `__pg.logs().includes("data setter in InnerBase")`, "true"),
		tJS("should respected each `tsconfig.json`s compilerOptions", `__pg.logs().includes("inner-extends side effect")`, "true"),
		tJS("should respected each `tsconfig.json`s compilerOptions", `__pg.logs().includes("data setter in InnerExtendsBase")`, "true"),
	}, skipped: []string{
		"transformWithEsbuild (4): Vite's API, not a page",
	}},
	{name: "wasm", checks: []check{
		tJS("should work when inlined", `(__pg.click(".inline-wasm .run"), __pg.text(".inline-wasm .result"))`, "~42"),
		tJS("should work when output", `(__pg.click(".output-wasm .run"), __pg.text(".output-wasm .result"))`, "~24"),
		tJS("init function returns WebAssembly.Instance", `(__pg.click(".init-returns-instance .run"), __pg.text(".init-returns-instance .result"))`, "~true"),
		tMatch("?url", ".url", "^data:application/wasm"),
		tMatch("should work when wasm in worker", ".worker-wasm .result", "3"),
		tMatch("direct wasm import", ".direct-wasm .result", "3"),
		tMatch("direct wasm import with wasm imports", ".direct-wasm-with-imports .result", "42"),
		tMatch("direct wasm import unwraps exported WebAssembly.Global", ".direct-wasm-global .result", "42 number"),
		tMatch("wasm importing a global from another wasm", ".direct-wasm-global-import .result", "43"),
		tMatch("wasm reading a mutable global mutated by another wasm", ".direct-wasm-mutable-global-import .result", "9"),
	}},
	{name: "worker", checks: []check{
		tMatch("normal", ".pong", "pong"),
		tMatch("normal", ".mode", "production"),
		tJS("normal", `__pg.file(__pg.text(".asset-url"))`, `"logo.svg"`),
		tMatch("normal", ".dep-cjs", "\\[cjs ok\\]"),
		tMatch("named", ".pong-named", "namedWorker"),
		tMatch("TS output", ".pong-ts-output", "pong"),
		tMatch("inlined", ".pong-inline", "pong"),
		tMatch("named inlined", ".pong-inline-named", "namedInlineWorker"),
		tMatch("import meta url", ".pong-inline-url", "^(blob|http):"),
		tMatch("unicode inlined", ".pong-inline-unicode", "•pong•"),
		tMatch("shared worker", ".tick-count", "pong"),
		tMatch("named shared worker", ".tick-count-named", "pong"),
		tMatch("inline shared worker", ".pong-shared-inline", "pong"),
		tMatch("worker emitted and import.meta.url in nested worker", ".nested-worker", "nesting-worker"),
		tMatch("worker emitted and import.meta.url in nested worker", ".nested-worker-module", `"type":"module"`),
		tMatch("worker emitted and import.meta.url in nested worker", ".nested-worker-module", "sub-worker"),
		tMatch("worker emitted and import.meta.url in nested worker", ".nested-worker-constructor", `"type":"constructor"`),
		tMatch("deeply nested workers", ".deep-root", "Hello from root"),
		tMatch("deeply nested workers", ".deep-root", "Hello from root.*/.+deep-worker[-\\w]*\\.js").byDesignBecause(workerURL),
		tMatch("deeply nested workers", ".deep-second", "Hello from second.*/.+deep-second-worker[-\\w]*\\.js").byDesignBecause(workerURL),
		tMatch("deeply nested workers", ".deep-third", "Hello from third.*/.+deep-third-worker[-\\w]*\\.js").byDesignBecause(workerURL),
		tMatch("module worker", ".worker-import-meta-url", "A string"),
		tMatch("module worker", ".worker-import-meta-url-resolve", "A string"),
		tMatch("module worker", ".worker-import-meta-url-without-extension", "A string"),
		tMatch("module worker", ".shared-worker-import-meta-url", "A string"),
		tMatch("classic worker", ".classic-worker", "A classic"),
		tMatch("classic worker", ".classic-shared-worker", "A classic"),
		tText("emit chunk", ".emit-chunk-worker", `["A string",{"type":"module-and-worker:module","data":"module and worker"},{"type":"module-and-worker:worker","data":"A string"},{"type":"sub","data":"A string"},{"type":"sub","data":{"module":"module and worker","msg2":"module2","msg3":"module3"}}]`),
		tMatch("emit chunk", ".emit-chunk-dynamic-import-worker", `"A stringmodule1/"`).byDesignBecause(onlyHashedScripts),
		tMatch("url query worker", ".simple-worker-url", "Hello from simple worker!"),
		tMatch("import.meta.glob in worker", ".glob-worker", `\["`),
		tMatch("import.meta.glob with eager in worker", ".glob-eager-worker", `\["`),
		tMatch("require json in worker", ".worker-require-json", `\[\{"name":"a"\},\{"name":"b"\}\]`),
		tText("self reference worker", ".self-reference-worker", "pong: main\npong: nested\n"),
		tText("self reference url worker", ".self-reference-url-worker", "pong: main\npong: nested\n"),
		tText("self reference url worker (dependency)", ".self-reference-url-worker-dep", "dep pong: main\ndep pong: nested\n"),
	}, skipped: []string{
		"normal: bundle-with-plugin: " + pluginNotRun,
		"build: inlined code generation (9), dead-code-eliminated worker asset is not emitted (6): the names and contents of the files beside Vite's page",
	}},
	{name: "resolve", checks: []check{
		tMatch("bom import", ".utf8-bom", "\\[success\\]"),
		tMatch("deep import", ".deep-import", "\\[2,4\\]"),
		tMatch("exports and a nested package scope with a different type", ".exports-and-nested-scope", "\\[success\\]"),
		tMatch("entry with exports field", ".exports-entry", "\\[success\\]"),
		tMatch("deep import with exports field", ".exports-deep", "\\[success\\]"),
		tMatch("deep import with query with exports field", ".exports-deep-query", "base64"),
		tMatch("deep import with exports field + exposed dir", ".exports-deep-exposed-dir", "\\[success\\]"),
		tMatch("deep import with exports field + mapped dir", ".exports-deep-mapped-dir", "\\[success\\]"),
		tMatch("exports read from the root package.json", ".exports-from-root", "\\[success\\]"),
		tMatch("deep import with exports and legacy fallback", ".exports-legacy-fallback", "\\[success\\]"),
		tMatch("Respect exports field env key priority", ".exports-env", "\\[success\\]"),
		tMatch("Respect production/development conditionals", ".exports-env", "browser.prod.mjs"),
		tMatch("Respect exports to take precedence over mainFields", ".exports-with-module", "\\[success\\]"),
		tMatch("import and require resolve using module condition", ".exports-with-module-condition", "\\[success\\]"),
		tMatch("import and require resolve using module condition", ".exports-with-module-condition-required", "\\[success\\]"),
		tMatch("implicit dir/index.js", ".index", "\\[success\\]"),
		tMatch("implicit dir/index.js vs explicit file", ".dir-vs-file", "\\[success\\]"),
		tMatch("nested extension", ".nested-extension", "\\[success\\] file.json.js"),
		tMatch("exact extension vs. duplicated (.js.js)", ".exact-extension", "\\[success\\]"),
		tMatch("don't add extension to directory name (./dir-with-ext.js/index.js)", ".dir-with-ext", "\\[success\\]"),
		tMatch("a ts module can import another ts module using its corresponding js file name", ".ts-extension", "\\[success\\]"),
		tMatch("a js module can import another ts module using its corresponding js file name", ".js-ts-extension", "\\[success\\]"),
		tMatch("filename with dot", ".dot", "\\[success\\]"),
		tMatch("browser field", ".browser", "\\[success\\]"),
		tMatch("access property of browser:false module", ".browser-field-false-access", "\\[success\\]"),
		tMatch("Resolve browser field even if module field exists", ".browser-module1", "\\[success\\]"),
		tMatch("css entry", ".css", "\\[success\\]"),
		tMatch("monorepo linked dep", ".monorepo", "\\[success\\]"),
		tMatch("resolve inline package", ".inline-pkg", "\\[success\\]"),
		tMatch("resolve.extensions", ".custom-ext", "\\[success\\]"),
		tMatch("resolve.mainFields", ".custom-main-fields", "\\[success\\]"),
		tMatch("resolve.conditions", ".custom-condition", "\\[success\\]"),
		tMatch("resolve package that contains # in path", ".path-contains-sharp-symbol", "\\[success\\] ok"),
		tMatch("Resolving top level with imports field", ".imports-top-level", "\\[success\\]"),
		tMatch("Resolving same level with imports field", ".imports-same-level", "imports field: top level"),
		tMatch("Resolving nested path with imports field", ".imports-nested", "\\[success\\]"),
		tMatch("Resolving star with imports filed", ".imports-star", "\\[success\\]"),
		tMatch("Resolving slash with imports filed", ".imports-slash", "\\[success\\]"),
		tMatch("Resolving from other package with imports field", ".imports-pkg-slash", "\\[success\\]"),
		tMatch("Resolving with query with imports field", ".imports-query", "base64"),
		tMatch("Resolving dot-prefixed directory with imports field", ".imports-dot-prefixed", "\\[success\\]"),
		tMatch("Resolving #/ root alias pattern with imports field", ".imports-root-slash", "\\[success\\]"),
		tMatch("resolve non-normalized absolute path", ".non-normalized", "\\[success\\]"),
		tMatch("import utf8-bom package", ".utf8-bom-package", "\\[success\\]"),
		tText("resolve.mainFields.browser-first", ".custom-browser-main-field", "resolved browser field"),
		tJS("sideEffects field glob pattern is respected", "window.__SIDE_EFFECT", `["kept"]`),
		tText("Resolve doesn't interrupt page request with trailing query and .css", "h1", "Resolve"),
	}, skipped: []string{
		"plugin resolved virtual file, … that has import, custom virtual file, virtual file with URL scheme (4), absolute path and file url (2, their imports are written by a plugin): " + pluginNotRun,
		"Resolve doesn't interrupt page request that clashes with local project package.json, public dir is not copied: Vite's preview server and output folder",
	}},
	{name: "glob-import", checks: []check{
		tJSON("should work", ".result", globAll),
		tJSON("should work", ".result-eager", globAll),
		tJSON("should work", ".result-node_modules", `{"/dir/node_modules/hoge.js": {"msg": "hoge"}}`),
		tJSON("import glob raw", ".globraw", `{"/dir/baz.json": {"msg": "baz"}}`),
		tJSON("import property access", ".property-access", `{"msg": "baz"}`),
		tJSON("import relative glob raw", ".relative-glob-raw", `{"./dir/baz.json": {"msg": "baz"}}`),
		tText("unassigned import processes", ".side-effect-result", "side effect ran"),
		tJSON("import glob in package", ".in-package", `["/pkg-pages/page.js"]`),
		tJSON("follow symlinks", ".follow-symlinks", `{"./follow/linked/lib/components/a.js": "a", "./follow/linked/lib/components/b.js": "b"}`),
		tJSON("follow symlinks same reference", ".follow-symlinks-same-ref", `{"a": true, "b": true}`),
		tJS("alias exclusion", `(() => { const k = JSON.parse(__pg.text(".alias-exclusion")); return k.length > 0 && k.every((x) => !x.includes("alias")) })()`, "true"),
		tJSON("array pattern with exclusions", ".array-result", `{"./array-dir/included.js": "included"}`),
		tJSON("array pattern with sibling directories sharing a prefix", ".array-common-base-result", `{"/array-base/one/a.js": "a", "/array-base/two/b.js": "b"}`),
		tHas("tree-shake eager css", ".kept-css-result", ".kept-css"),
		tText("escapes special chars in globs without mangling user supplied glob suffix", ".escape-relative", "/escape/(paren)/glob.js\n/escape/[brackets]/glob.js\n/escape/{curlies}/glob.js"),
		tText("escapes special chars in globs without mangling user supplied glob suffix", ".escape-alias", "/escape/(paren)/glob.js\n/escape/[brackets]/glob.js\n/escape/{curlies}/glob.js"),
		tJSON("escape literal parenthesis in glob pattern", ".escape-literal-parenthesis", `["/escape/(paren)/mod/index.js"]`),
		tMatch("subpath imports", ".subpath-imports", "bar foo"),
		tMatch("subpath imports (sub dir)", ".subpath-imports-sub-dir", "bar foo"),
		tMatch("#alias imports", ".hash-alias-imports", "bar foo"),
		tJSON("import base glob raw", ".result-base", `{"./baz.json": {"msg": "baz"}}`),
		tJSON("caseSensitiveMatch option", ".case-sensitive-true", `["./case-dir/data-lower.js"]`),
		tJSON("caseSensitiveMatch option", ".case-sensitive-false", `["./case-dir/DATA-upper.js", "./case-dir/data-lower.js"]`),
		tJSON("absolute base with files outside of root", ".absolute-base-outside-root", `{"../external/x.js": "external x", "../external/y.js": "external y"}`),
	}, output: []outputCheck{
		{spec: "tree-shake eager css", contains: ".shaken-css", not: true},
	}, skipped: []string{
		"import.meta.glob and dynamic import vars transformations should be visible to post transform plugins: " + pluginNotRun,
	}},
	{name: "dynamic-import", checks: []check{
		tJS("should load literal dynamic import", `(__pg.click(".baz"), __pg.text(".view"))`, "~Baz view"),
		tJS("should load full dynamic import from public", `(__pg.click(".qux"), __pg.text(".view"))`, "~Qux view").byDesignBecause(besideThePage),
		tJS("should load data URL of `blob:`", `(__pg.click(".blob"), __pg.text(".view"))`, "~blob").byDesignBecause(onlyHashedScripts),
		tJS("should load data URL of `data:`", `(__pg.click(".data"), __pg.text(".view"))`, "~data URL").byDesignBecause(onlyHashedScripts),
		tJS("should have same reference on static and dynamic js import, .mxd", `(__pg.click(".mxd"), __pg.text(".view"))`, `"true"`),
		tJS("should have same reference on static and dynamic js import, .mxd2", `(__pg.click(".mxd2"), __pg.text(".view"))`, `"false"`).byDesignBecause(besideThePage),
		tJS("should have same reference on static and dynamic js import, .mxdjson", `(__pg.click(".mxdjson"), __pg.text(".view"))`, `"true"`),
		tJS("should load dynamic import with vars", `(__pg.click(".foo"), __pg.text(".view"))`, "~Foo view"),
		tJS("should load dynamic import with vars", `(__pg.click(".bar"), __pg.text(".view"))`, "~Bar view"),
		tJS("should load dynamic import with css", `(__pg.click(".css"), __pg.color(".view"))`, jsonString(cssColors["red"])),
		tMatch("should load dynamic import with vars", ".vars", "hello"),
		tMatch("should load dynamic import with vars ignored", ".vars-ignored", "hello"),
		tMatch("should load dynamic import with double slash ignored", ".vars-double-slash-ignored", "hello"),
		tMatch("should load dynamic import with vars multiline", ".vars-multiline", "hello"),
		tMatch("should load dynamic import with vars alias", ".vars-alias", "hi"),
		tMatch("should load dynamic import with vars subpath imports", ".vars-subpath", "hi"),
		tMatch("should load dynamic import with vars raw", ".vars-raw", "export const url|export function hello"),
		tJS("should load dynamic import with vars url", `__pg.file(JSON.parse(__pg.text(".vars-url")).default)`, `"alias/url.js"`),
		tMatch("should load dynamic import with vars worker", ".vars-worker", "load worker"),
		tJS("should load dynamic import with css in package", `(__pg.click(".pkg-css"), __pg.color(".pkg-css"))`, jsonString(cssColors["blue"])),
		tMatch("should work with load ../ and itself directory", ".self", "self"),
		tMatch("should work with load ../ and contain itself directory", ".nested-self", "nested self"),
		tMatch("should load css of nested dynamic import", ".then-css-outer", "then-css-outer"),
		tColor("should load css of nested dynamic import", ".then-css-outer", "red"),
		tMatch("should load css of nested dynamic import", ".then-css-inner", "then-css-inner"),
		tColor("should load css of nested dynamic import", ".then-css-inner", "green"),
		tMatch("should handle object rest destructuring of a dynamic import", ".rest", "a rest-b rest-c"),
		tMatch("should work a load path that contains parentheses.", ".vars-parenthesis", "from a folder named \\(group\\)"),
		tJS("dynamic import treeshaken log", `["foo", "bar", "baz1", "baz2", "baz3", "baz4", "baz5", "baz6", "default"].filter((n) => !__pg.logs().includes("shaken " + n))`, "[]"),
		tJS("dynamic import treeshaken log", `__pg.logs().includes("shaken removed")`, "false"),
		tJS("dynamic import syntax parsing", `["syntax foo", "syntax default"].filter((n) => !__pg.logs().includes(n))`, "[]"),
	}, output: []outputCheck{
		{spec: "dynamic import treeshaken file", contains: "shaken removed", not: true},
	}, skipped: []string{
		"should not preload for non-analyzable urls: the text of Vite's preload helper",
	}},
	{name: "extensions", checks: []check{
		tText("not contain `.mjs`", "#app", "Hello from the browser build"),
	}},
	{name: "import-attribute", checks: []check{
		tText("from source code", ".src", "from the app"),
		tText("from dependency", ".dep", "from a dependency"),
	}},
	{name: "preserve-symlinks", checks: []check{
		tText("not-preserve-symlinks", "#root", "found through the link"),
	}},
	{name: "data-uri", checks: []check{
		tText("plain", ".plain", "plain data"),
		tText("base64", ".base64", "base64 data"),
		tJS("svg data uri minify", `(await __pg.q("img.dq-in-sq").decode(), __pg.q("img.dq-in-sq").getBoundingClientRect().height)`, "100"),
		tJS("svg data uri minify", `(await __pg.q("img.dqs-in-sq").decode(), __pg.q("img.dqs-in-sq").getBoundingClientRect().height)`, "100"),
		tJS("svg data uri minify", `(await __pg.q("img.sq-in-dq").decode(), __pg.q("img.sq-in-dq").getBoundingClientRect().height)`, "100"),
		tJS("svg data uri minify", `(await __pg.q("img.sqs-in-dq").decode(), __pg.q("img.sqs-in-dq").getBoundingClientRect().height)`, "100"),
	}, output: []outputCheck{
		{spec: "should compile away the import for build", contains: `"data:text/javascript`, not: true},
	}, skipped: []string{
		"comma: its config's plugin resolves and loads the module (a plugin, which bundle does not run: the build warns naming it)",
	}},
	{name: "dynamic-import-inline", checks: []check{
		tText("(the page runs)", ".static", "imported"),
		tText("(the page runs)", ".dynamic", "imported again"),
	}, output: []outputCheck{
		{spec: "don't warn when codeSplitting is set to false", contains: "dynamic import will not move module into another chunk", not: true, log: true},
	}},
	{name: "css-no-codesplit", checks: []check{
		tColor("should load all stylesheets", ".linked", "blue"),
		tColor("should load all stylesheets", ".lazy", "blue"),
	}, skipped: []string{
		"should remove empty chunk: the names of the files beside Vite's page",
	}},
	{name: "css-codesplit", checks: []check{
		tColor("should load all stylesheets", "h1", "red"),
		tColor("should load all stylesheets", "h2", "blue"),
		tColor("should load all stylesheets", ".dynamic", "green"),
		tColor("should load all stylesheets", ".lazy-js", "blue"),
		tColor("should load all stylesheets", ".chunk", "magenta"),
		tHas("should load dynamic import with inline", ".dynamic-inline", ".inline"),
		tJS("should load dynamic import with inline", `__pg.color(".inline") !== "rgb(255, 255, 0)"`, "true"),
		tMatch("should load dynamic import with module", ".dynamic-module", "_mod_|mod"),
		tColor("should load dynamic import with module", ".mod", "yellow"),
		tColor("style order should be consistent when style tag is inserted by JS", ".order", "orange"),
		tJS("style order should be consistent when style tag is inserted by JS", `(__pg.click(".order-update"), __pg.color(".order"))`, jsonString(cssColors["green"])),
	}, skipped: []string{
		"css-codesplit-consistent (10) and build (8): the names and contents of the files beside Vite's page, and its manifest",
	}},
	{name: "css-dynamic-import", checks: []check{
		tJS("doesn't duplicate dynamically imported css files", `document.body.classList.contains("loaded")`, "true"),
		tColor("doesn't duplicate dynamically imported css files", ".css-dynamic-import", "green"),
		tJS("doesn't duplicate dynamically imported css files", `(() => { const u = [...document.querySelectorAll("link")].map((l) => l.href); return u.length === new Set(u).size })()`, "true"),
	}},
	{name: "minify", output: []outputCheck{
		{spec: "no minifySyntax", contains: `console.log("hello world")`},
		{spec: "no minifySyntax", contains: "/*! a legal comment */", not: true},
		{spec: "no minifySyntax", contains: "color:#ff0000"},
		{spec: "minifies inline style with esbuild", contains: "<style>.inline-style{color:#ff0000}</style>"},
		{spec: "escapes closing style tags with esbuild", contains: `<style>.closing-tag{content:"<\/style>"}</style>`},
	}},
	{name: "nested-deps", checks: []check{
		tText("handle nested package", ".a", "A@2.0.0"),
		tText("handle nested package", ".b", "B@1.0.0"),
		tText("handle nested package", ".nested-a", "A@1.0.0"),
		tText("handle nested package", ".c", "es-C@1.0.0"),
		tText("handle nested package", ".side-c", "es-C@1.0.0"),
		tText("handle nested package", ".d", "D@1.0.0"),
		tText("handle nested package", ".nested-d", "D-inner@1.0.0"),
		tText("handle nested package", ".nested-e", "1"),
		tText("handle nested package", ".absolute-f", "F@2.0.0"),
		tText("handle nested package", ".self-referencing", "true"),
	}},
	{name: "env", base: "/env-base/", env: map[string]string{"VITE_FROM_PROCESS": "from the builder's environment"}, checks: []check{
		tText("base", ".base", "/env-base/"),
		tText("mode", ".mode", "production"),
		tText("dev", ".dev", "false"),
		tText("prod", ".prod", "true"),
		tText("custom", ".plain", "1"),
		tText("custom in template literal expression", ".plain-template", "1"),
		tText("custom-prefix", ".other-prefix", "1"),
		tText("mode file override", ".which-file", ".env.production"),
		tText("inline variables", ".from-process", "from the builder's environment"),
		tText("define", ".flag", "boolean"),
		tText("define", ".count", "number"),
		tText("define", ".weird", "string"),
		tText("define", ".pair", "object"),
		tText("NODE_ENV", ".node-env", "production"),
		tText("NODE_ENV", ".global-node-env", "production"),
		tText("NODE_ENV", ".global-this-node-env", "production"),
		tText("expand", ".expand-config", "set by the config"),
		tText("expand", ".expand-key", "depended on"),
		tText("ssr", ".ssr", "false"),
		tJS("env object", `Object.keys(JSON.parse(__pg.text(".env-object"))).filter((k) => ["PRIVATE_DEP", "SECRET_EXPANDED"].includes(k))`, `[]`),
		tJS("env object", `(({VITE_WHICH_FILE, PG_PUBLIC_OTHER, VITE_PLAIN, VITE_EXPAND_CONFIG, VITE_EXPAND_KEY, VITE_DOLLAR_ESCAPED, VITE_DOLLAR_TRAILING, BASE_URL, VITE_FLAG, SSR, MODE, DEV, PROD, VITE_COUNT, VITE_WEIRD, VITE_PAIR}) => ({VITE_WHICH_FILE, PG_PUBLIC_OTHER, VITE_PLAIN, VITE_EXPAND_CONFIG, VITE_EXPAND_KEY, VITE_DOLLAR_ESCAPED, VITE_DOLLAR_TRAILING, BASE_URL, VITE_FLAG, SSR, MODE, DEV, PROD, VITE_COUNT, VITE_WEIRD, VITE_PAIR}))(JSON.parse(__pg.text(".env-object")))`,
			`{"VITE_WHICH_FILE":".env.production","PG_PUBLIC_OTHER":"1","VITE_PLAIN":"1","VITE_EXPAND_CONFIG":"set by the config","VITE_EXPAND_KEY":"depended on","VITE_DOLLAR_ESCAPED":"cost$","VITE_DOLLAR_TRAILING":"cost$","BASE_URL":"/env-base/","VITE_FLAG":true,"SSR":false,"MODE":"production","DEV":false,"PROD":true,"VITE_COUNT":42,"VITE_WEIRD":"{\"4\",}","VITE_PAIR":{"x":"1","y":"2"}}`),
		tJS("env object in template literal expression", `(({VITE_WHICH_FILE, PG_PUBLIC_OTHER, VITE_PLAIN, BASE_URL, MODE, DEV, PROD}) => ({VITE_WHICH_FILE, PG_PUBLIC_OTHER, VITE_PLAIN, BASE_URL, MODE, DEV, PROD}))(JSON.parse(__pg.text(".env-object-template")))`,
			`{"VITE_WHICH_FILE":".env.production","PG_PUBLIC_OTHER":"1","VITE_PLAIN":"1","BASE_URL":"/env-base/","MODE":"production","DEV":false,"PROD":true}`),
		tText("ignores import.meta.env in string literals", ".literal-dot", "import.meta.env."),
		tText("ignores import.meta.env in string literals", ".literal", "import.meta.env"),
	}},
	{name: "env-nested", checks: []check{
		tText("mode", ".mode", "production"),
		tText("mode file override", ".which-file", "settings/.env.production"),
		tText("should not load parent .env file", ".parent", "undefined"),
	}},
	{name: "define", checks: []check{
		tText("string", ".exp", "boolean"),
		tText("string", ".string", "hi there"),
		tText("string", ".number", "7"),
		tText("string", ".boolean", "true"),
		tText("string", ".undefined", ""),
		tText("string", ".object", `{
  "a": 1,
  "b": {
    "c": [
      2,
      3
    ]
  },
  "process": {
    "env": {
      "WHO": "\"inside a shape\""
    }
  }
}`),
		tText("string", ".node-env", "staging"),
		tText("string", ".process-env", "{\n  \"NODE_ENV\": \"staging\",\n  \"WHO\": \"someone\",\n  \"MORE\": \"yes\"\n}"),
		tText("string", ".env-var", "someone"),
		tText("string", ".as-property", `"inside a shape"`),
		tText("string", ".spread-object", `{"WHO":"<someone>"}`),
		tText("string", ".spread-array", `["h","i"," ","t","h","e","r","e","!"]`),
		tText("string", ".dollar", "11"),
		tText("string", ".unicode", "12"),
		tText("string", ".no-substring", "a longer name"),
		tText("string", ".no-property", "a property"),
		tText("string", ".in-markup", "__FLAG__"),
		tText("string", ".in-json", "__FLAG__"),
		tText("string", ".in-dep", `{"on":true}`),
		tText("string", ".in-env", "for the client"),
		tText("ignores constants in string literals", ".literal .pe-dot", "process.env."),
		tText("ignores constants in string literals", ".literal .gpe-dot", "global.process.env."),
		tText("ignores constants in string literals", ".literal .gtpe-dot", "globalThis.process.env."),
		tText("ignores constants in string literals", ".literal .pe-node-env", "process.env.NODE_ENV"),
		tText("ignores constants in string literals", ".literal .gpe-node-env", "global.process.env.NODE_ENV"),
		tText("ignores constants in string literals", ".literal .gtpe-node-env", "globalThis.process.env.NODE_ENV"),
		tText("ignores constants in string literals", ".literal .hot", "import.meta.hot"),
		tText("replaces constants in template literal expressions", ".template .pe-who", "someone"),
		tText("replaces constants in template literal expressions", ".template .pe-node-env", "staging"),
		tText("replace constants on import.meta.env when it is a invalid json", ".meta-env .undef", "undefined"),
		tText("replace constants on import.meta.env when it is a invalid json", ".meta-env .some-name", "named at run time"),
		tText("optional values are detected by pattern properly", ".optional", "someone"),
	}, skipped: []string{
		"env import with query parameters works correctly: its config's plugin writes the import (a plugin's transform, which bundle does not run: the build warns naming it)",
	}},
	{name: "json", checks: []check{
		tText("default import", ".whole", compactJSON("json", "data.json")),
		tText("named import", ".named", "hello from json"),
		tText("deep import", ".deep-whole", compactJSON("json", "deps/deep-json/package.json")),
		tText("named deep import", ".deep-named", "@pg/deep-json"),
		tText("dynamic import", ".dynamic", compactJSON("json", "data.json")),
		tText("dynamic import, named", ".dynamic-named", "hello from json"),
		tMatch("?url", ".url", "^data:application/json"),
		tText("?raw", ".raw", fixtureText("json", "data.json")),
		tText("require(json) returns object without default export", ".require", `{"200":"ok"}`),
	}, refusals: []refusal{
		{spec: "fetch", files: map[string]string{"index.html": `<script type="module">fetch('/public.json').then((r) => r.json())</script>`, "public/public.json": "{}"},
			want: "the bundle is one file with nothing beside it"},
	}},
}
