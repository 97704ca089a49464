package host_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/host"
	"github.com/miniapp/bundle/registry"
)

// TestVerifyReadsLikeTheBrowser: verify finds the policy <meta> as the browser does, in the
// page's tree, and reads the page in UTF-8 only. Each row changes a built page (and repins
// its entry, as a tamperer would) so that the browser enforces no policy, or another one, or
// reads other markup, and must be refused for it.
func TestVerifyReadsLikeTheBrowser(t *testing.T) {
	out := t.TempDir()
	buildInto(t, out, "todo-ts")
	b, err := os.ReadFile(filepath.Join(out, "todo-ts.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	entry, err := registry.ReadEntry(filepath.Join(out, "todo-ts.json"))
	if err != nil {
		t.Fatal(err)
	}
	const policyTag = `<meta http-equiv="Content-Security-Policy"`
	i := strings.Index(page, policyTag)
	j := i + strings.Index(page[i:], ">") + 1
	if i < 0 || j <= i {
		t.Fatal("no policy <meta> in the built page")
	}
	meta := page[i:j]
	without := page[:i] + page[j:]
	// at puts the policy <meta> after the first occurrence of s in the page without it.
	at := func(s, insert string) string {
		k := strings.Index(without, s)
		if k < 0 {
			t.Fatalf("%q is not in the page", s)
		}
		k += len(s)
		return without[:k] + insert + without[k:]
	}
	rows := []struct {
		name, page, want, says string
	}{
		{"in_template", at("<head>", "<template>"+meta+"</template>"), "csp", "inside a <template>"},
		{"after_br_end_tag", at("<head>", "</br>"+meta), "csp", "not a child of <head>"},
		{"after_body_end_tag", at("<head>", "</body>"+meta), "csp", "not a child of <head>"},
		{"in_body", at("<body>", meta), "csp", "not a child of <head>"},
		{"equiv_leading_space", at("<head>", strings.Replace(meta, `"Content-Security-Policy"`, `" Content-Security-Policy"`, 1)), "csp", "no policy <meta>"},
		{"equiv_long_s", at("<head>", strings.Replace(meta, `Content-Security-Policy`, "Content-\u017Fecurity-Policy", 1)), "csp", "no policy <meta>"},
		{"two_policies", at("<head>", meta+meta), "csp", "2 policy <meta> tags"},
		{"after_script", at("<head>", "<script>fetch('https://x.example')</script>"+meta), "csp", "comes after <script>"},
		{"after_base", at("<head>", `<base href="https://x.example/">`+meta), "csp", "comes after <base>"},
		{"iso2022jp_escape", at("<head>", meta+"<title>\x1b$B\x1b(B</title>"), "encoding", "escape byte"},
		{"declares_shift_jis", strings.Replace(page, `<meta charset="utf-8">`, `<meta charset="shift_jis">`, 1), "encoding", "declares the encoding shift_jis"},
		{"utf16_bom", "\xff\xfe" + page, "encoding", "UTF-16"},
		{"not_utf8", at("<head>", meta+"<title>\xff</title>"), "encoding", "not UTF-8"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			e := entry
			e.Pin([]byte(row.page))
			err := host.Verify("todo-ts.html", []byte(row.page), e)
			if err == nil {
				t.Fatal("verified")
			}
			var found bool
			for _, m := range err.(*host.VerifyError).Mismatches {
				found = found || m.Field == row.want && strings.Contains(m.Text, row.says)
			}
			if !found {
				t.Errorf("want a %s mismatch saying %q; got %v", row.want, row.says, err)
			}
		})
	}
	// The page as built, with a UTF-8 byte-order mark, verifies.
	bom := "\xef\xbb\xbf" + page
	e := entry
	e.Pin([]byte(bom))
	if err := host.Verify("todo-ts.html", []byte(bom), e); err != nil {
		t.Errorf("a UTF-8 byte-order mark: %v", err)
	}
}
