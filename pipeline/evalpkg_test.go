package pipeline

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
)

// TestEvalInPackages: a package the page holds that runs eval when imported (a development
// build) is warned of by name with the opt-in; with eval = true it is not
// (TestRenderEvalPackage runs both in Chromium).
func TestEvalInPackages(t *testing.T) {
	manifestFile := "id = \"e\"\nname = \"E\"\ndescription = \"Eval.\"\nentry = \"main.js\"\n"
	main := "import DevMap from \"dev-map\";\nDevMap.draw(document.body);\n"
	text, err := buildIn(t, "eval-warned", map[string]string{"miniapp.toml": manifestFile, "main.js": main})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"node_modules/dev-map/lib/dev-map.js:21:1: warning: the package dev-map calls eval when the page runs it", "set eval = true in miniapp.toml"} {
		if !strings.Contains(text, want) {
			t.Errorf("want %q in:\n%s", want, text)
		}
	}
	if text, _ := buildIn(t, "eval-allowed", map[string]string{"miniapp.toml": manifestFile + "eval = true\n", "main.js": main}); strings.Contains(text, "dev-map") {
		t.Errorf("warned with eval = true:\n%s", text)
	}
	if text, _ := buildIn(t, "eval-none", map[string]string{"miniapp.toml": manifestFile, "main.js": "import { createElement } from \"react\";\nwindow.x = createElement;\n"}); strings.Contains(text, "eval") {
		t.Errorf("warned of a package without eval:\n%s", text)
	}
}

// TestEvalCallIn finds the calls a page would run, and only those.
func TestEvalCallIn(t *testing.T) {
	for _, row := range []struct {
		name, src string
		call      string // "" for none
		at        int
	}{
		{"direct", `var a = 1; eval("a + 1");`, "eval", 11},
		{"in_function", `function f() { return eval(s) } f();`, "eval", 22},
		{"new_function", `var f = new Function("a", "return a");`, "new Function", 12},
		{"function_call", `var f = Function("a", "return a");`, "Function", 8},
		{"window_eval", `window.eval("1")`, "eval", 7},
		{"second_outside_try", `try { eval("probe") } catch (e) {} eval("x")`, "eval", 35},
		{"catch_runs", `try { x() } catch (e) { eval("y") }`, "eval", 24},
		{"probe", `let ok; try { new Function(""); ok = true } catch { ok = false }`, "", 0},
		{"return_this", `var g = typeof self == "object" ? self : Function("return this")();`, "", 0},
		{"shadowed", `function f(eval) { return eval("x") }`, "", 0},
		{"method", `obj.eval("x"); a.Function("y");`, "", 0},
		{"in_string", `var s = "eval('x')"; // eval("y")`, "", 0},
		{"regexp_and_division", `var r = /eval\(/g, q = a / b / c; Function("x", "y")`, "Function", 34},
	} {
		t.Run(row.name, func(t *testing.T) {
			off, call, ok := evalCallIn([]byte(row.src))
			if call != row.call || ok != (row.call != "") || ok && off != row.at {
				t.Errorf("evalCallIn = %d %q %v, want %d %q", off, call, ok, row.at, row.call)
			}
		})
	}
}

// TestMayCallEval: the search for the text of a call says what the regular expression
// \b(?:eval|Function)\s*\( says, on each row and on the modules of the test apps' packages.
func TestMayCallEval(t *testing.T) {
	re := regexp.MustCompile(`\b(?:eval|Function)\s*\(`)
	rows := []string{"", "eval(", "eval (", "eval\t\n\f\r (", "xeval(", "_eval(", "9eval(", "$eval(", ".eval(", "evaluate(", "eval", "eval x(",
		"Function(", "new Function (", "myFunction(", "Function", "évalFunction(", "eval\v(", "evaleval(", "e eval(", "Functio eval  ("}
	for _, src := range rows {
		if got, want := mayCallEval([]byte(src)), re.MatchString(src); got != want {
			t.Errorf("%q: %v, the expression says %v", src, got, want)
		}
	}
	n := 0
	filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") || !strings.Contains(p, "node_modules") || n >= 2000 {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		n++
		if got, want := mayCallEval(src), re.Match(src); got != want {
			t.Errorf("%s: %v, the expression says %v", p, got, want)
		}
		return nil
	})
	if n == 0 {
		t.Error("no module of a package under testdata: run scripts/test, which installs them")
	}
}

// TestEvalInPackagesSession: a session's rebuild, which keeps what it found in each module,
// warns of a package module that came to call eval since, and stops when the call goes; a
// package.json whose browser field changes between two builds of a session is read anew.
func TestEvalInPackagesSession(t *testing.T) {
	dir := writeApp(t, map[string]string{
		"miniapp.toml":                      "id = \"e\"\nname = \"E\"\ndescription = \"Eval.\"\nentry = \"main.js\"\nhosts = [\"https://h.example\"]\n",
		"main.js":                           "import { run } from \"dev-map\";\nrun();\n",
		"node_modules/dev-map/package.json": `{"name":"dev-map","main":"index.js"}`,
		"node_modules/dev-map/index.js":     "import { x } from \"./a.js\";\nexport function run() { return x(); }\n",
		"node_modules/dev-map/a.js":         "export const x = () => \"from-a\";\n",
		"node_modules/dev-map/b.js":         "export const x = () => \"from-b\";\n",
	})
	session := NewSession()
	defer session.Close()
	mod := filepath.Join(dir, "node_modules", "dev-map", "index.js")
	plain, _ := os.ReadFile(mod)
	for _, step := range []struct {
		name, index, pkg string
		warned           bool
		has              string
	}{
		{"plain", string(plain), "", false, "from-a"},
		{"eval", string(plain) + "eval(\"1\");\n", "", true, "from-a"},
		{"browser_field", string(plain), `{"name":"dev-map","main":"index.js","browser":{"./a.js":"./b.js"}}`, false, "from-b"},
	} {
		os.WriteFile(mod, []byte(step.index), 0o644)
		if step.pkg != "" {
			os.WriteFile(filepath.Join(dir, "node_modules", "dev-map", "package.json"), []byte(step.pkg), 0o644)
		}
		res, err := Build(context.Background(), dir, Options{NoWrite: true, Session: session})
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if warned := strings.Contains(diag.FormatText(res.Warnings, false), "the package dev-map calls eval"); warned != step.warned {
			t.Errorf("%s: warned %v, want %v:\n%s", step.name, warned, step.warned, diag.FormatText(res.Warnings, false))
		}
		if !strings.Contains(string(res.HTML), step.has) {
			t.Errorf("%s: the page does not hold %q", step.name, step.has)
		}
	}
}

// TestContainsWord: a word of its own, not part of a longer name.
func TestContainsWord(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"import x from 'y'", true},
		{"x;export{a}", true},
		{"module.exports = {}", false},
		{"document.importNode(n)", false},
		{"a.$import + reimport + export_", false},
		{"éexport", false},
		{"", false},
		{"import", true},
		{"exports; export", true},
		// Next to a code point that is no part of an identifier (JavaScript's white space
		// and line ends outside ASCII) the word is a word; next to one that is, it is not.
		{"const b = 1;\u3000export { b }", true},
		{"a\u00a0import x from 'y'", true},
		{"a;\u2028export{a}", true},
		{"\ufeffimport 'x'", true},
		{"export\u3000{ a }", true},
		{"importé", false},
		{"ⅰexport", false},
		{"a\u0301export", false},
	} {
		if got := containsWord(c.src, "import", "export"); got != c.want {
			t.Errorf("containsWord(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}
