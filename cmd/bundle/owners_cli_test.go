package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIDCollisionAcrossRuns: two runs that build two app folders with the same id into one
// --out do not overwrite each other: the second is refused naming both folders and the page,
// and the first's files stay as they were; the same app builds there again, and once the
// first folder no longer claims the id, the second may take it.
func TestIDCollisionAcrossRuns(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "team-a", "app")
	b := filepath.Join(root, "team-b", "app")
	for _, d := range []string{a, b} {
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "miniapp.toml"), []byte("id = \"same\"\nname = \"N\"\ndescription = \"D.\"\nentry = \"main.ts\"\nhosts = [\"https://chat.example.com\"]\n"), 0o644)
		os.WriteFile(filepath.Join(d, "main.ts"), []byte("document.body.append('"+filepath.Base(filepath.Dir(d))+"')\n"), 0o644)
	}
	out := filepath.Join(root, "public")
	if code, _, stderr := bundle(t, "", "build", "--out", out, a); code != 0 {
		t.Fatalf("first run: %s", stderr)
	}
	page := filepath.Join(out, "same.html")
	first, _ := os.ReadFile(page)
	owners, _ := os.ReadFile(filepath.Join(out, ".bundle-apps.json"))

	code, _, stderr := bundle(t, "", "build", "--out", out, b)
	if code != 1 || !strings.Contains(stderr, `id "same" is also the id of `+a+`, which wrote `+page) ||
		!strings.Contains(stderr, filepath.Join(b, "miniapp.toml")+":1:6") || !strings.Contains(stderr, "remove "+page) {
		t.Errorf("second run: exit %d, want 1 naming both folders:\n%s", code, stderr)
	}
	if now, _ := os.ReadFile(page); !bytes.Equal(now, first) {
		t.Errorf("the refused run replaced the first app's page")
	}
	if now, _ := os.ReadFile(filepath.Join(out, ".bundle-apps.json")); !bytes.Equal(now, owners) {
		t.Errorf("the refused run changed who owns the id:\n%s", now)
	}
	if !bytes.Contains(owners, []byte(`"same": "../team-a/app"`)) {
		t.Errorf("the owners file names the folder as %s, want a path relative to the output folder", owners)
	}

	if code, _, stderr := bundle(t, "", "build", "--out", out, a); code != 0 {
		t.Errorf("the first app again: exit %d: %s", code, stderr)
	}
	// The first folder renamed its app: the id is free.
	os.WriteFile(filepath.Join(a, "miniapp.toml"), []byte("id = \"other\"\nname = \"N\"\ndescription = \"D.\"\nentry = \"main.ts\"\nhosts = [\"https://chat.example.com\"]\n"), 0o644)
	if code, _, stderr := bundle(t, "", "build", "--out", out, b); code != 0 {
		t.Errorf("after the first app changed its id: exit %d: %s", code, stderr)
	}
}

// TestOwnersFileLinkedOut: an owners file in the output folder that is a symbolic link is not
// read (it could lead out of the folder, and the app folders it names are printed) and is
// replaced: one linking to a file outside that named a folder holding the id refused the
// build naming that folder, a path from the file outside.
func TestOwnersFileLinkedOut(t *testing.T) {
	root := t.TempDir()
	manifest := "id = \"same\"\nname = \"N\"\ndescription = \"D.\"\nentry = \"main.ts\"\nhosts = [\"https://chat.example.com\"]\n"
	out := filepath.Join(root, "public")
	for _, d := range []string{filepath.Join(root, token, "app"), filepath.Join(root, "app"), out} {
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "miniapp.toml"), []byte(manifest), 0o644)
		os.WriteFile(filepath.Join(d, "main.ts"), []byte("document.body.append('x')\n"), 0o644)
	}
	os.Remove(filepath.Join(out, "miniapp.toml"))
	os.WriteFile(filepath.Join(out, "same.html"), []byte("<p>the other app's</p>"), 0o644)
	outside := filepath.Join(root, "owners.json")
	os.WriteFile(outside, []byte(`{"schema_version": 1, "apps": {"same": "../`+token+`/app"}}`), 0o644)
	os.Symlink(outside, filepath.Join(out, ".bundle-apps.json"))
	code, stdout, stderr := bundle(t, "", "build", "--out", out, filepath.Join(root, "app"))
	if code != 0 || strings.Contains(stdout+stderr, token) {
		t.Errorf("exit %d, want 0 and no folder of the linked file named:\n%s%s", code, stdout, stderr)
	}
	if st, err := os.Lstat(filepath.Join(out, ".bundle-apps.json")); err != nil || !st.Mode().IsRegular() {
		t.Errorf("the owners file is not replaced by a file: %v %v", st, err)
	}
	if b, _ := os.ReadFile(outside); !strings.Contains(string(b), token) {
		t.Errorf("the linked file was written through: %s", b)
	}
}
