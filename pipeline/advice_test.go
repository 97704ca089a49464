package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/miniapp/bundle/manifest"
)

// TestInstallAdviceTypos misspells every dependency of a real package.json every way one
// keystroke does (a letter dropped, doubled, swapped with the next, replaced, the case
// changed), and holds the advice to never naming the misspelt package: an unrelated package of
// that name may exist on npm (rechart, date-fsn, recat).
func TestInstallAdviceTypos(t *testing.T) {
	src, err := os.ReadFile("../bench/heavy/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pj struct{ Dependencies map[string]string }
	if err := json.Unmarshal(src, &pj); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "package.json"), src, 0o644)
	b := &bundler{m: &manifest.Manifest{File: "miniapp.toml"}, root: dir, readRoot: dir, dir: "APP"}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range pj.Dependencies {
			if !yield(n) {
				return
			}
		}
	})
	checked := 0
	for _, name := range names {
		for _, typo := range typos(name) {
			if pj.Dependencies[typo] != "" {
				continue // another dependency's name
			}
			for _, spec := range []string{typo, typo + "/sub"} {
				text, note, _ := b.missingPackage(spec, dir)
				checked++
				if strings.Contains(note, "npm install "+typo) || strings.Contains(text, "npm install "+typo) {
					t.Errorf("import %q: the advice names the misspelt package: %s (%s)", spec, text, note)
				}
				if !strings.Contains(note, "did you mean") {
					t.Errorf("import %q: no did-you-mean: %s (%s)", spec, text, note)
				}
			}
		}
	}
	t.Logf("%d misspelt imports of %d dependencies", checked, len(names))

	for _, row := range []struct{ spec, want string }{
		{"@miniapp/sdk/rect", `did you mean "@miniapp/sdk/react"?`},
		{"@miniapp/sdk/limits", "the SDK's entry points are @miniapp/sdk and @miniapp/sdk/react"},
		{"react", "no node_modules folder (run npm install (or pnpm install, yarn) in APP)"},
		{"left-pad", "run npm install left-pad in APP"},
	} {
		text, note, _ := b.missingPackage(row.spec, dir)
		if !strings.Contains(text+" ("+note+")", row.want) || strings.Contains(note, "npm install @miniapp") {
			t.Errorf("import %q: %s (%s), want %q", row.spec, text, note, row.want)
		}
	}
	os.MkdirAll(filepath.Join(dir, "node_modules", "react-dom"), 0o755)
	b.folders = folders{} // a build lists each folder once: this is the next build
	for _, row := range []struct{ spec, want string }{
		{"react", "react is in APP/package.json but not installed (run npm install (or pnpm install, yarn) in APP)"},
		{"react-dom/clinet", `the package react-dom is installed, but has no "/clinet"`},
	} {
		text, note, _ := b.missingPackage(row.spec, dir)
		if !strings.Contains(text+" ("+note+")", row.want) {
			t.Errorf("import %q: %s (%s), want %q", row.spec, text, note, row.want)
		}
	}
}

// typos returns the misspellings of name one keystroke makes, in the part after the scope.
func typos(name string) []string {
	scope, base := "", name
	if i := strings.IndexByte(name, '/'); strings.HasPrefix(name, "@") && i > 0 {
		scope, base = name[:i+1], name[i+1:]
	}
	var out []string
	for i := range base {
		out = append(out, base[:i]+base[i+1:])                              // dropped
		out = append(out, base[:i+1]+base[i:])                              // doubled
		out = append(out, base[:i]+"x"+base[i+1:])                          // replaced
		out = append(out, base[:i]+strings.ToUpper(base[i:i+1])+base[i+1:]) // case
		if i+1 < len(base) {
			out = append(out, base[:i]+base[i+1:i+2]+base[i:i+1]+base[i+2:]) // swapped
		}
	}
	for i := range out {
		out[i] = scope + out[i]
	}
	slices.Sort(out)
	return slices.DeleteFunc(slices.Compact(out), func(s string) bool { return s == name || strings.HasSuffix(s, "/") || s == scope })
}
