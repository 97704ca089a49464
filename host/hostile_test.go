package host_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/miniapp/bundle/host"
	"github.com/miniapp/bundle/internal/testwait"
	"github.com/miniapp/bundle/pipeline"
	"github.com/miniapp/bundle/registry"
)

// writeRegistry writes reg as dir's registry.json.
func writeRegistry(t *testing.T, dir string, reg *registry.Registry) {
	t.Helper()
	b, err := registry.Marshal(reg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, registry.FileName), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestServeRefusesLoosenedPolicy: an entry whose csp ends in frame-ancestors * (the page's
// <meta> repinned to match) would let any origin frame the app, since a host appends the
// frame-ancestors of hosts after it and browsers obey the first: verify and serve refuse it.
func TestServeRefusesLoosenedPolicy(t *testing.T) {
	out := t.TempDir()
	buildInto(t, out, "hello", "todo-ts")
	entry, err := registry.ReadEntry(filepath.Join(out, "hello.json"))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(filepath.Join(out, "hello.html"))
	for _, row := range []struct{ name, add string }{
		{"frame_ancestors_star", "; frame-ancestors *"},
		{"report_uri", "; report-uri https://collect.example/r"},
	} {
		t.Run(row.name, func(t *testing.T) {
			e := entry
			e.Hosts = []string{"https://chat.example.com"}
			e.CSP = entry.CSP + row.add
			loose := bytes.Replace(page, []byte(entry.CSP+`"`), []byte(e.CSP+`"`), 1)
			if bytes.Equal(loose, page) {
				t.Fatal("the page's policy <meta> was not found")
			}
			e.Pin(loose)
			err := host.Verify("hello.html", loose, e)
			if got := mismatchFields(err); strings.Join(got, " ") != "csp" {
				t.Fatalf("Verify: mismatches %v (%v), want csp alone", got, err)
			}
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "hello.html"), loose, 0o644)
			todo, _ := os.ReadFile(filepath.Join(out, "todo-ts.html"))
			os.WriteFile(filepath.Join(dir, "todo-ts.html"), todo, 0o644)
			todoEntry, _ := registry.ReadEntry(filepath.Join(out, "todo-ts.json"))
			writeRegistry(t, dir, &registry.Registry{SchemaVersion: registry.SchemaVersion, Apps: map[string]registry.Entry{"hello": e, "todo-ts": todoEntry}})
			srv, err := host.NewServer(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(srv.Refused) != 1 || srv.Refused[0].ID != "hello" || !strings.Contains(srv.Refused[0].Err.Error(), "not the policy its fields give") {
				t.Errorf("refused: %+v", srv.Refused)
			}
			if _, err := host.Headers(e); err == nil {
				t.Error("Headers gave headers for the loosened entry")
			}
		})
	}
}

// TestServeRefusesIDs: a registry whose ids break the manifest's rule is refused at start,
// naming the entry: an id shaped like another app's pinned path (it would serve an impostor
// at that immutable URL), and ids that would write into the Link header.
func TestServeRefusesIDs(t *testing.T) {
	out := t.TempDir()
	buildInto(t, out, "hello", "todo-ts")
	hello, _ := registry.ReadEntry(filepath.Join(out, "hello.json"))
	todo, _ := registry.ReadEntry(filepath.Join(out, "todo-ts.json"))
	for _, id := range []string{
		"todo-ts/" + todo.SHA256,
		"a>, <https://evil.example>; rel=preconnect",
		"a;b",
		"a\r\nSet-Cookie: s=1",
		"registry",
		"Hello",
	} {
		t.Run(strings.NewReplacer("/", "_", "\r\n", "CRLF").Replace(id[:min(len(id), 12)]), func(t *testing.T) {
			e := hello
			e.ID = id
			writeRegistry(t, out, &registry.Registry{SchemaVersion: registry.SchemaVersion, Apps: map[string]registry.Entry{id: e, "todo-ts": todo}})
			srv, err := host.NewServer(out)
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", id)) || !strings.Contains(err.Error(), "id") {
				t.Fatalf("NewServer: %v (%v), want an error naming the entry %q", err, srv, id)
			}
			if _, err := host.Headers(e); err == nil {
				t.Errorf("Headers gave headers for the id %q", id)
			}
			if err := host.Verify("hello.html", mustReadB(t, filepath.Join(out, "hello.html")), e); !slicesContains(mismatchFields(err), "entry") {
				t.Errorf("Verify: %v, want an entry mismatch", err)
			}
		})
	}
}

func slicesContains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func mustReadB(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestServeEncodings: each response is chosen by Accept-Encoding, precompressed (Brotli,
// gzip), with Vary and an ETag of its own; revalidation and ranges work on the variant sent,
// as net/http's ServeContent does them.
func TestServeEncodings(t *testing.T) {
	out := t.TempDir()
	buildInto(t, out, "order-book")
	srv, err := host.NewServer(out)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	entry, _ := registry.ReadEntry(filepath.Join(out, "order-book.json"))
	page, _ := os.ReadFile(filepath.Join(out, "order-book.html"))
	do := func(method, path string, header ...string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, ts.URL+path, nil)
		req.Header.Set("Accept-Encoding", "")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := noDecoding.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	decode := func(coding string, b []byte) []byte {
		t.Helper()
		var r io.Reader = bytes.NewReader(b)
		switch coding {
		case "gzip":
			zr, err := gzip.NewReader(r)
			if err != nil {
				t.Fatal(err)
			}
			r = zr
		case "br":
			r = brotli.NewReader(r)
		}
		d, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("decode %s: %v", coding, err)
		}
		return d
	}
	pinned := "/order-book/" + entry.SHA256 + ".html"
	rows := []struct{ accept, coding string }{
		{"", ""},
		{"identity", ""},
		{"gzip", "gzip"},
		{"x-gzip", "gzip"},
		{"gzip, deflate, br, zstd", "br"},
		{"br;q=0.5, gzip", "gzip"},
		{"br;q=0, gzip;q=0", ""},
		{"*", "br"},
		{"*;q=0.1, br;q=0", "gzip"},
		{"GZIP;Q=1", "gzip"},
		{"br;q=x", ""},
	}
	tags := map[string]string{}
	for _, row := range rows {
		for _, path := range []string{pinned, "/order-book.html", "/registry.json"} {
			resp, body := do("GET", path, "Accept-Encoding", row.accept)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != row.coding || resp.Header.Get("Vary") != "Accept-Encoding" {
				t.Errorf("%s with Accept-Encoding %q: %d, Content-Encoding %q, Vary %q", path, row.accept, resp.StatusCode, resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"))
				continue
			}
			if resp.Header.Get("Content-Length") != fmt.Sprint(len(body)) {
				t.Errorf("%s %q: Content-Length %s for %d bytes", path, row.accept, resp.Header.Get("Content-Length"), len(body))
			}
			d := decode(row.coding, body)
			if path != "/registry.json" && !bytes.Equal(d, page) {
				t.Errorf("%s %q: the decoded body is not the page", path, row.accept)
			}
			if path == pinned {
				etag := resp.Header.Get("Etag")
				if prev, ok := tags[row.coding]; ok && prev != etag {
					t.Errorf("two ETags for %q: %s, %s", row.coding, prev, etag)
				}
				tags[row.coding] = etag
				if row.coding == "" && etag != `"`+entry.SHA256+`"` {
					t.Errorf("the identity ETag is %s, want the entry's sha256", etag)
				}
			}
		}
	}
	if len(tags) != 3 || tags[""] == tags["gzip"] || tags["gzip"] == tags["br"] {
		t.Errorf("ETags by encoding: %v, want three different ones", tags)
	}
	// Sizes: the encodings are what make serving cheap.
	_, gz := do("GET", pinned, "Accept-Encoding", "gzip")
	_, br := do("GET", pinned, "Accept-Encoding", "br")
	t.Logf("order-book: %d bytes, gzip %d, br %d", len(page), len(gz), len(br))
	if len(br) >= len(gz) || len(gz) > len(page)/2 {
		t.Errorf("sizes: page %d, gzip %d, br %d", len(page), len(gz), len(br))
	}

	// Revalidation answers 304 for the variant's own ETag, and 200 for another's.
	if resp, _ := do("GET", pinned, "Accept-Encoding", "gzip", "If-None-Match", tags["gzip"]); resp.StatusCode != 304 || resp.Header.Get("Etag") != tags["gzip"] || resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Content-Digest") != "" {
		t.Errorf("gzip revalidation: %d %v", resp.StatusCode, resp.Header)
	}
	if resp, _ := do("GET", pinned, "Accept-Encoding", "gzip", "If-None-Match", tags[""]); resp.StatusCode != 200 {
		t.Errorf("gzip asked with the identity ETag: %d", resp.StatusCode)
	}
	// Ranges, of the variant sent.
	resp, body := do("GET", pinned, "Range", "bytes=100-199")
	if resp.StatusCode != 206 || !bytes.Equal(body, page[100:200]) || resp.Header.Get("Content-Range") != fmt.Sprintf("bytes 100-199/%d", len(page)) || resp.Header.Get("Content-Digest") != "" {
		t.Errorf("a range: %d %q %v", resp.StatusCode, resp.Header.Get("Content-Range"), resp.Header)
	}
	resp, body = do("GET", pinned, "Accept-Encoding", "gzip", "Range", "bytes=0-9")
	if resp.StatusCode != 206 || !bytes.Equal(body, gz[:10]) || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("a range of the gzip variant: %d %x", resp.StatusCode, body)
	}
	if resp, _ := do("GET", pinned, "Range", "bytes=0-9", "If-Range", `"other"`); resp.StatusCode != 200 {
		t.Errorf("If-Range with another ETag: %d, want the whole page", resp.StatusCode)
	}
	if resp, _ := do("GET", pinned, "Range", fmt.Sprintf("bytes=%d-", len(page)+10)); resp.StatusCode != http.StatusRequestedRangeNotSatisfiable {
		t.Errorf("an unsatisfiable range: %d", resp.StatusCode)
	}
	if resp, _ := do("GET", pinned, "If-Match", `"other"`); resp.StatusCode != http.StatusPreconditionFailed {
		t.Errorf("If-Match another ETag: %d", resp.StatusCode)
	}
	if resp, body := do("HEAD", pinned, "Accept-Encoding", "br"); resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("Content-Length") != fmt.Sprint(len(br)) {
		t.Errorf("HEAD: %d, %d bytes, Content-Length %s", resp.StatusCode, len(body), resp.Header.Get("Content-Length"))
	}
	// The Link header names the pinned path, encoded.
	if resp, _ := do("GET", "/order-book.html"); resp.Header.Get("Link") != "<"+pinned+`>; rel="canonical"` {
		t.Errorf("Link = %q", resp.Header.Get("Link"))
	}
}

// noDecoding sends Accept-Encoding as the test sets it: Go's default transport asks for gzip
// when a request has none, and decodes it.
var noDecoding = &http.Transport{DisableCompression: true}

// bigPage builds an app of about size bytes of incompressible data into out, with its registry.
func bigPage(t testing.TB, out string, size int) registry.Entry {
	t.Helper()
	dir := t.TempDir()
	// Bytes a compressor takes at once: NewServer compresses the page at start, and the tests
	// that read it ask for it as is. Bytes with long-distance repeats, as these were
	// (byte(i*2654435761>>13) ^ byte(i>>7)), took Brotli 58 s under -race, a cycle of 251
	// 2.7 s.
	data := make([]byte, size*3/4)
	for i := range data {
		data[i] = byte(i % 251)
	}
	os.WriteFile(filepath.Join(dir, "blob.bin"), data, 0o644)
	os.WriteFile(filepath.Join(dir, "main.ts"), []byte("import blob from \"./blob.bin\";\ndocument.body.textContent = String(blob.length);\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "miniapp.toml"), []byte("id = \"big\"\nname = \"Big\"\ndescription = \"A big bundle.\"\nentry = \"main.ts\"\nmaxKB = 8192\nhosts = [\"https://chat.example.com\"]\n[build]\nloader = { \".bin\" = \"base64\" }\n"), 0o644)
	res, err := pipeline.Build(context.Background(), dir, pipeline.Options{OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.WriteRegistry(out); err != nil {
		t.Fatal(err)
	}
	return res.Entry
}

// TestServeSlowReaders: 200 clients that ask for a 6 MB bundle and read nothing do not hold
// the server: each is dropped once it has not taken a chunk within SendTimeout, and the
// server's goroutines come back to what they were; a client that reads slowly but steadily
// gets the whole page.
func TestServeSlowReaders(t *testing.T) {
	out := t.TempDir()
	e := bigPage(t, out, 6<<20)
	srv, err := host.NewServer(out)
	if err != nil {
		t.Fatal(err)
	}
	srv.SendTimeout = 3 * time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := host.NewHTTPServer(srv)
	var closed atomic.Int64
	hs.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateClosed {
			closed.Add(1)
		}
	}
	go hs.Serve(ln)
	defer hs.Close()
	before := runtime.NumGoroutine()

	// A small receive buffer, as a client on a slow link has: the server's writes block.
	dialer := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	path := "/big/" + e.SHA256 + ".html"
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 200 {
		c, err := dialer.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path)
	}
	// Each stalls the server's writes, which give up after SendTimeout: the server closes
	// every connection (awaited as the server counts them, not by its goroutines, which are
	// few also while a loaded machine has yet to accept the last connections), and its
	// goroutines come back to what they were.
	if !testwait.For(func() bool { return closed.Load() == 200 }) {
		t.Fatalf("the server closed %d of 200 slow readers' connections in %s", closed.Load(), testwait.Deadline())
	}
	if !testwait.For(func() bool { return runtime.NumGoroutine() <= before+5 }) {
		t.Fatalf("%d goroutines with 200 slow readers connected %s ago (%d before)", runtime.NumGoroutine(), testwait.Deadline(), before)
	}

	// The server drops each connection once a chunk has waited SendTimeout: what a client
	// reads then is what the kernel's buffers held, and the read ends (not a timeout).
	for i, c := range conns {
		c.SetReadDeadline(time.Now().Add(testwait.Deadline()))
		n, err := io.Copy(io.Discard, c)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("connection %d is still open after %s", i, testwait.Deadline())
		}
		if n >= int64(e.Bytes) {
			t.Fatalf("connection %d got the whole page (%d bytes): it was never a slow reader", i, n)
		}
	}
	// A steady reader, with the window of a slow link, gets the page: 32 KB every 10 ms. (On
	// loopback the kernel grows the server's send buffer to 4 MB, and wakes a blocked write
	// once half of it has drained: a reader must drain 2 MB within SendTimeout.)
	steady := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 64<<10) })
	}}
	c, err := steady.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", path)
	var got bytes.Buffer
	buf := make([]byte, 32<<10)
	c.SetReadDeadline(time.Now().Add(testwait.Deadline()))
	start := time.Now()
	var rerr error
	reads := 0
	for {
		n, err := c.Read(buf)
		got.Write(buf[:n])
		reads++
		if err != nil {
			rerr = err
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("steady reader: %d bytes in %d reads, %v: %v", got.Len(), reads, time.Since(start), rerr)
	if head, body, _ := bytes.Cut(got.Bytes(), []byte("\r\n\r\n")); len(body) != e.Bytes {
		t.Errorf("the steady reader got %d of %d bytes: %s", len(body), e.Bytes, head)
	}
}

// TestServeRefusesLinkOut: a page in the folder that is a symbolic link to a file outside it
// is not served (it would serve that file from the host's origin), and the refusal names the
// link, the same whether or not the file outside is there (link_out_missing: it said "no such
// file" there, and where the link led where the file was); a link to a page inside the folder
// is served.
func TestServeRefusesLinkOut(t *testing.T) {
	var said []string
	for _, row := range []struct {
		name    string
		inside  bool
		missing bool
	}{{"link_out", false, false}, {"link_inside", true, false}, {"link_out_missing", false, true}} {
		t.Run(row.name, func(t *testing.T) {
			out, elsewhere := t.TempDir(), t.TempDir()
			buildInto(t, out, "hello")
			to := filepath.Join(elsewhere, "hello.html")
			if row.inside {
				to = filepath.Join(out, "pages", "hello.html")
			}
			os.MkdirAll(filepath.Dir(to), 0o755)
			if err := os.Rename(filepath.Join(out, "hello.html"), to); err != nil {
				t.Fatal(err)
			}
			if row.missing {
				os.Remove(to)
			}
			if err := os.Symlink(to, filepath.Join(out, "hello.html")); err != nil {
				t.Fatal(err)
			}
			srv, err := host.NewServer(out)
			if row.inside {
				if err != nil || len(srv.Refused) > 0 {
					t.Fatalf("NewServer: %v, refused %v: a link inside the folder is served", err, srv.Refused)
				}
				return
			}
			if !errors.Is(err, host.ErrNoBundles) || srv == nil || len(srv.Refused) != 1 {
				t.Fatalf("NewServer: %v (%v), want hello refused", err, srv)
			}
			msg := srv.Refused[0].Err.Error()
			if !strings.Contains(msg, filepath.Join(out, "hello.html")+" is a symbolic link out of the folder served") {
				t.Errorf("refusal: %s", msg)
			}
			said = append(said, strings.ReplaceAll(msg, out, "OUT"))
			if len(said) == 2 && said[0] != said[1] {
				t.Errorf("the refusal differs with the file outside there and not:\n%s\n%s", said[0], said[1])
			}
		})
	}
}
