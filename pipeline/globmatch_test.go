package pipeline

import (
	"slices"
	"sort"
	"testing"
)

// TestGlobMatch holds the matcher to picomatch's semantics with Vite's options (noextglob;
// dot and node_modules only when exhaustive, or when the pattern names them).
func TestGlobMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, path    string
		exhaustive, fold bool
		want             bool
	}{
		{"/a/*.js", "/a/x.js", false, false, true},
		{"/a/*.js", "/a/b/x.js", false, false, false},
		{"/a/**/*.js", "/a/x.js", false, false, true},
		{"/a/**/*.js", "/a/b/c/x.js", false, false, true},
		{"/a/**", "/a/b/c/x.js", false, false, true},
		{"/a/*", "/a/.env", false, false, false},
		{"/a/*", "/a/.env", true, false, true},
		{"/a/.*", "/a/.env", false, false, true},
		{"/a/**/*.js", "/a/.hidden/x.js", false, false, false},
		{"/a/**/*.js", "/a/.hidden/x.js", true, false, true},
		{"/a/.hidden/*.js", "/a/.hidden/x.js", false, false, true},
		{"/a/**/*.js", "/a/node_modules/x.js", false, false, false},
		{"/a/node_modules/**", "/a/node_modules/x.js", false, false, true},
		{"/a/**/*.js", "/a/node_modules/x.js", true, false, true},
		{"/a/*.{js,ts}", "/a/x.ts", false, false, true},
		{"/a/*.{js,ts}", "/a/x.css", false, false, false},
		{"/a/{b,c/{d,e}}/*.js", "/a/c/e/x.js", false, false, true},
		{"/a/x{1..3}.js", "/a/x2.js", false, false, true},
		{"/a/x{1..3}.js", "/a/x4.js", false, false, false},
		{"/a/x{01..10}.js", "/a/x07.js", false, false, true},
		{"/a/{a..c}.js", "/a/b.js", false, false, true},
		{"/a/{x}.js", "/a/{x}.js", false, false, true},
		{"/a/?.js", "/a/x.js", false, false, true},
		{"/a/?.js", "/a/xy.js", false, false, false},
		{"/a/[abc].js", "/a/b.js", false, false, true},
		{"/a/[!abc].js", "/a/b.js", false, false, false},
		{"/a/[^abc].js", "/a/d.js", false, false, true},
		{"/a/[a-c]*.js", "/a/cat.js", false, false, true},
		{"/a/[[:digit:]].js", "/a/7.js", false, false, true},
		{`/a/\(p\)/*.js`, "/a/(p)/x.js", false, false, true},
		{`/a/\[b\]/*.js`, "/a/[b]/x.js", false, false, true},
		{`/a/\{c\}/*.js`, "/a/{c}/x.js", false, false, true},
		{"/a/data-*.js", "/a/DATA-x.js", false, false, false},
		{"/a/data-*.js", "/a/DATA-x.js", false, true, true},
		{"/a/*.JS", "/a/x.js", false, true, true},
		{"/a/**/b/*.js", "/a/b/x.js", false, false, true},
		{"/a/**/b/*.js", "/a/x/y/b/x.js", false, false, true},
		{"/a/*/*.js", "/a/x.js", false, false, false},
		{"/a/x*y*z.js", "/a/xaaybbz.js", false, false, true},
		{"/a/x*y*z.js", "/a/xaaybb.js", false, false, false},
		{"/a/é*.js", "/a/été.js", false, false, true},
	} {
		g, err := compileGlob(c.pattern, c.exhaustive, c.fold)
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		if got := g.match(c.path); got != c.want {
			t.Errorf("%s (exhaustive %v, fold %v) matches %s: %v, want %v", c.pattern, c.exhaustive, c.fold, c.path, got, c.want)
		}
	}
}

// TestGlobWalkPrunes checks that the walk descends only into folders a match could lie in.
func TestGlobWalkPrunes(t *testing.T) {
	g, _ := compileGlob("/r/src/**/pages/*.js", false, false)
	for dir, want := range map[string]bool{"/r": true, "/r/src": true, "/r/src/x/y": true, "/r/lib": false, "/r/src/.git": false, "/r/src/node_modules": false} {
		if got := g.mayContain(dir); got != want {
			t.Errorf("mayContain(%s) = %v, want %v", dir, got, want)
		}
	}
}

// TestSortUTF16 checks the order of glob results: JavaScript's sort, by UTF-16 code units,
// not Go's by bytes (they differ past U+FFFF against U+E000–U+FFFF).
func TestSortUTF16(t *testing.T) {
	in := []string{"/a/b", "/a/\uff5e", "/a/\U0001f600", "/a/B", "/a/a.js", "/a/a-b.js"}
	sort.Slice(in, func(i, j int) bool { return lessUTF16(in[i], in[j]) })
	want := []string{"/a/B", "/a/a-b.js", "/a/a.js", "/a/b", "/a/\U0001f600", "/a/\uff5e"}
	if !slices.Equal(in, want) {
		t.Errorf("sorted %q, want %q", in, want)
	}
}
