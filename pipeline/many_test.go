package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/registry"
)

// writeScriptApp writes a small script app with the given id and entry source.
func writeScriptApp(t testing.TB, dir, id, src string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "miniapp.toml"), []byte("id = \""+id+"\"\nname = \"App "+id+"\"\ndescription = \"A generated app.\"\nentry = \"main.ts\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.ts"), []byte(src), 0o644)
}

// TestBuildAll builds a folder of apps at several depths, one broken and two sharing an id:
// the others are built, the failures name their folders, and registry.json lists what was
// built.
func TestBuildAll(t *testing.T) {
	root := t.TempDir()
	ok := "document.body.append('ok')\n"
	writeScriptApp(t, filepath.Join(root, "team-a", "one"), "one", ok)
	writeScriptApp(t, filepath.Join(root, "team-a", "nested", "deeper", "two"), "two", ok)
	writeScriptApp(t, filepath.Join(root, "team-b", "broken"), "broken", "document.body.append(\n")
	writeScriptApp(t, filepath.Join(root, "team-b", "first"), "same", ok)
	writeScriptApp(t, filepath.Join(root, "team-c", "second"), "same", ok)
	writeScriptApp(t, filepath.Join(root, "team-a", "one", "node_modules", "pkg"), "ignored", ok)
	writeScriptApp(t, filepath.Join(root, ".cache", "app"), "hidden", ok)

	dirs, err := FindApps(root)
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, d := range dirs {
		r, _ := filepath.Rel(root, d)
		rel = append(rel, filepath.ToSlash(r))
	}
	if got := strings.Join(rel, " "); got != "team-a/nested/deeper/two team-a/one team-b/broken team-b/first team-c/second" {
		t.Fatalf("found %s", got)
	}
	out := filepath.Join(t.TempDir(), "out")
	calls := 0
	results, registries, err := BuildAll(context.Background(), dirs, Options{OutDir: out}, 3, func(int, AppResult) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if calls != len(dirs) || len(registries) != 1 {
		t.Errorf("done called %d times, registries %v", calls, registries)
	}
	for i, r := range results {
		name := rel[i]
		var el *diag.ListError
		switch {
		case strings.HasSuffix(name, "broken"):
			if !errors.As(r.Err, &el) {
				t.Errorf("%s: %v", name, r.Err)
			}
		case strings.HasSuffix(name, "first"), strings.HasSuffix(name, "second"):
			other := "second"
			if strings.HasSuffix(name, "second") {
				other = "first"
			}
			if !errors.As(r.Err, &el) || el.List[0].Path != "id" || !strings.Contains(el.List[0].Text, other) {
				t.Errorf("%s: want a duplicate id naming %s: %v", name, other, r.Err)
			}
		default:
			if r.Err != nil {
				t.Errorf("%s: %v", name, r.Err)
			}
		}
	}
	reg, err := registry.Read(filepath.Join(out, registry.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if ids := strings.Join(reg.IDs(), " "); ids != "one two" {
		t.Errorf("registry holds %s", ids)
	}
	if reg.Apps["one"].URI != "ui://one" || reg.Apps["one"].MIMEType != registry.ResourceMIMEType {
		t.Errorf("entry: %+v", reg.Apps["one"])
	}

	// An app folder, and a folder of apps, reached through a link: found as the folder.
	links := t.TempDir()
	for _, l := range []struct{ link, to, want string }{
		{"app", filepath.Join(root, "team-a", "one"), "app"},
		{"apps", filepath.Join(root, "team-a"), "apps/nested/deeper/two apps/one"},
	} {
		link := filepath.Join(links, l.link)
		if err := os.Symlink(l.to, link); err != nil {
			t.Fatal(err)
		}
		dirs, err := FindApps(link)
		var rel []string
		for _, d := range dirs {
			r, _ := filepath.Rel(links, d)
			rel = append(rel, filepath.ToSlash(r))
		}
		if got := strings.Join(rel, " "); err != nil || got != l.want {
			t.Errorf("FindApps(%s) = %s, %v, want %s", l.link, got, err, l.want)
		}
	}

	if _, err := FindApps(t.TempDir()); !errors.Is(err, ErrNoApps) {
		t.Errorf("a folder with no apps: %v", err)
	}
	// An app without its manifest, as a Vite app comes: the message says what to write, and
	// that is enough to build it.
	vite := t.TempDir()
	writeFiles(t, vite, map[string]string{"index.html": "<!doctype html><title>V</title><p>v</p>"})
	_, err = FindApps(vite)
	if !errors.Is(err, ErrNoApps) || !strings.Contains(err.Error(), "it has an index.html but no manifest; write "+filepath.Join(vite, "miniapp.toml")) {
		t.Fatalf("an index.html without a manifest: %v", err)
	}
	writeFiles(t, vite, map[string]string{"miniapp.toml": "id = \"v\"\nname = \"V\"\ndescription = \"An app.\"\n"})
	if _, err := Build(context.Background(), vite, Options{NoWrite: true}); err != nil {
		t.Errorf("built as the message says: %v", err)
	}
}

// TestSessionSameBytes: builds that keep esbuild's contexts in a Session make the bytes a
// fresh build makes, after edits too, and a change to the manifest is taken.
func TestSessionSameBytes(t *testing.T) {
	dir := copyApp(t, sampleDir(t, "order-book"))
	fresh := func() []byte {
		t.Helper()
		res, err := Build(context.Background(), dir, Options{NoWrite: true})
		if err != nil {
			t.Fatal(err)
		}
		return res.HTML
	}
	session := NewSession()
	defer session.Close()
	kept := func() []byte {
		t.Helper()
		res, err := Build(context.Background(), dir, Options{NoWrite: true, Session: session})
		if err != nil {
			t.Fatal(err)
		}
		return res.HTML
	}
	if !bytes.Equal(kept(), fresh()) {
		t.Fatal("the first build in a session differs from a fresh one")
	}
	app := filepath.Join(dir, "src", "App.tsx")
	src, _ := os.ReadFile(app)
	os.WriteFile(app, bytes.Replace(src, []byte("Order"), []byte("Ordre"), 1), 0o644)
	if a, b := kept(), fresh(); !bytes.Equal(a, b) {
		t.Error("after an edit, the session's build differs from a fresh one")
	}
	// A broken edit is reported, and the fix builds again.
	os.WriteFile(app, append([]byte("const broken = ;\n"), src...), 0o644)
	if _, err := Build(context.Background(), dir, Options{NoWrite: true, Session: session}); err == nil {
		t.Error("a syntax error built")
	}
	os.WriteFile(app, src, 0o644)
	if !bytes.Equal(kept(), fresh()) {
		t.Error("after the fix, the session's build differs from a fresh one")
	}
	toml := filepath.Join(dir, "miniapp.toml")
	m, _ := os.ReadFile(toml)
	os.WriteFile(toml, bytes.Replace(m, []byte(`name = "Order Book"`), []byte(`name = "Orders"`), 1), 0o644)
	if a := kept(); !bytes.Contains(a, []byte("Orders")) || !bytes.Equal(a, fresh()) {
		t.Error("a manifest change was not taken")
	}
}

// TestConfinementEscapes: every way out of the app folder through links is refused, for the
// app's files and for packages alike (confinement resolves each folder once per build).
func TestConfinementEscapes(t *testing.T) {
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(outside, "pkg"), 0o755)
	os.WriteFile(filepath.Join(outside, "pkg", "index.js"), []byte("export const secret = 1;\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "pkg", "package.json"), []byte(`{"name":"evil","main":"index.js"}`), 0o644)
	os.WriteFile(filepath.Join(outside, "x.ts"), []byte("export const x = 2;\n"), 0o644)
	rows := []struct {
		name  string
		setup func(app string)
		src   string
	}{
		{"package_folder_link", func(app string) {
			os.MkdirAll(filepath.Join(app, "node_modules"), 0o755)
			os.Symlink(filepath.Join(outside, "pkg"), filepath.Join(app, "node_modules", "evil"))
		}, "import { secret } from \"evil\";\nconsole.log(secret);\n"},
		{"package_file_link", func(app string) {
			os.MkdirAll(filepath.Join(app, "node_modules", "evil"), 0o755)
			os.WriteFile(filepath.Join(app, "node_modules", "evil", "package.json"), []byte(`{"name":"evil","main":"index.js"}`), 0o644)
			os.Symlink(filepath.Join(outside, "pkg", "index.js"), filepath.Join(app, "node_modules", "evil", "index.js"))
		}, "import { secret } from \"evil\";\nconsole.log(secret);\n"},
		{"source_folder_link", func(app string) {
			os.Symlink(outside, filepath.Join(app, "linked"))
		}, "import { x } from \"./linked/x\";\nconsole.log(x);\n"},
		{"source_file_link", func(app string) {
			os.Symlink(filepath.Join(outside, "x.ts"), filepath.Join(app, "x.ts"))
		}, "import { x } from \"./x\";\nconsole.log(x);\n"},
		{"relative_escape", func(app string) {}, "import { x } from \"../" + filepath.Base(outside) + "/x\";\nconsole.log(x);\n"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			app := filepath.Join(filepath.Dir(outside), "app-"+row.name)
			writeScriptApp(t, app, "esc", row.src)
			t.Cleanup(func() { os.RemoveAll(app) })
			row.setup(app)
			_, err := Build(context.Background(), app, Options{NoWrite: true})
			var el *diag.ListError
			// A package's entry that leads out is refused before it is looked for ("the
			// entry of the package evil leaves the app folder").
			if !errors.As(err, &el) || !strings.Contains(el.Error(), "outside the app folder") && !strings.Contains(el.Error(), "leaves the app folder") {
				t.Errorf("want a refusal naming the app folder, got %v", err)
			}
		})
	}
}
