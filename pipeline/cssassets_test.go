package pipeline

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// TestAssetsReachShadowRoots: CSS imported with ?inline and adopted in a shadow root keeps
// the image it uses twice (its definition is on :host too, where :root matches nothing), not
// one a document's stylesheet defines, in Chromium; and a stylesheet of 1,000 rules using one image holds it once.
func TestAssetsReachShadowRoots(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	red, blue := mustRead(t, filepath.Join("testdata", "fidelity", "red.png")), mustRead(t, filepath.Join("testdata", "fidelity", "blue.png"))
	var many strings.Builder
	for i := range 1000 {
		many.WriteString(".m" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + "{background:url(./red.png)}\n")
	}
	writeFiles(t, dir, map[string]string{
		"miniapp.toml": "id = \"s\"\nname = \"S\"\ndescription = \"A shadow root.\"\nentry = \"index.html\"\n",
		"index.html":   `<!doctype html><title>S</title><div id="h"></div><script type="module" src="./main.js"></script>`,
		"shadow.css":   ".a { background: url(./blue.png) no-repeat } .b { background-image: url(./blue.png) }\n",
		"many.css":     many.String(),
		"main.js": `import css from "./shadow.css?inline";
import "./many.css";
const root = document.getElementById("h").attachShadow({ mode: "open" });
const sheet = new CSSStyleSheet();
sheet.replaceSync(css);
root.adoptedStyleSheets = [sheet];
root.innerHTML = '<div class="a">a</div><div class="b">b</div>';
window.images = [...root.querySelectorAll("div")].map((d) => getComputedStyle(d).backgroundImage);
`,
	})
	os.WriteFile(filepath.Join(dir, "red.png"), red, 0o644)
	os.WriteFile(filepath.Join(dir, "blue.png"), blue, 0o644)
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(res.HTML), base64.StdEncoding.EncodeToString(red)); n != 1 {
		t.Errorf("the image the 1,000 rules use is in the page %d times, want once", n)
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/s.html", res.HTML), 0)
	if !b.Await(t, `window.images`) {
		t.Fatalf("the page did not run: %q", b.Console())
	}
	// Its own image, blue, not the document's red one, which an inherited name could give.
	want := `url("data:image/png;base64,` + base64.StdEncoding.EncodeToString(blue) + `")`
	for i, got := range browsertest.Eval[[]string](t, b, `window.images`) {
		if got != want {
			t.Errorf("the shadow tree's element %d has the background %.80s…, want its own image", i, got)
		}
	}
}
