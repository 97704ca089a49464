package pipeline

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/diag"
)

// TestPercentEncodedURLs: a local URL of the page names its file percent-decoded, as a server
// reads it (my%20file.js is "my file.js", st%C3%BCle.css is "stüle.css", in a srcset too,
// where a space can only be written so); an encoded dot-dot still cannot leave the app folder,
// and an encoded slash is no path separator.
func TestPercentEncodedURLs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	for f, body := range map[string]string{
		"miniapp.toml":   "id = \"pct\"\nname = \"Pct\"\ndescription = \"Percent-encoded URLs.\"\nentry = \"index.html\"\n",
		"my file.js":     "document.body.dataset.js = 'my file';\n",
		"stüle.css":      ".stuele { margin: 3px }\n",
		"img/a b.svg":    `<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"><rect fill="navy" width="2" height="2"/></svg>`,
		"../outside.svg": `<svg xmlns="http://www.w3.org/2000/svg"/>`,
		"index.html": `<!doctype html><title>P</title><link rel="stylesheet" href="st%C3%BCle.css">` +
			`<img src="img/a%20b.svg" alt=""><img srcset="img/a%20b.svg 2x" alt=""><script type="module" src="./my%20file.js"></script>`,
	} {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(f)), body)
	}
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	html := string(res.HTML)
	for _, want := range []string{"margin:3px", "'my file'"} {
		if !strings.Contains(html, want) && !strings.Contains(html, strings.ReplaceAll(want, "'", `"`)) {
			t.Errorf("the page lacks %s: a percent-encoded URL was not read", want)
		}
	}
	if n := strings.Count(html, `="data:image/svg+xml`); n != 2 || strings.Contains(html, "a%20b.svg") {
		t.Errorf("the image of src and srcset is inlined %d times of 2", n)
	}

	writeFile(t, filepath.Join(dir, "index.html"), `<!doctype html><title>P</title><img src="%2e%2e/outside.svg" alt=""><img src="img%2Fa%20b.svg" alt="">`)
	_, err = Build(context.Background(), dir, Options{NoWrite: true})
	var el *diag.ListError
	if !errors.As(err, &el) {
		t.Fatalf("built: %v", err)
	}
	var got []string
	for _, m := range el.List {
		if m.Severity == diag.Error {
			got = append(got, m.Text)
		}
	}
	if len(got) != 2 || !strings.Contains(got[0], `"%2e%2e/outside.svg" leaves the app folder`) || !strings.Contains(got[1], `"img%2Fa%20b.svg" does not exist`) {
		t.Errorf("want the encoded dot-dot refused and the encoded slash not found, got %q", got)
	}
}
