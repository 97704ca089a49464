package host

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/miniapp/bundle/registry"
)

// Headers returns the response headers a bundle is served with: its policy as a header, with
// frame-ancestors from the app's hosts (a <meta> cannot carry it); COEP credentialless and
// CORP cross-origin, so that a cross-origin-isolated host can frame it; nosniff; a strong
// ETag and a Content-Digest from its SHA-256. The caller sets Cache-Control.
func Headers(e registry.Entry) http.Header {
	h := http.Header{}
	csp := e.CSP
	if len(e.Hosts) > 0 {
		csp += "; frame-ancestors " + strings.Join(e.Hosts, " ")
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", csp)
	h.Set("Cross-Origin-Embedder-Policy", "credentialless")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", `"`+e.SHA256+`"`)
	if sum, err := hex.DecodeString(e.SHA256); err == nil {
		h.Set("Content-Digest", "sha-256=:"+base64.StdEncoding.EncodeToString(sum)+":")
	}
	return h
}

// Refusal is a bundle that Server does not serve, and why.
type Refusal struct {
	ID  string
	Err error
}

// Server serves a folder of built bundles: /registry.json, /<id>.json, /<id>.html (revalidated
// on every use) and /<id>/<sha256>.html (immutable), with Headers and answering If-None-Match
// with 304. Every bundle is verified against its entry when the Server is made, and held in
// memory: a file changed on disk afterwards changes nothing that is served. Server is safe
// for concurrent use.
type Server struct {
	// Refused lists the bundles that failed verification, which are not served.
	Refused []Refusal
	// Warnings says what a host should know about the bundles served (no hosts, …).
	Warnings []string

	apps     map[string]*served // by path
	registry *served
	ids      []string
}

type served struct {
	body   []byte
	header http.Header
	etag   string
	cache  string
	pinned string // for /<id>.html, its hash-addressed path
}

const (
	cacheRevalidate = "no-cache"
	cacheImmutable  = "public, max-age=31536000, immutable"
)

// ErrNoBundles is returned (wrapped) by NewServer for a folder with nothing to serve.
var ErrNoBundles = errors.New("no bundles")

// NewServer reads dir's registry.json (or, without one, the entries bundle build wrote there),
// verifies every bundle, and returns a Server for those that match. It fails when the folder
// holds no entries or its registry cannot be read; bundles that do not match are listed in
// Refused and left out of the registry it serves.
func NewServer(dir string) (*Server, error) {
	reg, err := registry.Read(filepath.Join(dir, registry.FileName))
	if errors.Is(err, fs.ErrNotExist) {
		reg, err = registry.Folder(dir)
	}
	if err != nil {
		return nil, err
	}
	if len(reg.Apps) == 0 {
		return nil, fmt.Errorf("%w in %s: no %s and no <id>.json entries; run bundle build --out %s APP_DIR...", ErrNoBundles, dir, registry.FileName, dir)
	}
	s := &Server{apps: map[string]*served{}}
	out := &registry.Registry{SchemaVersion: registry.SchemaVersion, Apps: map[string]registry.Entry{}}
	for _, id := range reg.IDs() {
		e := reg.Apps[id]
		path := filepath.Join(dir, e.File)
		page, err := os.ReadFile(path)
		if err == nil {
			err = Verify(path, page, e)
		}
		if err != nil {
			s.Refused = append(s.Refused, Refusal{ID: id, Err: err})
			continue
		}
		if len(e.Hosts) == 0 {
			s.Warnings = append(s.Warnings, fmt.Sprintf("%s lists no hosts: any page may frame it (no frame-ancestors)", id))
		}
		out.Apps[id] = e
		s.ids = append(s.ids, id)
		h := Headers(e)
		pinned := "/" + id + "/" + e.SHA256 + ".html"
		s.apps["/"+id+".html"] = &served{body: page, header: h, etag: `"` + e.SHA256 + `"`, cache: cacheRevalidate, pinned: pinned}
		s.apps[pinned] = &served{body: page, header: h, etag: `"` + e.SHA256 + `"`, cache: cacheImmutable}
		entry, err := registry.Marshal(e)
		if err != nil {
			return nil, err
		}
		s.apps["/"+id+".json"] = jsonServed(entry)
	}
	if len(s.ids) == 0 {
		return s, fmt.Errorf("%w to serve in %s: every bundle failed verification", ErrNoBundles, dir)
	}
	b, err := registry.Marshal(out)
	if err != nil {
		return nil, err
	}
	s.registry = jsonServed(b)
	s.apps["/"+registry.FileName] = s.registry
	return s, nil
}

func jsonServed(b []byte) *served {
	sum := sha256.Sum256(b)
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	h.Set("Access-Control-Allow-Origin", "*")
	return &served{body: b, header: h, etag: `"` + hex.EncodeToString(sum[:]) + `"`, cache: cacheRevalidate}
}

// IDs returns the ids of the bundles served, sorted.
func (s *Server) IDs() []string { return append([]string(nil), s.ids...) }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "bundle serve answers GET and HEAD", http.StatusMethodNotAllowed)
		return
	}
	a, ok := s.apps[r.URL.Path]
	if !ok {
		http.Error(w, notFound(s, r.URL.Path), http.StatusNotFound)
		return
	}
	h := w.Header()
	for k, v := range a.header {
		h[k] = v
	}
	h.Set("ETag", a.etag)
	h.Set("Cache-Control", a.cache)
	if a.pinned != "" {
		h.Set("Link", "<"+a.pinned+`>; rel="canonical"`)
	}
	if matches(r.Header.Get("If-None-Match"), a.etag) {
		// RFC 9110: a 304 carries the headers a 200 would, but no Content-Type or length.
		h.Del("Content-Type")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(a.body)))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		w.Write(a.body)
	}
}

// notFound says what is served instead of path.
func notFound(s *Server, path string) string {
	id, rest, hashed := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if hashed && strings.HasSuffix(rest, ".html") {
		if a, ok := s.apps["/"+id+".html"]; ok {
			return fmt.Sprintf("%s is not the version of %s this server pins; the registry pins %s", strings.TrimSuffix(rest, ".html"), id, a.pinned)
		}
	}
	return "not found; the bundles served are listed at /" + registry.FileName
}

// matches reports whether an If-None-Match header value matches etag, by the weak comparison
// RFC 9110 prescribes for it.
func matches(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}
