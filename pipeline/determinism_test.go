package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
)

// messagesOf is what a build says, in its order, for comparing one build with another.
func messagesOf(l diag.List) string {
	var b strings.Builder
	for _, m := range l {
		fmt.Fprintf(&b, "%s:%d:%d %s %s | %s\n", m.File, m.Line, m.Column, m.Severity, m.Text, m.Note)
	}
	return b.String()
}

// TestProjectProblemsInOrder: the problems of the projects (a folder's own tsconfig) the
// build's files belong to are said in the same order at every build: they were kept in a
// sync.Map and said in its Range order, which differs from one run to the next (twelve
// folders whose tsconfig extends a missing base: the warnings came in another order at
// almost every build).
func TestProjectProblemsInOrder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	files := map[string]string{
		"miniapp.toml": "id = \"pp\"\nname = \"PP\"\ndescription = \"Projects.\"\nentry = \"index.html\"\n",
		"index.html":   `<!doctype html><title>P</title><script type="module" src="./main.ts"></script>`,
	}
	var main strings.Builder
	for i := range 12 {
		files[fmt.Sprintf("p%02d/tsconfig.json", i)] = fmt.Sprintf(`{"extends": "./missing-%02d.json", "compilerOptions": {"experimentalDecorators": true}}`, i)
		files[fmt.Sprintf("p%02d/x.ts", i)] = fmt.Sprintf("export const x%02d: number = %d;\n", i, i)
		fmt.Fprintf(&main, "import { x%02d } from './p%02d/x';\nconsole.log(x%02d);\n", i, i, i)
	}
	files["main.ts"] = main.String()
	writeFiles(t, dir, files)
	var first string
	for n := range 10 {
		res, err := Build(context.Background(), dir, Options{NoWrite: true})
		if err != nil {
			t.Fatal(err)
		}
		got := messagesOf(res.Warnings)
		if n == 0 {
			first = got
			if c := strings.Count(got, "cannot find base config file"); c != 12 {
				t.Fatalf("%d warnings of a missing base, want 12:\n%s", c, got)
			}
			continue
		}
		if got != first {
			t.Fatalf("build %d said otherwise than the first:\n%s\nthe first:\n%s", n+1, got, first)
		}
	}
}
