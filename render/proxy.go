package render

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"net/http"
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
	p := &proxy{ln: ln, pages: map[string]servedPage{}, requests: map[string][]string{}, conns: make(chan net.Conn),
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

// startRecording records every request from now on under key, until taken.
func (p *proxy) startRecording(key string) {
	p.mu.Lock()
	p.record = key
	p.requests[key] = nil
	p.mu.Unlock()
}

func (p *proxy) take(key string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.requests[key]
	delete(p.requests, key)
	return r
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
	p.mu.Unlock()
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
