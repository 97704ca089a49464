package pipeline

import (
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/miniapp/bundle/sourcemap"
)

// TestRenameLocalsMap: after renaming, each place of the page's code maps to the source
// place it mapped to before: the renamed names, and the code after them on their line (a
// string of letters outside the Basic Multilingual Plane before them, whose UTF-16 columns
// are two each), on lines minified whole or not.
func TestRenameLocalsMap(t *testing.T) {
	src := "export const s = \"é😀\"; export function first(alpha, beta) { const gamma = alpha * beta; return [gamma, \"END1\"] }\n" +
		"export function second(delta) {\n  let epsilon = delta + 1;\n  return epsilon + \"END2\";\n}\n"
	for _, whole := range []bool{true, false} {
		// esbuild's names kept, so that the new ones are shorter and the columns move.
		res := api.Transform(src, api.TransformOptions{Format: api.FormatESModule, MinifyWhitespace: whole,
			Sourcemap: api.SourceMapExternal, Sourcefile: "app.js", Charset: api.CharsetUTF8})
		if len(res.Errors) > 0 {
			t.Fatal(res.Errors)
		}
		before := code{js: string(res.Code), jsMap: res.Map}
		after := renameLocals(before, false)
		if after.js == before.js {
			t.Fatalf("nothing renamed in %s", before.js)
		}
		m0, err := sourcemap.Parse(before.jsMap)
		if err != nil {
			t.Fatal(err)
		}
		m1, err := sourcemap.Parse(after.jsMap)
		if err != nil {
			t.Fatal(err)
		}
		// The places compared: every edit's, and each END string's, in both texts.
		edits := localnames.Rename(before.js)
		type place struct{ old, new int }
		var places []place
		shift := 0
		for _, e := range edits {
			places = append(places, place{e.Start, e.Start + shift})
			shift += len(e.Text) - (e.End - e.Start)
		}
		for _, end := range []string{`"END1"`, `"END2"`} {
			places = append(places, place{strings.Index(before.js, end), strings.Index(after.js, end)})
		}
		for _, p := range places {
			l0, c0 := lineCol(before.js, p.old)
			l1, c1 := lineCol(after.js, p.new)
			want, ok0 := m0.Find(l0, c0)
			got, ok1 := m1.Find(l1, c1)
			if !ok0 || ok0 != ok1 || want != got {
				t.Errorf("whole line %v: %d:%d mapped to %v, after renaming %d:%d maps to %v\n%s\n%s", whole, l0, c0, want, l1, c1, got, before.js, after.js)
			}
		}
	}
}

// lineCol is the 0-based line and UTF-16 column of offset off in text, as
// sourcemap.Map.Find takes them.
func lineCol(text string, off int) (int, int) {
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndex(text[:off], "\n") + 1
	col := 0
	for _, r := range text[start:off] {
		col++
		if r > 0xFFFF {
			col++
		}
	}
	return line, col
}
