package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/internal/testwait"
	"github.com/miniapp/bundle/pipeline/browsertest"
)

// TestBuildKeepsWhatThePageDoes loads pages as written and as built in Chromium and compares
// what a person and the page's scripts observe (testdata/fidelity/fingerprint.js): text and
// whitespace, boxes, computed styles, attributes, stylesheets, compatibility mode, comments,
// template content, which scripts ran, data: URLs. The build may add its SDK and policy and
// must change nothing else.
func TestBuildKeepsWhatThePageDoes(t *testing.T) {
	src := filepath.Join("testdata", "fidelity")
	files, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	b := browsertest.Start(t)
	for _, f := range files {
		b.Serve("/src/"+f.Name(), mustRead(t, filepath.Join(src, f.Name())), ctypeOf(f.Name()))
	}
	for _, page := range []string{"whitespace.html", "quirks.html", "stylesheets.html", "scripts.html", "modules.html"} {
		t.Run(strings.TrimSuffix(page, ".html"), func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range files {
				os.WriteFile(filepath.Join(dir, f.Name()), mustRead(t, filepath.Join(src, f.Name())), 0o644)
			}
			os.WriteFile(filepath.Join(dir, "miniapp.toml"), []byte("id = \"page\"\nname = \"Page\"\ndescription = \"A page the build must not change.\"\nentry = \""+page+"\"\n"), 0o644)
			res, err := Build(context.Background(), dir, Options{NoWrite: true})
			if err != nil {
				t.Fatal(err)
			}
			fp := func(u string) (string, []string) {
				v := b.Visit(t, u, 0)
				b.Await(t, `window.fp`)
				return browsertest.Eval[string](t, b, `window.fp ?? "none"`), v.Requests
			}
			want, _ := fp(b.URL(0, "/src/"+page))
			got, reqs := fp(b.Serve("/built/"+page, res.HTML))
			if got != want {
				t.Errorf("the built page differs from the source:\n got %s\nwant %s", got, want)
			}
			if len(reqs) > 0 {
				t.Errorf("the built page made requests: %v", reqs)
			}
			testwait.Quiet(50 * time.Millisecond) // a late violation would be reported by then
			for _, msg := range b.Console() {
				if strings.Contains(msg, "Content Security Policy") || strings.Contains(msg, "exception") {
					t.Errorf("console of the built page: %s", msg)
				}
			}
		})
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func ctypeOf(name string) string {
	switch filepath.Ext(name) {
	case ".css":
		return "text/css"
	case ".js":
		return "text/javascript"
	}
	return ""
}
