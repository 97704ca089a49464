package pipeline

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/miniapp/bundle/manifest"
)

// FuzzAssemble feeds arbitrary index.html to the assembler: it must never panic, every
// diagnostic must have a place, the walk must take every entry prebuild bundled, and every byte of a page with nothing to inline (no tags it
// rewrites) must be copied through.
func FuzzAssemble(f *testing.F) {
	f.Add([]byte(`<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="./s.css"></head><body><img src="./a.svg" srcset="./a.svg 1x, b.png 2x"><script type="module" src="./m.js"></script><script>var x = "</scr" + "ipt>"</script><style>a{b:c}</style></body></html>`))
	f.Add([]byte(`<p onclick="x()"><script src="https://cdn.example/x.js"></script><link rel=icon href=/favicon.ico><img src="../../etc/passwd">`))
	f.Add([]byte("<script>\x00</script><style>\xff"))
	f.Add([]byte(`<svg><image href="./a.svg"/><style><img src=./a.svg></style></svg><template><img src="./a.svg"></template>`))
	f.Add([]byte(`<svg><use href="i.svg#a"/><use xlink:href="./i.svg#b"/><rect fill="url(i.svg#a) red"/></svg><div style="background:url(a.svg), url( 'a.svg' )" id="b"></div><object data="a.svg"></object>`))
	dir := f.TempDir()
	for name, body := range map[string]string{
		"miniapp.toml": "id = \"f\"\nname = \"F\"\ndescription = \"d\"\nentry = \"index.html\"\n",
		"index.html":   "<p>",
		"s.css":        "a{color:red}",
		"a.svg":        "<svg xmlns='http://www.w3.org/2000/svg'/>",
		"m.js":         "console.log(1)",
		"i.svg":        `<svg xmlns="http://www.w3.org/2000/svg"><symbol id="a"/><symbol id="b"/></svg>`,
	} {
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	m, err := manifest.Load(dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		b, err := newBundler(m, "app", nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer b.css.close()
		a := newAssembler(b, m, "index.html", src)
		a.prebuild()
		out, at := a.assemble()
		if out == nil || at < 0 || at > len(out) {
			t.Fatalf("no output, or the SDK's place %d is outside it (%d bytes)", at, len(out))
		}
		// The walk takes every entry prebuild bundled: prebuild reads the page as it does.
		if len(a.prebuilt) != 0 {
			t.Fatalf("the walk left %d of the entries prebuild bundled: %q", len(a.prebuilt), slices.Sorted(maps.Keys(a.prebuilt)))
		}
		for _, d := range a.list {
			if d.File == "" {
				t.Fatalf("a diagnostic without a file: %s", d)
			}
		}
	})
}
