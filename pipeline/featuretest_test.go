package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
)

// TestFeatureTestAdvice builds a module that calls a global only another browser has, given
// markup the policy blocks: the error's fix says to feature-test the name, and the module
// that does so, as the fix writes it, builds.
func TestFeatureTestAdvice(t *testing.T) {
	build := func(main string) error {
		dir := t.TempDir()
		for name, text := range map[string]string{
			"miniapp.toml": "id = \"page\"\nname = \"Page\"\ndescription = \"A page that calls another browser's global.\"\nentry = \"index.html\"\n",
			"index.html":   "<!doctype html>\n<html>\n<head><meta charset=\"utf-8\"><title>t</title></head>\n<body>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
			"main.js":      main,
		} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, err := Build(context.Background(), dir, Options{NoWrite: true})
		return err
	}
	call := `webkit.messageHandlers.host.postMessage("<img src=x onerror=go()>");`
	err := build(call)
	var list *diag.ListError
	if !errors.As(err, &list) {
		t.Fatalf("got %v, want the build refused", err)
	}
	const fix = `feature-test it (if (typeof webkit !== "undefined") …, or "webkit" in window)`
	var notes []string
	for _, m := range list.List {
		notes = append(notes, m.Note)
	}
	if !strings.Contains(strings.Join(notes, "\n"), fix) {
		t.Fatalf("the refusal's notes %q do not say %q", notes, fix)
	}
	for _, fixed := range []string{`if (typeof webkit !== "undefined") ` + call, `if ("webkit" in window) { ` + call + ` }`} {
		if err := build(fixed); err != nil {
			t.Errorf("%s: got %v, want the fix the error gives to build", fixed, err)
		}
	}
}
