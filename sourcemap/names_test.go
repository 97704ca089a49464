package sourcemap

import "testing"

// TestSourceNames: a map's sources are URLs. Path decodes what esbuild escapes ("%C3%BC"),
// and what URL escapes, so that a name holding "#", "?", "%", a backslash or a colon in its
// first segment reads back as itself; a source with a scheme names no file.
func TestSourceNames(t *testing.T) {
	for _, p := range []string{"../src/main.ts", "../../work/proj #1/src/a.ts", "../what?/a.ts", "../50%41 done/a.ts",
		"../ünï cøde/naïve file.ts", `../src/back\slash.ts`, "c:colon.ts", "../src/c:colon.ts", "a\tb.ts"} {
		got, ok := Path(URL(p))
		if !ok || got != p {
			t.Errorf("Path(URL(%q)) = %q, %v (URL %q)", p, got, ok, URL(p))
		}
		if HasScheme(URL(p)) {
			t.Errorf("URL(%q) = %q reads as a URL with a scheme", p, URL(p))
		}
	}
	for _, row := range []struct {
		s, path string
		ok      bool
	}{
		{"../src/%C3%BCn%C3%AF.ts", "../src/ünï.ts", true}, // as esbuild writes it
		{"../src/100%25 & a.ts", "../src/100% & a.ts", true},
		{"miniapp-sdk:@miniapp/sdk", "", false},
		{"webpack://app/src/a.ts", "", false},
		{"../src/%zz.ts", "", false},
	} {
		if got, ok := Path(row.s); ok != row.ok || got != row.path {
			t.Errorf("Path(%q) = %q, %v, want %q, %v", row.s, got, ok, row.path, row.ok)
		}
	}
	m, err := Parse([]byte(`{"version":3,"sources":["../src/%C3%BC.ts","miniapp-sdk:x"],"mappings":"AAAA"}`))
	if err != nil {
		t.Fatal(err)
	}
	if pos, ok := m.Find(0, 0); !ok || pos.File != "../src/ü.ts" {
		t.Errorf("Find gives %v, %v, want the source named ../src/ü.ts", pos, ok)
	}
}
