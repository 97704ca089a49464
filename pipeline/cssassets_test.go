package pipeline

import (
	"context"
	"encoding/base64"
	"encoding/json"
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

// TestParsesAsWrittenAsChromium: the grammar parsesAsWritten implements, piece by piece,
// against Chromium's own parse-time validity (CSS.supports(property, value)): where it
// accepts a declaration, Chromium does (it may refuse more, never accept more); want says
// what it answers.
func TestParsesAsWrittenAsChromium(t *testing.T) {
	const u = "url(data:image/png;base64,AAAA)"
	rows := []struct {
		prop, value string
		want        bool
	}{
		// <image> | none, and their lists.
		{"background-image", u, true},
		{"background-image", u + ", none, " + u, true},
		{"background-image", u + " !important", true},
		{"background-image", u + " " + u, false},
		{"background-image", u + ",", false},
		{"background-image", "linear-gradient(red, blue), " + u, false}, // a gradient: not implemented
		{"background-image", u + " nonsense", false},
		{"mask-image", u + ", none", true},
		{"-webkit-mask-image", u, true},
		{"mask-image", u + " red", false},
		{"list-style-image", u, true},
		{"list-style-image", u + ", " + u, false},
		{"border-image-source", u, true},
		{"border-image-source", u + " 10px", false},
		// background: <bg-layer>#, <final-bg-layer>.
		{"background", u, true},
		{"background", u + " no-repeat center", true},
		{"background", u + " nonsense-value", false},
		{"background", u + " 0 0 / 8px 8px, nonsense", false},
		{"background", u + " 0 0 / 8px 8px, " + u, true},
		{"background", u + " 0 0/8px", true},
		{"background", u + " center / cover", true},
		{"background", u + " / cover", false},
		{"background", u + " center / -8px", false},
		{"background", u + " 50% 25% / auto 10px repeat-x fixed padding-box content-box #fff", true},
		{"background", "red " + u, true},
		{"background", "#0000c8 " + u, true},
		{"background", "#00a0 " + u + " left top", true},
		{"background", "#00a00 " + u, false},
		{"background", u + " red, " + u, false},          // a color only in the final layer
		{"background", u + " " + u, false},               // one image a layer
		{"background", u + " repeat no-repeat", true},    // two <repeat-style> keywords
		{"background", u + " repeat-x repeat", false},    // repeat-x takes no second
		{"background", u + " repeat round space", false}, // at most two
		{"background", u + " border-box padding-box", true},
		{"background", u + " border-box padding-box content-box", false},
		{"background", u + " scroll fixed", false},
		{"background", u + " local", true},
		{"background", u + " text", false}, // background-clip: text: not implemented
		{"background", u + " transparent", true},
		{"background", u + " currentcolor", true},
		{"background", u + " rebeccapurple", true},
		{"background", u + " notacolor", false},
		{"background", u + " BLACK", true},
		{"background", u + " blac\u212a", false}, // the Kelvin sign: ASCII case-insensitive, no k
		{"mask", u + " stro\u212ae-box", false},
		{"background", u + " rgb(0, 0, 200)", false}, // a function: not implemented
		// <position>: one, two, three and four values.
		{"background", u + " left", true},
		{"background", u + " 10px", true},
		{"background", u + " 0", true},
		{"background", u + " 10", false},
		{"background", u + " 10px 20%", true},
		{"background", u + " -10px -2em", true},
		{"background", u + " top left", true},
		{"background", u + " left top", true},
		{"background", u + " center center", true},
		{"background", u + " 10px top", true},
		{"background", u + " top 10px", false},
		{"background", u + " left left", false},
		{"background", u + " top bottom", false},
		{"background", u + " left 10px top", true},
		{"background", u + " left top 10px", true},
		{"background", u + " center top 10px", true},
		{"background", u + " center 10px top", false},
		{"background", u + " left 10px top 20px", true},
		{"background", u + " top 20px right 10px", true},
		{"background", u + " left 10px right 20px", false},
		{"background", u + " 10px 20px 30px", false},
		{"background", u + " 10px 20px 30px 40px", false},
		{"background", u + " left 10px top 20px 5px", false},
		{"background", u + " 1vw 1vh", true},
		{"background", u + " 1rem 1ch", true},
		{"background", u + " 1foo", false},
		{"background", u + " left / 10px 20px 30px", false},
		{"background", u + " left / auto auto", true},
		{"background", u + " 10px / 50%", true},
		{"background", "inherit " + u, false},
		// list-style: position || image || type, with none.
		{"list-style", u, true},
		{"list-style", u + " inside", true},
		{"list-style", u + " outside square", true},
		{"list-style", u + " nonsense", true}, // a counter style's name
		{"list-style", u + " \"-\"", true},
		{"list-style", u + " none", true},
		{"list-style", "none " + u + " inside", true},
		{"list-style", u + " square none", false},
		{"list-style", u + " " + u, false},
		{"list-style", u + " inside outside", false}, // outside as a counter style: refused
		{"list-style", u + " inherit", false},
		{"list-style", u + " default", false},
		{"list-style", u + " 10px", false},
		{"list-style", u + " --foo", false}, // Chromium takes it: refused, as a dashed ident
		{"list-style", u + " -foo", true},
		{"list-style", u + ` "s" square`, false},
		{"list-style", u + " NONE inside", true},
		{"list-style", u + ` \69 nherit`, false}, // an escape: not read
		{"list-style", u + ` n\6fne`, false},
		// content.
		{"content", u, true},
		{"content", u + " \"a\" open-quote", true},
		{"content", u + " / \"alt\"", true},
		{"content", u + " / \"alt\" \"more\"", true},
		{"content", u + " /", false},
		{"content", u + " / " + u, false},
		{"content", u + " nonsense", false},
		{"content", u + " 10px", false},
		// cursor.
		{"cursor", u + ", auto", true},
		{"cursor", u + " 2 3, pointer", true},
		{"cursor", u + " 2, pointer", false},
		{"cursor", u + " -2 3.5, pointer", true},
		{"cursor", u + " 2px 3px, pointer", false},
		{"cursor", u + ", " + u + " 0 0, zoom-in", true},
		{"cursor", u, false},
		{"cursor", u + ", nonsense", false},
		// Properties the grammar does not hold.
		{"border-image", u + " 30 round", false},
		// mask: <mask-layer>#.
		{"mask", u, true},
		{"mask", u + " no-repeat center / contain", true},
		{"mask", u + " luminance subtract", true},
		{"mask", u + " alpha luminance", false},
		{"mask", u + " border-box no-clip", true},
		{"mask", u + " fill-box stroke-box", true},
		{"mask", u + " margin-box", false}, // the spec's, not Chromium's
		{"mask", u + " no-clip no-clip", false},
		{"mask", u + " red", false},
		{"mask", u + " fixed", false},
		{"mask", u + ", " + u + " add", true},
		{"--x", u, false},
		{"color", u, false},
		{"BACKGROUND", u, true},
		{"bac\u212aground", u, false}, // the Kelvin sign in the property's name
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/p.html", []byte("<!doctype html><title>p</title>")), 0)
	supports := func(pairs [][2]string) []bool {
		js, _ := json.Marshal(pairs)
		b.Serve("/pairs.json", js, "application/json")
		return browsertest.Eval[[]bool](t, b, `fetch("/pairs.json").then((r) => r.json()).then((ps) => ps.map(([p, v]) => CSS.supports(p, v)))`)
	}
	var pairs [][2]string
	for _, r := range rows {
		pairs = append(pairs, [2]string{r.prop, strings.TrimSuffix(r.value, " !important")})
	}
	chromium := supports(pairs)
	for i, r := range rows {
		got := parsesAsWritten(r.prop + ":" + r.value)
		if got != r.want {
			t.Errorf("%s: %s: parsesAsWritten says %v, want %v (Chromium: %v)", r.prop, r.value, got, r.want, chromium[i])
		}
		if got && !chromium[i] {
			t.Errorf("%s: %s: parsesAsWritten accepts what Chromium drops when parsed", r.prop, r.value)
		}
		if !got && chromium[i] && testing.Verbose() {
			t.Logf("%s: %s: refused, Chromium accepts", r.prop, r.value)
		}
	}
	// Every sequence of up to 3 of these values (4 of the position's) with a url(), for each
	// property: accepted only where Chromium accepts it.
	words := strings.Fields("none left right top bottom center 10px 0 -5% 50% / auto cover contain repeat no-repeat " +
		"repeat-x repeat-y space round fixed scroll local border-box padding-box content-box text red #fff " +
		`transparent , inside outside square "s" open-quote 2 pointer nonsense margin-box view-box no-clip add exclude alpha luminance`)
	var values []string
	var seqs func(prefix string, n int, words []string)
	seqs = func(prefix string, n int, words []string) {
		if strings.Contains(prefix, "url(") {
			values = append(values, prefix)
		}
		for _, w := range append([]string{u}, words...) {
			if n > 0 {
				seqs(strings.TrimSpace(prefix+" "+w), n-1, words)
			}
		}
	}
	seqs("", 3, words)
	seqs("", 4, strings.Fields("left top center 10px -5% /"))
	pairs = pairs[:0]
	for _, prop := range []string{"background", "mask", "background-image", "mask-image", "list-style", "list-style-image", "border-image-source", "content", "cursor"} {
		for _, v := range values {
			pairs = append(pairs, [2]string{prop, v})
		}
	}
	accepted, valid := 0, 0
	for i, ok := range supports(pairs) {
		if ok {
			valid++
		}
		if parsesAsWritten(pairs[i][0] + ":" + pairs[i][1]) {
			accepted++
			if !ok {
				t.Errorf("%s: %s: parsesAsWritten accepts what Chromium drops when parsed", pairs[i][0], pairs[i][1])
			}
		}
	}
	t.Logf("%d declarations: Chromium accepts %d, parsesAsWritten %d of them", len(pairs), valid, accepted)
}
