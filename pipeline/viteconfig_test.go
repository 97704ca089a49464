package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/testwait"
)

// TestViteConfig builds apps whose vite.config does what a build takes from it, and the bad
// configs of issue 26: one that throws (placed at its line), one that never returns (a
// timeout that says so), one that imports a package not installed (the install advice), one
// with a syntax error (esbuild's place), and plugins bundle does not run (one warning that
// names them, with what the page may miss; Tailwind's, which bundle does another way, not
// named).
func TestViteConfig(t *testing.T) {
	saved := viteConfigTimeout
	// Scaled: on a busy machine Node alone can take seconds to load a config.
	viteConfigTimeout = testwait.Scaled(10 * time.Second)
	late := "error: vite.config.js did not finish loading in " + viteConfigTimeout.String()
	t.Cleanup(func() { viteConfigTimeout = saved })
	page := `<!doctype html><meta charset="utf-8"><script type="module" src="./main.js"></script>`
	for _, c := range []struct {
		name   string
		config string
		files  map[string]string
		page   []string // substrings of the page
		diags  []string // substrings of the messages
		ok     bool
	}{
		{"function_config_gets_build_env", "export default ({ command, mode, isSsrBuild }) => ({ define: { __WHO__: JSON.stringify(`${command} ${mode} ${isSsrBuild}`) } })\n",
			map[string]string{"main.js": "document.title = __WHO__"}, []string{`"build production false"`}, nil, true},
		{"async_config_and_dirname", "import path from 'node:path'\nexport default async () => ({ resolve: { alias: { '~lib': path.join(import.meta.dirname, 'lib') } } })\n",
			map[string]string{"main.js": "import { x } from '~lib/x.js'\ndocument.title = x", "lib/x.js": "export const x = 'from lib'"}, []string{"from lib"}, nil, true},
		{"ts_config", "import type { UserConfig } from 'vite'\nconst config: UserConfig = { define: { __TS__: '\"typed\"' } }\nexport default config\n",
			map[string]string{"main.js": "document.title = __TS__"}, []string{`"typed"`}, nil, true},
		{"manifest_build_wins", "export default { define: { __X__: '\"config\"' }, build: { target: 'es2018' } }\n",
			map[string]string{"main.js": "document.title = __X__", "miniapp.toml": "id = \"x\"\nname = \"X\"\ndescription = \"d\"\n[build]\ndefine = { __X__ = '\"manifest\"' }\n"}, []string{`"manifest"`}, nil, true},
		{"throws", "const port = 1\n\nthrow new Error('no port ' + port)\nexport default {}\n", nil, nil,
			[]string{"vite.config.js:3:7: error: vite.config.js threw: no port 1", "throw new Error('no port ' + port)"}, false},
		{"throws_in_function", "export default () => {\n  const env = undefined\n  return { base: env.BASE }\n}\n", nil, nil,
			[]string{"vite.config.js:3:22: error: vite.config.js threw: Cannot read properties of undefined (reading 'BASE')"}, false},
		{"never_returns", "await new Promise(() => {})\nexport default {}\n", nil, nil,
			[]string{late, "a config that awaits a promise nothing settles, or loops"}, false},
		{"loops", "for (;;) {}\nexport default {}\n", nil, nil,
			[]string{late}, false},
		{"package_not_installed", "import react from '@vitejs/plugin-react'\nexport default { plugins: [react()] }\n", nil, nil,
			[]string{"error: vite.config.js imports @vitejs/plugin-react, which is not installed", "no package.json of the app declares @vitejs/plugin-react", "npm install -D <that name>"}, false},
		{"syntax_error", "export default {\n  define: { a: 1,, }\n}\n", nil, nil,
			[]string{"vite.config.js:2:18: error: Expected identifier but found \",\""}, false},
		{"not_an_object", "export default 42\n", nil, nil,
			[]string{"vite.config.js threw: the config must export an object or a function that returns one, not number"}, false},
		{"css_modules_not_applied", "export default { css: { modules: { localsConvention: (name) => name.toUpperCase(), generateScopedName: (name) => 'x-' + name } } }\n",
			map[string]string{"main.js": "import s from './a.module.css'\ndocument.title = s['foo-bar']", "a.module.css": ".foo-bar { color: red }"}, nil,
			[]string{`vite.config.js: warning: bundle does not apply the config's css.modules localsConvention as a function (a class is exported by its name as written: styles.fooBar is undefined for .foo-bar; write styles["foo-bar"])`}, true},
		{"css_modules_unused", "export default { css: { modules: { localsConvention: 'camelCase' } } }\n", nil, nil, nil, true},
		{"plugins_bundle_does_not_run", `export default { plugins: [
  { name: 'copy-beside', writeBundle() {} },
  [{ name: 'vite:react-babel', transform() {} }, false, null],
  { name: '@tailwindcss/vite:generate:build', transform() {} },
  { name: 'only-config', config() {} },
  { name: 'dev-only', apply: 'serve', transform() {} },
] }
`, map[string]string{"main.js": "document.title = 'x'"}, nil,
			[]string{`vite.config.js: warning: bundle does not run the config's plugins "copy-beside": what its writeBundle do; "vite:react-babel": @vitejs/plugin-react's Babel transforms`}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "app")
			files := map[string]string{"miniapp.toml": "id = \"x\"\nname = \"X\"\ndescription = \"A Vite app.\"\n", "index.html": page, "vite.config.ts": c.config}
			if !strings.Contains(c.config, "import type") {
				delete(files, "vite.config.ts")
				files["vite.config.js"] = c.config
			}
			if files["main.js"] == "" {
				files["main.js"] = "document.title = 'x'"
			}
			for k, v := range c.files {
				files[k] = v
			}
			for name, body := range files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			start := time.Now()
			res, err := Build(context.Background(), dir, Options{NoWrite: true})
			took := time.Since(start)
			var list diag.List
			var el *diag.ListError
			switch {
			case errors.As(err, &el):
				list = el.List
			case err != nil:
				t.Fatal(err)
			default:
				list = res.Warnings
			}
			if (err == nil) != c.ok {
				t.Fatalf("build error %v, want an error: %v", err, !c.ok)
			}
			var text string
			for _, d := range list {
				if d.Path == "hosts" {
					continue
				}
				text += strings.ReplaceAll(d.String(), filepath.ToSlash(dir)+"/", "") + "\n  " + d.LineText + "\n  " + d.Note + "\n"
			}
			for _, w := range c.diags {
				if !strings.Contains(text, w) {
					t.Errorf("messages lack %q:\n%s", w, text)
				}
			}
			if c.name == "plugins_bundle_does_not_run" {
				if n := strings.Count(text, "does not run"); n != 1 {
					t.Errorf("%d warnings of plugins, want one:\n%s", n, text)
				}
				for _, not := range []string{"tailwindcss", "only-config", "dev-only"} {
					if strings.Contains(text, not) {
						t.Errorf("the warning names %s, which changes nothing bundle builds:\n%s", not, text)
					}
				}
			}
			if c.diags == nil && text != "" {
				t.Errorf("messages, want none:\n%s", text)
			}
			for _, w := range c.page {
				if !strings.Contains(string(res.HTML), w) {
					t.Errorf("the page lacks %q", w)
				}
			}
			if strings.HasPrefix(c.name, "never") || c.name == "loops" {
				if took > viteConfigTimeout+20*time.Second {
					t.Errorf("the build took %v, past its timeout of %v", took, viteConfigTimeout)
				}
			}
		})
	}
}

// TestJSReplace holds jsReplace to JavaScript's String.prototype.replace with a replacement
// string, as Vite's alias of a regular expression uses it.
func TestJSReplace(t *testing.T) {
	for _, c := range []struct{ re, s, repl, want string }{
		{`^regex\/(.*)`, "regex/test", "/abs/dir/$1", "/abs/dir/test"},
		{`(a)(b)`, "xaby", "[$2$1]", "x[ba]y"},
		{`a`, "cab", "$&$&", "caab"},
		{`b`, "abc", "$`|$'", "aa|cc"},
		{`(a)`, "a", "$10", "a0"}, // one group: $1 then 0
		{`(a)`, "a", "$$1", "$1"},
		{`(?P<name>a)`, "a", "<$<name>>", "<a>"},
		{`(a)`, "a", "$2", "$2"}, // no such group: as written
		{`^\/\/`, "//url.js", "/dir/", "/dir/url.js"},
	} {
		if got := jsReplace(regexp.MustCompile(c.re), c.s, c.repl); got != c.want {
			t.Errorf("%q.replace(/%s/, %q) = %q, want %q", c.s, c.re, c.repl, got, c.want)
		}
	}
}
