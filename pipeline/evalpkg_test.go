package pipeline

import (
	"strings"
	"testing"
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
	for _, want := range []string{"node_modules/dev-map/dist/dev-map.js:21:1: warning: the package dev-map calls eval when the page runs it", "set eval = true in miniapp.toml"} {
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
