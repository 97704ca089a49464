package pipeline

// Vite's css playground (playground/css, build mode) beyond Sass, Less and Stylus (the css
// fixture): @import chains in linked and imported stylesheets, url() forms, PostCSS config
// plugins, CSS Modules and composes, layers, packages' style field and condition, ?inline,
// ?url, ?raw, async chunks and their order, minification. Our own fixture, css-core.

// A CSS Module only a dynamic import reaches: without a generateScopedName it is esbuild's
// (local-css) and in the page from the start; with one (this fixture) it loses its rules
// (gapLazyScopedModule).

func init() { playgrounds = append(playgrounds, cssCorePlayground) }

var cssCorePlayground = playground{name: "css-core", checks: []check{
	tHas("imported css", ".imported-css-glob", ".dir-import"),
	tHas("imported css", ".imported-css-globEager", ".dir-import"),
	tColor("linked css", ".linked", "blue"),
	tColor("linked css", ".linked-at-import", "red"),
	tColor("css import from js", ".imported", "green"),
	tColor("css import from js", ".imported-at-import", "purple"),
	tBg("css import asset with space", ".import-with-space", "folder with space/ok.png"),
	tColor("postcss config", ".postcss .nesting", "pink"),
	tBg("postcss plugin that injects url()", ".inject-url", "images/dog.png"),
	tColor("css modules", ".modules", "turquoise"),
	tJS("css modules", `__pg.attr(".modules", "class")`, `~mod-module__apply-color___[\w-]{5}`),
	tColor("css modules composes/from path resolving", ".path-resolved-modules-css", "turquoise"),
	tJS("css modules composes/from path resolving", `__pg.attr(".path-resolved-modules-css", "class")`, `~composed-module__apply-color___[\w-]{5}`),
	tJS("css modules composes/from path resolving", `__pg.attr(".path-resolved-modules-css", "class")`, `~composes-path-resolving-module__path-resolving-css___[\w-]{5}`),
	tMatch("inline css modules", ".modules-inline", `\.inline-module__apply-color-inline___[\w-]{5}`),
	tColor("layers", ".layers-blue", "blue"),
	tColor("layers", ".layers-green", "green"),
	tColor("@import dependency w/ style entry", ".css-dep-css", "purple"),
	tColor("@import dependency w/ style export mapping", ".css-dep-exports-css", "purple"),
	tColor("@import dependency that @import another dependency", ".css-proxy-dep", "purple"),
	tColor("async chunk", ".async", "teal"),
	tJS("treeshaken async chunk", `document.querySelector(".async-treeshaken") === null`, "true"),
	tColor("import dependency includes css import", ".css-js-dep", "green"),
	tJS("URL separation", `__pg.bg(".url-separated")`, `~^url\(.+\)(?:\s*,\s*url\(.+\))*$`),
	tBg("URL separation", ".url-separated", "images/cat.png,images/dog.png"),
	tColor("inlined", ".inlined", "black"),
	tHas("inlined-code", ".inlined-code", "background:"),
	tJS("inlined-code", `!__pg.text(".inlined-code").includes("__VITE_ASSET__") && !__pg.text(".inlined-code").trim().includes("\n")`, "true"),
	tColor("?url", ".url-imported-css", "yellow"),
	tText("?raw", ".raw-imported-css", fixtureText("css-core", "raw-imported.css")),
	tColor("import css in less", ".css-in-less", "yellow"),
	tColor("import css in less", ".css-in-less-2", "blue"),
	tJS("relative path rewritten in Less's data-uri", `__pg.bg(".form-box-data-uri")`, `~^url\("data:image/svg\+xml,%3[Cc]svg`),
	tColor("aliased css has content", ".aliased", "blue"),
	tColor("aliased css has content", ".aliased-module", "blue"),
	tColor("resolve imports field in CSS", ".imports-field", "red"),
	tColor("async css order", ".async-green", "green"),
	tColor("async css order", ".async-blue", "blue"),
	tColor("async css order with css modules", ".modules-pink", "pink"),
	tColor("@import scss", ".at-import-scss", "red"),
}, output: []outputCheck{
	{spec: "@charset hoist", contains: `"@charset" must be the first rule`, not: true, log: true},
	{spec: "treeshaken async chunk", contains: "plum", not: true},
}, skipped: []string{
	"PostCSS dir-dependency, PostCSS source.input.from includes query: a PostCSS plugin's dependency messages and its view of Vite's query, of Vite's own module graph",
	"@import external css: a stylesheet from https://api.iconify.design, which the page loads at run time (bundle refuses a remote @import: the css fixture's refusals)",
	"sugarss: the sugarss parser is not installed in the fixtures' workspace",
	"less-plugin, the Sass importers: functions of the config (the css fixture's refusal rows)",
	"manual chunk path, empty CSS files as .css assets, async chunk's file names: the names of the files beside Vite's page",
	"Scoped CSS via cssScopeTo (2): a plugin API (this.meta of a plugin's module), " + pluginNotRun,
	"warning can be suppressed by esbuild.logOverride: Vite's esbuild options",
	"CSS modules should be treeshaken if not used: Vite 8's own build fails it on this fixture too (its CSS keeps .treeshake-module-b's rule, as esbuild's does)",
	"minify css (keeps rgba(), no #ffff00b3): Vite 8's own build fails it on this fixture too (its CSS has .minify{color:#ffff00b3}, as bundle's); the spec's target differs",
}}
