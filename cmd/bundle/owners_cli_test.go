package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
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

// TestOwnersFileOfAppNamesOutside: the owners file of an output folder inside the app (its
// dist/, which the app's author writes) that names a folder outside the app's root for the
// app's id does not make the build look there: it read that folder's manifest (the kernel's
// fence let it) and refused the build ("id "same" is also the id of …/sibling") only where a
// manifest there had the id, so the build told whether a file outside exists and what id it
// holds. The build, fenced and with the path checks alone, says the same whether the folder
// outside holds an app with the id, one with another, or nothing, and names no folder of it.
func TestOwnersFileOfAppNamesOutside(t *testing.T) {
	manifest := "id = \"same\"\nname = \"N\"\ndescription = \"D.\"\nentry = \"main.ts\"\nhosts = [\"https://chat.example.com\"]\n"
	for _, fenced := range []bool{false, true} {
		var said []string
		for _, outside := range []string{"same", "other", ""} {
			root := t.TempDir()
			dir := filepath.Join(root, "app")
			sibling := filepath.Join(root, token)
			os.MkdirAll(filepath.Join(dir, "dist"), 0o755)
			os.WriteFile(filepath.Join(dir, "miniapp.toml"), []byte(manifest), 0o644)
			os.WriteFile(filepath.Join(dir, "main.ts"), []byte("document.body.append('x')\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "dist", "same.html"), []byte("<p>a page</p>"), 0o644)
			os.WriteFile(filepath.Join(dir, "dist", ".bundle-apps.json"), []byte(`{"schema_version": 1, "apps": {"same": "../../`+token+`"}}`), 0o644)
			if outside != "" {
				os.MkdirAll(sibling, 0o755)
				os.WriteFile(filepath.Join(sibling, "miniapp.toml"), []byte(strings.Replace(manifest, `"same"`, `"`+outside+`"`, 1)), 0o644)
				os.WriteFile(filepath.Join(sibling, "main.ts"), []byte("document.body.append('y')\n"), 0o644)
			}
			var code int
			var stdout, stderr string
			if fenced {
				cmd := exec.Command(bundleBinary(t), "build", dir)
				cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "NO_COLOR=1"}
				var o, e strings.Builder
				cmd.Stdout, cmd.Stderr = &o, &e
				err := cmd.Run()
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				stdout, stderr = o.String(), e.String()
			} else {
				code, stdout, stderr = bundle(t, "", "build", dir)
			}
			if code != 0 || strings.Contains(stdout+stderr, token) {
				t.Errorf("fenced %v, outside %q: exit %d, want 0 and no folder outside named:\n%s%s", fenced, outside, code, stdout, stderr)
			}
			said = append(said, fmt.Sprint(code, strings.ReplaceAll(stdout+stderr, root, "ROOT")))
		}
		for i := range said[1:] {
			if said[i+1] != said[0] {
				t.Errorf("fenced %v: the build says another thing with the folder outside:\n%s\n%s", fenced, said[0], said[i+1])
			}
		}
	}
}
