package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// TestResolvingMark reads the one mark of a plugin's second resolution: a plugin that rewrites
// a specifier answers every resolution but its own; one that gives a module of bundle's answers
// only an import no such plugin asked again; the import's own PluginData stays inner.
func TestResolvingMark(t *testing.T) {
	rows := []struct {
		by      asker
		plugin  asker
		answers bool
	}{
		{0, byAlias, true},
		{0, bySVG, true},
		{byAlias, byAlias, false},
		{byAlias, byProjectPaths, true},
		{byAlias, bySVG, true},
		{byAlias | byBrowserField, byLazyCSS, true},
		{byQuery, bySVG, false}, // ?raw of an SVG: the query's look at the file
		{byQuery, byAlias, true},
		{byQuery | byAlias, byBrowserField, true},
		{byQuery | byAlias, byAlias, false},
		{byLazyCSS, byStyleStub, false},
		{byStyleStub, byLazyCSS, false},
		{byScoped, byConvention, false},
		{byConvention, byScoped, false},
		{byCJS, byCJS, false},
		{byAlias | byCJS, byProjectPaths, true},
	}
	for _, r := range rows {
		if got := (resolving{by: r.by}).answers(r.plugin); got != r.answers {
			t.Errorf("asked by %v, %v answers: %v, want %v", r.by, r.plugin, got, r.answers)
		}
	}
	inner := struct{ x int }{7}
	m := askedBy(inner).then(byQuery)
	m = askedBy(m).then(byAlias).then(byAlias)
	if m.by != byQuery|byAlias || original(m) != inner || original(inner) != inner || m.by.String() != "alias+query" {
		t.Errorf("the chain is %+v (%v), want query and alias over the import's own data", m, m.by)
	}
}

// TestResolvingChain builds a page whose imports pass through every plugin that resolves an
// import again, each import through several (an alias, a query, an SVG, a scoped CSS Module
// with a convention, a lazy stylesheet, a CommonJS module's default with the interop option),
// written in one order in a module and in the other in a second, reached by a static import
// and by import(): each resolves once to what Vite gives, and the build ends (two plugins
// that each asked the other again overflowed the stack).
func TestResolvingChain(t *testing.T) {
	one := []string{
		"import raw from '@/x.svg?raw'",
		"import svg from '@/x.svg'",
		"import s from '@/m.module.css'",
		"import '@/lazy.css'",
		"import inline from '@/lazy.css?inline'",
		"import lib from 'cjs-lib'",
	}
	var other []string
	for i := len(one) - 1; i >= 0; i-- {
		other = append(other, one[i])
	}
	body := "\nexport default { raw, svg, cls: s.fooBar, inline, lib }\n"
	b := browsertest.Start(t)
	for _, reach := range []string{"static", "dynamic"} {
		main := "import a from './one.js'\nimport b from './other.js'\nwindow.got = [a, b]\n"
		if reach == "dynamic" {
			main = "window.before = getComputedStyle(document.querySelector('.l')).color\nPromise.all([import('./one.js'), import('./other.js')]).then((m) => { window.got = m.map((x) => x.default) })\n"
		}
		dir := writeApp(t, map[string]string{
			"miniapp.toml":                      "id = \"p\"\nname = \"P\"\ndescription = \"d\"\n[build]\ninconsistentCjsInterop = true\n",
			"package.json":                      `{ "name": "p", "private": true, "type": "module" }`,
			"vite.config.js":                    "export default { resolve: { alias: { '@': '/src' } }, css: { modules: { localsConvention: 'camelCaseOnly', generateScopedName: 'pg_[local]' } } }\n",
			"index.html":                        `<!doctype html><meta charset="utf-8"><p class="l">l</p><p id="m">m</p><script type="module" src="./main.js"></script>`,
			"main.js":                           main,
			"one.js":                            strings.Join(one, "\n") + body,
			"other.js":                          strings.Join(other, "\n") + body,
			"src/x.svg":                         `<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>`,
			"src/m.module.css":                  ".foo-bar { color: rgb(1, 2, 3) }\n",
			"src/lazy.css":                      ".l { color: rgb(4, 5, 6) }\n",
			"node_modules/cjs-lib/package.json": `{ "name": "cjs-lib", "main": "index.js" }`,
			"node_modules/cjs-lib/index.js":     "Object.defineProperty(exports, '__esModule', { value: true });\nexports.default = 'the default';\n",
		})
		res, err := Build(context.Background(), dir, Options{NoWrite: true})
		if err != nil {
			t.Fatalf("%s: %v", reach, err)
		}
		b.Reset()
		b.Serve("/index.html", res.HTML, "text/html")
		b.Visit(t, b.URL(0, "index.html"), 0)
		if !b.Await(t, `window.got !== undefined`) {
			t.Fatalf("%s: the page's script did not run: %q", reach, b.Console())
		}
		for i, name := range []string{"one", "other"} {
			got := browsertest.Eval[map[string]any](t, b, "window.got["+string(rune('0'+i))+"]")
			want := map[string]string{
				"raw":    `<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>`,
				"cls":    "pg_foo-bar",
				"inline": ".l{color:#040506}\n",
				"lib":    "the default",
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s, %s.js: %s is %q, want %q", reach, name, k, got[k], v)
				}
			}
			if s, _ := got["svg"].(string); !strings.HasPrefix(s, "data:image/svg+xml,") {
				t.Errorf("%s, %s.js: svg is %q, want its data: URL", reach, name, s)
			}
		}
		browsertest.Eval[bool](t, b, `(document.getElementById("m").className = window.got[0].cls, true)`)
		if !b.Await(t, `getComputedStyle(document.getElementById("m")).color === "rgb(1, 2, 3)" && getComputedStyle(document.querySelector(".l")).color === "rgb(4, 5, 6)"`) {
			t.Errorf("%s: the CSS Module's or the stylesheet's rule does not apply: %s", reach,
				browsertest.Eval[string](t, b, `getComputedStyle(document.getElementById("m")).color + " " + getComputedStyle(document.querySelector(".l")).color`))
		}
		if reach == "dynamic" {
			if got := browsertest.Eval[string](t, b, `window.before`); got == "rgb(4, 5, 6)" {
				t.Errorf("the lazy stylesheet applied before the import")
			}
		}
	}
}
