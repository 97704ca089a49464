package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/internal/testwait"
)

// TestBuildOutputStartsNoCommand: the names of an app's folders and files are its author's,
// and a line of bundle build's output that starts with one is read by GitHub Actions' runner
// as a workflow command when its text, leading spaces trimmed, starts with "::". A folder
// found by the search named "x\n::error file=evil::injected" and a file "a\n::error
// file=evil::x.js" made lines "::error file=evil::injected/dist/t.html  14223 bytes …" and
// "::error file=evil::x.js:1:8: warning: …" (an annotation of the author's; ::add-mask:: or
// ::stop-commands:: would hide the build's own). In the text format no line is a command, and
// in the github format only bundle's annotations are.
func TestBuildOutputStartsNoCommand(t *testing.T) {
	base := t.TempDir()
	page := "<!doctype html><html><head><meta charset=\"utf-8\"><title>T</title><script type=\"module\" src=\"./m.js\"></script></head><body><p>hi</p></body></html>\n"
	for dir, files := range map[string]map[string]string{
		"x\n::error file=evil::injected": {"miniapp.toml": goodManifest, "index.html": page, "m.js": "console.log(1)\n"},
		"y": {"miniapp.toml": strings.Replace(goodManifest, `"t"`, `"u"`, 1), "index.html": page,
			"m.js": `import "./a\n::error file=evil::x.js"` + "\n", "a\n::error file=evil::x.js": `fetch("./x.json")` + "\n"},
		"z\n::error file=evil::refused": {"miniapp.toml": strings.Replace(goodManifest, `"t"`, `"v"`, 1), "index.html": page, "m.js": "import \"./nope.js\"\n"},
	} {
		for name, body := range files {
			p := filepath.Join(base, dir, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, format := range []string{"text", "github"} {
		_, stdout, stderr := bundle(t, "", "build", "--format", format, base)
		if !strings.Contains(stdout+stderr, `fetch("./x.json")`) && format == "text" || !strings.Contains(stdout+stderr, "nope.js") {
			t.Errorf("%s: the build did not say the warning and the error:\n%s%s", format, stdout, stderr)
		}
		for _, line := range strings.FieldsFunc(stdout+stderr, func(r rune) bool { return r == '\n' || r == '\r' }) {
			l := strings.TrimLeft(line, " \t")
			if strings.HasPrefix(l, "::") && (format == "text" || strings.HasPrefix(l, "::error file=evil")) {
				t.Errorf("%s: a line is a workflow command of the app's: %q\n%s%s", format, line, stdout, stderr)
			}
		}
	}
}

// TestRenderOutputStartsNoCommand: what a page says to bundle render (a tool's name, a call's
// result, a console error) is the app author's, and a line break in it started a line of
// render's output ("  set_name {…} → Hello\n::error file=evil::pwned" put
// "::error file=evil::pwned" on a line of its own, a workflow command to GitHub Actions'
// runner). No line of render's text output is a command.
func TestRenderOutputStartsNoCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hello")
	copyTree(t, filepath.Join("..", "..", "samples", "hello"), dir)
	js, err := os.ReadFile(filepath.Join(dir, "main.js"))
	if err != nil {
		t.Fatal(err)
	}
	js = []byte(strings.Replace(string(js), "return greeting.textContent;", `console.error("boom\n::error file=evil::console"); return greeting.textContent + "\n::error file=evil::pwned";`, 1))
	js = []byte(strings.Replace(string(js), `name: "set_name",`, `name: "set_name",`+"\n"+`  title: "x",`, 1))
	os.WriteFile(filepath.Join(dir, "main.js"), js, 0o644)
	if code, _, stderr := bundle(t, "", "build", dir); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	_, stdout, stderr := bundle(t, "", "render", "--timeout", testwait.Deadline().String(), "--call", `set_name={"name":"Ada"}`, filepath.Join(dir, "dist", "hello.html"))
	if !strings.Contains(stdout, "set_name") {
		t.Fatalf("render did not call the tool:\n%s%s", stdout, stderr)
	}
	for _, line := range strings.FieldsFunc(stdout+stderr, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
			t.Errorf("a line is a workflow command of the page's: %q\n%s%s", line, stdout, stderr)
		}
	}
}

// TestCheckOutputStartsNoCommand: bundle check of files a glob names (pages of an app's
// repository) printed "<name>: clean" with the name as it was: a page named
// "c\n::error file=evil::x.html" put a workflow command on a line of its own.
func TestCheckOutputStartsNoCommand(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "c\n::error file=evil::x.html")
	os.WriteFile(page, []byte("<!doctype html><p>hi</p>"), 0o644)
	for _, args := range [][]string{{"check", page}, {"check", "--single-file", page}} {
		_, stdout, stderr := bundle(t, "", args...)
		if !strings.Contains(stdout, "clean") {
			t.Fatalf("%v: not clean:\n%s%s", args, stdout, stderr)
		}
		for _, line := range strings.FieldsFunc(stdout+stderr, func(r rune) bool { return r == '\n' || r == '\r' }) {
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
				t.Errorf("%v: a line is a workflow command: %q", args, line)
			}
		}
	}
}
