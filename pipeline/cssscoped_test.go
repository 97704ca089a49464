package pipeline

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/internal/testwait"
)

// TestScopedNamer checks generateScopedName patterns against the names Vite 8 gives the same
// files (its postcss-modules: generic-names, loader-utils' xxhash64), read from its build of
// testdata/playground/css-core.
func TestScopedNamer(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join(playgroundRoot, "css-core"))
	for _, c := range []struct{ pattern, file, local, want string }{
		{"[name]__[local]___[hash:base64:5]", "mod.module.css", "apply-color", "mod-module__apply-color___xg9Hf"},
		{"[name]__[local]___[hash:base64:5]", "composed.module.css", "apply-color", "composed-module__apply-color___POsFA"},
		{"[name]__[local]___[hash:base64:5]", "treeshake-module/a.module.css", "treeshake-module-b", "a-module__treeshake-module-b___4muWN"},
		{"[local]", "mod.module.css", "x", "x"},
		{"[folder]-[local]", "treeshake-module/a.module.css", "x", "treeshake-module-x"},
	} {
		got := scopedNamer(c.pattern, "", root, filepath.Join(root, filepath.FromSlash(c.file)))(c.local)
		if got != c.want {
			t.Errorf("%s %s %s: got %q, want %q", c.pattern, c.file, c.local, got, c.want)
		}
	}
}

// TestScopeCSSModule checks postcss-modules' local mode as read here: classes and ids scoped,
// :global and :global(…) not, :local(…) unwrapped, keyframes and the animations that name
// them, composes (local, from a file, from global) taken out and exported, and a composes in
// a rule of many selectors refused.
func TestScopeCSSModule(t *testing.T) {
	name := func(s string) string { return "S_" + s }
	src := `@keyframes spin { from { opacity: 0 } }
.a, #b:hover { animation: 1s spin infinite; color: red }
:global(.g) .c { color: blue }
:global .h .i { color: green }
.d :local(.e) { color: teal }
.f { composes: a c; composes: x y from './other.module.css'; composes: z from global; color: pink }
@media (min-width: 1px) { .a { color: navy } }
[class="a"] { color: olive }
`
	sc, err := scopeCSSModule(src, name)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"@import \"./other.module.css\";", "@keyframes S_spin", ".S_a, #S_b:hover", "animation: 1s S_spin infinite", ".g .S_c", ".h .i", ".S_d .S_e", ".S_f {", "   color: pink }", "@media (min-width: 1px) { .S_a", `[class="a"]`} {
		if !strings.Contains(sc.css, w) {
			t.Errorf("the stylesheet lacks %q:\n%s", w, sc.css)
		}
	}
	if strings.Contains(sc.css, "composes") || strings.Contains(sc.css, ":global") || strings.Contains(sc.css, ":local") {
		t.Errorf("the stylesheet keeps composes, :global or :local:\n%s", sc.css)
	}
	var f []string
	for _, p := range sc.parts["f"] {
		f = append(f, p.text+p.from+":"+p.name)
	}
	if got := strings.Join(f, " "); got != "S_f: S_a: S_c: ./other.module.css:x ./other.module.css:y z:" {
		t.Errorf("f exports %s", got)
	}
	if _, err := scopeCSSModule(".a, .b { composes: c }", name); err == nil || !strings.Contains(err.Error(), "one class") {
		t.Errorf("composes in a selector list gives %v, want a refusal", err)
	}
}

// TestScopedNamesWithConvention checks a build whose config sets both a generateScopedName
// pattern and a localsConvention: the names are the pattern's, exported by the convention, a
// composed file's rules before the composing one's.
func TestScopedNamesWithConvention(t *testing.T) {
	dir := writeApp(t, map[string]string{
		"miniapp.toml":   "id = \"p\"\nname = \"P\"\ndescription = \"d\"\n",
		"vite.config.js": "export default { css: { modules: { localsConvention: 'camelCaseOnly', generateScopedName: 'pg_[local]' } } }\n",
		"index.html":     `<!doctype html><meta charset="utf-8"><p id="x">x</p><script type="module" src="./main.js"></script>`,
		"main.js":        "import s from './a.module.css'\ndocument.getElementById('x').className = s.fooBar + '|' + s['foo-bar']\n",
		"a.module.css":   ".foo-bar { composes: base from './b.module.css'; color: red }\n",
		"b.module.css":   ".base { margin: 0 }\n",
	})
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	page := string(res.HTML)
	if !strings.Contains(page, ".pg_base{margin:0}.pg_foo-bar{color:red}") || !strings.Contains(page, "fooBar") || !strings.Contains(page, `"pg_foo-bar "`) {
		t.Errorf("the page lacks the pattern's class or the convention's name:\n%s", page)
	}
}

// TestScopedNameFunction checks a generateScopedName function of the config, called by the CSS
// tools' Node process with each name, the file's path and its CSS, as postcss-modules calls it;
// and one that throws, refused with its message.
func TestScopedNameFunction(t *testing.T) {
	files := map[string]string{
		"miniapp.toml":   "id = \"p\"\nname = \"P\"\ndescription = \"d\"\n",
		"vite.config.js": "import path from 'node:path'\nexport default { css: { modules: { generateScopedName: (name, file, css) => `fn_${name}_${path.basename(file, '.module.css')}_${css.includes(name)}` } } }\n",
		"index.html":     `<!doctype html><meta charset="utf-8"><p id="x">x</p><script type="module" src="./main.js"></script>`,
		"main.js":        "import s from './a.module.css'\ndocument.getElementById('x').className = s['foo-bar']\n",
		"a.module.css":   ".foo-bar { color: red }\n#baz { color: blue }\n",
	}
	res, err := Build(context.Background(), writeApp(t, files), Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	page := string(res.HTML)
	if !strings.Contains(page, ".fn_foo-bar_a_true{") || !strings.Contains(page, "#fn_baz_a_true{") {
		t.Errorf("the page lacks the function's names:\n%s", page)
	}
	for _, w := range res.Warnings {
		if strings.Contains(w.Text, "generateScopedName") {
			t.Errorf("a warning of an applied option: %s", w.Text)
		}
	}
	files["vite.config.js"] = "export default { css: { modules: { generateScopedName: (name) => { if (name === 'baz') throw new Error('no baz'); return name } } } }\n"
	_, err = Build(context.Background(), writeApp(t, files), Options{NoWrite: true})
	if err == nil || !strings.Contains(err.Error(), "no baz") || !strings.Contains(err.Error(), "generateScopedName") {
		t.Errorf("a function that throws gives %v, want its message", err)
	}
	// One that never returns is an error after toolTimeout (it waited for ever before).
	saved := toolTimeout
	toolTimeout = testwait.Scaled(10 * time.Second)
	t.Cleanup(func() { toolTimeout = saved })
	files["vite.config.js"] = "export default { css: { modules: { generateScopedName: (name) => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); } } } }\n"
	_, err = Build(context.Background(), writeApp(t, files), Options{NoWrite: true})
	if want := "css.modules.generateScopedName in vite.config.js did not finish for a.module.css in " + toolTimeout.String(); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a function that loops gives %v, want %q", err, want)
	}
}
