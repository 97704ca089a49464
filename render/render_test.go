package render

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/miniapp/bundle/internal/testwait"
	"github.com/miniapp/bundle/pipeline"
	"github.com/miniapp/bundle/registry"
	"github.com/miniapp/bundle/render/chrome"
)

// build builds the app folder dir and returns its page and entry.
func build(t *testing.T, dir string) ([]byte, *registry.Entry) { return buildB(t, dir) }

func buildB(t testing.TB, dir string) ([]byte, *registry.Entry) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
		// Its packages are in its node_modules, or in a workspace's above it.
		found := false
		for d, _ := filepath.Abs(dir); !found && d != filepath.Dir(d); d = filepath.Dir(d) {
			_, err := os.Stat(filepath.Join(d, "node_modules"))
			found = err == nil
		}
		if !found {
			t.Fatalf("%s needs its npm packages: run (cd %s && npm ci), as scripts/test does", dir, dir)
		}
	}
	res, err := pipeline.Build(context.Background(), dir, pipeline.Options{NoWrite: true})
	if err != nil {
		t.Fatalf("build %s: %v", dir, err)
	}
	return res.HTML, &res.Entry
}

// start starts a Renderer; a page's Timeout is testwait.Deadline unless opts sets one.
func start(t *testing.T, opts Options) *Renderer {
	t.Helper()
	if opts.Timeout == 0 {
		opts.Timeout = testwait.Deadline()
	}
	r, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// distinctColors counts the colours of a PNG, up to limit.
func distinctColors(t *testing.T, b []byte, limit int) (int, image.Rectangle) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	seen := map[[4]uint32]bool{}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			c0, c1, c2, c3 := img.At(x, y).RGBA()
			seen[[4]uint32{c0, c1, c2, c3}] = true
			if len(seen) >= limit {
				return len(seen), r
			}
		}
	}
	return len(seen), r
}

// TestRenderSamples renders every sample: clean, handshake done, tools listed, a screenshot
// of the app's size that shows something.
func TestRenderSamples(t *testing.T) {
	r := start(t, Options{Screenshot: true, Width: 640, Height: 480})
	for _, name := range []string{"hello", "todo-ts", "order-book"} {
		t.Run(name, func(t *testing.T) {
			pg, entry := build(t, filepath.Join("..", "samples", name))
			rep, err := r.Render(context.Background(), name+".html", pg, entry)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Failed() || len(rep.Requests) > 0 {
				t.Errorf("problems: %+v, requests: %v", rep.Problems, rep.Requests)
			}
			if !rep.Handshake || !rep.Initialized || len(rep.Tools) == 0 {
				t.Errorf("handshake %v, initialized %v, tools %v", rep.Handshake, rep.Initialized, rep.Tools)
			}
			n, bounds := distinctColors(t, rep.Screenshot, 16)
			if n < 8 || bounds.Dx() != 640 || bounds.Dy() != 480 {
				t.Errorf("screenshot %v with %d colours: blank or the wrong size", bounds, n)
			}
		})
	}
}

// TestRenderScreenshotLate: a screenshot shows what the page shows 350 ms after it loads.
func TestRenderScreenshotLate(t *testing.T) {
	r := start(t, Options{Screenshot: true, Width: 320, Height: 240})
	pg, entry := build(t, filepath.Join("testdata", "late"))
	rep, err := r.Render(context.Background(), "late.html", pg, entry)
	if err != nil || rep.Failed() {
		t.Fatalf("%v %+v", err, rep.Problems)
	}
	img, err := png.Decode(bytes.NewReader(rep.Screenshot))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if c0, c1, c2, _ := img.At(b.Dx()/2, b.Dy()/2).RGBA(); c0>>8 != 200 || c1>>8 != 0 || c2>>8 != 0 {
		t.Errorf("the middle of the screenshot is rgb(%d, %d, %d), not the page's rgb(200, 0, 0)", c0>>8, c1>>8, c2>>8)
	}
}

// TestRenderBroken renders apps that fail in a browser only, each for its own reason.
func TestRenderBroken(t *testing.T) {
	r := start(t, Options{})
	rows := []struct {
		name, kind, text string
		handshake        bool
	}{
		{"throws", "exception", "Uncaught Error: boom at load", true},
		{"violation", "policy", "script-src-elem blocked an inline script", true},
		{"beside", "policy", `the page made a relative URL (images/marker.png) at run time`, true},
		// The import it advises resolves from any script's folder (src/ included).
		{"beside", "policy", `import url from "/images/marker.png"`, true},
		{"fetch", "request", "GET https://api.example.com/orders?status=open", true},
		{"evaluncaught", "exception", "Uncaught EvalError", true},
		{"evaluncaught", "exception", "set eval = true in the manifest", true},
		{"nosdk", "handshake", "no handshake", false},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			var pg []byte
			var entry *registry.Entry
			if row.name == "nosdk" {
				b, err := os.ReadFile(filepath.Join("testdata", "nosdk.html"))
				if err != nil {
					t.Fatal(err)
				}
				pg = b
			} else {
				pg, entry = build(t, filepath.Join("testdata", row.name))
			}
			if row.name == "fetch" {
				// With its entry, render answers the origin it allows (TestRenderAllowedDomains);
				// without, the request is refused.
				entry = nil
			}
			// A page that never handshakes takes the whole timeout: any will do.
			r.opts.Timeout = testwait.Deadline()
			if !row.handshake {
				r.opts.Timeout = 3 * time.Second
			}
			rep, err := r.Render(context.Background(), row.name+".html", pg, entry)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Failed() {
				t.Fatalf("not failed: %+v", rep)
			}
			found := false
			for _, p := range rep.Problems {
				if p.Severity == Error && p.Kind == row.kind && strings.Contains(p.Text, row.text) {
					found = true
				}
				if p.Kind == "policy" && strings.Contains(p.Text, caughtEval) {
					t.Errorf("an uncaught eval reported as caught: %+v", p)
				}
			}
			if !found {
				t.Errorf("no %s error with %q in %+v", row.kind, row.text, rep.Problems)
			}
			if rep.Initialized != row.handshake {
				t.Errorf("initialized = %v", rep.Initialized)
			}
			if row.kind == "exception" && rep.Problems[0].Line == 0 {
				t.Errorf("the exception has no place in the page: %+v", rep.Problems[0])
			}
		})
	}
}

// TestRenderEvalProbe: a blocked eval the page catches is a warning; the page passes.
func TestRenderEvalProbe(t *testing.T) {
	r := start(t, Options{Calls: []Call{{Tool: "probe", Arguments: []byte("{}")}}})
	pg, entry := build(t, filepath.Join("testdata", "evalprobe"))
	rep, err := r.Render(context.Background(), "evalprobe.html", pg, entry)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed() || len(rep.Problems) != 1 || rep.Problems[0].Severity != Warning || !strings.Contains(rep.Problems[0].Text, "blocked eval") {
		t.Errorf("want one warning for the caught eval: %+v", rep.Problems)
	}
	if len(rep.Calls) != 1 || rep.Calls[0].Text != "no eval" {
		t.Errorf("calls: %+v", rep.Calls)
	}
}

// TestRenderCalls calls a tool with arguments, and one the app does not have.
func TestRenderCalls(t *testing.T) {
	call, err := ParseCall(`set_name={"name":"Ada"}`)
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, Options{Theme: "dark", Calls: []Call{call, {Tool: "nope", Arguments: []byte("{}")}}})
	pg, entry := build(t, filepath.Join("..", "samples", "hello"))
	rep, err := r.Render(context.Background(), "hello.html", pg, entry)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Calls) != 2 || rep.Calls[0].Text != "Hello, Ada" || rep.Calls[1].Error == "" {
		t.Fatalf("calls: %+v", rep.Calls)
	}
	if !rep.Failed() || !strings.Contains(rep.Problems[len(rep.Problems)-1].Text, "nope") {
		t.Errorf("a call to a tool the app lacks must fail the page: %+v", rep.Problems)
	}
	// A tool registered after the app loaded is called once the app announces it.
	late := start(t, Options{Calls: []Call{{Tool: "ready", Arguments: []byte("{}")}}})
	pg, entry = build(t, filepath.Join("testdata", "latetool"))
	rep, err = late.Render(context.Background(), "latetool.html", pg, entry)
	if err != nil || rep.Failed() || len(rep.Calls) != 1 || rep.Calls[0].Text != "ready" || len(rep.Tools) != 1 {
		t.Errorf("a late tool: %v %+v %+v %+v", err, rep.Calls, rep.Tools, rep.Problems)
	}
	for _, bad := range []string{"=1", `x={"a":`, "x=[1]", "x=3"} {
		if _, err := ParseCall(bad); err == nil {
			t.Errorf("ParseCall(%q) accepted", bad)
		}
	}
}

// TestRenderHostsOrigin: an app that lists its hosts connects only to them; render frames it
// from the first, so it connects, and the frame-ancestors header it is served with allows it.
func TestRenderHostsOrigin(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "miniapp.toml"), []byte("id = \"pinned\"\nname = \"Pinned\"\ndescription = \"An app with hosts.\"\nentry = \"main.ts\"\nhosts = [\"https://*.chat.example.com\", \"https://other.example.org\"]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.ts"), []byte("import { registerTool } from \"@miniapp/sdk\";\nregisterTool({ name: \"where\", description: \"Says where the host is.\", execute: () => document.referrer || location.ancestorOrigins[0] });\n"), 0o644)
	pg, entry := build(t, dir)
	r := start(t, Options{Calls: []Call{{Tool: "where", Arguments: []byte("{}")}}})
	rep, err := r.Render(context.Background(), "pinned.html", pg, entry)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed() || len(rep.Calls) != 1 || !strings.HasPrefix(rep.Calls[0].Text, "https://render.chat.example.com") {
		t.Errorf("problems %+v, calls %+v", rep.Problems, rep.Calls)
	}
}

// TestRenderCrash: a renderer that crashes mid-render is a failed page, not a hang, and the
// next page renders.
func TestRenderCrash(t *testing.T) {
	r := start(t, Options{})
	pg, entry := build(t, filepath.Join("..", "samples", "hello"))
	r.opts.crashAtHandshake = func(ctx context.Context) error {
		_, err := chromedp.Call(ctx, page.Crash, cdp.Empty{})
		return err
	}
	rep, err := r.Render(context.Background(), "hello.html", pg, entry)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Failed() || rep.Problems[0].Kind != "crash" {
		t.Errorf("want a crash: %+v", rep.Problems)
	}
	r.opts.crashAtHandshake = nil
	rep, err = r.Render(context.Background(), "hello.html", pg, entry)
	if err != nil || rep.Failed() {
		t.Errorf("after a crash: %v %+v", err, rep)
	}
}

func TestFindChrome(t *testing.T) {
	_, err := chrome.Find(filepath.Join(t.TempDir(), "no-chromium"))
	if err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Errorf("err = %v", err)
	}
}

// TestRenderAllowedDomains: a page's requests to the origins its entry allows are answered
// without network (503, or a file of the fixtures folder) and reported as warnings; the page
// passes. Rendered without its entry, the same request is refused and fails the page.
func TestRenderAllowedDomains(t *testing.T) {
	pg, entry := build(t, filepath.Join("testdata", "feed"))
	fixtures := t.TempDir()
	os.MkdirAll(filepath.Join(fixtures, "api.example.com"), 0o755)
	os.MkdirAll(filepath.Join(fixtures, "img.cdn.example", "list"), 0o755)
	os.WriteFile(filepath.Join(fixtures, "api.example.com", "feed.json"), []byte(`{"items":3}`), 0o644)
	os.WriteFile(filepath.Join(fixtures, "img.cdn.example", "list", "index.html"), []byte("listed"), 0o644)
	os.WriteFile(filepath.Join(fixtures, "secret.txt"), []byte("not served"), 0o644)
	state := []Call{{Tool: "state", Arguments: []byte("{}")}}
	for _, row := range []struct {
		name     string
		fixtures string
		entry    *registry.Entry
		shown    string
		answered []string
	}{
		{"503", "", entry, "status 503 | status 503", []string{
			"GET https://api.example.com/feed.json?since=1 → 503", "GET https://img.cdn.example/list/ → 503", "OPTIONS https://img.cdn.example/list/ → 204 (preflight)"}},
		{"fixtures", fixtures, entry, `{"items":3} | listed`, []string{
			"GET https://api.example.com/feed.json?since=1 → 200 (api.example.com/feed.json)", "GET https://img.cdn.example/list/ → 200 (img.cdn.example/list/index.html)", "OPTIONS https://img.cdn.example/list/ → 204 (preflight)"}},
	} {
		t.Run(row.name, func(t *testing.T) {
			r := start(t, Options{Calls: state, Fixtures: row.fixtures})
			rep, err := r.Render(context.Background(), "feed.html", pg, row.entry)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Failed() {
				t.Errorf("failed: %+v", rep.Problems)
			}
			if len(rep.Calls) != 1 || rep.Calls[0].Text != row.shown {
				t.Errorf("the page shows %+v, want %q", rep.Calls, row.shown)
			}
			if strings.Join(rep.Answered, "\n") != strings.Join(row.answered, "\n") || len(rep.Requests) != 0 {
				t.Errorf("answered %q, refused %q; want %q answered", rep.Answered, rep.Requests, row.answered)
			}
			warned := 0
			for _, p := range rep.Problems {
				if p.Kind == "request" && p.Severity == Warning && strings.Contains(p.Text, "allowedDomains") {
					warned++
				}
			}
			if warned != len(row.answered) {
				t.Errorf("%d warnings about answered requests, want %d: %+v", warned, len(row.answered), rep.Problems)
			}
		})
	}
	t.Run("no_entry", func(t *testing.T) {
		r := start(t, Options{Fixtures: fixtures})
		rep, err := r.Render(context.Background(), "feed.html", pg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Failed() || len(rep.Answered) != 0 || !slices.Contains(rep.Requests, "GET https://api.example.com/feed.json?since=1") {
			t.Errorf("without an entry the request must be refused and fail the page: %+v", rep)
		}
	})
}

// TestFixtureFile: a fixture is a regular file under <dir>/<host>; nothing else is served.
func TestFixtureFile(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "a.example", "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "a.example", "x.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.example", "sub", "index.html"), []byte("i"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.example", ".env"), []byte("k"), 0o644)
	os.WriteFile(filepath.Join(dir, "top.txt"), []byte("t"), 0o644)
	os.Symlink(filepath.Join(dir, "top.txt"), filepath.Join(dir, "a.example", "link.txt"))
	// Folders that links lead out of the fixtures folder: a file under one was served (the
	// last name alone was checked for a link).
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("s"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "a.example", "out"))
	os.Symlink(outside, filepath.Join(dir, "b.example"))
	os.Symlink(filepath.Join(dir, "a.example"), filepath.Join(dir, "c.example"))
	for _, row := range []struct {
		host, path string
		want       string
	}{
		{"a.example", "/x.json", "a.example/x.json"},
		{"a.example:8443", "/x.json", "a.example/x.json"},
		{"A.EXAMPLE", "/x.json", "a.example/x.json"},
		{"a.example", "/sub/", "a.example/sub/index.html"},
		{"a.example", "/sub", "a.example/sub/index.html"},
		{"a.example", "/../top.txt", ""},
		{"a.example", "/%2e%2e/top.txt", ""},
		{"a.example", "/.env", ""},
		{"a.example", "/link.txt", ""},
		{"..", "/top.txt", ""},
		{"a.example", "/missing", ""},
		{"a.example", "/out/secret.txt", ""},
		{"b.example", "/secret.txt", ""},
		{"c.example", "/x.json", "c.example/x.json"}, // a link that stays inside
	} {
		f, ok := fixtureFile(dir, row.host, row.path)
		got := ""
		if ok {
			rel, _ := filepath.Rel(dir, f)
			got = filepath.ToSlash(rel)
		}
		if got != row.want {
			t.Errorf("fixtureFile(%q, %q) = %q, want %q", row.host, row.path, got, row.want)
		}
	}
}
