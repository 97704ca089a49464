package pipeline

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestPlatformGlobals generates the table of the platform's globals again in Chromium
// (gen_platformglobals.go) and compares it with the one checked in, so that it stays what
// Chromium has: where it differs (another Chromium), run go generate ./pipeline.
func TestPlatformGlobals(t *testing.T) {
	out := filepath.Join(t.TempDir(), "table.go")
	cmd := exec.Command("go", "run", "gen_platformglobals.go", "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen_platformglobals.go: %v\n%s", err, b)
	}
	got, want := mustRead(t, out), mustRead(t, "platformglobals_table.go")
	if !bytes.Equal(got, want) {
		t.Errorf("platformglobals_table.go is not what Chromium has now (%d bytes, generated %d): run go generate ./pipeline", len(want), len(got))
	}
	for _, r := range []struct {
		name string
		want bool
	}{{"document", true}, {"console", true}, {"structuredClone", true}, {"Object", true}, {"caches", true}, {"$", false}, {"jQuery", false}, {"lib", false}} {
		if got := isPlatformGlobal(r.name); got != r.want {
			t.Errorf("isPlatformGlobal(%q) = %v, want %v", r.name, got, r.want)
		}
	}
}
