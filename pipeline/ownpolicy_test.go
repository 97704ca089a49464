package pipeline

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/host"
	"github.com/miniapp/bundle/offline"
	"github.com/miniapp/bundle/registry"
)

// TestOwnPolicy: the page's own policy <meta> is merged into the build's, one policy in the
// page, which bundle verify takes; what is stricter is kept (blob: images gone, styles by
// hash, trusted types); what the merged policy cannot hold is refused at its place, and the
// fix the message gives, followed, builds.
func TestOwnPolicy(t *testing.T) {
	const store = "export const v = 1;\n"
	rows := []struct {
		name, meta, body, manifest string
		want                       []string // in the policy written
		not                        []string // not in it
		refused, place             string   // the refusal, and its line:col in the page
		fixed                      func(string) string
	}{
		{name: "self", meta: "default-src 'self'; img-src 'self' data:; style-src 'self' " + hashOf("p { margin: 0 }"),
			want: []string{"img-src data:;", "font-src data:;", "media-src data:;", "style-src 'sha256-"}, not: []string{"'unsafe-inline'", "blob:"}},
		{name: "inline_styles", meta: "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src * data: blob:",
			want: []string{"style-src 'unsafe-inline';", "img-src data: blob:;"}},
		{name: "trusted_types", meta: "require-trusted-types-for 'script'; trusted-types default; upgrade-insecure-requests",
			want: []string{"form-action 'none'; require-trusted-types-for 'script'; trusted-types default; upgrade-insecure-requests"}},
		{name: "blocked_inline_script", meta: "script-src 'self'", body: "<script>window.x = 1;</script>",
			refused: "blocks this inline script", place: ":3:1",
			fixed: func(msg string) string {
				h, _, _ := strings.Cut(strings.TrimPrefix(msg, "add "), " to")
				return "script-src 'self' " + h
			}},
		// A classic script by any JavaScript type, and a module script whatever its nomodule
		// says (nomodule is a classic script's attribute): the policy blocks each as written
		// (offline.KindOfScript).
		{name: "blocked_inline_script_text_ecmascript", meta: "script-src 'self'", body: "<script type=\"text/ecmascript\">window.x = 1;</script>",
			refused: "blocks this inline script", place: ":3:1",
			fixed: func(msg string) string {
				h, _, _ := strings.Cut(strings.TrimPrefix(msg, "add "), " to")
				return "script-src 'self' " + h
			}},
		{name: "blocked_inline_module_nomodule", meta: "script-src 'self'", body: "<script type=\"module\" nomodule>window.x = 1;</script>",
			refused: "blocks this inline script", place: ":3:1",
			fixed: func(msg string) string {
				h, _, _ := strings.Cut(strings.TrimPrefix(msg, "add "), " to")
				return "script-src 'self' " + h
			}},
		{name: "eval", meta: "script-src 'self'", manifest: "eval = true\n", refused: "has no 'unsafe-eval'", place: ":1:",
			fixed: func(string) string { return "script-src 'self' 'unsafe-eval'" }},
		{name: "allowed_domain", meta: "connect-src 'self' https://a.example.com", manifest: "allowedDomains = [\"https://api.example.com\"]\n",
			refused: "does not allow https://api.example.com", place: ":1:",
			fixed: func(string) string { return "connect-src 'self' https://a.example.com https://*.example.com" }},
		{name: "style_elem_attr", meta: "style-src-elem 'self' 'unsafe-inline'; style-src-attr 'none'", refused: "allows inline styles in elements and not in attributes", place: ":1:",
			fixed: func(string) string { return "style-src-elem 'self' 'unsafe-inline'; style-src-attr 'unsafe-inline'" }},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "app")
			page := func(meta string) string {
				return "<!doctype html><html><head><meta http-equiv=\"Content-Security-Policy\" content=\"" + meta + "\"><title>P</title>\n" +
					"<link rel=\"stylesheet\" href=\"./a.css\"><style>p { margin: 0 }</style></head><body>\n" + r.body + "<p>p</p>" +
					"<script type=\"module\" src=\"./main.js\"></script><script type=\"module\" src=\"./other.js\"></script></body></html>\n"
			}
			writeFiles(t, dir, map[string]string{
				"miniapp.toml": "id = \"p\"\nname = \"P\"\ndescription = \"Its own policy.\"\nentry = \"index.html\"\n" + r.manifest,
				"index.html":   page(r.meta), "a.css": "p { color: red }\n", "store.js": store,
				"main.js": "import { v } from './store.js';\nconsole.log(v);\n", "other.js": "import { v } from './store.js';\nconsole.log(v + 1);\n",
			})
			res, err := Build(context.Background(), dir, Options{NoWrite: true})
			if r.refused != "" {
				if err == nil || !strings.Contains(err.Error(), r.refused) || !strings.Contains(err.Error(), "index.html"+r.place) {
					t.Fatalf("the build gave %v, want a refusal at index.html%s naming %q", err, r.place, r.refused)
				}
				var le *diag.ListError
				if !errors.As(err, &le) || len(le.List) == 0 {
					t.Fatalf("not a list of diagnostics: %v", err)
				}
				writeFiles(t, dir, map[string]string{"index.html": page(r.fixed(le.List[0].Note))})
				if res, err = Build(context.Background(), dir, Options{NoWrite: true}); err != nil {
					t.Fatalf("with the fix followed: %v", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			metas := offline.PolicyMetas(res.HTML)
			if len(metas) != 1 {
				t.Fatalf("the built page has %d policies: %q", len(metas), metas)
			}
			for _, w := range r.want {
				if !strings.Contains(metas[0], w) {
					t.Errorf("the policy lacks %q: %s", w, metas[0])
				}
			}
			for _, w := range r.not {
				if strings.Contains(metas[0], w) {
					t.Errorf("the policy has %q: %s", w, metas[0])
				}
			}
			if _, err := registry.ParsePolicy(metas[0]); err != nil {
				t.Errorf("registry cannot read the policy: %v", err)
			}
			if err := host.Verify("p.html", res.HTML, res.Entry); err != nil {
				t.Errorf("bundle verify refuses the page: %v", err)
			}
		})
	}
}
