package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

func writeApp(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestBuildSizeRules checks that a font's fallbacks are not inlined and that an asset a
// stylesheet uses twice is inlined once.
func TestBuildSizeRules(t *testing.T) {
	woff2 := "wOF2" + strings.Repeat("W", 2996) // the bytes a file of its kind starts with, then filler
	dir := writeApp(t, map[string]string{
		"miniapp.toml": "id = \"s\"\nname = \"S\"\ndescription = \"d\"\nentry = \"index.html\"\n",
		"index.html":   `<!doctype html><meta charset="utf-8"><link rel="stylesheet" href="./s.css"><p>x</p>`,
		"s.css": `@font-face{font-family:f;src:url(./f.woff2) format("woff2"),url(./f.woff) format("woff"),url(./f.ttf) format("truetype")}
.a{background:url(./bg.png)}.b{background:url(./bg.png) no-repeat}body{font-family:f}`,
		"f.woff2": woff2, "f.woff": strings.Repeat("V", 3000), "f.ttf": strings.Repeat("T", 3000),
		"bg.png": "\x89PNG\r\n\x1a\n" + strings.Repeat("P", 2992),
	})
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	page := string(res.HTML)
	if n := strings.Count(page, "data:font/woff2"); n != 1 {
		t.Errorf("the woff2 font is inlined %d times, want 1", n)
	}
	if strings.Contains(page, "data:font/woff,") || strings.Contains(page, "data:font/woff;") || strings.Contains(page, "data:font/ttf") {
		t.Error("a font fallback was inlined")
	}
	if n := strings.Count(page, "data:image/png"); n != 1 {
		t.Errorf("the twice-used image is inlined %d times, want 1", n)
	}
}

// TestInlinedCodeStaysInItsElement builds scripts and styles whose text holds </script>,
// <script> and <!--, and checks in Chromium that each stays inside its element.
func TestInlinedCodeStaysInItsElement(t *testing.T) {
	dir := writeApp(t, map[string]string{
		"miniapp.toml": "id = \"e\"\nname = \"E\"\ndescription = \"d\"\nentry = \"index.html\"\n",
		"index.html": `<!doctype html><html><head><meta charset="utf-8"><title>E</title>
<style>p::after { content: "<\/style><b id=leak>" }</style></head>
<body><p id="out"></p>
<script type="module" src="./main.ts"></script>
<script>window.classic = "<\/script><script>window.leaked = 1<\/script><!--";</script>
</body></html>`,
		"main.ts": `const s: string = "</script><script>window.leaked = 2</script><!-- <script>";
const re = /<\/script>/i;
document.getElementById("out")!.textContent = s + String(re.test(s));
`,
	})
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	b := browsertest.Start(t)
	v := b.Visit(t, b.Serve("/e.html", res.HTML), 200*time.Millisecond)
	for _, c := range v.Console {
		t.Errorf("console: %s", c)
	}
	got := browsertest.Eval[string](t, b, `JSON.stringify([document.getElementById("out").textContent, window.classic, window.leaked ?? null, document.getElementById("leak") === null, document.scripts.length])`)
	want := `["</script><script>window.leaked = 2</script><!-- <script>true","</script><script>window.leaked = 1</script><!--",null,true,3]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestSrcsetWithDataCandidate keeps a data: candidate, whose URL holds a comma, whole while
// inlining the local candidate beside it.
func TestSrcsetWithDataCandidate(t *testing.T) {
	dir := writeApp(t, map[string]string{
		"miniapp.toml": "id = \"s\"\nname = \"S\"\ndescription = \"d\"\nentry = \"index.html\"\n",
		"index.html":   `<!doctype html><meta charset="utf-8"><img alt="" src="./b.svg" srcset="data:image/png;base64,iVBORw0KGgo= 1x, ./b.svg 2x">`,
		"b.svg":        `<svg xmlns="http://www.w3.org/2000/svg"/>`,
	})
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.HTML), `srcset="data:image/png;base64,iVBORw0KGgo= 1x, data:image/svg+xml,%3csvg%20xmlns=%27http://www.w3.org/2000/svg%27/%3e 2x"`) {
		t.Errorf("srcset was not rewritten candidate by candidate: %s", res.HTML)
	}
}

// TestLegalNoticesInAnyOrder: the licence file is the same whatever order the bundles' legal
// comments arrived in.
func TestLegalNoticesInAnyOrder(t *testing.T) {
	a := legalNotices([]string{"/*! b */\n", "/*! a */\n", "/*! b */\n"})
	b := legalNotices([]string{"/*! a */\n", "/*! b */\n"})
	if !bytes.Equal(a, b) || !bytes.Contains(a, []byte("a */")) {
		t.Errorf("%q and %q", a, b)
	}
}
