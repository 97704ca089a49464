package pipeline

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// TestPercentEncodedURLs: a local URL of the page or of a stylesheet names its file
// percent-decoded, as a server reads it (my%20file.js is "my file.js", st%C3%BCle.css is
// "stüle.css", in a srcset too, where a space can only be written so); an encoded dot-dot
// still cannot leave the app folder, and an encoded slash is no path separator.
func TestPercentEncodedURLs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":   "id = \"pct\"\nname = \"Pct\"\ndescription = \"Percent-encoded URLs.\"\nentry = \"index.html\"\n",
		"my file.js":     "document.body.dataset.js = 'my file';\n",
		"stüle.css":      ".stuele { margin: 3px; background: url(img/a%20b.svg) }\n",
		"img/a b.svg":    `<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"><rect fill="navy" width="2" height="2"/></svg>`,
		"../outside.svg": `<svg xmlns="http://www.w3.org/2000/svg"/>`,
		"index.html": `<!doctype html><title>P</title><link rel="stylesheet" href="st%C3%BCle.css"><style>.i { background: url(/img/a%20b.svg) }</style>` +
			`<img src="img/a%20b.svg" alt=""><img srcset="img/a%20b.svg 2x" alt=""><script type="module" src="./my%20file.js"></script>`,
	})
	res := built(t, dir)
	html := string(res.HTML)
	for _, want := range []string{"margin:3px", "'my file'"} {
		if !strings.Contains(html, want) && !strings.Contains(html, strings.ReplaceAll(want, "'", `"`)) {
			t.Errorf("the page lacks %s: a percent-encoded URL was not read", want)
		}
	}
	if n := strings.Count(html, `data:image/svg+xml`); n != 4 || strings.Contains(html, "a%20b.svg") {
		t.Errorf("the image of src, srcset, a stylesheet's url() and a <style>'s url(/…) is inlined %d times of 4", n)
	}

	writeFile(t, filepath.Join(dir, "index.html"), `<!doctype html><title>P</title><img src="%2e%2e/outside.svg" alt=""><img src="img%2Fa%20b.svg" alt="">`)
	var got []string
	for _, m := range refusedErrors(t, dir) {
		got = append(got, m.Text)
	}
	if len(got) != 2 || !strings.Contains(got[0], `"%2e%2e/outside.svg" leaves the app folder`) || !strings.Contains(got[1], `"img%2Fa%20b.svg" does not exist`) {
		t.Errorf("want the encoded dot-dot refused and the encoded slash not found, got %q", got)
	}
}

// TestCSSRelativeMessages: a stylesheet's url(img/x.svg) that names no file is explained as the
// missing file it is, with the closest name, in a stylesheet file and in a <style> (it was
// explained as a package, "run npm install"); an @import of a package that is not installed
// still is.
func TestCSSRelativeMessages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFiles(t, dir, map[string]string{
		"miniapp.toml": "id = \"m\"\nname = \"M\"\ndescription = \"Messages.\"\nentry = \"index.html\"\n",
		"img/dot.svg":  `<svg xmlns="http://www.w3.org/2000/svg"/>`,
		"s.css":        "@import \"bootstrap/dist/css/bootstrap.css\";\n.a { background: url(img/dott.svg) }\n",
		"index.html":   `<!doctype html><title>M</title><link rel="stylesheet" href="s.css"><style>.b { background: url(img/dot2.svg) }</style>`,
	})
	var got []string
	for _, m := range refusedErrors(t, dir) {
		got = append(got, filepath.Base(m.File)+": "+m.Text+" ("+m.Note+")")
	}
	img := filepath.ToSlash(filepath.Join(dir, "img"))
	want := []string{
		`index.html: Could not resolve "img/dot2.svg": no such file in ` + img + ` (did you mean "./img/dot.svg"?)`,
		`s.css: Could not resolve "bootstrap/dist/css/bootstrap.css": the app has no package.json, and the package bootstrap is not installed (create one in the app folder (npm init -y), then run npm install bootstrap there; or map the name with [build] alias)`,
		`s.css: Could not resolve "img/dott.svg": no such file in ` + img + ` (did you mean "./img/dot.svg"?)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLocalFetchWarning: fetch of a literal local URL in the app's code is warned of at its
// place, with what to write instead (a bundle is one file: the request fails); a URL built at
// run time is not judged.
func TestLocalFetchWarning(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":     "id = \"f\"\nname = \"F\"\ndescription = \"Fetches.\"\nentry = \"index.html\"\n",
		"public/data.json": "[1]",
		"main.js": "const a = await fetch(\"/data.json\");\nconst b = await fetch('./local.json', { cache: 'no-store' });\n" +
			"const c = await fetch(`rows.csv`);\nconst id = 1, u = './x.json';\nconst d = await fetch(`./items/${id}.json`), e = await fetch(u);\nconsole.log(a, b, c, d, e);\n",
		"index.html": `<!doctype html><title>F</title><script type="module" src="./main.js"></script>`,
	})
	res := built(t, dir)
	var got []string
	for _, w := range res.Warnings {
		if strings.HasPrefix(w.Text, "fetch(") {
			got = append(got, fmt.Sprintf("%s:%d:%d %s | %s", filepath.Base(w.File), w.Line, w.Column, w.Text[:strings.Index(w.Text, ")")+1], w.Note))
		}
	}
	// fetch("/data.json") of a file of the public folder is its data: URL (TestPublicStrings).
	want := []string{
		`main.js:2:24 fetch("./local.json") | import the file instead (import data from "./local.json" for JSON, "./local.json?raw" for text), or fetch new URL("./local.json", import.meta.url), which bundle turns into a data: URL`,
		`main.js:3:24 fetch("rows.csv") | import the file instead (import data from "./rows.csv" for JSON, "./rows.csv?raw" for text), or fetch new URL("./rows.csv", import.meta.url), which bundle turns into a data: URL`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestProcessEnvWarning: process.env.NAME is warned of unless it is defined: NODE_ENV, or a
// define of the manifest's.
func TestProcessEnvWarning(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFile(t, filepath.Join(dir, "miniapp.toml"), "id = \"p\"\nname = \"P\"\ndescription = \"Env.\"\nentry = \"main.js\"\n[build]\ndefine = { \"process.env.DEFINED\" = \"\\\"d\\\"\" }\n")
	writeFile(t, filepath.Join(dir, "main.js"), "console.log(process.env.NODE_ENV, process.env.DEFINED, process.env.MISSING);\n")
	res := built(t, dir)
	var got []string
	for _, w := range res.Warnings {
		if strings.HasPrefix(w.Text, "process.env.") {
			got = append(got, strings.Fields(w.Text)[0])
		}
	}
	if len(got) != 1 || got[0] != "process.env.MISSING" {
		t.Errorf("warned of %q, want process.env.MISSING alone", got)
	}
}

// TestClassicInlineWarnings: a classic script written in the page is the author's code, judged
// as the app's scripts are, at its place in the page.
func TestClassicInlineWarnings(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFile(t, filepath.Join(dir, "miniapp.toml"), "id = \"c\"\nname = \"C\"\ndescription = \"Classic.\"\nentry = \"index.html\"\n")
	writeFile(t, filepath.Join(dir, "index.html"), "<!doctype html><title>C</title>\n<script>\n  parent.postMessage({ready: true}, \"*\");\n  fetch(\"./data.json\");\n</script>\n")
	res := built(t, dir)
	var got []string
	for _, w := range res.Warnings {
		if w.Path == "" {
			got = append(got, fmt.Sprintf("%d:%d %s", w.Line, w.Column, strings.Fields(w.Text)[0]))
		}
	}
	if want := []string{"3:37 postMessage(…,", `4:10 fetch("./data.json")`}; !slices.Equal(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
}

// TestStyleAttrURLs: a style attribute's url()s that name local files are inlined in place,
// as Vite does, quoted or not, from the public folder too; a missing one is refused at the
// URL; the page shows the images in Chromium.
func TestStyleAttrURLs(t *testing.T) {
	dir := t.TempDir()
	dot := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1" fill="red"/></svg>`
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":    "id = \"s\"\nname = \"S\"\ndescription = \"Style attributes.\"\n",
		"img/dot.svg":     dot,
		"public/logo.svg": dot,
		"index.html": `<!doctype html><html><head><meta charset="utf-8"><title>S</title></head><body>
<div id="a" style="width:9px;height:9px;background:url(img/dot.svg) no-repeat">a</div>
<div id="b" style="background-image: URL( 'img/dot.svg' ), url(&quot;/logo.svg&quot;)">b</div>
<script type="module">window.result = ["a", "b"].map((id) => getComputedStyle(document.getElementById(id)).backgroundImage.match(/data:image\/svg\+xml/g)?.length ?? 0);</script>
</body></html>`,
	})
	res := built(t, dir)
	if strings.Contains(string(res.HTML), "dot.svg") || strings.Contains(string(res.HTML), "logo.svg") {
		t.Errorf("a file name is left in the page")
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/s.html", res.HTML), 0)
	b.Await(t, `window.result !== undefined`)
	if got := browsertest.Eval[string](t, b, `JSON.stringify(window.result)`); got != `[1,2]` {
		t.Errorf("data: images per element: %s, want [1,2]", got)
	}
	writeFiles(t, dir, map[string]string{"index.html": `<!doctype html><title>S</title><div style="color:red; background: url(img/dott.svg)">x</div>`})
	errs := refusedErrors(t, dir)
	if len(errs) != 1 || errs[0].Column != 67 || !strings.Contains(errs[0].Text, `"img/dott.svg" does not exist`) {
		t.Errorf("a missing file: %+v", errs)
	}
	// A part of a file: refused at the URL, with what to write.
	writeFiles(t, dir, map[string]string{"index.html": `<!doctype html><title>S</title><svg><rect style="fill: url(img/dot.svg#p)"/></svg>`})
	errs = refusedErrors(t, dir)
	if len(errs) != 1 || errs[0].Column != 56 || !strings.Contains(errs[0].Text, "names a part of a file") || !strings.Contains(errs[0].Note, `fill="url(…)"`) {
		t.Errorf("a fragment: %+v", errs)
	}
}
