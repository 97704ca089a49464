package main

import (
	"net"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeSaysWhatIsWrong: a folder that is not there, a file, an address that is not one
// and a port that is taken are each said plainly, with what to do, and exit 2.
func TestServeSaysWhatIsWrong(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := bundle(t, "", "build", "--out", out, "../../samples/hello"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	missing := filepath.Join(t.TempDir(), "nope")
	file := filepath.Join(out, "hello.html")
	runRows(t, []cliRow{
		{"missing_folder", []string{"serve", missing}, 2, "", "bundle serve: there is no folder " + missing + ": give the folder bundle build wrote (its --out, or APP_DIR/dist)\n", ""},
		{"a_file", []string{"serve", file}, 2, "", file + " is a file, not a folder: give the folder that holds the bundles (" + out + ")\n", ""},
		{"not_an_address", []string{"serve", "--addr", "4173", out}, 2, "", `--addr "4173" is not host:port; give one such as 127.0.0.1:4173`, ""},
		{"port_taken", []string{"serve", "--addr", addr, out}, 2, "", addr + " is taken: stop what uses it, or give another port with --addr", ""},
	})
	_, stderr := func() (int, string) { c, _, s := bundle(t, "", "serve", "--addr", addr, out); return c, s }()
	if strings.Contains(stderr, "bind:") || strings.Contains(stderr, "listen tcp") {
		t.Errorf("Go's text reaches the user: %s", stderr)
	}
}
