package main

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDevRefuses: bundle dev says what build says of a folder it cannot build, on a line of
// its own, and exits 2 instead of serving a build that can never succeed.
func TestDevRefuses(t *testing.T) {
	root := t.TempDir()
	empty := filepath.Join(root, "empty")
	os.MkdirAll(empty, 0o755)
	vite := filepath.Join(root, "vite")
	os.MkdirAll(vite, 0o755)
	os.WriteFile(filepath.Join(vite, "index.html"), []byte("<!doctype html><title>x</title>"), 0o644)
	many := filepath.Join(root, "many")
	for _, id := range []string{"one", "two"} {
		os.MkdirAll(filepath.Join(many, id), 0o755)
		os.WriteFile(filepath.Join(many, id, "miniapp.toml"), []byte("id = \""+id+"\"\nname = \"N\"\ndescription = \"D.\"\nentry = \"main.ts\"\n"), 0o644)
	}
	missing := filepath.Join(root, "my-tss")
	rows := []cliRow{
		{"missing_folder", []string{"dev", missing}, 2, "", "there is no folder " + missing + ": give an app folder\n", ""},
		{"no_manifest", []string{"dev", empty}, 2, "", "no app folders in " + empty + ": no miniapp.toml or manifest.json at any depth; bundle init makes an app\n", ""},
		{"index_html_without_manifest", []string{"dev", vite}, 2, "", "it has an index.html but no manifest", ""},
		{"a_folder_of_apps", []string{"dev", many}, 2, "", "holds 2 app folders", ""},
		{"two_folders", []string{"dev", empty, vite}, 2, "", "give one app folder", ""},
		{"port_out_of_range", []string{"dev", "--port", "70000", empty}, 2, "", "--port 70000 is not a port", ""},
	}
	// Build's text for the same folders, word for word after the command's name.
	for _, dir := range []string{empty, vite} {
		_, _, buildErr := bundle(t, "", "build", dir)
		_, _, devErr := bundle(t, "", "dev", dir)
		if strings.TrimPrefix(buildErr, "bundle build: ") != strings.TrimPrefix(devErr, "bundle dev: ") {
			t.Errorf("dev and build say different things of %s:\nbuild: %s\ndev:   %s", dir, buildErr, devErr)
		}
	}
	runRows(t, rows)

	t.Run("strict_port_taken", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
		app := filepath.Join(many, "one")
		code, _, stderr := bundle(t, "", "dev", "--strict-port", "--port", port, app)
		if code != 2 || !strings.Contains(stderr, "127.0.0.1:"+port+", the harness's port, is taken (--strict-port)") || !strings.HasSuffix(stderr, "\n") {
			t.Errorf("exit %d: %q", code, stderr)
		}
	})
}
