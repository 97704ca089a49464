package offline

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// singleRows are a model's typical mistakes in a page it writes with no build, each with
// the note it must be given (a part of it) at its place.
var singleRows = []struct {
	name, html string
	opts       Options
	want       []singleWant // in document order
}{
	{"cdn_script", `<script src="https://cdn.jsdelivr.net/npm/chart.js@4.4.1/dist/chart.umd.min.js"></script>`, Options{},
		[]singleWant{{1, 14, "<script src>", "write the script's code in the page: a <script> element with no src"}}},
	{"cdn_script_library_named", `<script src="https://unpkg.com/htmx.org@2.0.4/dist/htmx.min.js"></script>`, Options{},
		[]singleWant{{1, 14, "<script src>", "the library htmx.org@2.0.4 from a CDN"}}},
	{"tailwind_play_cdn", `<script src="https://cdn.tailwindcss.com"></script>`, Options{},
		[]singleWant{{1, 14, "<script src>", "write the CSS the page's classes need as rules in a <style>"}}},
	{"cdn_module_import", `<script type=module>import confetti from "https://esm.sh/canvas-confetti@1.9.3"</script>`, Options{},
		[]singleWant{{1, 42, `import in <script type="module">`, "remove the import, and write the code it gave in this script"}}},
	{"google_fonts", `<link rel="preconnect" href="https://fonts.googleapis.com"><link href="https://fonts.googleapis.com/css2?family=Inter&display=swap" rel="stylesheet">`, Options{},
		[]singleWant{{1, 30, "<link href>", "remove the <link>: the page connects to nothing"},
			{1, 72, "<link href>", "use a system font, font-family: system-ui"}}},
	{"cdn_stylesheet", `<link rel="stylesheet" href="https://unpkg.com/leaflet@1.9.4/dist/leaflet.css">`, Options{},
		[]singleWant{{1, 30, "<link href>", "write the stylesheet's rules in a <style> element in place of this one"}}},
	{"css_import", `<style>@import url("https://cdn.example/reset.css");</style>`, Options{},
		[]singleWant{{1, 20, "CSS @import url() in <style>", "write the stylesheet's rules in this stylesheet, in place of the @import"}}},
	{"remote_image", `<img src="https://picsum.photos/400/300">`, Options{},
		[]singleWant{{1, 11, "<img src>", `write the image into the page as a data: URL in place of "https://picsum.photos/400/300"`}}},
	{"remote_css_image", `<div style="background:url(https://cdn.example/bg.jpg)"></div>`, Options{},
		[]singleWant{{1, 24, `CSS url() in style=""`, "data:image/jpeg;base64,"}}},
	{"remote_font", `<style>@font-face{font-family:X;src:url(https://cdn.example/x.woff2)}</style>`, Options{},
		[]singleWant{{1, 37, "CSS url() in <style>", "write the font into the page as a data: URL in @font-face's src, url(data:font/woff2;base64,…)"}}},
	{"file_beside_size_known", `<img src="logo.png">`, Options{FileSize: func(u string) (int64, bool) { return 3000, u == "logo.png" }},
		[]singleWant{{1, 11, "<img src>", "the 3000-byte file adds 4022 bytes to the page"}}},
	{"fetch_api", `<script>fetch("https://api.open-meteo.com/v1/forecast").then(r => r.json())</script>`, Options{},
		[]singleWant{{1, 15, "fetch() in <script>", "a page has no network at run time: write the data it needs into the page"}}},
	{"fetch_api_granted", `<script>fetch("https://api.open-meteo.com/v1/forecast")</script>`, Options{AllowedDomains: []string{"https://api.open-meteo.com"}}, nil},
	{"window_fetch", `<script>window.fetch("https://eu.api.example.com/x")</script>`, Options{},
		[]singleWant{{1, 22, "fetch() in <script>", "only an origin the host grants (allowedDomains) can be fetched"}}},
	{"fetch_api_wildcard_granted", `<script>window.fetch("https://eu.api.example.com/x")</script>`, Options{AllowedDomains: []string{"https://*.api.example.com"}}, nil},
	// Names and literals as V8 reads them (jsstring): a name written with escapes, a literal
	// in parentheses, String.raw's text, a template's head with escapes.
	{"fetch_escaped_name", `<script>f\u0065tch("https://evil.example/a")</script>`, Options{},
		[]singleWant{{1, 20, "fetch() in <script>", "a page has no network at run time"}}},
	{"fetch_escaped_name_braces", `<script>f\u{65}tch("https://evil.example/a")</script>`, Options{},
		[]singleWant{{1, 20, "fetch() in <script>", "a page has no network at run time"}}},
	{"window_fetch_escaped_name", `<script>window.f\u0065tch("https://evil.example/a")</script>`, Options{},
		[]singleWant{{1, 27, "fetch() in <script>", "a page has no network at run time"}}},
	{"websocket_escaped_name", `<script>new WebSock\u0065t("wss://evil.example/a")</script>`, Options{},
		[]singleWant{{1, 28, "new WebSocket() in <script>", "a page has no network at run time"}}},
	{"fetch_parenthesized", `<script>fetch(("https://evil.example/a"))</script>`, Options{},
		[]singleWant{{1, 16, "fetch() in <script>", "a page has no network at run time"}}},
	{"fetch_string_raw", "<script>fetch(String.raw`https://evil.example/\\u0061`)</script>", Options{},
		[]singleWant{{1, 25, "fetch() in <script>", "a page has no network at run time"}}},
	{"fetch_template_head_escaped_granted", "<script>fetch(`https://api.example.com\\u002fx@evil.example/${p}`)</script>", Options{AllowedDomains: []string{"https://api.example.com"}}, nil},
	{"fetch_in_string_is_not_a_call", `<script>const help = 'fetch("https://api.example.com")'</script>`, Options{}, nil},
	{"fetch_local_file", `<script>fetch("data.json")</script>`, Options{},
		[]singleWant{{1, 15, "fetch() in <script>", `<script type="application/json" id="data">`}}},
	{"websocket_template", "<script>new WebSocket(`wss://stream.example.com/${id}`)</script>", Options{},
		[]singleWant{{1, 23, "new WebSocket() in <script>", "a page has no network at run time"}}},
	{"xhr_open", `<script>const x = new XMLHttpRequest(); x.open("GET", "https://api.example.com/q")</script>`, Options{},
		[]singleWant{{1, 55, "XMLHttpRequest open() in <script>", "a page has no network at run time"}}},
	{"inline_onclick", `<button onclick="inc()">+1</button>`, Options{},
		[]singleWant{{1, 18, "<button onclick>", `document.getElementById("…").addEventListener("click"`}}},
	{"web_link", `<a href="https://go.dev/doc">Go</a>`, Options{},
		[]singleWant{{1, 10, "<a href>", "the SDK's openLink(url), or the bridge's ui/open-link request"}}},
	{"web_link_allowed", `<a href="https://go.dev/doc">Go</a>`, Options{LinkDomains: []string{"go.dev"}}, nil},
	{"web_link_names_allowed_hosts", `<a href="https://example.org/">x</a>`, Options{LinkDomains: []string{"go.dev"}},
		[]singleWant{{1, 10, "<a href>", "it allows go.dev"}}},
	{"javascript_link", `<a href="javascript:go()">x</a>`, Options{},
		[]singleWant{{1, 10, "<a href>", "use a <button> and attach what it does in a <script>"}}},
	{"form_action", `<form action="https://formspree.io/f/x"></form>`, Options{},
		[]singleWant{{1, 15, "<form action>", `form.addEventListener("submit"`}}},
	{"relative_link", `<a href="about.html">About</a>`, Options{},
		[]singleWant{{1, 10, "<a href>", "link to a fragment (#section) of this page"}}},
}

type singleWant struct {
	line, col   int
	place, note string
}

// buildWords are what a note for one file must never ask of its writer.
var buildWords = []string{"bundle build", "npm", "node_modules", "app folder", "manifest's", "download", "install", "the build"}

func TestSingleFileNotes(t *testing.T) {
	for _, row := range singleRows {
		t.Run(row.name, func(t *testing.T) {
			opts := row.opts
			opts.SingleFile = true
			fs, err := Check("page.html", []byte(row.html), opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(fs) != len(row.want) {
				t.Fatalf("%d findings, want %d: %v", len(fs), len(row.want), fs.Diagnostics())
			}
			for i, w := range row.want {
				f := fs[i]
				if f.Line != w.line || f.Column != w.col || f.Place != w.place || !strings.Contains(f.Note, w.note) {
					t.Errorf("finding %d: %d:%d %s: %s\n  note: %s\nwant %d:%d %s, note with %q", i, f.Line, f.Column, f.Place, f.Text, f.Note, w.line, w.col, w.place, w.note)
				}
			}
		})
	}
}

// TestSingleFileSamePlaces checks every row of the checker's own tables with SingleFile:
// each finding of the check is there at the same place with the same text, only its note
// worded for one file, and no note asks for a build.
func TestSingleFileSamePlaces(t *testing.T) {
	var pages []string
	for _, r := range refuseRows {
		pages = append(pages, r.html)
	}
	for _, r := range passRows {
		pages = append(pages, r.html)
	}
	for _, r := range treeRows {
		pages = append(pages, r.html)
	}
	for _, r := range singleRows {
		pages = append(pages, r.html)
	}
	for i, page := range pages {
		base, err := Check("p.html", []byte(page), Options{})
		if err != nil {
			t.Fatal(err)
		}
		single, err := Check("p.html", []byte(page), Options{SingleFile: true})
		if err != nil {
			t.Fatal(err)
		}
		key := func(f Finding) string {
			return fmt.Sprintf("%d:%d:%d:%s:%s", f.Line, f.Column, f.Length, f.Place, f.Text)
		}
		var have []string
		for _, f := range single {
			have = append(have, key(f))
			for _, w := range buildWords {
				if strings.Contains(f.Note, w) {
					t.Errorf("page %d: %s: the note names %q: %s", i, f.Place, w, f.Note)
				}
			}
		}
		for _, f := range base {
			if !slices.Contains(have, key(f)) {
				t.Errorf("page %d %.80q: --single-file lost %s", i, page, key(f))
			}
		}
	}
}

// TestSingleFileNotesFollowed applies the notes of the model pages in testdata/model
// literally, as a model that does what it is told would (modelFix), and checks the pages
// again: the figure is how many then pass.
func TestSingleFileNotesFollowed(t *testing.T) {
	pages, _ := filepath.Glob("testdata/model/*.html")
	if len(pages) < 10 {
		t.Fatalf("%d model pages", len(pages))
	}
	// The pages whose notes cannot be followed in the page, each with why.
	wantFail := map[string]string{
		"websocket_prices.html": "a live stream cannot be written into the page: it needs allowedDomains from the host",
	}
	passed, before := 0, 0
	for _, p := range pages {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{SingleFile: true, FileSize: func(u string) (int64, bool) {
			st, err := os.Stat(filepath.Join("testdata/model", u))
			if err != nil {
				return 0, false
			}
			return st.Size(), true
		}}
		name := filepath.Base(p)
		fs, err := Check(name, src, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) == 0 {
			before++
		}
		fixed, unfollowed := modelFix(src, fs)
		after, err := Check(name, fixed, opts)
		if err != nil {
			t.Fatal(err)
		}
		why, expectFail := wantFail[name]
		switch {
		case len(after) == 0 && expectFail:
			t.Errorf("%s passes after its notes, though %s", name, why)
		case len(after) > 0 && !expectFail:
			t.Errorf("%s: after its notes were followed (%d not followed: %q) it still has %d findings:\n%s\n%s", name, len(unfollowed), unfollowed, len(after), after.Diagnostics(), fixed)
		}
		if len(after) == 0 {
			passed++
		}
	}
	t.Logf("notes followed literally: %d of %d model pages pass (%d passed before)", passed, len(pages), before)
}
