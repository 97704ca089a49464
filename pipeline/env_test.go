package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
)

// TestHTMLEnv: %NAME% in an HTML entry becomes import.meta.env.NAME's value, as Vite's HTML env
// replacement does (a manifest define wins, a boolean is written as JavaScript writes it), a
// name with no value stays as written (warned of when it has a public prefix), and every
// offset of the new page maps back to the page as written.
func TestHTMLEnv(t *testing.T) {
	define := defines(map[string]string{"VITE_TITLE": "Orders & more", "VITE_EMPTY": ""}, map[string]string{"import.meta.env.VITE_API": `"https://api.example"`})
	src := "<title>%VITE_TITLE%</title> %MODE% %PROD% %BASE_URL% %VITE_EMPTY%|%VITE_TYPO% 100%DONE% 50% and 60% %VITE_API%"
	out, edits, unknown := htmlEnv([]byte(src), define)
	want := "<title>Orders & more</title> production true / |%VITE_TYPO% 100%DONE% 50% and 60% https://api.example"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if len(unknown) != 1 || src[unknown[0][0]:unknown[0][0]+unknown[0][1]] != "%VITE_TYPO%" {
		t.Errorf("unknown %v, want %%VITE_TYPO%% alone", unknown)
	}
	for _, c := range []struct{ in, out string }{
		{"<title>", "<title>"}, {"</title>", "</title>"}, {"%VITE_TYPO%", "%VITE_TYPO%"}, {"https://api", "%VITE_API%"}, {"more", "%VITE_TITLE%"}, {"|", "|"},
	} {
		if got := written(edits, strings.Index(string(out), c.in)); got != strings.Index(src, c.out) {
			t.Errorf("%q at %d in the page as written, want %d", c.in, got, strings.Index(src, c.out))
		}
	}
	if out, edits, _ := htmlEnv([]byte("<p>no reference, 100% plain</p>"), define); string(out) != "<p>no reference, 100% plain</p>" || edits != nil {
		t.Errorf("a page without references changed: %s %v", out, edits)
	}
	// Defines that are not JSON strings are written as their text (Vite's playground html:
	// 'null' was written as "").
	nonString := defines(nil, map[string]string{"import.meta.env.VITE_NULL": "null", "import.meta.env.VITE_OBJ": `{ "foo": "bar" }`, "import.meta.env.VITE_N": "5173"})
	if out, _, _ := htmlEnv([]byte("%VITE_NULL%|%VITE_OBJ%|%VITE_N%"), nonString); string(out) != `null|{ "foo": "bar" }|5173` {
		t.Errorf("non-string defines wrote %s", out)
	}
}

// TestHTMLEnvBuild: a built page holds the values; a message on a line where a value replaced
// a reference (a file that does not exist, a remote URL the check refuses, a name not
// defined, a warning in inline code after a value) is at its place in the page as written; a
// message on the first line of inline code shows the page's line.
func TestHTMLEnvBuild(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFile(t, filepath.Join(dir, "miniapp.toml"), "id = \"env\"\nname = \"Env\"\ndescription = \"HTML env.\"\nentry = \"index.html\"\n")
	writeFile(t, filepath.Join(dir, ".env"), "VITE_TITLE=A much longer title than the reference\nSECRET=never\n")
	page := "<!doctype html><title>%VITE_TITLE%</title><h1>%VITE_TITLE% (%MODE%) %SECRET%</h1>\n" +
		"<p>%VITE_TITLE%</p><img src=\"./gone.png\"><p>%VITE_TITLE%</p><img src=\"https://cdn.example/x.png\"> %VITE_TYPO%\n" +
		"<p>%VITE_TITLE%</p><script type=\"module\">const o = {a: 1, a: 2};</script>\n" +
		"<script type=\"module\">\nconst t = \"%VITE_TITLE%\", p = {b: 1, b: 2}; console.log(t, o, p);\n</script>\n"
	writeFile(t, filepath.Join(dir, "index.html"), page)
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	var el *diag.ListError
	if !errors.As(err, &el) {
		t.Fatalf("not refused: %v", err)
	}
	file := filepath.ToSlash(filepath.Join(dir, "index.html"))
	var got []string
	for _, m := range el.List {
		if m.Path == "" {
			got = append(got, fmt.Sprintf("%s:%d:%d %s", m.File, m.Line, m.Column, m.Severity))
		}
	}
	lines := strings.Split(page, "\n")
	col := func(line int, s string) int { return strings.Index(lines[line-1], s) + 1 }
	want := []string{
		fmt.Sprintf("%s:2:%d error", file, col(2, "./gone.png")),
		fmt.Sprintf("%s:2:%d error", file, col(2, "https://cdn")),
		fmt.Sprintf("%s:2:%d warning", file, col(2, "%VITE_TYPO%")),
		fmt.Sprintf("%s:3:%d warning", file, col(3, "a: 2")),
		fmt.Sprintf("%s:5:%d warning", file, col(5, "b: 2")),
	}
	if !slices.Equal(got, want) {
		t.Errorf("messages\n%q\nwant\n%q", got, want)
	}
	for _, m := range el.List {
		if (m.Line == 3 || m.Line == 5) && m.LineText != lines[m.Line-1] {
			t.Errorf("the inline code's message shows %q, not the page's line", m.LineText)
		}
	}

	writeFile(t, filepath.Join(dir, "index.html"), strings.ReplaceAll(strings.ReplaceAll(page, `<img src="./gone.png">`, ""), `<img src="https://cdn.example/x.png">`, ""))
	if res, err = Build(context.Background(), dir, Options{NoWrite: true}); err != nil {
		t.Fatal(err)
	}
	if html := string(res.HTML); !strings.Contains(html, "<title>A much longer title than the reference</title>") ||
		!strings.Contains(html, "(production) %SECRET%") || strings.Contains(html, "never") {
		t.Errorf("the page does not hold the values, or holds a secret: %.600s", html)
	}
}
