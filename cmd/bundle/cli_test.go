package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"github.com/miniapp/bundle/pipeline"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// bundle runs the CLI in-process and returns its exit code, stdout and stderr.
func bundle(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// app writes the files of an app into a new folder and returns it.
func app(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "app")
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const goodManifest = `id = "t"
name = "Test"
description = "A test app."
entry = "index.html"
`

const goodPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>T</title></head>
<body><p id="p">hi</p><script type="module" src="./main.ts"></script></body></html>
`

func goldenText(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/bundle -update)", err)
	}
	if got != string(want) {
		t.Errorf("diagnostics differ from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestBuildRefuses(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.ts"), []byte("export const s = 1"), 0o644)
	rows := []struct {
		name  string
		files map[string]string
		setup func(dir string)
		want  []string // substrings of stderr
	}{
		{"manifest_many_mistakes", map[string]string{
			"miniapp.toml": `id = "Bad_Id"
nmae = "x"
description = "` + strings.Repeat("d", 301) + `"
entry = "../index.html"
maxKB = 0
allowedDomains = ["http://api.example.com/v1"]
hosts = ["https://*.*.example.com"]

[[capabilities]]
id = "auth"

[build]
loader = { ".js" = "jsxx" }
`}, nil, []string{`unknown field "nmae"`, `did you mean "name"?`, `missing required field "name"`, "over the limit of 300", "leaves the app folder", "maxKB 0 is out of range", "is not https:", "wildcard", "has no purpose", `did you mean "jsx"?`}},
		{"missing_entry", map[string]string{"miniapp.toml": goodManifest}, nil, []string{`entry "index.html" does not exist`}},
		{"tsx_syntax_error", map[string]string{"miniapp.toml": strings.Replace(goodManifest, "index.html", "src/main.tsx", 1),
			"src/main.tsx": "const a = <div>hi</span>;\n"}, nil, []string{"src/main.tsx:1:", "Unexpected closing \"span\" tag does not match opening \"div\" tag"}},
		{"import_does_not_resolve", map[string]string{"miniapp.toml": goodManifest, "index.html": goodPage,
			"main.ts": "import { x } from \"./nope\";\nconsole.log(x);\n"}, nil, []string{"main.ts:1:19", `Could not resolve "./nope"`}},
		{"remote_img", map[string]string{"miniapp.toml": goodManifest, "main.ts": "",
			"index.html": strings.Replace(goodPage, `<p id="p">hi</p>`, "<p>\n  <img src=\"https://cdn.example/a.png\">\n</p>", 1)}, nil, []string{"index.html:4:13", `<img src> loads "https://cdn.example/a.png"`}},
		{"missing_local_file", map[string]string{"miniapp.toml": goodManifest, "main.ts": "",
			"index.html": strings.Replace(goodPage, `<p id="p">hi</p>`, `<img src="./logo.png">`, 1)}, nil, []string{`"./logo.png" does not exist`}},
		{"over_budget", map[string]string{"miniapp.toml": goodManifest + "maxKB = 1\n", "index.html": goodPage,
			"main.ts": "import big from \"./big.txt\";\nconsole.log(big);\n", "big.txt": strings.Repeat("x", 4000)}, nil, []string{"over its budget of 1 KB", "largest inputs: @miniapp/sdk (the SDK's script in every page)", "big.txt 3.9 KB"}},
		{"import_escapes_folder", map[string]string{"miniapp.toml": goodManifest, "index.html": goodPage,
			"main.ts": "import { s } from \"" + filepath.ToSlash(filepath.Join(outside, "secret")) + "\";\nconsole.log(s);\n"}, nil, []string{"outside the app folder"}},
		{"symlink_escapes_folder", map[string]string{"miniapp.toml": goodManifest, "index.html": goodPage,
			"main.ts": "import { s } from \"./link\";\nconsole.log(s);\n"}, func(dir string) {
			os.Symlink(filepath.Join(outside, "secret.ts"), filepath.Join(dir, "link.ts"))
		}, []string{"outside the app folder"}},
		{"icon_symlink_escapes", map[string]string{"miniapp.toml": goodManifest + "icon = \"icon.svg\"\n", "index.html": goodPage, "main.ts": ""}, func(dir string) {
			os.WriteFile(filepath.Join(outside, "icon.svg"), []byte("<svg/>"), 0o644)
			os.Symlink(filepath.Join(outside, "icon.svg"), filepath.Join(dir, "icon.svg"))
		}, []string{`icon "icon.svg" leaves the app folder through a symbolic link`}},
		{"sdk_react_without_react", map[string]string{"miniapp.toml": strings.Replace(goodManifest, "index.html", "main.ts", 1),
			"main.ts": "import { useMiniApp } from \"@miniapp/sdk/react\";\nconsole.log(useMiniApp);\n"}, nil, []string{"@miniapp/sdk/react:3:", `imports react, which the app does not have`}},
		{"local_page_in_iframe", map[string]string{"miniapp.toml": goodManifest, "main.ts": "", "page.html": "<p>",
			"index.html": strings.Replace(goodPage, `<p id="p">hi</p>`, "<iframe\n src=\"page.html\"></iframe>", 1)}, nil, []string{"index.html:4:7", `<iframe src> loads "page.html"`}},
		{"inline_handler", map[string]string{"miniapp.toml": goodManifest, "main.ts": "",
			"index.html": strings.Replace(goodPage, `<p id="p">`, `<p id="p" onclick="go()">`, 1)}, nil, []string{"inline event handler onclick", "addEventListener"}},
		{"env_symlink_escapes", map[string]string{"miniapp.toml": goodManifest, "index.html": goodPage, "main.ts": "console.log(import.meta.env.VITE_KEY);\n"}, func(dir string) {
			os.WriteFile(filepath.Join(outside, "secrets.env"), []byte("VITE_KEY=secret\n"), 0o644)
			os.Symlink(filepath.Join(outside, "secrets.env"), filepath.Join(dir, ".env"))
		}, []string{".env is a symbolic link that leaves the app folder", "copy the file in"}},
		{"page_not_utf8", map[string]string{"miniapp.toml": goodManifest, "main.ts": "",
			"index.html": strings.Replace(goodPage, `<meta charset="utf-8">`, `<meta charset="shift_jis">`, 1)}, nil, []string{"index.html:2:13", "declares the encoding shift_jis", `save it as UTF-8`}},
		{"data_frame_blocked_by_policy", map[string]string{"miniapp.toml": goodManifest, "main.ts": "",
			"index.html": strings.Replace(goodPage, `<p id="p">hi</p>`, `<iframe src="data:text/html,<p>hi</p>"></iframe>`, 1)}, nil, []string{`<iframe src> uses a data: URL that the page's Content-Security-Policy blocks (default-src 'none')`}},
		{"cdn_script_and_preconnect", map[string]string{"miniapp.toml": goodManifest, "main.ts": "",
			"index.html": strings.Replace(goodPage, `<title>T</title>`, `<title>T</title><link rel="preconnect" href="https://fonts.example"><script src="https://cdn.example/react.js"></script>`, 1)}, nil, []string{"<link href> loads \"https://fonts.example\"", "<script src> loads \"https://cdn.example/react.js\""}},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			dir := app(t, row.files)
			if row.setup != nil {
				row.setup(dir)
			}
			code, stdout, stderr := bundle(t, "", "build", dir)
			if code != exitRefused {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, exitRefused, stdout, stderr)
			}
			for _, w := range row.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if entries, _ := os.ReadDir(filepath.Join(dir, "dist")); len(entries) > 0 {
				t.Errorf("a refused build left files behind: %v", entries)
			}
			text := strings.ReplaceAll(strings.ReplaceAll(stderr, dir, "APP"), outside, "OUTSIDE")
			// An underline's length follows the temporary path's; keep the golden stable.
			text = regexp.MustCompile(`~{2,}`).ReplaceAllString(text, "~~~")
			goldenText(t, "build_"+row.name, text)
		})
	}
}

// TestFailedBuildKeepsPreviousOutput builds an app, breaks it, builds again: the first build's
// files must be untouched.
func TestFailedBuildKeepsPreviousOutput(t *testing.T) {
	dir := app(t, map[string]string{"miniapp.toml": goodManifest, "index.html": goodPage, "main.ts": "console.log(1)\n"})
	if code, _, stderr := bundle(t, "", "build", dir); code != 0 {
		t.Fatalf("first build: exit %d: %s", code, stderr)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "dist", "t.html"))
	beforeEntry, _ := os.ReadFile(filepath.Join(dir, "dist", "t.json"))
	beforeRegistry, _ := os.ReadFile(filepath.Join(dir, "dist", "registry.json"))
	os.WriteFile(filepath.Join(dir, "main.ts"), []byte("console.log(\n"), 0o644)
	if code, _, _ := bundle(t, "", "build", dir); code != exitRefused {
		t.Fatalf("broken build: exit %d, want 1", code)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "dist", "t.html"))
	afterEntry, _ := os.ReadFile(filepath.Join(dir, "dist", "t.json"))
	afterRegistry, _ := os.ReadFile(filepath.Join(dir, "dist", "registry.json"))
	if !bytes.Equal(before, after) || !bytes.Equal(beforeEntry, afterEntry) || !bytes.Equal(beforeRegistry, afterRegistry) || len(afterRegistry) == 0 {
		t.Error("a failed build changed the previous output")
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "dist"))
	if len(entries) != 4 {
		t.Errorf("dist holds %d files, want the 4 of the first build (page, entry, registry, %s; no temporary files left)", len(entries), pipeline.OwnersFile)
	}
}

func TestBuildOutput(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := bundle(t, "", "build", "--out", out, "--format", "json", "../../samples/hello")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		SchemaVersion int `json:"schema_version"`
		Entries       []struct {
			ID, SHA256, Integrity, CSP string
			Bytes                      int
		} `json:"entries"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if doc.SchemaVersion != 1 || len(doc.Entries) != 1 || doc.Entries[0].ID != "hello" || len(doc.Entries[0].SHA256) != 64 {
		t.Errorf("unexpected registry entries: %+v", doc)
	}
	code, stdout, _ = bundle(t, "", "build", "--out", out, "../../samples/hello")
	if code != 0 || !strings.Contains(stdout, "hello.html") || !strings.Contains(stdout, "gzip") || !strings.Contains(stdout, "sha256:") {
		t.Errorf("text output: exit %d: %q", code, stdout)
	}
}

func TestCheckCommand(t *testing.T) {
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.html")
	dirty := filepath.Join(dir, "dirty.html")
	os.WriteFile(clean, []byte(`<p>hi <a href="https://example.com">x</a></p>`), 0o644)
	os.WriteFile(dirty, []byte("<p>\n<img src=\"https://cdn.example/a.png\"></p>"), 0o644)
	out := t.TempDir()
	if code, _, stderr := bundle(t, "", "build", "--out", out, "../../samples/hello"); code != 0 {
		t.Fatalf("build hello: %s", stderr)
	}
	built := filepath.Join(out, "hello.html")
	runRows(t, []cliRow{
		{"clean_with_link_domain", []string{"check", "--link-domains", "example.com", clean}, 0, "clean", "", ""},
		{"link_not_allowed", []string{"check", clean}, 1, "", "not an allowed link host", ""},
		{"dirty_text", []string{"check", dirty}, 1, "", "dirty.html:2:11: error: <img src> loads", ""},
		{"dirty_json", []string{"check", "--format", "json", dirty}, 1, `"schema_version": 1`, "", ""},
		{"clean_json_empty_list", []string{"check", "--format", "json", "--link-domains", "example.com", clean}, 0, `"findings": []`, "", ""},
		{"dirty_github", []string{"check", "--format", "github", dirty}, 1, "::error file=" + dirty + ",line=2,endLine=2,col=11,endColumn=35::", "", ""},
		{"stdin", []string{"check", "-"}, 1, "", "<stdin>:1:14", `<script src="x.js"></script>`},
		{"missing_file", []string{"check", filepath.Join(dir, "nope.html")}, 2, "", "cannot read", ""},
		{"directory", []string{"check", dir}, 2, "", "is a directory", ""},
		{"no_args", []string{"check"}, 2, "", "no files given", ""},
		{"bad_format", []string{"check", "--format", "xml", clean}, 2, "", "unknown --format", ""},
		{"unknown_flag", []string{"check", "--link-domain", "x", clean}, 2, "", `did you mean "link-domains"?`, ""},
		{"unknown_command", []string{"chekc"}, 2, "", `did you mean "check"?`, ""},
		{"help", []string{"check", "-h"}, 0, "Examples:", "", ""},
		{"version", []string{"version"}, 0, "bundle ", "", ""},
		{"built_page_uses_its_entry", []string{"check", built}, 0, "clean", "allowed by", ""},
		{"flag_overrides_entry", []string{"check", "--link-domains", "other.example", built}, 1, "", "not an allowed link host", ""},
	})
}

// TestBuildCPUProfile: --cpuprofile writes a profile pprof reads (gzipped protocol buffers)
// and changes nothing in the page; a profile that cannot be created is a usage error.
func TestBuildCPUProfile(t *testing.T) {
	plain, profiled := t.TempDir(), t.TempDir()
	prof := filepath.Join(t.TempDir(), "build.pprof")
	if code, _, stderr := bundle(t, "", "build", "--quiet", "--out", plain, "../../samples/hello"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if code, _, stderr := bundle(t, "", "build", "--quiet", "--out", profiled, "--cpuprofile", prof, "../../samples/hello"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	p, err := os.ReadFile(prof)
	if err != nil || len(p) < 2 || p[0] != 0x1f || p[1] != 0x8b {
		t.Fatalf("the profile is not a gzipped pprof file (%d bytes, %v)", len(p), err)
	}
	a, _ := os.ReadFile(filepath.Join(plain, "hello.html"))
	b, _ := os.ReadFile(filepath.Join(profiled, "hello.html"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("the page built with --cpuprofile differs (%d and %d bytes)", len(a), len(b))
	}
	code, _, stderr := bundle(t, "", "build", "--quiet", "--out", plain, "--cpuprofile", filepath.Join(t.TempDir(), "no", "such", "folder", "p"), "../../samples/hello")
	if code != exitUsage || !strings.Contains(stderr, "--cpuprofile") {
		t.Errorf("an unwritable profile: exit %d, %q", code, stderr)
	}
}
