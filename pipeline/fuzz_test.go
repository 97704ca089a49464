package pipeline

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/manifest"
)

// FuzzAssemble feeds arbitrary index.html to the assembler: it must never panic, every
// diagnostic must have a place, the walk must take every entry prebuild bundled, and every
// page it accepts (no error) must be in the normal form: the policy <meta> first in <head>,
// the SDK before every script that runs, what goes at the end of <body> live there, and no
// repair of the tree builder's that the build refuses (checkBuilt).
func FuzzAssemble(f *testing.F) {
	f.Add([]byte(`<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="./s.css"></head><body><img src="./a.svg" srcset="./a.svg 1x, b.png 2x"><script type="module" src="./m.js"></script><script>var x = "</scr" + "ipt>"</script><style>a{b:c}</style></body></html>`))
	f.Add([]byte(`<p onclick="x()"><script src="https://cdn.example/x.js"></script><link rel=icon href=/favicon.ico><img src="../../etc/passwd">`))
	f.Add([]byte("<script>\x00</script><style>\xff"))
	f.Add([]byte(`<svg><image href="./a.svg"/><style><img src=./a.svg></style></svg><template><img src="./a.svg"></template>`))
	f.Add([]byte(`<svg><use href="i.svg#a"/><use xlink:href="./i.svg#b"/><rect fill="url(i.svg#a) red"/></svg><div style="background:url(a.svg), url( 'a.svg' )" id="b"></div><object data="a.svg"></object>`))
	// The classes: where the policy lands, and the tree builder's state.
	for _, page := range append(append(policyPlaces(), treeStates()...), treeLookalikes()...) {
		f.Add([]byte(page.page))
	}
	f.Add([]byte(`<head><script src=./m.js defer></script></head>`))
	f.Add([]byte(`<p><script src=./m.js async></script><table><tr><td><svg><use href="i.svg#a"/>`))
	f.Add([]byte("\ufeff<!--c--><html><!--d--><noscript><link rel=stylesheet href=./s.css><img src=./a.svg></noscript><p>"))
	// Module scripts alone: the SDK at the end of <body> (sdkAtBodyEnd), or not, by what is
	// open there.
	f.Add([]byte(`<body><p>x<script type=module src=./m.js></script><svg><g>`))
	f.Add([]byte(`<head><script type=module>1</script></head><body><table><tr><td><script type=module>2</script>`))
	f.Add([]byte(`<body><select><script type=module>1</script>`))
	f.Add([]byte(`<body><script type=module>1</script></body><p>after</p></html><!-- c -->`))
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
		b, err := newBundler(m, "app", m.Root, nil, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer b.css.close()
		a := newAssembler(b, m, "index.html", src)
		a.sdk = true
		a.prebuild()
		out := a.assemble()
		if out.page == nil {
			t.Fatal("no output")
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
		if a.list.HasErrors() {
			return
		}
		if out.sdk < 0 || out.sdk > len(out.page) || out.policy < 0 || out.policy > out.sdk {
			t.Fatalf("the SDK's place %d or the policy's %d is outside the page (%d bytes)", out.sdk, out.policy, len(out.page))
		}
		// A page the build accepts is in its normal form, or refused at its place.
		err = a.checkBuilt(readBuilt(out.page), out)
		var el *diag.ListError
		if err != nil && (!errors.As(err, &el) || el.List[0].Line == 0) {
			t.Fatalf("%v\nbuilt:\n%q", err, out.page)
		}
	})
}
