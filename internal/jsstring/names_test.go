package jsstring

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// identifierRows are names as written, each read by Node (V8) too: escapes of every form,
// the code points an identifier may hold first or after (Unicode's ID_Start and ID_Continue
// and ECMAScript's additions), and names V8 refuses.
var identifierRows = []string{
	"fetch", `f\u0065tch`, `f\u{65}tch`, `\u{66}etch`, `\u0066\u0065\u0074\u0063\u0068`, `f\u{000065}tch`,
	`a\u0030`, `\u0030a`, `a\u200C`, `\u200Ca`, `a\u200D`, "é", `\u00e9`, `\u{1D400}`, "𝐀", "$", "_", `\u0024`, `\u005F`,
	"℘", `\u2118`, "a·", "゛", "ⅰ", "a\u0301", "\u0301a", `\u0301a`, "if", `\u0069f`, "WebSocket", `WebSock\u0065t`,
	// Not names V8 reads:
	`a\u{}`, `a\u{110000}`, `a\u12`, `a\x41`, `\uD835\uDC00`, `a\uD800`, "a-b", `a\u002Db`, `a\`, `a\u`, `a\u{41`, "a b", `\u0020`,
}

func TestIdentifierLikeV8(t *testing.T) {
	ids := slices.Clone(identifierRows)
	frags := []string{"a", "Z", "é", "$", "_", "0", "9", `\u0065`, `\u{65}`, `\u{0000065}`, `\u0030`, `\u200C`, `\u200D`,
		`\u00B7`, `\u0301`, `\u{1D400}`, `\u{10FFFF}`, `\u{110000}`, `\u{}`, `\u12`, `\u`, `\`, `\u0024`, `\u002D`, "-", "·", "ⅰ"}
	rng := rand.New(rand.NewPCG(26, 2))
	for range 2000 {
		var b strings.Builder
		for range 1 + rng.IntN(4) {
			b.WriteString(frags[rng.IntN(len(frags))])
		}
		id := b.String()
		if id[0] >= '0' && id[0] <= '9' || strings.Contains(id, "__proto__") {
			continue // a number, or the prototype's key: not a name's test
		}
		ids = append(ids, id)
	}
	want := nodeEval(t, ids, `id => Object.keys((0, eval)("({" + id + ": 1})"))[0]`)
	for i, id := range ids {
		got, ok := Identifier(id)
		w := want[i]
		switch {
		case ok != w.OK:
			t.Errorf("Identifier(%q): ok %v, V8 %v %q (%s)", id, ok, w.OK, w.Value(), w.Err)
		case ok && got != w.Value():
			t.Errorf("Identifier(%q) = %q, V8 %q", id, got, w.Value())
		}
	}
}

// TestRawLikeV8: the raw value of a template, what String.raw gives.
func TestRawLikeV8(t *testing.T) {
	lits := []string{"``", "`plain`", "`a\\nb`", "`\\u{41}\\x41\\101`", "`\\unicode`", "`a\r\nb`", "`a\rb`", "`a\\\r\nb`",
		"`\\``", "`\\${x}`", "`$ {`", "`a\u2028b`", "`\\\\`", "`https:\\/\\/evil.example/`"}
	want := nodeEval(t, lits, `lit => (0, eval)("String.raw" + lit)`)
	for i, lit := range lits {
		got, ok := Raw(lit)
		if w := want[i]; ok != w.OK || got != w.Value() {
			t.Errorf("Raw(%q) = %q, %v; V8 %q, %v (%s)", lit, got, ok, w.Value(), w.OK, w.Err)
		}
	}
	for _, lit := range []string{"`a${x}`", "`a\\`", "'a'", "`a"} {
		if got, ok := Raw(lit); ok {
			t.Errorf("Raw(%q) = %q, want not a template without substitutions", lit, got)
		}
	}
}
