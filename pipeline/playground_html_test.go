package pipeline

// Vite's html playground (playground/html, build mode) is a multi-page app: its config lists
// 30 pages as build inputs. A bundle is one page, so each page the spec visits is ported as an
// app of its own under testdata/playground/html/<page>, which Vite and bundle each build alone
// (built per page, never refused for being one of many). What its pages check of Vite's own
// server (the SPA fallback, html serve behavior, the error overlay, warmup, malformed URLs) and
// what its config's plugins write into the page (transformIndexHtml) is listed as skipped.

// htmlTransforms are the spec's checks of what the config's transformIndexHtml plugins write.
const htmlTransforms = "pre transform, string transform, tags transform, combined transform, server only transform, build only transform, conditional transform, body prepend/append transform (8 per page, main and nested), noHead and noBody tags injection, escape html attribute (a tag a plugin injects): " + pluginNotRun

func init() { playgrounds = append(playgrounds, htmlPlaygrounds...) }

var htmlPlaygrounds = []playground{
	{name: "html/main", checks: []check{
		tColor("css", "h1", "blue"),
		tColor("css", "p", "grey"),
		tJS("preserve comments", `__pg.html("body").includes("<!-- comment one -->")`, "true"),
		tJS("preserve comments", `__pg.html("body").includes("<!-- comment two -->")`, "true"),
		tText("external paths works with vite-ignore attribute", ".external-path", "works"),
		tJS("external paths works with vite-ignore attribute", `__pg.attr("script[src], script[type=module]:not(:empty)", "vite-ignore") === null && document.querySelector("[vite-ignore]") === null`, "true"),
		tColor("external paths works with vite-ignore attribute", ".external-path", "red"),
		tJS("escape html attribute (an attribute holding escaped markup stays one)", `document.querySelector(".unescape-div") === null`, "true"),
		tHas("invalidate inline proxy module on reload (an inline module script runs)", ".test", "ok"),
	}, refusals: []playRefusal{
		{spec: "external paths by rolldownOptions.external works", files: map[string]string{"index.html": `<!doctype html><meta charset="utf-8"><script type="module" src="https://cdn.example/external-path-by-rollup-options.js"></script>`},
			want: `from outside the bundle`},
	}, skipped: []string{
		htmlTransforms,
		"html serve behavior, html fallback works non browser accept header, SPA fallback, the error overlay (5), warmup, malformed URLs, nested w/ query: Vite's dev and preview servers",
	}},
	{name: "html/nested", page: "nested/index.html", checks: []check{
		tColor("css", "h1", "red"),
		tColor("css", "p", "grey"),
		tText("relative path in html asset", ".relative-js", "hello"),
		tColor("relative path in html asset", ".relative-css", "red"),
	}},
	{name: "html/script-async", checks: []check{
		// The spec looks in <head>, where Vite writes its entry script; bundle's stays where
		// the page wrote it.
		tJS("script is async", `document.querySelector("script[type=module][async]") !== null`, "true"),
		tJS("script is async", `document.querySelector("script[type=module]:not([async]):not(:empty)") === null`, "true"),
		tJS("(both scripts ran)", `(window.__ran || []).slice().sort()`, `["main","nested"]`),
	}},
	{name: "html/script-mixed", checks: []check{
		tJS("script is mixed", `document.querySelector("script[type=module][async]") === null`, "true"),
		tJS("script is mixed", `document.querySelector("script[type=module]:not([async])") !== null`, "true"),
		tJS("(both scripts ran)", `(window.__ran || []).slice().sort()`, `["main","nested"]`),
	}},
	{name: "html/zero-js", checks: []check{
		tJS("zeroJS", `document.querySelector("head script[type=module]") === null && document.querySelector("script[type=module]") === null`, "true"),
		tColor("(its stylesheet)", "h1", "blue"),
	}},
	{name: "html/inline-shared", checks: []check{
		tJS("execution order when inlined", `__pg.text("#output").trim()`, jsonString("dep1 common dep2 dep3 shared")),
		tJS("is inlined (no module preload)", `document.querySelectorAll("link[rel=modulepreload]").length`, "0"),
	}, skipped: []string{"is inlined: more than one module script, the count of Vite's chunks written into the page"}},
	{name: "html/inline-unique", checks: []check{
		// The spec wants "dep1 common dep2 unique", the order of the chunks of its 30 pages
		// built together; one page, built alone by Vite too, runs in the order of ES module
		// evaluation, as the browser runs the files unbundled: common's imports first.
		tJS("execution order when not inlined (built alone: ES module order)", `__pg.text("#output").trim()`, jsonString("dep1 dep2 common unique")),
	}, skipped: []string{"is not inlined: one module script and a module preload of Vite's chunk file beside the page"}},
	{name: "html/unicode-path", page: "unicode-path/中文-にほんご-한글-🌕🌖🌗/index.html", checks: []check{
		tText("direct access", "h1", "Unicode path"),
		tJS("(its script ran)", `document.title`, jsonString("unicode path ran")),
	}, skipped: []string{"spa fallback: Vite's preview server"}},
	{name: "html/link-props", checks: []check{
		tColor("separate links with different media props", "h1", "red"),
	}},
	{name: "html/valid", checks: []check{
		tText("valid HTML is parsed", "#no-quotes-on-attr", "No quotes on Attr working"),
		tColor("valid HTML is parsed", "#duplicated-attrs", "green"),
	}, refusals: []playRefusal{
		// Vite's valid.html also holds <self-close-non-void />, which the browser takes as an
		// open tag: bundle refuses it with the fix (its normal form), where Vite passes it.
		{spec: "valid HTML (a self-closing non-void element)", files: map[string]string{"index.html": "<!doctype html><meta charset=\"utf-8\"><p>x</p>\n<self-close-non-void />\n"},
			want: `<self-close-non-void/> does not close the <self-close-non-void>`},
	}},
	{name: "html/env", checks: []check{
		tText("env works", ".env", "bar"),
		tText("env works", ".env-define", "5173"),
		tText("env works", ".env-define-string", "string"),
		tText("env works", ".env-define-object-string", `{ "foo": "bar" }`),
		tText("env works", ".env-define-null-string", "null"),
		tJS("env works", `__pg.text(".env-bar").length > 0`, "true"),
		tText("env works", ".env-prod", "true"),
		tText("env works", ".env-dev", "false"),
		tText("(an unknown variable stays as written)", ".env-unknown", "%VITE_NOT_SET%"),
		tJS("env works", `__pg.attr("link[rel=icon]", "href")`, `"./sprite.svg"`).byDesignBecause(iconsLeftOut),
	}},
	{name: "html/side-effects", checks: []check{
		tJS("console.log is not tree-shaken", `__pg.logs().includes("message from sideEffects script")`, "true"),
	}},
	{name: "html/special-char", page: "a á.html", checks: []check{
		tJS("should fetch html proxy", `__pg.logs().includes("special character")`, "true"),
	}},
	{name: "html/relative-input", page: "relative-input.html", checks: []check{
		tText("passing relative path to rolldownOptions.input works", ".relative-input", "OK"),
	}},
}

// The importmap page: an import map names a file the browser loads at run time, which a bundle
// does not have; bundle refuses it with the fix (the manifest's alias).
var _ = func() bool {
	for i := range htmlPlaygrounds {
		if htmlPlaygrounds[i].name == "html/main" {
			htmlPlaygrounds[i].refusals = append(htmlPlaygrounds[i].refusals, playRefusal{
				spec:  "importmap should be prepended (an import map of a file beside the page)",
				files: map[string]string{"index.html": "<!doctype html><meta charset=\"utf-8\"><script type=\"importmap\">{\"imports\": {\"some-pkg\": \"./some-pkg.js\"}}</script><script type=\"module\" src=\"./main.js\"></script>", "main.js": "", "some-pkg.js": ""},
				want:  `import map entry "some-pkg" loads "./some-pkg.js" from outside the bundle`,
			})
		}
	}
	return true
}()
