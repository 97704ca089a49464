package registry_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/registry"
)

const hash = "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"

// TestPolicyOfGoldenEntries: the policy of every sample's golden entry is what its fields
// give, and renders back to its csp.
func TestPolicyOfGoldenEntries(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join("..", "pipeline", "testdata", "*.json.golden"))
	if len(names) == 0 {
		t.Fatal("no golden entries")
	}
	for _, n := range names {
		e, err := registry.ReadEntry(n)
		if err != nil {
			t.Fatal(err)
		}
		p, err := e.Policy()
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		p.FrameAncestors = nil
		if p.String() != e.CSP {
			t.Errorf("%s: the policy renders as\n%s\nnot\n%s", n, p.String(), e.CSP)
		}
	}
}

// TestEntryPolicyRefuses: an entry whose csp is not what its fields give, or whose fields a
// policy cannot hold, has no policy; the error names the part.
func TestEntryPolicyRefuses(t *testing.T) {
	base := registry.Policy{ScriptHashes: []string{hash}, Connect: []string{"https://api.example.com"}}
	ok := registry.Entry{CSP: base.String(), AllowedDomains: []string{"https://api.example.com"}, Hosts: []string{"https://chat.example.com"}}
	p, err := ok.Policy()
	if err != nil {
		t.Fatal(err)
	}
	if got := p.String(); !strings.HasSuffix(got, "; form-action 'none'; frame-ancestors https://chat.example.com") {
		t.Errorf("the served policy is %q", got)
	}
	rows := []struct {
		name string
		edit func(e *registry.Entry)
		want string
	}{
		{"frame_ancestors_star", func(e *registry.Entry) { e.CSP += "; frame-ancestors *" }, "frame-ancestors"},
		{"report_uri", func(e *registry.Entry) { e.CSP += "; report-uri https://evil.example/r" }, "report-uri"},
		{"connect_loosened", func(e *registry.Entry) { e.CSP = strings.Replace(e.CSP, "https://api.example.com", "*", 1) }, "connect-src has *"},
		{"connect_other", func(e *registry.Entry) {
			e.CSP = strings.Replace(e.CSP, "https://api.example.com", "https://evil.example", 1)
		}, "allowedDomains"},
		{"eval_unsaid", func(e *registry.Entry) { e.CSP = strings.Replace(e.CSP, hash, hash+" 'unsafe-eval'", 1) }, "eval = false"},
		{"unsafe_inline_script", func(e *registry.Entry) { e.CSP = strings.Replace(e.CSP, hash, hash+" 'unsafe-inline'", 1) }, "'unsafe-inline'"},
		{"default_src_star", func(e *registry.Entry) { e.CSP = strings.Replace(e.CSP, "default-src 'none'", "default-src *", 1) }, "default-src"},
		{"directive_twice", func(e *registry.Entry) { e.CSP += "; script-src *" }, "twice"},
		{"host_injects", func(e *registry.Entry) { e.Hosts = []string{"https://chat.example.com; script-src *"} }, "frame-ancestors"},
		{"host_star", func(e *registry.Entry) { e.Hosts = []string{"*"} }, "frame-ancestors"},
		{"domain_injects", func(e *registry.Entry) {
			e.AllowedDomains = []string{"https://a.example 'unsafe-inline'"}
			e.CSP = strings.Replace(e.CSP, "https://api.example.com", "https://a.example 'unsafe-inline'", 1)
		}, "connect-src"},
		{"not_as_written", func(e *registry.Entry) { e.CSP = strings.ReplaceAll(e.CSP, "; ", ";") }, "not written as bundle build writes it"},
		// What a page's own policy may only take away, never add.
		{"img_widened", func(e *registry.Entry) {
			e.CSP = strings.Replace(e.CSP, "img-src data: blob:", "img-src data: blob: https:", 1)
		}, "img-src has https:"},
		{"style_hash_and_inline", func(e *registry.Entry) {
			e.CSP = strings.Replace(e.CSP, "style-src 'unsafe-inline'", "style-src 'unsafe-inline' "+hash, 1)
		}, "style-src has"},
		{"extra_sandbox", func(e *registry.Entry) { e.CSP += "; sandbox allow-scripts" }, "sandbox"},
		{"font_other", func(e *registry.Entry) { e.CSP = strings.Replace(e.CSP, "font-src data:", "font-src *", 1) }, "font-src has *"},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			e := ok
			e.Hosts = append([]string(nil), ok.Hosts...)
			r.edit(&e)
			if _, err := e.Policy(); err == nil || !strings.Contains(err.Error(), r.want) {
				t.Errorf("%v, want an error naming %q", err, r.want)
			}
		})
	}
}

// TestPolicyMerged: a policy with what a page's own policy took away (narrowed sources,
// hashed styles, restricting directives) parses back to itself, and an entry holds it.
func TestPolicyMerged(t *testing.T) {
	for _, p := range []registry.Policy{
		{ScriptHashes: []string{hash}, Narrow: map[string][]string{"img-src": {"data:"}, "media-src": {}}},
		{ScriptHashes: []string{hash}, InlineStyleOff: true, StyleHashes: []string{hash}, StyleData: true},
		{InlineStyleOff: true, Workers: true, Narrow: map[string][]string{"worker-src": {}}},
		{ScriptHashes: []string{hash}, Extra: []string{"require-trusted-types-for 'script'", "trusted-types default", "upgrade-insecure-requests"}},
	} {
		if err := p.Check(); err != nil {
			t.Fatal(err)
		}
		got, err := registry.ParsePolicy(p.String())
		if err != nil {
			t.Fatalf("%s: %v", p.String(), err)
		}
		if got.String() != p.String() {
			t.Errorf("%s parses as %s", p.String(), got.String())
		}
		e := registry.Entry{CSP: p.String()}
		if q, err := e.Policy(); err != nil || q.String() != p.String() {
			t.Errorf("the entry's policy: %v, %v", q.String(), err)
		}
	}
	if err := (registry.Policy{Extra: []string{"script-src *"}}).Check(); err == nil {
		t.Error("Check passed an added script-src")
	}
	if err := (registry.Policy{Narrow: map[string][]string{"img-src": {"https:"}}}).Check(); err == nil {
		t.Error("Check passed a widened img-src")
	}
}

// TestPolicyCheck: only source expressions of their kind pass.
func TestPolicyCheck(t *testing.T) {
	good := []string{"https://a.example", "https://*.a.example", "http://localhost:5173", "https://a.example:8443"}
	bad := []string{"*", "https://", "https://a.example/", "https://a.example:", "https://a.example:1x", "https://*", "https://a..example", "https://a.example\r\nX: y", "data:", "'self'"}
	for _, o := range good {
		if err := (registry.Policy{FrameAncestors: []string{o}}).Check(); err != nil {
			t.Errorf("%q: %v", o, err)
		}
	}
	for _, o := range bad {
		if err := (registry.Policy{FrameAncestors: []string{o}}).Check(); err == nil {
			t.Errorf("%q passed", o)
		}
	}
	for _, h := range []string{"'sha256-abc'", "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", "'sha384-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"} {
		if err := (registry.Policy{ScriptHashes: []string{h}}).Check(); err == nil {
			t.Errorf("%q passed as a hash", h)
		}
	}
}

// TestConnects matches origins as the policy's connect-src does.
func TestConnects(t *testing.T) {
	e := registry.Entry{AllowedDomains: []string{"https://api.example.com", "https://*.feeds.example", "http://localhost:8080"}}
	for _, row := range []struct {
		origin string
		want   bool
	}{
		{"https://api.example.com", true},
		{"https://API.example.com:443", true},
		{"wss://api.example.com", true},
		{"http://api.example.com", false},
		{"https://api.example.com:8443", false},
		{"https://example.com", false},
		{"https://a.feeds.example", true},
		{"https://a.b.feeds.example", true},
		{"https://feeds.example", false},
		{"https://xfeeds.example", false},
		{"http://localhost:8080", true},
		{"ws://localhost:8080", true},
		{"http://localhost", false},
	} {
		if got := e.Connects(row.origin); got != row.want {
			t.Errorf("Connects(%q) = %v, want %v", row.origin, got, row.want)
		}
	}
}
