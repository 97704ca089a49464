package pipeline

import (
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// guardedClasses is src with guardedClassEdits applied; "" when there are none.
func guardedClasses(src string) string {
	edits := guardedClassEdits(&pkgModule{src: src})
	if len(edits) == 0 {
		return ""
	}
	return applyEdits(src, edits)
}

// TestGuardedClasses: a class of a global defined behind typeof G === "function" into a
// binding declared just before becomes the binding's pure-annotated initializer; a pair whose
// definition could run code, or whose binding is written elsewhere, or that is not a pair,
// is left as written.
func TestGuardedClasses(t *testing.T) {
	const body = "{\n\t$$c;\n\tx = new Map();\n\tstatic s;\n\tconstructor(a) { super(); this.$$c = a; }\n\tget y() { return 1; }\n\tstatic m() {}\n}"
	const open = " = /* @__PURE__ */ (() => { "
	for _, r := range []struct{ name, src, want string }{
		{"braced, as Svelte's", "let E;\n\nif (typeof HTMLElement === 'function') {\n\tE = class extends HTMLElement " + body + ";\n}\nexport function f() { return class extends E {}; }\n",
			"let E" + open + "if (typeof HTMLElement === 'function') {\n\treturn class extends HTMLElement " + body + ";\n} })();\nexport function f() { return class extends E {}; }\n"},
		{"unbraced, no semicolons, minified", "var E\nif(\"function\"==typeof HTMLElement)E=class extends HTMLElement{a=1}\nexport{E}",
			"var E" + open + "if(\"function\"==typeof HTMLElement)return class extends HTMLElement{a=1} })();\nexport{E}"},
		{"unbraced, semicolon", "let E;if(typeof Node===\"function\")E=class{m(){}};export{E};",
			"let E" + open + "if(typeof Node===\"function\")return class{m(){}}; })();export{E};"},
		{"a template in the class", "let E;\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement { t() { return `a${{}.b}c${1}`; } } }\n",
			"let E" + open + "if (typeof HTMLElement === 'function') { return class extends HTMLElement { t() { return `a${{}.b}c${1}`; } } } })();\n"},
		{"exported", "export let E;\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement {}; }\n",
			"export let E" + open + "if (typeof HTMLElement === 'function') { return class extends HTMLElement {}; } })();\n"},
		{"written again", "let E;\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement {}; }\nexport function f() { E = null; }\n", ""},
		{"written by a pattern", "let E;\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement {}; }\n[E] = [1];\n", ""},
		{"updated", "let E;\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement {}; }\nE++;\n", ""},
		{"written by a for-of head", "var E;\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement {}; }\nfor (var E of g) ;\n", ""},
		{"a code between", "let E;\nf();\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement {}; }\n", ""},
		{"an initializer", "let E = 1;\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement {}; }\n", ""},
		{"two bindings", "let E, F;\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement {}; }\n", ""},
		{"an else", "let E;\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement {}; } else E = 1;\n", ""},
		{"two statements", "let E;\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement {}; f(); }\n", ""},
		{"a guard of a module binding", "let E;\nconst HTMLElement = g();\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement {}; }\n", ""},
		{"another heritage", "let E;\nif (typeof HTMLElement === 'function') { E = class extends Element {}; }\n", ""},
		{"a call as heritage", "let E;\nif (typeof HTMLElement === 'function') { E = class extends mix(HTMLElement) {}; }\n", ""},
		{"not a function test", "let E;\nif (typeof HTMLElement !== 'undefined') { E = class extends HTMLElement {}; }\n", ""},
		{"a static field with a value", "let E;\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement { static x = f(); }; }\n", ""},
		{"a static block", "let E;\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement { static { f(); } }; }\n", ""},
		{"a computed key", "let E;\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement { [k()]() {} }; }\n", ""},
		{"not a class", "let E;\nif (typeof HTMLElement === 'function') { E = f(); }\n", ""},
		{"eval", "let E;\nif (typeof HTMLElement === 'function') { E = class extends HTMLElement {}; }\neval('E = 1');\n", ""},
	} {
		if got := guardedClasses(r.src); got != r.want {
			t.Errorf("%s:\n got %q\nwant %q", r.name, got, r.want)
		}
	}
}

// TestGuardedClassesDropped: a package's class defined behind a typeof guard is left out of
// the page when nothing reads it, as Vite's build leaves it out, and one that is read is in
// the page and works (Chromium).
func TestGuardedClassesDropped(t *testing.T) {
	dir := t.TempDir()
	guarded := func(name, marker string) string {
		return "let " + name + ";\nif (typeof HTMLElement === 'function') {\n\t" + name + " = class extends HTMLElement {\n\t\tmarker = \"" + marker +
			"\";\n\t\tconnectedCallback() { this.textContent = this.marker; }\n\t};\n}\n"
	}
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":                       "id = \"gc\"\nname = \"GC\"\ndescription = \"Guarded classes.\"\nentry = \"src/main.js\"\n",
		"src/main.js":                        "import { define } from \"elements\";\ndefine(\"x-used\");\nconst e = document.createElement(\"x-used\");\ndocument.body.append(e);\nwindow.result = e.textContent;\n",
		"node_modules/elements/package.json": `{"name": "elements", "type": "module", "sideEffects": false}`,
		"node_modules/elements/index.js": guarded("Used", "USED_CLASS_MARKER") + guarded("Unused", "UNUSED_CLASS_MARKER") +
			"export function define(tag) { customElements.define(tag, class extends Used {}); }\n" +
			"export function defineOther(tag) { customElements.define(tag, class extends Unused {}); }\n",
	})
	res := built(t, dir)
	if page := string(res.HTML); strings.Contains(page, "UNUSED_CLASS_MARKER") || !strings.Contains(page, "USED_CLASS_MARKER") {
		t.Errorf("the unused class is in the page, or the used one is not")
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/gc.html", res.HTML), 0)
	b.Await(t, `window.result !== undefined`)
	if got := browsertest.Eval[string](t, b, `window.result`); got != "USED_CLASS_MARKER" {
		t.Errorf("the page shows %q", got)
	}
}
