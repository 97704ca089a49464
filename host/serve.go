package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/http/httpguts"

	"github.com/miniapp/bundle/internal/rootpath"
	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/registry"
)

// Headers returns the response headers a bundle is served with: its policy, computed from the
// entry's fields (Entry.Policy: never the entry's csp as text) with frame-ancestors from its
// hosts, as a header (a <meta> cannot carry frame-ancestors); COEP credentialless and CORP
// cross-origin, so that a cross-origin-isolated host can frame it; nosniff; a strong ETag and a
// Content-Digest from its SHA-256. The caller sets Cache-Control. It fails, naming the field,
// for an entry whose fields break the manifest's rules (CheckEntry) or whose csp is not the
// policy its fields give.
func Headers(e registry.Entry) (http.Header, error) {
	if err := CheckEntry(e); err != nil {
		return nil, err
	}
	p, err := e.Policy()
	if err != nil {
		return nil, err
	}
	sum, _ := hex.DecodeString(e.SHA256) // CheckEntry checked it is 64 hex digits
	h := http.Header{}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", p.String())
	h.Set("Cross-Origin-Embedder-Policy", "credentialless")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", `"`+e.SHA256+`"`)
	h.Set("Content-Digest", "sha-256=:"+base64.StdEncoding.EncodeToString(sum)+":")
	return h, validHeader(h)
}

// CheckEntry checks the fields of a registry entry that a host writes into URLs and headers
// by the rules the manifest applies to them (manifest.CheckValue): the id, hosts,
// allowedDomains and linkDomains; and that file is a file name and sha256 64 lower-case hex
// digits. The error names the entry and each field that breaks its rule.
func CheckEntry(e registry.Entry) error {
	var errs []string
	add := func(field, value string) {
		if err := manifest.CheckValue(field, value); err != nil {
			errs = append(errs, field+": "+err.Error())
		}
	}
	add("id", e.ID)
	for _, f := range []struct {
		name string
		list []string
	}{{"hosts", e.Hosts}, {"allowedDomains", e.AllowedDomains}, {"linkDomains", e.LinkDomains}} {
		for _, v := range f.list {
			add(f.name, v)
		}
	}
	if e.File == "" || strings.ContainsAny(e.File, "/\\\x00") || e.File == "." || e.File == ".." {
		errs = append(errs, fmt.Sprintf("file: %q is not a file name", e.File))
	}
	if len(e.SHA256) != 64 || strings.Trim(e.SHA256, "0123456789abcdef") != "" {
		errs = append(errs, fmt.Sprintf("sha256: %q is not 64 lower-case hex digits", e.SHA256))
	}
	if len(errs) > 0 {
		return fmt.Errorf("entry %q: %s", e.ID, strings.Join(errs, "; "))
	}
	return nil
}

// validHeader checks every value of h against RFC 9110's field-value grammar (no CR, LF or
// other control byte), the last line of defence behind the encoders that built them.
func validHeader(h http.Header) error {
	for k, vs := range h {
		for _, v := range vs {
			if !httpguts.ValidHeaderFieldValue(v) {
				return fmt.Errorf("the %s header would be %q, which is not a header value", k, v)
			}
		}
	}
	return nil
}

// linkValue is the value of a Link header (RFC 8288) to path with the relation rel: each
// segment of path percent-encoded as a URI path segment, so that nothing in it (">", ";", ",",
// a space, CR, LF) can end the target or add a link.
func linkValue(path, rel string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return "<" + strings.Join(segs, "/") + `>; rel="` + rel + `"`
}

// Refusal is a bundle that Server does not serve, and why.
type Refusal struct {
	ID  string
	Err error
}

// Server serves a folder of built bundles: /registry.json, /<id>.json, /<id>.html (revalidated
// on every use) and /<id>/<sha256>.html (immutable), with Headers. Every bundle is verified
// against its entry when the Server is made, and held in memory with its Brotli and gzip
// encodings: a file changed on disk afterwards changes nothing that is served. Responses are
// chosen by Accept-Encoding (Vary: Accept-Encoding, an ETag per encoding) and answered by
// net/http's ServeContent (If-None-Match, If-Match, Range, If-Range, HEAD). Server is safe for
// concurrent use once made; set SendTimeout before serving.
type Server struct {
	// Refused lists the bundles that failed verification, which are not served.
	Refused []Refusal
	// Warnings says what a host should know about the bundles served (no hosts, …).
	Warnings []string
	// SendTimeout is how long sending a response may stall (default 10 s): each 32 KB must
	// find room in the connection's send buffer within it (the kernel makes room once about
	// half of the buffer has drained, and sizes the buffer to the link). A client that stops
	// reading is dropped and cannot hold the server's connections; one reading at any real
	// speed gets the whole response.
	SendTimeout time.Duration

	apps map[string]*served // by path
	ids  []string
}

type served struct {
	header   http.Header // all but ETag, Content-Encoding and Content-Digest, which are the variant's
	variants []variant
}

const (
	cacheRevalidate = "no-cache"
	cacheImmutable  = "public, max-age=31536000, immutable"
)

// ErrNoBundles is returned (wrapped) by NewServer for a folder with nothing to serve.
var ErrNoBundles = errors.New("no bundles")

// readInside reads the file at path, which must be, its links resolved, in the folder
// realDir (links resolved): a link that leads out is refused, naming it and what to do. The
// links are followed by the path checks' resolver, which looks at nothing outside realDir, so
// the refusal is the same whether or not the file outside is there.
func readInside(path, realDir string) ([]byte, error) {
	// path is a file of the folder (an entry's file is a name): the same name in realDir.
	real, err := rootpath.Resolve(filepath.Join(realDir, filepath.Base(path)), realDir)
	if errors.Is(err, rootpath.ErrOutside) {
		return nil, fmt.Errorf("%s is a symbolic link out of the folder served: bundle serve serves only the files in it; put the page itself there (bundle build --out %s APP_DIR)", path, filepath.Dir(path))
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.Unwrap(err)}
	}
	f, err := os.Open(real)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// NewServer reads dir's registry.json (or, without one, the entries bundle build wrote there),
// verifies every bundle, and returns a Server for those that match. It fails when the folder
// holds no entries, its registry cannot be read, or an entry's id breaks the manifest's rule
// (an id names paths: "sapp/<sha256>" would claim another app's pinned URL); bundles that do
// not match their entries are listed in Refused and left out of the registry it serves.
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
	for _, id := range reg.IDs() {
		if err := manifest.CheckValue("id", id); err != nil {
			return nil, fmt.Errorf("%s: the entry %q: id %v; an id names the paths a bundle is served at, so bundle serve serves no registry with one that breaks the rule (rebuild the app with a valid id)", filepath.Join(dir, registry.FileName), id, err)
		}
	}
	// A page is served only from the folder itself: one linked to a file elsewhere would
	// serve that file (whatever matches the entry's hash) from the host's origin.
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	s := &Server{apps: map[string]*served{}}
	out := &registry.Registry{SchemaVersion: registry.SchemaVersion, Apps: map[string]registry.Entry{}}
	type job struct {
		body []byte
		tag  string
		svs  []*served // the paths that serve body, which share its variants
	}
	var jobs []job
	for _, id := range reg.IDs() {
		e := reg.Apps[id]
		path := filepath.Join(dir, e.File)
		page, err := readInside(path, realDir)
		if err == nil {
			err = Verify(path, page, e)
		}
		var h http.Header
		if err == nil {
			h, err = Headers(e)
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
		h.Del("ETag")
		h.Del("Content-Digest")
		pinned := "/" + id + "/" + e.SHA256 + ".html"
		mutable := h.Clone()
		mutable.Set("Cache-Control", cacheRevalidate)
		mutable.Set("Link", linkValue(pinned, "canonical"))
		h.Set("Cache-Control", cacheImmutable)
		// The page's two paths serve the same bytes, compressed once (a 6 MB page took
		// seconds a compression).
		var svs []*served
		for p, hh := range map[string]http.Header{"/" + id + ".html": mutable, pinned: h} {
			sv := &served{header: hh}
			s.apps[p] = sv
			svs = append(svs, sv)
		}
		jobs = append(jobs, job{page, e.SHA256, svs})
		entry, err := registry.Marshal(e)
		if err != nil {
			return nil, err
		}
		sv := jsonServed()
		s.apps["/"+id+".json"] = sv
		jobs = append(jobs, job{entry, "", []*served{sv}})
	}
	if len(s.ids) == 0 {
		return s, fmt.Errorf("%w to serve in %s: every bundle failed verification", ErrNoBundles, dir)
	}
	b, err := registry.Marshal(out)
	if err != nil {
		return nil, err
	}
	sv := jsonServed()
	s.apps["/"+registry.FileName] = sv
	jobs = append(jobs, job{b, "", []*served{sv}})
	for _, sv := range s.apps {
		if err := validHeader(sv.header); err != nil {
			return nil, err
		}
	}
	// Compress every body at start, on every core: what is served is computed once.
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for _, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			tag := j.tag
			if tag == "" {
				sum := sha256.Sum256(j.body)
				tag = hex.EncodeToString(sum[:])
			}
			vs := encode(j.body, tag)
			for _, sv := range j.svs {
				sv.variants = vs
			}
		}()
	}
	wg.Wait()
	return s, nil
}

func jsonServed() *served {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Cache-Control", cacheRevalidate)
	return &served{header: h}
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
	v := choose(a.variants, strings.Join(r.Header.Values("Accept-Encoding"), ","))
	h := w.Header()
	for k, vs := range a.header {
		h[k] = vs
	}
	h.Set("Vary", "Accept-Encoding")
	h.Set("ETag", v.etag)
	h.Set("Content-Digest", v.digest)
	if v.coding != "" {
		h.Set("Content-Encoding", v.coding)
	}
	timeout := s.SendTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	pw := &paced{ResponseWriter: w, rc: http.NewResponseController(w), timeout: timeout, size: len(v.body)}
	http.ServeContent(pw, r, "", time.Time{}, bytes.NewReader(v.body))
	if c, ok := r.Context().Value(connKey{}).(*net.TCPConn); ok && pw.stalled {
		// The client stopped reading: reset the connection, rather than leave what the
		// kernel holds for it to be sent (for minutes, to a window of zero) after the close.
		c.SetLinger(0)
	}
}

// connKey is the context key under which NewHTTPServer's connections carry their net.Conn.
type connKey struct{}

// NewHTTPServer returns the http.Server bundle serve runs h in: the request's headers read
// in 10 s and the whole of it in 30 s, a response written in 30 s unless its handler extends
// that (Server does, per 32 KB sent: SendTimeout), and an idle connection closed after 60 s.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 60 * time.Second, MaxHeaderBytes: 64 << 10,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context { return context.WithValue(ctx, connKey{}, c) }}
}

// paced is a response that gives the client timeout to make room for each chunk of the body
// (nginx's send_timeout), so that a response of any size reaches a reader at any real speed
// and one that stops reading is dropped (NewHTTPServer's connections reset); it sends
// Content-Digest only with a whole body (200).
type paced struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	size    int  // of the whole body
	stalled bool // a write waited timeout
}

const chunk = 32 << 10

func (p *paced) WriteHeader(code int) {
	h := p.Header()
	if code != http.StatusOK {
		h.Del("Content-Digest") // a 206's part, a 304's nothing, an error's text
	}
	// ServeContent leaves Content-Length out when Content-Encoding is set (it guards against
	// handlers that compress as they write; golang/go#66343): the variant's length is known.
	if h.Get("Content-Encoding") != "" && h.Get("Content-Length") == "" {
		switch code {
		case http.StatusOK:
			h.Set("Content-Length", strconv.Itoa(p.size))
		case http.StatusPartialContent:
			var first, last, total int
			if n, _ := fmt.Sscanf(h.Get("Content-Range"), "bytes %d-%d/%d", &first, &last, &total); n == 3 {
				h.Set("Content-Length", strconv.Itoa(last-first+1))
			}
		}
	}
	p.ResponseWriter.WriteHeader(code)
}

func (p *paced) Write(b []byte) (int, error) {
	n := 0
	for len(b) > 0 {
		c := min(len(b), chunk)
		p.rc.SetWriteDeadline(time.Now().Add(p.timeout)) // ErrNotSupported: the server's own timeout holds
		m, err := p.ResponseWriter.Write(b[:c])
		n += m
		if err != nil {
			var ne net.Error
			p.stalled = errors.As(err, &ne) && ne.Timeout()
			return n, err
		}
		b = b[c:]
	}
	return n, nil
}

// ReadFrom is Write's loop with a pooled buffer (ServeContent copies the body with io.CopyN).
func (p *paced) ReadFrom(r io.Reader) (int64, error) {
	bp := chunks.Get().(*[]byte)
	defer chunks.Put(bp)
	return io.CopyBuffer(struct{ io.Writer }{p}, r, *bp)
}

var chunks = sync.Pool{New: func() any { b := make([]byte, chunk); return &b }}

func (p *paced) Unwrap() http.ResponseWriter { return p.ResponseWriter }

// notFound says what is served instead of path.
func notFound(s *Server, path string) string {
	id, rest, hashed := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if hashed && strings.HasSuffix(rest, ".html") {
		if _, ok := s.apps["/"+id+".html"]; ok {
			for p := range s.apps {
				if strings.HasPrefix(p, "/"+id+"/") {
					return fmt.Sprintf("%s is not the version of %s this server pins; the registry pins %s", strings.TrimSuffix(rest, ".html"), id, p)
				}
			}
		}
	}
	return "not found; the bundles served are listed at /" + registry.FileName
}
