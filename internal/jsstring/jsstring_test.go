package jsstring

import (
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// rows are literals whose values the language fixes, each checked against Node (V8) too.
var rows = []string{
	`''`, `"plain"`, "`plain`",
	`'\n\t\r\b\f\v\0'`, `'\'\"\\'`, `"\x41\x7e"`, `'\u0041\u00e9'`, `'\u{1F600}'`, `'\u{0000041}'`,
	`'\uD83D\uDE00'`, `'\u{D83D}\u{DE00}'`, `'\uD83D'`, `'\uDE00x'`, `'\uD83Dz'`,
	`'\150ttps://x'`, `'\1\12\123\1234'`, `'\4\47\477'`, `'\08'`, `'\0a'`, `'\8\9'`, `'\00'`,
	"'a\\\nb'", "'a\\\r\nb'", "'a\\\rb'", "'a\\\u2028b'", "'a\u2028b'", `'\q\é\😀'`, `'é😀'`,
	"`a\r\nb`", "`a\rb`", "`a\\\r\nb`", "`$ {} $`", "`\\${x}`", "`\\0`",
	// Not literals the language accepts:
	`'\x4'`, `'\xg0'`, `'\u12'`, `'\u{}'`, `'\u{110000}'`, `'\u{12'`, `'ab\'`, "'a\nb'", "'a\rb'",
	"`\\1`", "`\\01`", "`\\8`", "`\\xq`", "`\\u{`", `'x"`, `'`,
}

func TestDecodeLikeV8(t *testing.T) {
	lits := slices.Clone(rows)
	// A generated corpus: fragments of every form, in random order, in every quote.
	frags := []string{"a", "é", "😀", "$", "{", "}", `\`, `\\`, `\n`, `\0`, `\1`, `\12`, `\377`, `\400`, `\8`,
		`\x`, `\x4`, `\x41`, `\u`, `\u00`, `\u0041`, `\uD83D`, `\uDE00`, `\u{`, `\u{1F600}`, `\u{}`,
		`\u{10FFFF}`, `\u{110000}`, "\\\n", "\\\r\n", "\r\n", "\r", "\n", "\u2028", "\\\u2029", `\'`, `\"`, "\\`", "0", "7", "9"}
	rng := rand.New(rand.NewPCG(26, 1))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(frags[rng.IntN(len(frags))])
		}
		q := []string{"'", `"`, "`"}[rng.IntN(3)]
		body := b.String()
		if q == "`" && strings.Contains(body, "${") {
			continue // a template with a substitution is not Decode's
		}
		if strings.Contains(strings.ReplaceAll(body, `\\`, ""), `\`+q) || strings.Contains(strings.ReplaceAll(body, `\`+q, ""), q) {
			continue // a quote that may end the literal early: not one literal
		}
		lits = append(lits, q+body+q)
	}
	want := nodeEval(t, lits, "lit => (0, eval)(lit)")
	nOK := 0
	for _, w := range want {
		if w.OK {
			nOK++
		}
	}
	t.Logf("%d literals, %d of them valid", len(lits), nOK)
	for i, lit := range lits {
		got, ok := Decode(lit)
		w := want[i]
		switch {
		case ok != w.OK:
			t.Errorf("Decode(%q): ok %v, V8 %v (%s)", lit, ok, w.OK, w.Err)
		case ok && got != w.Value():
			t.Errorf("Decode(%q) = %q, V8 %q", lit, got, w.Value())
		}
	}
}

type v8Value struct {
	OK    bool
	Units []uint16
	Err   string
}

// Value is the string the code units make (a lone surrogate U+FFFD).
func (v v8Value) Value() string { return string(utf16.Decode(v.Units)) }

// nodeEval runs fn, a JavaScript function of one string, on each input in Node, sloppy code
// as a page's classic script is, and returns the UTF-16 code units of its string result, or
// its error.
func nodeEval(t *testing.T, inputs []string, fn string) []v8Value {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("Node.js is needed (scripts/test installs it): %v", err)
	}
	in, _ := json.Marshal(inputs)
	cmd := exec.Command(node, "-e", `
const f = `+fn+`;
let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
  process.stdout.write(JSON.stringify(JSON.parse(s).map(x => {
    try {
      const v = f(x);
      if (typeof v !== "string") return {OK: false, Err: "not a string"};
      return {OK: true, Units: Array.from({length: v.length}, (_, i) => v.charCodeAt(i))};
    } catch (e) { return {OK: false, Err: String(e)}; }
  })));
});`)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var vs []v8Value
	if err := json.Unmarshal(out, &vs); err != nil || len(vs) != len(inputs) {
		t.Fatalf("node's answer: %v (%d values for %d inputs)", err, len(vs), len(inputs))
	}
	return vs
}

func FuzzDecode(f *testing.F) {
	for _, r := range rows {
		f.Add(r)
	}
	f.Fuzz(func(t *testing.T, lit string) { Decode(lit) })
}
