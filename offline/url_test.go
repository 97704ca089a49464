package offline

import (
	"strings"
	"testing"
)

// TestGoogleFontsNote: a Google Fonts stylesheet is refused with the npm packages that hold
// its families, and the files of the weights it names.
func TestGoogleFontsNote(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"https://fonts.googleapis.com/css2?family=Roboto+Mono:wght@400;700&family=Inter&display=swap",
			`npm install @fontsource/roboto-mono @fontsource/inter, then import "@fontsource/roboto-mono/400.css"; import "@fontsource/roboto-mono/700.css"; import "@fontsource/inter" in a script`},
		{"https://fonts.googleapis.com/css2?family=Lora:ital,wght@0,400;1,700",
			`npm install @fontsource/lora, then import "@fontsource/lora/400.css"; import "@fontsource/lora/700-italic.css" in a script`},
		{"https://fonts.googleapis.com/css2?family=Inter:wght@100..900",
			`npm install @fontsource-variable/inter, then import "@fontsource-variable/inter/wght.css" in a script`},
		{"https://fonts.googleapis.com/css2?family=Lora:ital,wght@0,400..700;1,400..700",
			`npm install @fontsource-variable/lora, then import "@fontsource-variable/lora/wght.css"; import "@fontsource-variable/lora/wght-italic.css" in a script`},
		{"https://fonts.googleapis.com/css2?family=Roboto+Flex:opsz,wght@8..144,100..1000&family=Inter:wght@400",
			`npm install @fontsource-variable/roboto-flex @fontsource/inter, then import "@fontsource-variable/roboto-flex/full.css"; import "@fontsource/inter/400.css" in a script`},
		{"//fonts.googleapis.com/css?family=Open+Sans:400,700italic|Lato",
			`npm install @fontsource/open-sans @fontsource/lato, then import "@fontsource/open-sans/400.css"; import "@fontsource/open-sans/700-italic.css"; import "@fontsource/lato" in a script`},
		{"https://fonts.example.com/css2?family=Inter", ""},
		{"https://fonts.googleapis.com/icon?family=Material+Icons", `npm install @fontsource/material-icons`},
	} {
		got, ok := googleFontsNote(c.url)
		if ok != (c.want != "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.url, got, c.want)
		}
	}
	fs, err := Check("t.html", []byte(`<!doctype html><link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter"><style>@import url("https://fonts.googleapis.com/css2?family=Lora");</style>`), Options{})
	if err != nil || len(fs) != 2 || !strings.Contains(fs[0].Note, `import "@fontsource/inter"`) || !strings.Contains(fs[1].Note, `import "@fontsource/lora"`) {
		t.Errorf("Check: %v %+v", err, fs)
	}
}

// TestCDNNote: a package a CDN serves is refused with the same from npm: the package
// and version to install, and the file to name (linked, loaded or imported).
func TestCDNNote(t *testing.T) {
	for _, c := range []struct{ url, place, want string }{
		{"https://cdn.jsdelivr.net/npm/bootstrap@5.3.3/dist/css/bootstrap.min.css", "<link href>", `npm install bootstrap@5.3.3, then link the package's file: href="node_modules/bootstrap/dist/css/bootstrap.min.css"`},
		{"https://unpkg.com/htmx.org@2.0.4/dist/htmx.min.js", "<script src>", `npm install htmx.org@2.0.4, then load the package's file: src="node_modules/htmx.org/dist/htmx.min.js"`},
		{"https://esm.sh/canvas-confetti@1.9.3", "import in <script type=\"module\">", `npm install canvas-confetti@1.9.3, then import "canvas-confetti"`},
		{"https://cdn.jsdelivr.net/npm/@floating-ui/dom@1.6.0/+esm", "import", `npm install @floating-ui/dom@1.6.0, then import "@floating-ui/dom"`},
		{"https://ga.jspm.io/npm:lit@3.1.0/index.js", "import", `npm install lit@3.1.0, then import "lit/index.js"`},
		{"https://unpkg.com/open-props/open-props.min.css", "CSS @import", `npm install open-props, then @import "open-props/open-props.min.css"`},
		{"https://cdn.jsdelivr.net/gh/user/repo@1/x.js", "<script src>", ""},
		{"https://esm.sh/v135/react@18.2.0/es2022/react.mjs", "import", ""},
		{"https://example.com/npm/x", "import", ""},
	} {
		got, ok := cdnNote(c.url, c.place)
		if ok != (c.want != "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.url, got, c.want)
		}
	}
}
