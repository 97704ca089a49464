package render

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/miniapp/bundle/render/chrome"
)

// proxy is the only way out of the browser: it serves the pages it is given, on any origin
// (http: directly, https: through CONNECT with a certificate of its own, which the browser is
// told to accept), and records and refuses every other request, from every frame and worker.
type proxy struct {
	ln    net.Listener
	srv   *http.Server
	tls   *tls.Config
	inner *http.Server // serves the requests inside CONNECT tunnels
	conns chan net.Conn

	mu       sync.Mutex
	pages    map[string]servedPage // by origin + path
	requests map[string][]string   // by the key of the page that asked to record
	record   string                // the key requests are recorded under now
	last     atomic.Int64          // when the last request came, in Unix nanoseconds
	// allow says which origins the page recorded now may connect to (its entry's
	// allowedDomains): their requests are answered without network, from fixtures (a
	// folder of <host>/<path> files, "" for none) or with a 503, and recorded in answered
	// rather than refused.
	allow    func(origin string) bool
	fixtures string
	answered map[string][]string
}

// lastActivity returns when the last request came, in Unix nanoseconds.
func (p *proxy) lastActivity() int64 { return p.last.Load() }

type servedPage struct {
	body   []byte
	header http.Header
}

func newProxy() (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	cert, err := selfSigned()
	if err != nil {
		ln.Close()
		return nil, err
	}
	p := &proxy{ln: ln, pages: map[string]servedPage{}, requests: map[string][]string{}, answered: map[string][]string{}, conns: make(chan net.Conn),
		tls: &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"http/1.1"}}}
	// Chromium is the only client, on loopback; the timeouts stop what a page leaves open.
	p.srv = &http.Server{Handler: http.HandlerFunc(p.handle), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 60 * time.Second}
	p.inner = &http.Server{Handler: http.HandlerFunc(p.handleTunnelled), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 60 * time.Second}
	go p.srv.Serve(ln)
	go p.inner.Serve(&chanListener{conns: p.conns, addr: ln.Addr()})
	return p, nil
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) close() {
	p.srv.Close()
	p.inner.Close()
}

// serve makes body available at origin+path with the given headers.
func (p *proxy) serve(origin, path string, body []byte, header http.Header) {
	p.mu.Lock()
	p.pages[origin+path] = servedPage{body, header}
	p.mu.Unlock()
}

func (p *proxy) forget(origin, path string) {
	p.mu.Lock()
	delete(p.pages, origin+path)
	p.mu.Unlock()
}

// startRecording records every request from now on under key, until taken; requests to the
// origins allow admits are answered from fixtures (or with a 503) instead of refused.
func (p *proxy) startRecording(key string, allow func(string) bool, fixtures string) {
	p.mu.Lock()
	p.record = key
	p.requests[key] = nil
	p.answered[key] = nil
	p.allow, p.fixtures = allow, fixtures
	p.mu.Unlock()
}

// take returns the requests refused and those answered under key, and forgets them.
func (p *proxy) take(key string) (refused, answered []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	refused, answered = p.requests[key], p.answered[key]
	delete(p.requests, key)
	delete(p.answered, key)
	return refused, answered
}

func (p *proxy) note(req string) {
	p.last.Store(time.Now().UnixNano())
	if chrome.IsBrowserService(req) {
		return
	}
	p.mu.Lock()
	if p.record != "" {
		p.requests[p.record] = append(p.requests[p.record], req)
	}
	p.mu.Unlock()
}

func (p *proxy) handle(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		// Every tunnel is opened, so that the request inside it is seen whole (method, URL):
		// a page's own are answered, the others recorded and refused there.
		hj, ok := w.(http.Hijacker)
		if !ok {
			http.Error(w, "offline", http.StatusInternalServerError)
			return
		}
		conn, buf, err := hj.Hijack()
		if err != nil {
			return
		}
		conn.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n"))
		var c net.Conn = conn
		if buf != nil && buf.Reader.Buffered() > 0 {
			c = &bufferedConn{Conn: conn, r: buf.Reader}
		}
		tc := tls.Server(c, p.tls)
		tc.SetDeadline(time.Now().Add(10 * time.Second))
		if err := tc.Handshake(); err != nil {
			p.note("CONNECT " + r.Host)
			tc.Close()
			return
		}
		tc.SetDeadline(time.Time{})
		select {
		case p.conns <- tc:
		case <-time.After(10 * time.Second): // the proxy is closing
			tc.Close()
		}
		return
	}
	u := *r.URL
	if !u.IsAbs() {
		u.Scheme, u.Host = "http", r.Host
	}
	p.answer(w, r, "http://"+u.Host, u.String())
}

func (p *proxy) handleTunnelled(w http.ResponseWriter, r *http.Request) {
	host := strings.TrimSuffix(r.Host, ":443")
	u := *r.URL
	u.Scheme, u.Host = "https", host
	p.answer(w, r, "https://"+host, u.String())
}

func (p *proxy) answer(w http.ResponseWriter, r *http.Request, origin, full string) {
	p.last.Store(time.Now().UnixNano())
	p.mu.Lock()
	pg, ok := p.pages[origin+r.URL.Path]
	allow, fixtures, key := p.allow, p.fixtures, p.record
	p.mu.Unlock()
	if !ok && allow != nil && allow(origin) {
		text := p.answerAllowed(w, r, fixtures, full)
		p.mu.Lock()
		if key != "" {
			p.answered[key] = append(p.answered[key], text)
		}
		p.mu.Unlock()
		return
	}
	if !ok || r.Method != http.MethodGet {
		p.note(r.Method + " " + full)
		http.Error(w, "offline", http.StatusNotFound)
		return
	}
	for k, v := range pg.header {
		w.Header()[k] = v
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Write(pg.body)
}

// answerAllowed answers a request to an origin the page's entry allows, without network: a
// CORS preflight as a server that accepts it would, a GET or HEAD of a file under fixtures
// (fixtures/<host>/<path>, a path ending in / naming its index.html) with it, anything else
// with 503 Service Unavailable, each readable by the page's origin. It returns how the
// request was answered, for the report.
func (p *proxy) answerAllowed(w http.ResponseWriter, r *http.Request, fixtures, full string) string {
	h := w.Header()
	origin := r.Header.Get("Origin")
	if origin == "" {
		origin = "*"
	}
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Vary", "Origin")
	h.Set("Cache-Control", "no-store")
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
		h.Set("Access-Control-Allow-Methods", r.Header.Get("Access-Control-Request-Method"))
		if hs := r.Header.Get("Access-Control-Request-Headers"); hs != "" {
			h.Set("Access-Control-Allow-Headers", hs)
		}
		w.WriteHeader(http.StatusNoContent)
		return r.Method + " " + full + " → 204 (preflight)"
	}
	if fixtures != "" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		if f, ok := fixtureFile(fixtures, r.Host, r.URL.Path); ok {
			if body, err := os.ReadFile(f); err == nil {
				ctype := mime.TypeByExtension(filepath.Ext(f))
				if ctype == "" {
					ctype = http.DetectContentType(body)
				}
				h.Set("Content-Type", ctype)
				h.Set("Content-Length", strconv.Itoa(len(body)))
				if r.Method == http.MethodGet {
					w.Write(body)
				}
				rel, _ := filepath.Rel(fixtures, f)
				return r.Method + " " + full + " → 200 (" + filepath.ToSlash(rel) + ")"
			}
		}
	}
	h.Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusServiceUnavailable)
	io.WriteString(w, "bundle render gives the page no network\n")
	return r.Method + " " + full + " → 503"
}

// fixtureFile returns the file under dir that answers a request to host for path:
// dir/<host>/<path> (the port dropped from host), its index.html for a folder; never a file
// outside dir/<host>, a link, a file that a folder on the way links out of dir, or a name
// starting with a dot.
func fixtureFile(dir, host, urlPath string) (string, bool) {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(host)
	if host == "" || strings.ContainsAny(host, `/\`) || strings.HasPrefix(host, ".") {
		return "", false
	}
	clean := path.Clean("/" + urlPath)
	for _, seg := range strings.Split(clean, "/") {
		if strings.HasPrefix(seg, ".") {
			return "", false
		}
	}
	if strings.HasSuffix(urlPath, "/") {
		clean = path.Join(clean, "index.html")
	}
	f := filepath.Join(dir, host, filepath.FromSlash(clean))
	if st, err := os.Lstat(f); err == nil && st.IsDir() {
		f = filepath.Join(f, "index.html")
	}
	if st, err := os.Lstat(f); err != nil || !st.Mode().IsRegular() {
		return f, false
	}
	// The folders on the way may be links: the file is served only where, its links
	// resolved, it is inside dir (a host folder linked to / served any file of the machine).
	real, err := filepath.EvalSymlinks(f)
	if err != nil {
		return f, false
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return f, false
	}
	rel, err := filepath.Rel(root, real)
	return f, err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// chanListener is a net.Listener whose connections are handed to it.
type chanListener struct {
	conns chan net.Conn
	addr  net.Addr
	once  sync.Once
	done  chan struct{}
}

func (l *chanListener) Accept() (net.Conn, error) {
	l.once.Do(func() { l.done = make(chan struct{}) })
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *chanListener) Close() error {
	l.once.Do(func() { l.done = make(chan struct{}) })
	select {
	case <-l.done:
	default:
		close(l.done)
	}
	return nil
}

func (l *chanListener) Addr() net.Addr { return l.addr }

type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// selfSigned makes the certificate the proxy answers every https: origin with.
func selfSigned() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "bundle render"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: []string{"*.render.test", "render.test"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
