package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConventions holds the command line to what users of go, npm and vite expect: -v, a
// build of the folder it runs in, help that is the command's own, verify of many files, and
// machine output a script can read.
func TestConventions(t *testing.T) {
	root := t.TempDir()
	for _, id := range []string{"one", "two"} {
		dir := filepath.Join(root, id)
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "miniapp.toml"), []byte("id = \""+id+"\"\nname = \"N\"\ndescription = \"D.\"\nentry = \"main.ts\"\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "main.ts"), []byte("document.body.append('x')\n"), 0o644)
	}
	broken := filepath.Join(root, "broken")
	os.MkdirAll(broken, 0o755)
	os.WriteFile(filepath.Join(broken, "miniapp.toml"), []byte("id = \"broken\"\nname = \"N\"\ndescription = \"D.\"\nentry = \"main.ts\"\n"), 0o644)
	os.WriteFile(filepath.Join(broken, "main.ts"), []byte("document.body.append(\n"), 0o644)
	out := t.TempDir()

	runRows(t, []cliRow{
		{"dash_v", []string{"-v"}, 0, "bundle ", "", ""},
		{"help_is_the_commands_own", []string{"check", "-h"}, 0, "0  every file is clean", "", ""},
		{"verify_many_need_one_entry", []string{"verify", "--entry", "x.json", "a.html", "b.html"}, 2, "", "pin one file", ""},
	})

	t.Run("build_without_folder_builds_the_current_one", func(t *testing.T) {
		t.Chdir(filepath.Join(root, "one"))
		code, stdout, stderr := bundle(t, "", "build", "--out", out)
		if code != 0 || !strings.Contains(stdout, "one.html") {
			t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
		}
	})

	t.Run("one_hosts_warning_naming_the_apps", func(t *testing.T) {
		code, _, stderr := bundle(t, "", "build", "--out", t.TempDir(), filepath.Join(root, "one"), filepath.Join(root, "two"))
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if n := strings.Count(stderr, "no hosts"); n != 1 {
			t.Errorf("the hosts warning is said %d times, want once:\n%s", n, stderr)
		}
		if !strings.Contains(stderr, "2 apps list no hosts") || !strings.Contains(stderr, filepath.Join(root, "two", "miniapp.toml")) {
			t.Errorf("the warning does not name the apps:\n%s", stderr)
		}
	})

	t.Run("quiet_and_no_progress_off_a_terminal", func(t *testing.T) {
		code, stdout, stderr := bundle(t, "", "build", "--quiet", "--out", t.TempDir(), filepath.Join(root, "one"), filepath.Join(root, "two"))
		if code != 0 || stdout != "" || stderr != "" {
			t.Errorf("--quiet printed (exit %d)\nstdout: %q\nstderr: %q", code, stdout, stderr)
		}
	})

	t.Run("failed_as_objects", func(t *testing.T) {
		code, stdout, _ := bundle(t, "", "build", "--format", "json", "--out", t.TempDir(), root)
		if code != 1 {
			t.Fatalf("exit %d, want 1", code)
		}
		var doc struct {
			Failed []failure `json:"failed"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Failed) != 1 || doc.Failed[0].Dir != filepath.ToSlash(broken) || doc.Failed[0].Reason != "refused" || !strings.Contains(doc.Failed[0].Message, "main.ts:") {
			t.Errorf("failed = %+v", doc.Failed)
		}
	})

	t.Run("verify_many", func(t *testing.T) {
		dist := t.TempDir()
		if code, _, stderr := bundle(t, "", "build", "--out", dist, filepath.Join(root, "one"), filepath.Join(root, "two")); code != 0 {
			t.Fatal(stderr)
		}
		one, two := filepath.Join(dist, "one.html"), filepath.Join(dist, "two.html")
		code, stdout, stderr := bundle(t, "", "verify", one, two)
		if code != 0 || strings.Count(stdout, "verified") != 2 {
			t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
		}
		b, _ := os.ReadFile(two)
		os.WriteFile(two, append(b, ' '), 0o644)
		code, stdout, _ = bundle(t, "", "verify", "--format", "json", one, two, filepath.Join(dist, "gone.html"))
		var doc struct {
			Verified bool           `json:"verified"`
			Files    []verifyResult `json:"files"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		if code != 2 || doc.Verified || len(doc.Files) != 3 || !doc.Files[0].Verified || doc.Files[1].Verified || doc.Files[2].Error == "" {
			t.Errorf("exit %d, %+v", code, doc)
		}
	})

	t.Run("budget_names_files_as_the_author_knows_them", func(t *testing.T) {
		dir := app(t, map[string]string{"miniapp.toml": goodManifest + "maxKB = 1\n", "index.html": goodPage,
			"main.ts": "import { sendLog } from \"@miniapp/sdk\";\nsendLog(\"info\", \"x\");\n"})
		_, _, stderr := bundle(t, "", "build", dir)
		if strings.Contains(stderr, "miniapp-sdk:") || !strings.Contains(stderr, "@miniapp/sdk (the functions the app imports)") {
			t.Errorf("the budget's note:\n%s", stderr)
		}
		if !strings.Contains(stderr, "miniapp.toml:5:") {
			t.Errorf("the budget's error has no line, though maxKB has one:\n%s", stderr)
		}
	})

	t.Run("init_quotes_the_folder", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "My App")
		code, stdout, stderr := bundle(t, "", "init", dir)
		if code != 0 || !strings.Contains(stdout, "bundle dev '"+dir+"'") {
			t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
		}
	})
}

func TestUseColor(t *testing.T) {
	for _, row := range []struct {
		name     string
		terminal bool
		env      map[string]string
		want     bool
	}{
		{"terminal", true, nil, true},
		{"pipe", false, nil, false},
		{"no_color", true, map[string]string{"NO_COLOR": "1"}, false},
		{"dumb", true, map[string]string{"TERM": "dumb"}, false},
		{"force_on_a_pipe", false, map[string]string{"FORCE_COLOR": "1"}, true},
		{"force_empty", false, map[string]string{"FORCE_COLOR": ""}, true},
		{"force_over_no_color", false, map[string]string{"FORCE_COLOR": "3", "NO_COLOR": "1"}, true},
		{"force_off", true, map[string]string{"FORCE_COLOR": "0"}, false},
		{"force_false", true, map[string]string{"FORCE_COLOR": "false"}, false},
	} {
		t.Run(row.name, func(t *testing.T) {
			got := useColor(row.terminal, func(k string) (string, bool) { v, ok := row.env[k]; return v, ok })
			if got != row.want {
				t.Errorf("useColor = %v, want %v", got, row.want)
			}
		})
	}
}
