package pipeline

import "testing"

// TestUsesCommonJS: a script file reads CommonJS's names where its code declares none; where
// it does not, the build reads it as the ES module the browser evaluates (moduleMark).
func TestUsesCommonJS(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"// A module that throws.\nthrow new Error('x');\n", false},
		{"window.x = typeof this;\n", false},
		{"module.exports = 1;\n", true},
		{"exports.a = 1;\n", true},
		{"const m = require('./m');\n", true},
		{"function f() { return require('./m'); }\n", true},
		{"if (typeof module === 'object') { window.umd = 1; }\n", true},
		{"const module = { name: 'mine' };\nwindow.m = module.name;\n", false},
		{"function f(exports) { exports.a = 1; }\n", false},
		{"const s = 'module.exports';\n", false},
		{"let x: number = require('y');\n", true}, // not JavaScript: left to esbuild
	} {
		if got := usesCommonJS(c.src); got != c.want {
			t.Errorf("usesCommonJS(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}
