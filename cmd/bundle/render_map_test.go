package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderSourcePlaces: an uncaught error in Chromium is placed in the author's file, line
// and column with its source line, through the map the build keeps for an app folder (built
// in memory) or the one --sourcemap wrote beside the page; the page's own place is the note.
// Without a map, the place is the page's.
func TestRenderSourcePlaces(t *testing.T) {
	dir := app(t, map[string]string{
		"miniapp.toml": "id = \"price\"\nname = \"Price\"\ndescription = \"A price.\"\nentry = \"src/main.ts\"\nhosts = [\"https://chat.example.com\"]\n",
		"src/main.ts":  "import { fmt } from \"./fmt\";\ndocument.body.append(fmt(\"12\"));\n",
		"src/fmt.ts":   "// The price with two decimals.\nexport function fmt(price: any): string {\n  return \"€ \" + price.toFixed(2);\n}\n",
	})
	want := filepath.ToSlash(filepath.Join(dir, "src", "fmt.ts")) + ":3:25: error: exception: Uncaught TypeError:"
	code, _, stderr := bundle(t, "", "render", dir)
	if code != 1 || !strings.Contains(stderr, want) || !strings.Contains(stderr, `return "€ " + price.toFixed(2);`) || !strings.Contains(stderr, "in the page: "+filepath.Join(dir, "price.html")+":") {
		t.Errorf("render of the app folder: exit %d, want 1 and %q:\n%s", code, want, stderr)
	}

	out := filepath.Join(dir, "dist")
	if code, _, stderr := bundle(t, "", "build", "--sourcemap", dir); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	page := filepath.Join(out, "price.html")
	code, _, stderr = bundle(t, "", "render", page)
	if code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("render of a page with its map beside: exit %d, want %q:\n%s", code, want, stderr)
	}
	os.Remove(filepath.Join(out, "price.js.map"))
	code, _, stderr = bundle(t, "", "render", page)
	if code != 1 || strings.Contains(stderr, "fmt.ts") || !strings.Contains(stderr, page+":") {
		t.Errorf("render of a page without a map: exit %d:\n%s", code, stderr)
	}
}
