package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/markup"
	"github.com/miniapp/bundle/pipeline/browsertest"
	"github.com/miniapp/bundle/sdk"
	"golang.org/x/net/html"
)

// normalCase is a page of issue 21's lists. It builds when at is "", else the build refuses it
// with an error at the first occurrence of at (its line:col; "*" for anywhere) whose text
// holds text. checker names a page the normal form takes that the offline check refuses
// (issue 21's checker side), which is then built no further than the walk.
type normalCase struct {
	name, page string
	at, text   string
	checker    string
}

// policyPlaces are the pages of "Where the policy lands": after </br>, </body> or </html>
// early in the head, or a <meta charset> inside a <template>, the old build put its policy
// in the body or in inert contents. Each now gets the policy as head's first child, or is
// refused.
func policyPlaces() []normalCase {
	return []normalCase{
		{name: "br_early_in_head", page: `<!doctype html><html><head><meta charset="utf-8"></br><title>t</title></head><body></body></html>`,
			at: "</br>", text: "</br> is read as <br>"},
		{name: "body_end_early_in_head", page: "<!doctype html><html><head></body>\n<meta charset=\"utf-8\"><title>t</title></head><body></body></html>",
			at: "<meta", text: "after </body> or </html>"},
		{name: "html_end_early_in_head", page: `<!doctype html><html><head></html><meta charset="utf-8"><script>window.ok = 1</script>`,
			at: "<meta", text: "after </body> or </html>"},
		{name: "body_end_alone_in_head", page: `<html><head><title>t</title><script src="./c.js" defer></script></body></html>`},
		{name: "charset_in_template", page: `<!doctype html><html><head><template><meta charset="utf-8"><script>window.t = 1</script></template><title>t</title></head><body><script>window.ok = 1</script></body></html>`},
		{name: "script_in_template_first", page: `<!doctype html><head><template><script type="module">window.t = 1</script><script src="./c.js" defer></script></template><script>window.ok = 1</script></head>`},
		{name: "late_charset", page: `<!doctype html><p>first</p><meta charset="utf-8"><script type=module>window.ok = 1</script>`},
		{name: "no_head", page: `<!doctype html><html lang=en><body><p>hi</p><script type=module>window.ok = 1</script></body></html>`},
		{name: "no_charset", page: `<!doctype html><html><head><title>t</title><script>window.ok = 1</script></head><body></body></html>`},
		{name: "charset_not_first", page: `<!doctype html><head><title>t</title><meta charset="utf-8"></head><body><script>window.ok = 1</script></body>`},
		{name: "charset_first_not_utf8_label", page: `<!doctype html><head><meta charset=""><title>t</title></head><body><script>window.ok = 1</script></body>`},
		{name: "bare", page: `<p>hi<script type=module>window.ok = 1</script>`},
		{name: "bom", page: "\ufeff<!doctype html><p>hi</p><script>window.ok = 1</script>"},
		{name: "comments_first", page: `<!--a--><!doctype html><!--b--><html><!--c--><head><!--d--><meta charset=utf-8></head><body><script>window.ok = 1</script></body></html>`},
		{name: "head_implied_by_text", page: `<!doctype html>hello<script>window.ok = 1</script>`},
		{name: "head_only", page: `<!doctype html><html><head><script src="./c.js" defer></script></head></html>`},
	}
}

// treeStates are pages of "Tree-builder state" and the other repairs that move or hide
// content: each is refused at its place.
func treeStates() []normalCase {
	return []normalCase{
		{name: "style_self_closing", page: `<!doctype html><head><style/></head><body><img src="https://x.example/a.png"></body>`, at: "<style/>", text: "does not close the <style>"},
		{name: "script_self_closing", page: `<!doctype html><script/><p>x</p>`, at: "<script/>", text: "as its text, to the end of the page"},
		{name: "div_self_closing", page: `<!doctype html><body><div/><p>x</p>`, at: "<div/>", text: "write <div></div>"},
		{name: "svg_p_breakout", page: `<!doctype html><body><svg><p>x</p></svg>`, at: "<p>", text: "ends the <svg>"},
		{name: "svg_style_img_breakout", page: `<!doctype html><body><svg><style>a{}</style><img src="https://x.example/a.png"></svg>`, at: "<img", text: "ends the <svg>"},
		{name: "math_mismatched_end", page: `<!doctype html><body><svg></math><style>a{}</style></svg>`, at: "</math>", text: "closes nothing open here"},
		{name: "svg_end_ignored", page: `<!doctype html><body><svg><foreignObject><div></svg><style>a{}</style>`, at: "</svg>", text: "closes nothing open here"},
		{name: "comment_in_foreign_object", page: `<!doctype html><body><svg><foreignObject><!--</foreignObject></svg><img src="https://x.example/a.png">`, at: "<!--", text: "never closed"},
		{name: "comment_in_mi", page: `<!doctype html><body><math><mi><!-- <img src="https://x.example/a.png">`, at: "<!--", text: "never closed"},
		{name: "frameset_after_content", page: `<!doctype html><body><p>x</p><frameset><frame src="https://x.example/"></frameset>`, at: "<frameset>", text: "dropped by the browser's tree builder"},
		{name: "template_col", page: `<!doctype html><template><col>text</template>`, at: "text</", text: "dropped by the browser"},
		{name: "fostered", page: `<!doctype html><body><table><div>x</div></table>`, at: "<div>", text: "moved before the table"},
		{name: "refresh", page: `<!doctype html><meta http-equiv="refresh" content="0;url=https://x.example/">`, at: "refresh", text: "navigates the app's frame"},
		{name: "refresh_in_template", page: `<!doctype html><template><meta http-equiv=REFRESH content=0></template>`, at: "REFRESH", text: "template's contents"},
		{name: "refresh_in_foreign_object", page: `<!doctype html><body><svg><foreignObject><meta http-equiv=Refresh content=0></foreignObject></svg>`, at: "Refresh", text: "navigates"},
		{name: "refresh_in_mi", page: `<!doctype html><body><math><mi><meta http-equiv=refresh content=0></mi></math>`, at: "refresh", text: "navigates"},
		{name: "refresh_in_noscript", page: `<!doctype html><body><noscript><meta http-equiv=refresh content=0></noscript>`, at: "refresh", text: "where scripts do not run"},
		{name: "stray_p_end", page: `<!doctype html><body></p>`, at: "</p>", text: "makes an empty <p>"},
		{name: "adoption", page: `<!doctype html><body><b><p>x</b>y</p>`, at: "</b>", text: "adoption agency"},
		{name: "after_html", page: `<!doctype html><html><body></body></html><script>window.x = 1</script>`, at: "<script>", text: "after </body> or </html>"},
		{name: "head_reopened", page: `<!doctype html><html><head></head><link rel="stylesheet" href="https://x.example/a.css"><body>`, at: "<link", text: "put back in <head>"},
		{name: "stray_head_end", page: "<!doctype html><head></head>\n</HEAD><body>", at: "</HEAD>", text: "closes nothing open here"},
		{name: "frameset_page", page: `<!doctype html><frameset><frame src="https://x.example/"></frameset>`, at: "<frameset>", text: "frameset page"},
		{name: "plaintext", page: `<!doctype html><body><plaintext><p>`, at: "<plaintext>", text: "makes the rest of the page text"},
		{name: "unclosed_template", page: `<!doctype html><template><p>x`, at: "<template>", text: "never closed"},
		{name: "image", page: `<!doctype html><body><image src="https://x.example/a.png">`, at: "<image", text: "read as <img>"},
		{name: "second_body", page: `<!doctype html><p>x</p><body class="a">`, at: "<body", text: "a second <body>"},
		{name: "unclosed_script", page: `<!doctype html><script>window.x = 1`, at: "<script>", text: "never closed"},
		{name: "cut_tag", page: `<!doctype html><p>x</p><div class="a`, at: "<div", text: "ends inside this tag"},
		{name: "second_doctype", page: `<!doctype html><p>x</p><!DOCTYPE html>`, at: "<!DOCTYPE", text: "doctype after the start"},
		{name: "too_deep", page: `<!doctype html><body>` + strings.Repeat("<div>", 600), at: "*", text: "inside 512 open elements"},
	}
}

// treeLookalikes look like the pages treeStates refuses and need no repair: each builds.
func treeLookalikes() []normalCase {
	return []normalCase{
		{name: "svg_self_closing", page: `<!doctype html><body><svg><style/><title/><plaintext/><script/></svg><p>after</p><script>window.ok = 1</script></body>`},
		{name: "svg_cdata", page: `<!doctype html><body><svg><![CDATA[</svg><p>]]></svg><script>window.ok = 1</script></body>`},
		{name: "foreign_object_html", page: `<!doctype html><body><svg><foreignObject><p>x</p><!-- c --></foreignObject></svg><script>window.ok = 1</script></body>`},
		{name: "mi_html", page: `<!doctype html><body><math><mi><b>x</b></mi></math><script>window.ok = 1</script></body>`},
		{name: "refresh_lookalikes", page: `<!doctype html><head><meta name="refresh" content="0"><meta http-equiv="refresh-x" content="0"><meta http-equiv="x" http-equiv="refresh" content="0"></head><body><script>window.ok = 1</script></body>`},
		{name: "refresh_padded", page: `<!doctype html><head><meta http-equiv=" refresh" content="0"></head><body><script>window.ok = 1</script></body>`,
			checker: "the offline check trims http-equiv, which the browser does not"},
		{name: "void_self_closing", page: `<!doctype html><head><meta charset="utf-8"/></head><body><p>x</p><br/><hr/><script>window.ok = 1</script></body>`},
		{name: "template_contents", page: `<!doctype html><head><template><p>x</p><script src="./c.js" defer></script></template></head><body><script>window.ok = 1</script></body>`},
		{name: "table_cells", page: `<!doctype html><body><table><tr><td><div>x</div></td></tr></table><script>window.ok = 1</script></body>`},
		{name: "noscript_markup", page: `<!doctype html><head><noscript><style>p{color:red}</style></noscript></head><body><noscript><p>hi <img src="./a.svg"></p></noscript><script>window.ok = 1</script></body>`},
		{name: "trailing", page: "<!doctype html><html><body><script>window.ok = 1</script></body></html>\n<!-- after -->\n"},
		{name: "misnested_a", page: `<!doctype html><body><a href="#x">a<a href="#y">b</a><script>window.ok = 1</script></body>`},
		{name: "duplicate_attr", page: `<!doctype html><body><p id=a id=b>x</p><script>window.ok = 1</script></body>`},
		{name: "missing_ends", page: `<!doctype html><title>t</title><ul><li>a<li>b</ul><p>one<p>two<script>window.ok = 1</script>`},
		{name: "deferred_open_div", page: `<!doctype html><body><div><script src="./c.js" defer></script><p>x`},
	}
}

// buildPage builds page as an app's index.html, with c.js and a.svg beside it.
func buildPage(t *testing.T, page string) (*Result, error) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "app")
	writeFiles(t, dir, map[string]string{
		"miniapp.toml": "id = \"n\"\nname = \"N\"\ndescription = \"A page.\"\nentry = \"index.html\"\nhosts = [\"https://chat.example.com\"]\n",
		"index.html":   page,
		"c.js":         "window.c = 1;\n",
		"a.svg":        `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>`,
	})
	return Build(context.Background(), dir, Options{NoWrite: true})
}

// TestNormalFormRefusals: each page the tree builder would repair in a way that moves or
// hides content, and each <meta http-equiv="refresh">, is refused at its place.
func TestNormalFormRefusals(t *testing.T) {
	for _, c := range append(policyPlaces(), treeStates()...) {
		if c.at == "" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			_, err := buildPage(t, c.page)
			var el *diag.ListError
			if !errors.As(err, &el) {
				t.Fatalf("not refused: %v", err)
			}
			var want diag.Message
			if c.at != "*" {
				want.Place([]byte(c.page), strings.Index(c.page, c.at), 1)
			}
			for _, m := range el.List {
				if m.Severity == diag.Error && strings.Contains(m.Text+" "+m.Note, c.text) && (c.at == "*" || m.Line == want.Line && m.Column == want.Column) {
					if m.Note == "" || m.File == "" {
						t.Errorf("no fix or no file: %s", m)
					}
					return
				}
			}
			t.Errorf("no error %q at %d:%d; got:\n%v", c.text, want.Line, want.Column, el.List)
		})
	}
}

// TestNormalForm builds each page of the lists that needs no repair, and checks the
// built page's normal form in markup's tree: the policy <meta> is head's first element, with
// the entry's policy, a <meta charset> its second, the tree builder repairs nothing the build
// refuses; then in Chromium: document.head.firstElementChild is the policy <meta>, the page's
// hashed scripts and the SDK ran, and an inline script the policy has no hash of is blocked.
func TestNormalForm(t *testing.T) {
	type built struct {
		c   normalCase
		res *Result
	}
	var pages []built
	for _, c := range append(policyPlaces(), treeLookalikes()...) {
		if c.at != "" || c.checker != "" {
			continue
		}
		res, err := buildPage(t, c.page)
		if err != nil {
			t.Errorf("%s: refused: %v", c.name, err)
			continue
		}
		if err := normalFormOf(res); err != nil {
			t.Errorf("%s: %v\n%s", c.name, err, res.HTML)
		}
		pages = append(pages, built{c, res})
	}
	b := browsertest.Start(t)
	for _, p := range pages {
		t.Run(p.c.name, func(t *testing.T) {
			v := b.Visit(t, b.Serve("/"+p.c.name+".html", p.res.HTML, "text/html"), 0)
			got := browsertest.Eval[string](t, b, `new Promise(done => {
				const m = document.head.firstElementChild;
				const head = [m.localName, m.httpEquiv, m.content, m.nextElementSibling.localName, m.nextElementSibling.getAttribute("charset") ? "charset" : "", document.characterSet];
				const ran = [document.modelContext !== undefined, window.ok === 1];
				document.addEventListener("securitypolicyviolation", e => done(JSON.stringify([...head, ...ran, e.violatedDirective, window.injected === undefined])));
				const s = document.createElement("script");
				s.textContent = "window.injected = 1";
				document.body.append(s);
			})`)
			ok := strings.Contains(p.c.page, "window.ok = 1")
			want := fmt.Sprintf(`["meta","Content-Security-Policy",%q,"meta","charset","UTF-8",true,%v,"script-src-elem",true]`, p.res.Entry.CSP, ok)
			if got != want {
				t.Errorf("in Chromium\n got %s\nwant %s\n%s", got, want, p.res.HTML)
			}
			if len(v.Requests) > 0 {
				t.Errorf("the page loaded %v", v.Requests)
			}
		})
	}
	// The deferred classic script of a template stays in its inert contents; the others run.
	for _, p := range pages {
		if !strings.Contains(p.c.page, "c.js") {
			continue
		}
		b.Visit(t, b.Serve("/"+p.c.name+".html", p.res.HTML, "text/html"), 0)
		ran := browsertest.Eval[bool](t, b, `new Promise(done => { const end = Date.now() + 5000; const w = () => window.c === 1 || Date.now() > end ? done(window.c === 1) : setTimeout(w, 20); w(); })`)
		if want := !strings.Contains(p.c.page, "<template>"); ran != want {
			t.Errorf("%s: the deferred script ran: %v, want %v", p.c.name, ran, want)
		}
	}
}

// TestNormalFormTakes: the walk refuses none of the pages that need no repair, those the
// offline check still refuses among them (normalCase.checker).
func TestNormalFormTakes(t *testing.T) {
	for _, c := range append(policyPlaces(), treeLookalikes()...) {
		if c.at != "" {
			continue
		}
		dir := filepath.Join(t.TempDir(), c.name)
		writeFiles(t, dir, map[string]string{"miniapp.toml": "id = \"n\"\nname = \"N\"\ndescription = \"A page.\"\n", "index.html": c.page})
		a := appAssembler(t, dir)
		if !a.wellFormed() {
			t.Errorf("%s: refused: %v", c.name, a.list)
		}
	}
}

// normalFormOf checks a built page's normal form in markup's tree.
func normalFormOf(res *Result) error {
	d := markup.Parse(res.HTML, markup.Options{})
	for _, r := range d.Repairs {
		if refused(r) {
			return fmt.Errorf("the built page needs a repair (%v) at %d", r.Kind, r.At.Start)
		}
	}
	var els []*markup.Node
	for c := range d.Head().Children() {
		if c.Type == markup.ElementNode {
			els = append(els, c)
		}
	}
	if len(els) < 2 {
		return errors.New("head has fewer than two elements")
	}
	if v, _ := els[0].AttrValue("http-equiv"); !els[0].Is(markup.HTML, "meta") || v != "Content-Security-Policy" {
		return errors.New("the policy is not head's first element")
	}
	if v, _ := els[0].AttrValue("content"); v != res.Entry.CSP {
		return fmt.Errorf("the policy <meta> holds %q, the entry %q", v, res.Entry.CSP)
	}
	if _, ok := els[1].AttrValue("charset"); !ok || !els[1].Is(markup.HTML, "meta") {
		return errors.New("head's second element is not a <meta charset>")
	}
	return nil
}

// TestCharsetAfterLongPolicy: with a policy past 1024 bytes, the <meta charset> after it is
// still the page's encoding in Chromium, whose prescan reads on while it meets only tags that
// belong in a head; without it, Chromium reads the page in another encoding.
func TestCharsetAfterLongPolicy(t *testing.T) {
	var page strings.Builder
	page.WriteString(`<!doctype html><html><head><title>t</title></head><body><p id="p">héllo ü</p>`)
	for i := range 40 {
		fmt.Fprintf(&page, "<script>window.s%d = %d</script>", i, i)
	}
	page.WriteString("</body></html>")
	res, err := buildPage(t, page.String())
	if err != nil {
		t.Fatal(err)
	}
	const charset = `<meta charset="utf-8">`
	if at := strings.Index(string(res.HTML), charset); at < 1024 {
		t.Fatalf("the <meta charset> is at byte %d: the policy is not long enough for the test", at)
	}
	b := browsertest.Start(t)
	for _, c := range []struct {
		name string
		page []byte
		want string
	}{
		{"built", res.HTML, `["UTF-8","héllo ü",true]`},
		{"without_charset", []byte(strings.Replace(string(res.HTML), charset, "", 1)), ""},
	} {
		b.Visit(t, b.Serve("/"+c.name+".html", c.page, "text/html"), 0)
		got := browsertest.Eval[string](t, b, `JSON.stringify([document.characterSet, document.getElementById("p").textContent, window.s39 === 39])`)
		if c.want != "" && got != c.want || c.want == "" && strings.HasPrefix(got, `["UTF-8"`) {
			t.Errorf("%s: %s", c.name, got)
		}
		t.Logf("%s: %s", c.name, got)
	}
}

// TestNoscriptStaysText: what the build writes inside a <noscript> (a bundled stylesheet, a
// module script) cannot end its text where scripts run, even when it holds "</noscript>".
func TestNoscriptStaysText(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFiles(t, dir, map[string]string{
		"miniapp.toml": "id = \"n\"\nname = \"N\"\ndescription = \"A page.\"\n",
		"index.html": `<!doctype html><head><noscript><link rel="stylesheet" href="./n.css"></noscript></head>` +
			`<body><noscript><script type="module" src="./m.js"></script><p>on</p></noscript></body>`,
		"n.css": `p::after{content:"</noscript><img src=https://x.example/b.png>"}`,
		"m.js":  `console.log("</NOSCRIPT><img src=https://x.example/a.png>")`,
	})
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	d := markup.Parse(res.HTML, markup.Options{})
	n := 0
	for _, e := range d.Nodes {
		if e.Is(markup.HTML, "img") {
			t.Errorf("an <img> is live in the built page: %s", d.Src[e.Tag.Start:e.Tag.End])
		}
		if e.Is(markup.HTML, "noscript") {
			n++
			if e.EndTag.IsEmpty() || e.FirstChild == nil || e.FirstChild != e.LastChild || !e.FirstChild.IsRawText() {
				t.Errorf("a <noscript> is not one text closed by its </noscript>")
			}
		}
	}
	if page := string(res.HTML); n != 2 || !strings.Contains(page, `<\/noscript>`) || !strings.Contains(page, `\x3C/NOSCRIPT>`) {
		t.Errorf("%d <noscript>s; built:\n%s", n, page)
	}
}

// BenchmarkPageReading times what a build of each sample spends reading markup, against what
// the token-stream walk it replaced read, and against the whole build, in the same run.
// tree: markup's tree of the source page, and of the page assemble wrote (its texts
// placeholders, the SDK's too) for the hashes, the scripts WebRTC is looked for in and the
// check of the normal form. tokens: x/net/html's tokenizer over the source twice (prebuild
// and the walk), html.Parse of the written page with the SDK's text in it (the hashes) and of
// the final page (the scripts WebRTC was looked for in). Bytes are the source page's.
func BenchmarkPageReading(b *testing.B) {
	for _, name := range samples {
		dir := sampleDir(b, name)
		res, err := Build(context.Background(), dir, Options{NoWrite: true})
		if err != nil {
			b.Fatal(err)
		}
		a := appAssembler(b, dir)
		a.sdk = true
		a.prebuild()
		out := a.assemble()
		js, err := sdk.Script(sdk.Config{Name: res.Manifest.Name, Hosts: res.Manifest.Hosts})
		if err != nil {
			b.Fatal(err)
		}
		a.texts[a.sdkText] = escapeScript(js)
		withSDK := bytes.Replace(out.page, []byte(placeholder(a.sdkText)), []byte(a.texts[a.sdkText]), 1)
		src := a.src
		b.Run(name+"/tree", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				markup.Parse(src, markup.Options{})
				d := readBuilt(out.page)
				scriptTexts(d, out.page, a.texts)
				if err := a.checkBuilt(d, out); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/tokens", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				for range 2 {
					z := html.NewTokenizer(bytes.NewReader(src))
					for z.Next() != html.ErrorToken {
					}
				}
				html.Parse(bytes.NewReader(withSDK))
				html.Parse(bytes.NewReader(res.HTML))
			}
		})
		b.Run(name+"/build", func(b *testing.B) { benchBuild(b, dir) })
	}
}

// TestNormalFormRandom composes pages of the constructs the tree builder treats apart (head
// and body tags in and out of place, templates, tables, foreign content, <noscript>, classic
// scripts with defer, SVG sprites, comments, cut-off ends) and checks that the walk refuses
// each at a place, or writes it in the normal form (checkBuilt).
func TestNormalFormRandom(t *testing.T) {
	parts := []string{
		"<!doctype html>", "<html>", "<head>", "</head>", "<body>", "</body>", "</html>", "<title>t</title>",
		`<meta charset="utf-8">`, "<meta charset=\"\">", "<!-- c -->", " ", "\n", "text", "<p>", "</p>", "<div>", "</div>",
		"<template>", "</template>", "<table>", "<tr><td>", "</table>", "<svg>", "</svg>", "<math><mi>", "</math>",
		"<foreignObject>", "<noscript>", "</noscript>", `<img src="./a.svg">`, `<svg><use href="i.svg#a"/></svg>`,
		`<script src="./c.js" defer></script>`, "<script>window.x = 1</script>", `<style>p{color:red}</style>`,
		"<select>", "<frameset>", "<col>", "<br/>", "</br>", "<b>", "</b>", "<", "</", "<!", "<!--",
	}
	dir := filepath.Join(t.TempDir(), "app")
	writeFiles(t, dir, map[string]string{
		"miniapp.toml": "id = \"r\"\nname = \"R\"\ndescription = \"Random.\"\n", "index.html": "",
		"c.js": "window.c = 1;\n", "a.svg": `<svg xmlns="http://www.w3.org/2000/svg"/>`,
		"i.svg": `<svg xmlns="http://www.w3.org/2000/svg"><symbol id="a"/></svg>`,
	})
	r := rand.New(rand.NewSource(21))
	accepted, refusedAtEnd := 0, 0
	for range 1500 {
		var b strings.Builder
		for n := 1 + r.Intn(10); n > 0; n-- {
			b.WriteString(parts[r.Intn(len(parts))])
		}
		page := b.String()
		writeFile(t, filepath.Join(dir, "index.html"), page)
		a := appAssembler(t, dir)
		a.sdk = true
		a.prebuild()
		out := a.assemble()
		if a.list.HasErrors() {
			for _, d := range a.list {
				if d.Severity == diag.Error && (d.Line == 0 || d.Note == "") {
					t.Fatalf("%q: an error without a place or a fix: %s", page, d)
				}
			}
			continue
		}
		accepted++
		if err := a.checkBuilt(readBuilt(out.page), out); err != nil {
			var el *diag.ListError
			if !errors.As(err, &el) || el.List[0].Line == 0 {
				t.Fatalf("%q: %v\nbuilt: %q", page, err, out.page)
			}
			refusedAtEnd++
		}
	}
	t.Logf("%d of 1500 pages taken, %d of them refused for what is open at the end of <body>", accepted, refusedAtEnd)
}

// TestSDKPlace: the SDK's script goes at the end of <body> where nothing of the page can run
// code while the browser parses it (only module scripts without async, which wait for the end
// of parsing), and before the page's first script otherwise (at the end of <head> when that
// script is in <body>), so that in Chromium every script of the page, a frame's too, finds
// document.modelContext, which the SDK installs. Each script of a row pushes whether it did
// to window.seen; want is how many scripts must have run.
func TestSDKPlace(t *testing.T) {
	const see = `(window.seen ??= []).push(document.modelContext !== undefined)`
	rows := []struct {
		name, page string
		body       bool // the SDK at the end of <body>, else in <head>
		want       int  // scripts of the page that run
	}{
		{name: "module_in_body", page: `<!doctype html><html><head><title>t</title></head><body><p>x</p><script type="module">` + see + `</script></body></html>`, body: true, want: 1},
		{name: "module_in_head_script_last", page: `<!doctype html><html><head><script type="module">` + see + `</script></head><body><p>x</p><script type="module">` + see + `</script></body></html>`, body: true, want: 2},
		{name: "module_type_upper", page: `<!doctype html><body><p>x</p><script type="MODULE">` + see + `</script></body>`, body: true, want: 1},
		{name: "no_body_end_tag", page: `<!doctype html><body><p>x<script type="module">` + see + `</script>`, body: true, want: 1},
		{name: "two_modules", page: `<!doctype html><head><script type="module">` + see + `</script></head><body><script type="module">` + see + `</script></body>`, body: true, want: 2},
		// After a shown element, the SDK would be its parent's last child in its place
		// (p:last-child would match no more): it stays in <head>.
		{name: "module_in_head", page: `<!doctype html><html><head><script type="module">` + see + `</script></head><body><p>x</p></body></html>`, want: 1},
		{name: "open_div_at_end", page: `<!doctype html><body><script type="module">` + see + `</script><div><p>x`, want: 1},
		{name: "comment_last", page: `<!doctype html><body><script type="module">` + see + `</script><!-- end --></body>`, body: true, want: 1},
		// Something runs while the page is parsed: the SDK stays before it.
		{name: "classic_in_body", page: `<!doctype html><body><p>x</p><script>` + see + `</script><script type="module">` + see + `</script></body>`, want: 2},
		{name: "classic_after_module", page: `<!doctype html><head><script type="module">` + see + `</script></head><body><script>` + see + `</script></body>`, want: 2},
		{name: "async_module", page: `<!doctype html><body><p>x</p><script type="module" async>` + see + `</script></body>`, want: 1},
		{name: "svg_script", page: `<!doctype html><body><svg><script>` + see + `</script></svg><script type="module">` + see + `</script></body>`, want: 2},
		{name: "srcdoc_script", page: `<!doctype html><body><iframe srcdoc="<script>(parent.seen ??= []).push(parent.document.modelContext !== undefined)</script>"></iframe><script type="module">` + see + `</script></body>`, want: 2},
		// A declarative shadow root's contents are live: its classic script runs as parsed.
		{name: "shadow_root_classic", page: `<!doctype html><body><div><template shadowrootmode="open"><script>` + see + `</script></template></div><script type="module">` + see + `</script></body>`, want: 2},
		{name: "shadow_root_module", page: `<!doctype html><body><div><template shadowrootmode="open"><script type="module">` + see + `</script></template></div><p>x</p></body>`, want: 1},
		// A classic script by any type the Standard and Chromium run one by (offline.KindOfScript)
		// runs while parsing: the SDK stays before it.
		{name: "classic_text_ecmascript", page: `<!doctype html><body><p>x</p><script type="text/ecmascript">` + see + `</script><script type="module">` + see + `</script></body>`, want: 2},
		{name: "classic_language_javascript", page: `<!doctype html><body><p>x</p><script language="javascript">` + see + `</script><script type="module">` + see + `</script></body>`, want: 2},
		{name: "data_block", page: `<!doctype html><body><script type="application/json">{}</script><script type="module">` + see + `</script></body>`, want: 1},
		// The end of <body> is inside an element the page leaves open, where a <script> would
		// be SVG's or MathML's (its text read as markup): the SDK stays in <head>. In MathML's
		// <mi> a <script> is HTML's, and runs, but it would be the last child of the <mi>.
		// (A <template> or a <noscript> left open is refused: the rest of the page would be
		// inert.)
		{name: "open_svg_at_end", page: `<!doctype html><body><script type="module">` + see + `</script><svg><g>`, want: 1},
		{name: "open_math_mi_at_end", page: `<!doctype html><body><script type="module">` + see + `</script><math><mi>x`, want: 1},
		{name: "open_math_at_end", page: `<!doctype html><body><script type="module">` + see + `</script><math>`, want: 1},
		// A body implied with nothing in it: the SDK is written before the module script.
		{name: "empty_body", page: `<!doctype html><html><head><title>t</title><script type="module">` + see + `</script></head></html>`, want: 1},
	}
	type built struct {
		name       string
		html, show []byte
		want       int
	}
	var pages []built
	for _, r := range rows {
		res, err := buildPage(t, r.page)
		if err != nil {
			t.Errorf("%s: refused: %v", r.name, err)
			continue
		}
		d := markup.Parse(res.HTML, markup.Options{})
		var sdkEl *markup.Node
		for _, n := range d.Nodes {
			if n.Is(markup.HTML, "script") && n.FirstChild != nil && strings.Contains(n.FirstChild.Data, `Symbol.for("miniapp.sdk")`) {
				sdkEl = n
			}
		}
		switch {
		case sdkEl == nil:
			t.Errorf("%s: no SDK script in the built page\n%s", r.name, res.HTML)
		case r.body && (!descends(sdkEl, d.Body()) || sdkEl.Inert()):
			t.Errorf("%s: the SDK's script is not in <body>\n%s", r.name, withoutSDK(res.HTML, sdkEl))
		case !r.body && sdkEl.Parent != d.Head():
			t.Errorf("%s: the SDK's script is not in <head>\n%s", r.name, withoutSDK(res.HTML, sdkEl))
		}
		pages = append(pages, built{r.name, res.HTML, withoutSDK(res.HTML, sdkEl), r.want})
	}
	b := browsertest.Start(t)
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			v := b.Visit(t, b.Serve("/"+p.name+".html", p.html, "text/html"), 0)
			got := browsertest.Eval[string](t, b, `new Promise(done => {
				const end = Date.now() + 5000;
				const w = () => (window.seen?.length ?? 0) >= `+fmt.Sprint(p.want)+` && document.readyState === "complete" || Date.now() > end ? done(JSON.stringify(window.seen ?? [])) : setTimeout(w, 20);
				w();
			})`)
			if want := "[" + strings.TrimSuffix(strings.Repeat("true,", p.want), ",") + "]"; got != want {
				t.Errorf("document.modelContext as each script of the page ran: %s, want %s\n%s", got, want, p.show)
			}
			if len(v.Requests) > 0 || len(v.Console) > 0 {
				t.Errorf("requests %v, console %v", v.Requests, v.Console)
			}
		})
	}
}

// withoutSDK is a built page with the SDK's text (sdk's, nil for none) cut, to show in a
// test's message.
func withoutSDK(page []byte, sdk *markup.Node) []byte {
	if sdk == nil || sdk.FirstChild == nil {
		return page
	}
	r := textRange(sdk)
	return slices.Concat(page[:r.Start], []byte("/* the SDK */"), page[r.End:])
}

// TestSDKPlaceKeepsTree: the SDK's script goes where the page's own elements keep the places
// they had among their siblings: a stylesheet's :last-child, or a module's
// document.body.lastElementChild, reads the same in Chromium in the built page as in the page
// as written. Each row's module script sets window.out, read once the page has loaded.
func TestSDKPlaceKeepsTree(t *testing.T) {
	const color = `window.out = getComputedStyle(document.getElementById("a")).color`
	const last = `window.out = document.body.lastElementChild.id`
	rows := []struct{ name, page string }{
		{"last_child_css_module_in_head", `<!doctype html><html><head><title>t</title><script type="module">` + color + `</script><style>p:last-child { color: rgb(1, 2, 3) }</style></head><body><p>x</p><p id="a">y</p></body></html>`},
		{"last_element_child_module_in_head", `<!doctype html><html><head><title>t</title><script type="module">` + last + `</script></head><body><p>x</p><p id="a">y</p></body></html>`},
		{"last_element_child_module_before_root", `<!doctype html><html><head><title>t</title></head><body><script type="module">` + last + `</script><div id="a"></div></body></html>`},
		{"only_child_css_no_script", `<!doctype html><html><head><title>t</title><style>main:only-child { color: rgb(1, 2, 3) }</style></head><body><main id="a">x</main></body></html>`},
	}
	type page struct{ name, src, built []byte }
	var pages []page
	for _, r := range rows {
		res, err := buildPage(t, r.page)
		if err != nil {
			t.Errorf("%s: refused: %v", r.name, err)
			continue
		}
		pages = append(pages, page{[]byte(r.name), []byte(r.page), res.HTML})
	}
	b := browsertest.Start(t)
	read := func(t *testing.T, url string, probe bool) string {
		b.Visit(t, url, 0)
		if !probe {
			return browsertest.Eval[string](t, b, `getComputedStyle(document.getElementById("a")).color`)
		}
		return browsertest.Eval[string](t, b, `new Promise(done => {
			const w = () => window.out !== undefined && document.readyState === "complete" ? done(String(window.out)) : setTimeout(w, 20);
			w();
		})`)
	}
	for _, p := range pages {
		t.Run(string(p.name), func(t *testing.T) {
			probe := bytes.Contains(p.src, []byte("window.out"))
			want := read(t, b.Serve("/src-"+string(p.name)+".html", p.src, "text/html"), probe)
			if got := read(t, b.Serve("/"+string(p.name)+".html", p.built, "text/html"), probe); got != want {
				t.Errorf("built page reads %q, the page as written %q", got, want)
			}
		})
	}
}
