package scaffold_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/internal/testfs"
	"github.com/miniapp/bundle/internal/testwait"
	"github.com/miniapp/bundle/pipeline"
	"github.com/miniapp/bundle/render"
	"github.com/miniapp/bundle/scaffold"
)

// TestTemplates writes every template, builds it and renders it in Chromium: clean, both
// tools listed, the write tool changing what the read tool returns.
func TestTemplates(t *testing.T) {
	r, err := render.Start(context.Background(), render.Options{Timeout: testwait.Deadline(), Calls: []render.Call{
		{Tool: "set_count", Arguments: []byte(`{"count":7}`)}, {Tool: "get_count", Arguments: []byte(`{}`)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, tmpl := range scaffold.Templates {
		t.Run(tmpl, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "Weather Now")
			files, err := scaffold.Write(dir, tmpl, false)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(files, " "), "miniapp-sdk.d.ts") {
				t.Errorf("files: %v", files)
			}
			if tmpl == "react" {
				// The template pins the versions samples/order-book installs.
				nm := filepath.Join("..", "samples", "order-book", "node_modules")
				if _, err := os.Stat(nm); err != nil {
					t.Fatalf("samples/order-book needs its npm packages: run (cd samples/order-book && npm ci), as scripts/test does")
				}
				testfs.Copy(t, nm, filepath.Join(dir, "node_modules"))
			}
			res, err := pipeline.Build(context.Background(), dir, pipeline.Options{NoWrite: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Entry.ID != "weather-now" || res.Entry.Name != "Weather Now" {
				t.Errorf("id %q, name %q", res.Entry.ID, res.Entry.Name)
			}
			rep, err := r.Render(context.Background(), "weather-now.html", res.HTML, &res.Entry)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Failed() || len(rep.Tools) != 2 || len(rep.Calls) != 2 || rep.Calls[1].Text != `{"count":7}` {
				t.Errorf("problems %+v, tools %+v, calls %+v", rep.Problems, rep.Tools, rep.Calls)
			}
		})
	}
}

func TestRefusesNonEmpty(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	if _, err := scaffold.Write(dir, "ts", false); !errors.Is(err, scaffold.ErrNotEmpty) {
		t.Errorf("a folder with a file: %v", err)
	}
	if _, err := scaffold.Write(dir, "ts", true); err != nil {
		t.Errorf("--force: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "mine" {
		t.Error("--force touched a file that is not the template's")
	}
	if _, err := scaffold.Write(t.TempDir(), "vue", false); err == nil {
		t.Error("an unknown template was accepted")
	}
}
