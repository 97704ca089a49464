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
			`npm install @fontsource/inter, then import "@fontsource/inter" in a script`},
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
