package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCheckSingleFile: bundle check --single-file gives notes for one file, at the places and
// with the exit codes of bundle check, and --format json carries each note.
func TestCheckSingleFile(t *testing.T) {
	dir := app(t, map[string]string{
		"dirty.html":   "<p>\n<img src=\"https://cdn.example/a.png\"></p>",
		"beside.html":  `<img src="logo.png">`,
		"logo.png":     string(make([]byte, 3000)),
		"fetch.html":   `<script>fetch("https://api.example.com/q")</script>`,
		"clean.html":   `<p>hi</p><script>document.body.append("x")</script>`,
		"handler.html": `<button onclick="go()">go</button>`,
	})
	// A file beside the page that links out of its folder: its size is not said (it was,
	// "the 3001-byte file", the size of a file outside), nor whether it is there.
	os.WriteFile(filepath.Join(dir, "linked.html"), []byte(`<img src="out.png"><img src="gone.png">`), 0o644)
	os.WriteFile(filepath.Join(filepath.Dir(dir), "outside.png"), make([]byte, 3001), 0o644)
	os.Symlink(filepath.Join(filepath.Dir(dir), "outside.png"), filepath.Join(dir, "out.png"))
	os.Symlink(filepath.Join(filepath.Dir(dir), "gone.png"), filepath.Join(dir, "gone.png"))
	linked := filepath.Join(dir, "linked.html")
	dirty := filepath.Join(dir, "dirty.html")
	beside := filepath.Join(dir, "beside.html")
	fetch := filepath.Join(dir, "fetch.html")
	clean := filepath.Join(dir, "clean.html")
	handler := filepath.Join(dir, "handler.html")
	runRows(t, []cliRow{
		{"same_place_note_for_the_page", []string{"check", "--single-file", dirty}, 1, "", "dirty.html:2:11: error: <img src> loads \"https://cdn.example/a.png\" from outside the bundle\n", ""},
		{"note_for_the_page", []string{"check", "--single-file", dirty}, 1, "", `write the image into the page as a data: URL in place of "https://cdn.example/a.png"`, ""},
		{"json_carries_the_note", []string{"check", "--single-file", "--format", "json", dirty}, 1, `"note": "write the image into the page as a data: URL`, "", ""},
		{"size_of_the_file_beside", []string{"check", "--single-file", beside}, 1, "", "the 3000-byte file adds 4022 bytes to the page", ""},
		{"size_of_a_link_out_not_said", []string{"check", "--single-file", linked}, 1, "", `in place of "out.png": data:image/png;base64,… (base64 adds a third to the file's bytes)`, ""},
		{"size_of_a_dangling_link_out_not_said", []string{"check", "--single-file", linked}, 1, "", `in place of "gone.png": data:image/png;base64,… (base64 adds a third to the file's bytes)`, ""},
		{"fetch_refused", []string{"check", "--single-file", fetch}, 1, "", "fetch.html:1:15: error: fetch() connects to https://api.example.com at run time", ""},
		{"fetch_granted", []string{"check", "--single-file", "--allowed-domains", "https://api.example.com", fetch}, 0, "clean", "", ""},
		{"handler_located", []string{"check", "--single-file", handler}, 1, "", `handler.html:1:18: error: inline event handler onclick="go()"`, ""},
		{"clean", []string{"check", "--single-file", clean}, 0, "clean", "", ""},
		{"stdin", []string{"check", "--single-file", "-"}, 1, "", "<stdin>:1:14: error: <script src>", `<script src="x.js"></script>`},
		{"missing_file", []string{"check", "--single-file", filepath.Join(dir, "nope.html")}, 2, "", "cannot read", ""},
		{"allowed_domains_needs_single_file", []string{"check", "--allowed-domains", "https://api.example.com", fetch}, 2, "", "--allowed-domains needs --single-file", ""},
	})
}
