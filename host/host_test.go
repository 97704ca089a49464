package host_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/host"
	"github.com/miniapp/bundle/pipeline"
	"github.com/miniapp/bundle/registry"
)

var samples = []string{"hello", "todo-ts", "order-book"}

// buildInto builds the samples into out, with their entries and registry.json.
func buildInto(t *testing.T, out string, names ...string) {
	t.Helper()
	var dirs []string
	for _, n := range names {
		dir := filepath.Join("..", "samples", n)
		if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
			if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
				t.Fatalf("%s needs its npm packages: run (cd %s && npm ci), as scripts/test does", n, dir)
			}
		}
		dirs = append(dirs, dir)
	}
	results, _, err := pipeline.BuildAll(context.Background(), dirs, pipeline.Options{OutDir: out}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if r.Err != nil {
			t.Fatalf("build %s: %v", r.Dir, r.Err)
		}
	}
}

func mismatchFields(err error) []string {
	var ve *host.VerifyError
	if !errors.As(err, &ve) {
		return nil
	}
	var out []string
	for _, m := range ve.Mismatches {
		out = append(out, m.Field)
	}
	if len(ve.Findings) > 0 {
		out = append(out, "offline")
	}
	return out
}

// TestVerify verifies every sample against its entry, then tampered copies and entries, each
// refused for what differs.
func TestVerify(t *testing.T) {
	out := t.TempDir()
	buildInto(t, out, samples...)
	for _, name := range samples {
		t.Run(name, func(t *testing.T) {
			page, err := os.ReadFile(filepath.Join(out, name+".html"))
			if err != nil {
				t.Fatal(err)
			}
			entry, err := registry.ReadEntry(filepath.Join(out, name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := host.Verify(name+".html", page, entry); err != nil {
				t.Fatalf("the built bundle does not verify: %v", err)
			}
			if err := host.VerifySHA256(name+".html", page, entry.SHA256, entry.LinkDomains); err != nil {
				t.Fatalf("VerifySHA256: %v", err)
			}
			other := "hello"
			if name == "hello" {
				other = "todo-ts"
			}
			otherEntry, _ := registry.ReadEntry(filepath.Join(out, other+".json"))
			flipped := bytes.Clone(page)
			flipped[len(flipped)/2] ^= 0x20
			remote := bytes.Replace(page, []byte("</body>"), []byte(`<img src="https://cdn.example/t.png"></body>`), 1)
			repinned := entry
			repinned.Pin(remote)
			loosened := bytes.Replace(page, []byte("connect-src 'none'"), []byte("connect-src *"), 1)
			loosenedEntry := entry
			loosenedEntry.Pin(loosened)
			badIntegrity := entry
			badIntegrity.Integrity = otherEntry.Integrity
			rows := []struct {
				name  string
				page  []byte
				entry registry.Entry
				want  []string
			}{
				{"flipped_byte", flipped, entry, []string{"sha256"}},
				{"truncated", page[:len(page)-100], entry, []string{"sha256", "bytes"}},
				{"other_entry", page, otherEntry, []string{"sha256", "file", "bytes"}},
				{"remote_image_repinned", remote, repinned, []string{"offline"}},
				{"policy_loosened_repinned", loosened, loosenedEntry, []string{"csp"}},
				{"integrity_of_another", page, badIntegrity, []string{"integrity"}},
			}
			for _, row := range rows {
				err := host.Verify(name+".html", row.page, row.entry)
				got := mismatchFields(err)
				for _, w := range row.want {
					if !strings.Contains(strings.Join(got, " "), w) {
						t.Errorf("%s: want a %s mismatch, got %v (%v)", row.name, w, got, err)
					}
				}
			}
			if err := host.VerifySHA256(name+".html", flipped, entry.SHA256, entry.LinkDomains); err == nil {
				t.Error("VerifySHA256 passed a flipped byte")
			}
		})
	}
}

// TestServe serves built samples over loopback and checks every header, 304s, the
// hash-addressed path, and the refusal of a tampered bundle.
func TestServe(t *testing.T) {
	out := t.TempDir()
	buildInto(t, out, samples...)
	// Tamper with one bundle after the build: it must not be served.
	p := filepath.Join(out, "todo-ts.html")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, append(b, ' '), 0o644)

	srv, err := host.NewServer(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(srv.Refused) != 1 || srv.Refused[0].ID != "todo-ts" || !strings.Contains(srv.Refused[0].Err.Error(), "SHA-256") {
		t.Fatalf("refused: %+v", srv.Refused)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	get := func(path string, header ...string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, ts.URL+path, nil)
		req.Header.Set("Accept-Encoding", "identity") // else Go's client asks for gzip and decodes it
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	entry, _ := registry.ReadEntry(filepath.Join(out, "hello.json"))
	page, _ := os.ReadFile(filepath.Join(out, "hello.html"))
	etag := `"` + entry.SHA256 + `"`

	resp := get("/hello.html")
	body, _ := io.ReadAll(resp.Body)
	want := map[string]string{
		"Content-Type":                 "text/html; charset=utf-8",
		"Content-Security-Policy":      entry.CSP,
		"Cross-Origin-Embedder-Policy": "credentialless",
		"Cross-Origin-Resource-Policy": "cross-origin",
		"X-Content-Type-Options":       "nosniff",
		"Etag":                         etag,
		"Cache-Control":                "no-cache",
	}
	for k, v := range want {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("/hello.html %s = %q, want %q", k, got, v)
		}
	}
	if resp.StatusCode != 200 || !bytes.Equal(body, page) {
		t.Errorf("/hello.html: %d, %d bytes", resp.StatusCode, len(body))
	}

	pinned := "/hello/" + entry.SHA256 + ".html"
	if resp := get(pinned); resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || resp.Header.Get("Etag") != etag {
		t.Errorf("%s: %d %v", pinned, resp.StatusCode, resp.Header)
	}
	for _, inm := range []string{etag, "W/" + etag, `"x", ` + etag, "*"} {
		if resp := get(pinned, "If-None-Match", inm); resp.StatusCode != http.StatusNotModified || resp.Header.Get("Etag") != etag {
			t.Errorf("If-None-Match %s: %d", inm, resp.StatusCode)
		}
	}
	if resp := get("/hello.html", "If-None-Match", `"other"`); resp.StatusCode != 200 {
		t.Errorf("a stale ETag: %d", resp.StatusCode)
	}
	if resp := get("/hello/" + strings.Repeat("0", 64) + ".html"); resp.StatusCode != 404 {
		t.Errorf("an unpinned hash: %d", resp.StatusCode)
	}
	for _, path := range []string{"/todo-ts.html", "/todo-ts.json", "/../hello.html", "/hello.json/"} {
		if resp := get(path); resp.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", path, resp.StatusCode)
		}
	}

	resp = get("/registry.json")
	reg, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(reg), `"hello"`) || strings.Contains(string(reg), `"todo-ts"`) || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("registry: %d %s", resp.StatusCode, reg)
	}
	if resp := get("/registry.json", "If-None-Match", resp.Header.Get("Etag")); resp.StatusCode != http.StatusNotModified {
		t.Errorf("registry revalidation: %d", resp.StatusCode)
	}

	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/hello.html", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	// What is served was read at start: the file changing on disk changes nothing.
	os.WriteFile(filepath.Join(out, "hello.html"), []byte("<p>changed</p>"), 0o644)
	resp = get("/hello.html")
	if body, _ := io.ReadAll(resp.Body); !bytes.Equal(body, page) {
		t.Error("a file changed after start was served")
	}
}

// TestServeFrameAncestors: the page's policy header is the one its fields give, with
// frame-ancestors from its hosts.
func TestServeFrameAncestors(t *testing.T) {
	csp := registry.Policy{ScriptHashes: []string{"'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"}}.String()
	e := registry.Entry{ID: "app", File: "app.html", CSP: csp, Hosts: []string{"https://chat.example.com", "https://*.example.org"}, SHA256: strings.Repeat("ab", 32)}
	h, err := host.Headers(e)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Get("Content-Security-Policy"); got != csp+"; frame-ancestors https://chat.example.com https://*.example.org" {
		t.Errorf("CSP = %q", got)
	}
	if !strings.HasPrefix(h.Get("Content-Digest"), "sha-256=:") {
		t.Errorf("Content-Digest = %q", h.Get("Content-Digest"))
	}
}

func TestServeNothing(t *testing.T) {
	if _, err := host.NewServer(t.TempDir()); !errors.Is(err, host.ErrNoBundles) {
		t.Errorf("an empty folder: %v", err)
	}
}
