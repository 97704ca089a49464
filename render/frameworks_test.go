package render

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// examples is the workspace of the apps shaped like the official MCP Apps examples, each a
// Vite app on @modelcontextprotocol/ext-apps with only a miniapp.toml added.
var examples = filepath.Join("..", "pipeline", "testdata", "examples")

// TestRenderFrameworkExamples: each example, Vue, Svelte and Solid through the workspace's own
// compilers, Preact, React and plain TypeScript through esbuild, builds and runs in a host
// frame: its own App client makes one ui/initialize, the host is told it is initialized, the
// page shows the example's content, and nothing goes wrong on the console.
func TestRenderFrameworkExamples(t *testing.T) {
	if _, err := os.Stat(filepath.Join(examples, "node_modules")); err != nil {
		t.Fatalf("the examples need their npm packages: run (cd %s && npm ci), as scripts/test does", examples)
	}
	r := start(t, Options{})
	for _, row := range []struct{ app, name string }{
		{"basic-server-vue", "Vue"},
		{"basic-server-svelte", "Svelte"},
		{"basic-server-solid", "Solid"},
		{"basic-server-preact", "Preact"},
		{"basic-server-react", "React"},
		{"basic-server-vanillajs", "Vanilla JS"},
	} {
		t.Run(row.app, func(t *testing.T) {
			pg, entry := build(t, filepath.Join(examples, row.app))
			rep, err := r.Render(context.Background(), row.app+".html", pg, entry)
			if err != nil {
				t.Fatal(err)
			}
			var info struct{ Name string }
			json.Unmarshal(rep.AppInfo, &info)
			if rep.Initializes != 1 || !rep.Initialized || info.Name != "Get Time App ("+row.name+")" {
				t.Errorf("%d ui/initialize (want 1), initialized %v, app %q", rep.Initializes, rep.Initialized, info.Name)
			}
			for _, p := range rep.Problems {
				// zod 4 probes for eval and catches the refusal: a warning, as for any app.
				if p.Severity == Error || p.Kind == "console" || p.Kind == "exception" {
					t.Errorf("%s: %s", p.Kind, p.Text)
				}
			}
			for _, want := range []string{"Get Time", "Server Time: Loading...", "Get Server Time", "Send Message"} {
				if !strings.Contains(rep.Text, want) {
					t.Errorf("the frame does not show %q; it shows %q", want, rep.Text)
				}
			}
		})
	}
}
