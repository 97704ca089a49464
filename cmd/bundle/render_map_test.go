package main

import (
	"cmp"
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

// TestRenderQuotesNoOutsideFile: an error render places through a source map shows the
// source's line only from the map's text or from a file inside the app's root, never from a
// file outside, whose line it printed: a map the app's script names (its text given) and a
// map beside a page (no text) naming ../secret/x.txt, or its absolute path. The messages
// are the same whether the file outside is there or not.
func TestRenderQuotesNoOutsideFile(t *testing.T) {
	const secret = "Sekret7f3a9c1d"
	page := "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>T</title></head>\n<body><p>hi</p><script type=\"module\" src=\"./main.js\"></script></body></html>\n"
	for _, row := range []struct {
		name string
		// files of the app; the map beside the page, when set, replaces the one the build
		// wrote (SECRET is the secret file's absolute path).
		files   map[string]string
		written string
		// linked: the map beside the page is a symbolic link to the file outside, whose
		// text is outside (the secret's line when empty).
		linked  bool
		outside string
	}{
		{name: "input_map_names_outside", files: map[string]string{
			"main.js":     "throw new Error(\"boom\");\n//# sourceMappingURL=main.js.map\n",
			"main.js.map": `{"version":3,"sources":["../secret/x.txt"],"sourcesContent":["throw new Error(\"boom\");"],"mappings":"AAAA,MAAM,IAAI"}`,
		}},
		{name: "map_beside_names_outside", files: map[string]string{"main.js": "throw new Error(\"boom\");\n"},
			written: `{"version":3,"sources":["../../secret/x.txt"],"sourcesContent":[null],"mappings":"AAAA,MAAM,IAAI"}`},
		{name: "map_beside_names_absolute", files: map[string]string{"main.js": "throw new Error(\"boom\");\n"},
			written: `{"version":3,"sources":["SECRET"],"mappings":"AAAA,MAAM,IAAI"}`},
		// A map beside the page that links out of its folder is not read, as an entry that
		// does is not: its sourcesContent was the error's source line, and a file outside
		// that is no map was said with its first character ("invalid character 'S'") where
		// it was there and not at all where not.
		{name: "map_beside_links_outside", files: map[string]string{"main.js": "throw new Error(\"boom\");\n"}, linked: true,
			outside: `{"version":3,"sources":["main.js"],"sourcesContent":["` + secret + `"],"mappings":"AAAA,MAAM,IAAI"}`},
		{name: "map_beside_links_outside_not_map", files: map[string]string{"main.js": "throw new Error(\"boom\");\n"}, linked: true},
	} {
		t.Run(row.name, func(t *testing.T) {
			var said []string
			for _, there := range []bool{true, false} {
				files := map[string]string{"miniapp.toml": goodManifest + "hosts = [\"https://chat.example.com\"]\n", "index.html": page}
				for k, v := range row.files {
					files[k] = v
				}
				dir := app(t, files)
				secretFile := filepath.Join(filepath.Dir(dir), "secret", "x.txt")
				if there {
					os.MkdirAll(filepath.Dir(secretFile), 0o755)
					text := cmp.Or(row.outside, secret+" = 1;\n")
					if err := os.WriteFile(secretFile, []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				target := dir
				if row.linked {
					if code, _, stderr := bundle(t, "", "build", "--sourcemap", dir); code != 0 {
						t.Fatalf("build: %s", stderr)
					}
					target = filepath.Join(dir, "dist", "t.html")
					os.Remove(filepath.Join(dir, "dist", "t.js.map"))
					if err := os.Symlink(secretFile, filepath.Join(dir, "dist", "t.js.map")); err != nil {
						t.Fatal(err)
					}
				}
				if row.written != "" {
					if code, _, stderr := bundle(t, "", "build", "--sourcemap", dir); code != 0 {
						t.Fatalf("build: %s", stderr)
					}
					target = filepath.Join(dir, "dist", "t.html")
					m := strings.ReplaceAll(row.written, "SECRET", filepath.ToSlash(secretFile))
					if err := os.WriteFile(filepath.Join(dir, "dist", "t.js.map"), []byte(m), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				code, stdout, stderr := bundle(t, "", "render", target)
				if code != 1 || !strings.Contains(stderr, "Uncaught Error: boom") {
					t.Errorf("there %v: exit %d, want 1 and the error:\n%s", there, code, stderr)
				}
				if strings.Contains(stdout+stderr, secret) {
					t.Errorf("there %v: the messages hold a line of the file outside:\n%s", there, stderr)
				}
				// What render says, but for the time it took and the folder of the test.
				var lines []string
				for _, l := range strings.Split(strings.ReplaceAll(stderr, filepath.Dir(dir), "BASE"), "\n") {
					if !strings.Contains(l, " ms ") {
						lines = append(lines, l)
					}
				}
				said = append(said, strings.Join(lines, "\n"))
			}
			if said[0] != said[1] {
				t.Errorf("render says another thing where the file outside is:\n%s\nwhere not:\n%s", said[0], said[1])
			}
		})
	}
}

// TestRenderConsoleErrorPlaces: an Error a framework catches and logs with console.error (Vue
// logs what a component's hook throws, in its runtime) is placed where it was thrown, as
// DevTools links it, through the source map: not at the console.error call in the framework.
func TestRenderConsoleErrorPlaces(t *testing.T) {
	for _, row := range []struct {
		name  string
		files map[string]string
		want  string // the place, relative to the app folder, and the line shown
		line  string
	}{
		{"caught_and_logged", map[string]string{
			"src/main.ts":    "import { run } from \"./runtime\";\nimport { hook } from \"./comp\";\nrun(hook);\n",
			"src/runtime.ts": "// A framework's error handler: it logs what a hook throws.\nexport function run(fn: () => void) {\n  try {\n    fn();\n  } catch (err) {\n    console.error(err);\n  }\n}\n",
			"src/comp.ts":    "export function hook(): void {\n  const n: number = Math.random();\n  if (n < 2) throw new Error(\"boom from the hook\");\n}\n",
		}, "src/comp.ts:3:", `if (n < 2) throw new Error("boom from the hook");`},
		// A message with no Error is placed at the call, as before.
		{"logged_text", map[string]string{
			"src/main.ts": "const n: number = Math.random();\nif (n < 2) console.error(\"just text\", n > 5);\n",
		}, "src/main.ts:2:", `if (n < 2) console.error("just text", n > 5);`},
	} {
		t.Run(row.name, func(t *testing.T) {
			files := map[string]string{"miniapp.toml": "id = \"ce\"\nname = \"CE\"\ndescription = \"Errors.\"\nentry = \"src/main.ts\"\nhosts = [\"https://chat.example.com\"]\n"}
			for k, v := range row.files {
				files[k] = v
			}
			dir := app(t, files)
			want := filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(row.want)))
			code, _, stderr := bundle(t, "", "render", dir)
			if code != 1 || !strings.Contains(stderr, want) || !strings.Contains(stderr, row.line) {
				t.Errorf("exit %d, want 1 and %q with %q:\n%s", code, want, row.line, stderr)
			}
		})
	}
}
