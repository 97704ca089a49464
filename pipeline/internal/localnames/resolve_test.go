package localnames

import (
	"strings"
	"testing"
)

// TestResolve resolves each name to its binding by the parse's scopes: a parameter or a local
// named document is not the global, a const's references are its declaration's binding, and
// what the parse cannot place (eval, with) is not resolved.
func TestResolve(t *testing.T) {
	for _, r := range []struct {
		name, src string
		// at is the names to read, each "text@n" (the nth occurrence of text, from 0); free
		// says which are free, same pairs them with the one before when both are one binding.
		at   []string
		free []bool
		same []bool
		ok   bool
	}{
		{"a global", `document.write(x);`, []string{"document@0", "x@0"}, []bool{true, true}, []bool{false, false}, true},
		{"a parameter shadows", `function f(document) { document.write(x); } document.title;`,
			[]string{"document@0", "document@1", "document@2"}, []bool{false, false, true}, []bool{false, true, false}, true},
		{"a const alias", `const d = document; d.write(x); function g() { d.open(); }`,
			[]string{"d@0", "d@1", "d@2", "document@0"}, []bool{false, false, false, true}, []bool{false, true, true, false}, true},
		{"a block's let", `{ let location = 1; location; } location;`,
			[]string{"location@0", "location@1", "location@2"}, []bool{false, false, true}, []bool{false, true, false}, true},
		{"a global in a nested function", `function a() { return () => window.open; }`, []string{"window@0"}, []bool{true}, []bool{false}, true},
		{"a hoisted var", `function a() { d.write(); var d = {}; }`, []string{"d@0", "d@1"}, []bool{false, false}, []bool{false, true}, true},
		{"an import's bindings", `import open, { write as w, document } from "./x.js"; import * as location from "./y.js"; open(); w(); document; location; window;`,
			[]string{"open@1", "w@1", "document@1", "location@1", "window@0"}, []bool{false, false, false, false, true}, []bool{false, false, false, false, false}, true},
		{"with", `with (o) { document.write(x); }`, nil, nil, nil, false},
		{"direct eval", `eval(s); document.write(x);`, nil, nil, nil, false},
	} {
		t.Run(r.name, func(t *testing.T) {
			names, ok := Resolve(r.src)
			if ok != r.ok {
				t.Fatalf("%s: ok %v, want %v", r.src, ok, r.ok)
			}
			prev := -1
			for k, at := range r.at {
				text, nth, _ := strings.Cut(at, "@")
				off := wordAt(r.src, text, int(nth[0]-'0'))
				if off < 0 {
					t.Fatalf("no %s in %s", at, r.src)
				}
				n, found := names[off]
				if !found {
					t.Fatalf("%s: %s is not resolved: %v", r.src, at, names)
				}
				if n.Free != r.free[k] {
					t.Errorf("%s: %s free %v, want %v", r.src, at, n.Free, r.free[k])
				}
				if r.same[k] && n.Binding != prev {
					t.Errorf("%s: %s is not the binding of the name before it", r.src, at)
				}
				if !r.same[k] && k > 0 && n.Binding == prev {
					t.Errorf("%s: %s is the binding of the name before it", r.src, at)
				}
				prev = n.Binding
			}
		})
	}
}

// wordAt returns the offset of the nth occurrence of word in src as a whole word, or -1.
func wordAt(src, word string, nth int) int {
	isWord := func(i int) bool {
		if i < 0 || i >= len(src) {
			return false
		}
		c := src[i]
		return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	for from := 0; ; {
		j := strings.Index(src[from:], word)
		if j < 0 {
			return -1
		}
		off := from + j
		from = off + len(word)
		if isWord(off-1) || isWord(off+len(word)) {
			continue
		}
		if nth == 0 {
			return off
		}
		nth--
	}
}

// TestResolveWritten reads which bindings a program writes other than by the one declaration
// that gives their value (Name.Written): a let or var written nowhere else holds its value.
func TestResolveWritten(t *testing.T) {
	for _, r := range []struct {
		name, src, at string
		written       bool
	}{
		{"a var declared once", `var d = document; d.write(x);`, "d@1", false},
		{"a let in a list", `let a = 1, d = document; d.write(x);`, "d@1", false},
		{"a let assigned", `let d = document; d = other; d.write(x);`, "d@2", true},
		{"a var assigned in a function", `var d = document; function f() { d = other; } d.write(x);`, "d@2", true},
		{"a var declared twice", `var d = document; var d = other; d.write(x);`, "d@2", true},
		{"a var declared again without a value", `var d = document; var d; d.write(x);`, "d@2", false},
		{"a let updated", `let d = 1; d++; f(d);`, "d@2", true},
		{"a let compound-assigned", `let d = ""; d ||= x; f(d);`, "d@2", true},
		{"an array pattern", `let d = document; [d] = list; d.write(x);`, "d@2", true},
		{"an object pattern", `let d = document; ({ a: d } = o); d.write(x);`, "d@2", true},
		{"a declaration's pattern", `var d = document; var { d } = o; d.write(x);`, "d@2", true},
		{"a for-of head", `let d = document; for (d of list) d.write(x);`, "d@2", true},
		{"a property written", `let d = document; d.title = "t"; d.write(x);`, "d@2", false},
		{"a shadowing parameter written", `let d = document; function f(d) { d = 1; } d.write(x);`, "d@3", false},
	} {
		t.Run(r.name, func(t *testing.T) {
			names, ok := Resolve(r.src)
			if !ok {
				t.Fatalf("%s: not resolved", r.src)
			}
			text, nth, _ := strings.Cut(r.at, "@")
			n, found := names[wordAt(r.src, text, int(nth[0]-'0'))]
			if !found {
				t.Fatalf("%s: %s is not resolved", r.src, r.at)
			}
			if n.Written != r.written {
				t.Errorf("%s: %s written %v, want %v", r.src, r.at, n.Written, r.written)
			}
		})
	}
}
