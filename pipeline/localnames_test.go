package pipeline

import (
	"fmt"
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
		before := withMap(t, src, api.TransformOptions{MinifyWhitespace: whole})
		after := renameLocals(before, false)
		if after.js == before.js {
			t.Fatalf("nothing renamed in %s", before.js)
		}
		// The places compared: every edit's, and each END string's, in both texts.
		edits := localnames.Rename(before.js)
		var places []mapPlace
		shift := 0
		for _, e := range edits {
			places = append(places, mapPlace{e.Start, e.Start + shift})
			shift += len(e.Text) - (e.End - e.Start)
		}
		places = append(places, placesOf(before.js, after.js, `"END1"`, `"END2"`)...)
		sameSources(t, fmt.Sprintf("whole line %v", whole), before, after, places)
	}
}

// withMap is src, an ES module app.js, as esbuild writes it with opts, and its source map.
func withMap(t *testing.T, src string, opts api.TransformOptions) code {
	t.Helper()
	opts.Format, opts.Sourcemap, opts.Sourcefile, opts.Charset = api.FormatESModule, api.SourceMapExternal, "app.js", api.CharsetUTF8
	res := api.Transform(src, opts)
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	return code{js: string(res.Code), jsMap: res.Map}
}

// mapPlace is a place of the code before a pass and the same place after it.
type mapPlace struct{ old, new int }

// placesOf gives the place of each of marks in before and after.
func placesOf(before, after string, marks ...string) []mapPlace {
	var places []mapPlace
	for _, m := range marks {
		places = append(places, mapPlace{strings.Index(before, m), strings.Index(after, m)})
	}
	return places
}

// sameSources checks that each of places of after maps, by after's source map, to the source
// place its old place in before mapped to.
func sameSources(t *testing.T, label string, before, after code, places []mapPlace) {
	t.Helper()
	m0, err := sourcemap.Parse(before.jsMap)
	if err != nil {
		t.Fatal(err)
	}
	m1, err := sourcemap.Parse(after.jsMap)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range places {
		l0, c0 := lineCol(before.js, p.old)
		l1, c1 := lineCol(after.js, p.new)
		want, ok0 := m0.Find(l0, c0)
		got, ok1 := m1.Find(l1, c1)
		if !ok0 || !ok1 || want != got {
			t.Errorf("%s: %d:%d mapped to %v, after the pass %d:%d maps to %v\n%s\n%s", label, l0, c0, want, l1, c1, got, before.js, after.js)
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
