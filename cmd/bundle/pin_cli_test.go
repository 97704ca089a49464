package main

import (
	"path/filepath"
	"testing"
)

// TestPinCommand: bundle pin writes a bundle that bundle verify passes, refuses a page's
// mistakes at their places (exit 1), and says a missing page (exit 2).
func TestPinCommand(t *testing.T) {
	dir := app(t, map[string]string{
		"clock.html": "<!doctype html><title>Clock</title><p id=t></p><script>document.getElementById('t').textContent = new Date().toISOString()</script>",
		"bad.html":   "<!doctype html>\n<button onclick=\"go()\">go</button><img src=\"https://cdn.example/a.png\">",
	})
	page := filepath.Join(dir, "clock.html")
	bad := filepath.Join(dir, "bad.html")
	out := filepath.Join(dir, "apps")
	man := []string{"--id", "clock", "--name", "Clock", "--description", "Shows the time", "--hosts", "https://chat.example.com"}
	runRows(t, []cliRow{
		{"pinned", append(append([]string{"pin"}, man...), "--out", out, page), 0, filepath.ToSlash(filepath.Join(out, "clock.html")) + "  ", "", ""},
		{"verified", []string{"verify", filepath.Join(out, "clock.html")}, 0, "verified", "", ""},
		{"json", append(append([]string{"pin", "--format", "json"}, man...), "--out", out, page), 0, `"pinned": true`, "", ""},
		{"handler_located", append(append([]string{"pin"}, man...), bad), 1, "", "bad.html:2:18: error: inline event handler onclick=\"go()\"", ""},
		{"remote_located", append(append([]string{"pin"}, man...), bad), 1, "", "bad.html:2:45: error: <img src> loads", ""},
		{"refused_json", append(append([]string{"pin", "--format", "json"}, man...), bad), 1, `"pinned": false`, "", ""},
		{"no_manifest", []string{"pin", page}, 1, "", "give --id, --name and --description", ""},
		{"missing_page", append(append([]string{"pin"}, man...), filepath.Join(dir, "nope.html")), 2, "", "there is no such file", ""},
		{"two_pages", append(append([]string{"pin"}, man...), page, bad), 2, "", "give one HTML page", ""},
		{"help", []string{"pin", "-h"}, 0, "Examples:", "", ""},
	})
}
