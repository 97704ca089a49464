package pipeline

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

const spriteIcons = `<?xml version="1.0" encoding="UTF-8"?>
<!-- icons -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
  <defs><linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient></defs>
  <symbol id="home" viewBox="0 0 10 10"><rect width="10" height="10" fill="url(#g)"/></symbol>
  <symbol id="star" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5"/></symbol>
</svg>
`

// TestSprites: a <use> of an element of a local SVG file names it in the page, whose one hidden
// <svg> holds each sprite once; the icons draw in Chromium, and nothing is requested.
func TestSprites(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":   "id = \"s\"\nname = \"S\"\ndescription = \"Sprites.\"\n",
		"img/icons.svg":  spriteIcons,
		"img/arrows.svg": `<svg xmlns="http://www.w3.org/2000/svg"><symbol id="up" viewBox="0 0 4 4"><path d="M0 4L2 0L4 4z"/></symbol></svg>`,
		"index.html": `<!doctype html><html><head><meta charset="utf-8"><title>S</title></head><body>
<svg width="20" height="20"><use href="img/icons.svg#home"/></svg>
<svg width="20" height="20"><use xlink:href="./img/icons.svg#star"></use></svg>
<svg width="20" height="20"><use href="/img/arrows.svg#up"/></svg>
<svg width="20" height="20"><rect id="painted" width="20" height="20" fill="url('img/icons.svg#g') red"/></svg>
<template id="row"><svg width="20" height="20"><use href="img/icons.svg#star"/></svg></template>
<script type="module">
  const row = document.getElementById("row").content.cloneNode(true);
  document.body.append(row);
  window.result = [...document.querySelectorAll("use")].map((u) => [u.getAttribute("href") ?? u.getAttribute("xlink:href"), Math.round(u.getBBox().width)])
    .concat([[document.getElementById("painted").getAttribute("fill"), getComputedStyle(document.getElementById("painted")).fill]]);
</script></body></html>`,
	})
	res := built(t, dir)
	page := string(res.HTML)
	if n := strings.Count(page, `<symbol id="home"`); n != 1 || strings.Count(page, `<symbol id="up"`) != 1 || strings.Contains(page, "icons.svg") || strings.Contains(page, "<?xml") {
		t.Errorf("the page holds home %d times, or names the file:\n%s", n, page)
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/s.html", res.HTML), 0)
	b.Await(t, `window.result !== undefined`)
	got := browsertest.Eval[string](t, b, `JSON.stringify(window.result)`)
	if want := `[["#home",20],["#star",20],["#up",20],["#star",20],["url(#g) red","url(\"#g\") rgb(255, 0, 0)"]]`; got != want {
		t.Errorf("the icons: %s, want %s", got, want)
	}
	if reqs := b.Requests(); len(reqs) > 0 {
		t.Errorf("requests: %v", reqs)
	}
	if res2 := built(t, dir); string(res2.HTML) != page {
		t.Errorf("a second build differs")
	}
}

// TestSpriteRefusals: a sprite that cannot go into the page as it is, and a <use> of an id
// the file does not have, are refused at the <use>, saying why.
func TestSpriteRefusals(t *testing.T) {
	for _, c := range []struct {
		name, use, file, body, want string
	}{
		{"no_such_id", "icons.svg#hom", "icons.svg", spriteIcons, `icons.svg has no element with id "hom"; did you mean "icons.svg#home"?`},
		{"style", "s.svg#a", "s.svg", `<svg xmlns="http://www.w3.org/2000/svg"><style>rect{fill:red}</style><symbol id="a"/></svg>`, "it has a <style>, which would apply to the whole page"},
		{"page_id", "icons.svg#home", "icons.svg", spriteIcons, `icons.svg's id "star" is an id of the page too`},
		{"no_id", "icons.svg", "icons.svg", spriteIcons, `name one of its elements by id: href="icons.svg#id"`},
		{"not_svg", "icons.png#a", "icons.png", "\x89PNG\r\n\x1a\n", "it is not an .svg file"},
		{"not_xml", "b.svg#a", "b.svg", `<svg><symbol id="a">&nbsp;</symbol></svg>`, "it is not well-formed XML"},
		{"breakout", "p.svg#a", "p.svg", `<svg xmlns="http://www.w3.org/2000/svg"><symbol id="a"><p>x</p></symbol></svg>`, "it has a <p>, which a page reads as HTML"},
		// An SVG <title> holds HTML in a page (an integration point), though XML reads an
		// SVG element there.
		{"html_in_title", "t.svg#a", "t.svg", `<svg xmlns="http://www.w3.org/2000/svg"><symbol id="a"><title><a>x</a></title></symbol></svg>`, "it has a <a>, which a page reads as HTML"},
		{"font_breakout", "f.svg#a", "f.svg", `<svg xmlns="http://www.w3.org/2000/svg"><symbol id="a"><font color="red"/></symbol></svg>`, "it has a <font>, which a page reads as HTML"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pageID := "para"
			if c.name == "page_id" {
				pageID = "star"
			}
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{
				"miniapp.toml": "id = \"s\"\nname = \"S\"\ndescription = \"Sprites.\"\n",
				c.file:         c.body,
				"index.html":   `<!doctype html><title>S</title><p id="` + pageID + `">x</p><svg><use href="` + c.use + `"/></svg>`,
			})
			errs := refusedErrors(t, filepath.Clean(dir))
			if len(errs) != 1 || !strings.Contains(errs[0].Text+"; "+errs[0].Note, c.want) || errs[0].Line != 1 || errs[0].Column != 66 {
				t.Errorf("%+v, want %q at 1:66", errs, c.want)
			}
		})
	}
}
