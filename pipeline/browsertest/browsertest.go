// Package browsertest runs pages in a real headless Chromium for tests, and records every
// request they make.
//
//	b := browsertest.Start(t)
//	u := b.Serve("/app.html", page)
//	v := b.Visit(t, u, 300*time.Millisecond)
//	if len(v.Requests) > 0 { t.Errorf("the page loaded %v", v.Requests) }
//
// Chromium runs with a fresh profile and every request, loopback included, sent through a
// proxy on 127.0.0.1 that this package runs: it serves the pages given to Serve and records and
// refuses everything else, from every frame, worker and process of the browser. Nothing
// leaves the machine. Chromium is Debian's (/usr/bin/chromium, or $CHROMIUM); .ci/run
// installs it.
package browsertest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/miniapp/bundle/render/chrome"
)

// Browser is a headless Chromium and the proxy that records its requests. Its methods are
// safe for concurrent use, but Visit runs one page at a time.
type Browser struct {
	Ctx     context.Context // the browser's first tab
	Origins []string        // the origins that Serve serves pages on: "http://127.0.0.1:PORT", …

	mu        sync.Mutex
	pages     map[string]page_
	requests  []string
	console   []string
	visitLock sync.Mutex
	visiting  string   // the URL Visit navigated to, which is not counted as a request
	servers   []string // host:port of each origin
}

type page_ struct {
	body    []byte
	ctype   string
	headers map[string]string
}

// Config configures StartWith. The zero value serves one origin with Chromium's defaults.
type Config struct {
	// Origins is how many distinct loopback origins serve the pages (at least one): the first
	// is 127.0.0.1, the second localhost, the third 127.0.0.3, each on its own port.
	Origins int
	// SameProcessFrames turns site isolation off, so that a frame from another site stays in
	// the page's target: InitScript and the console listener then reach it too. Origins stay
	// as separate as ever; only the process layout changes.
	SameProcessFrames bool
	// InitScript runs in every frame of every page before the page's own scripts.
	InitScript string
}

// Start launches Chromium with a fresh profile and returns it; the test's cleanup stops it.
func Start(t testing.TB) *Browser { return StartWith(t, Config{}) }

// StartWith is Start with a Config.
func StartWith(t testing.TB, cfg Config) *Browser {
	t.Helper()
	n := max(cfg.Origins, 1)
	exe := os.Getenv("CHROMIUM")
	if exe == "" {
		exe = "/usr/bin/chromium"
	}
	if _, err := exec.LookPath(exe); err != nil {
		t.Fatalf("Chromium is not installed at %s (apt-get install -y chromium; .ci/run does): %v", exe, err)
	}
	b := &Browser{pages: map[string]page_{}}
	var proxyAddr string
	for i := 0; i < n; i++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := &http.Server{Handler: http.HandlerFunc(b.handle)}
		go srv.Serve(ln)
		t.Cleanup(func() { srv.Close() })
		port := ln.Addr().(*net.TCPAddr).Port
		host := "127.0.0.1"
		if i == 1 {
			host = "localhost"
		} else if i > 1 {
			host = fmt.Sprintf("127.0.0.%d", i+1)
		}
		b.servers = append(b.servers, fmt.Sprintf("%s:%d", host, port))
		b.Origins = append(b.Origins, fmt.Sprintf("http://%s:%d", host, port))
		if i == 0 {
			proxyAddr = ln.Addr().String()
		}
	}
	opts := chrome.Options(exe, t.TempDir(), proxyAddr, cfg.SameProcessFrames, false)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("enable log: %v", err)
	}
	if err := chromedp.Listen(ctx, b.listen); err != nil {
		t.Fatal(err)
	}
	if cfg.InitScript != "" {
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cfg.InitScript}); err != nil {
			t.Fatalf("add init script: %v", err)
		}
	}
	b.Ctx = ctx
	return b
}

// listen records console errors, uncaught exceptions and the browser's error log entries.
func (b *Browser) listen(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeWarning && ev.Type != runtime.ConsoleAPICalledTypeInfo {
			return
		}
		var parts []string
		for _, a := range ev.Args {
			if a.Value != nil {
				parts = append(parts, strings.Trim(string(a.Value), `"`))
			} else {
				parts = append(parts, a.Description)
			}
		}
		msg = fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(parts, " "))
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg = "exception: " + d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
	case *log.EventEntryAdded:
		if ev.Entry.Level != log.EntryLevelError {
			return
		}
		msg = fmt.Sprintf("log %s: %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
	default:
		return
	}
	b.mu.Lock()
	b.console = append(b.console, msg)
	b.mu.Unlock()
}

// Serve makes body available at path on every origin, with the given Content-Type (text/html
// when empty) and extra response headers, and returns its URL on the first origin.
func (b *Browser) Serve(path string, body []byte, ctypeAndHeaders ...string) string {
	p := page_{body: body, ctype: "text/html; charset=utf-8", headers: map[string]string{}}
	if len(ctypeAndHeaders) > 0 && ctypeAndHeaders[0] != "" {
		p.ctype = ctypeAndHeaders[0]
	}
	for i := 1; i+1 < len(ctypeAndHeaders); i += 2 {
		p.headers[ctypeAndHeaders[i]] = ctypeAndHeaders[i+1]
	}
	b.mu.Lock()
	b.pages[path] = p
	b.mu.Unlock()
	return b.Origins[0] + path
}

func (b *Browser) isOwn(host string) bool {
	for _, s := range b.servers {
		if strings.EqualFold(host, s) {
			return true
		}
	}
	return false
}

// handle serves registered pages to requests for our origins, and records and refuses every
// other request: CONNECT tunnels (https:, wss:) and absolute-form proxy requests alike.
func (b *Browser) handle(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		b.record("CONNECT " + r.Host)
		http.Error(w, "offline", http.StatusForbidden)
		return
	}
	host := r.Host
	if r.URL.IsAbs() {
		host = r.URL.Host
	}
	b.mu.Lock()
	p, ok := b.pages[r.URL.Path]
	b.mu.Unlock()
	u := *r.URL
	if !u.IsAbs() {
		u.Scheme, u.Host = "http", r.Host
	}
	b.mu.Lock()
	visiting := b.visiting
	b.mu.Unlock()
	if u.String() != visiting {
		b.record(r.Method + " " + u.String())
	}
	if ok && b.isOwn(host) && r.Method == http.MethodGet {
		w.Header().Set("Content-Type", p.ctype)
		w.Header().Set("Cache-Control", "no-store")
		for k, v := range p.headers {
			w.Header().Set(k, v)
		}
		w.Write(p.body)
		return
	}
	http.Error(w, "offline", http.StatusNotFound)
}

func (b *Browser) record(req string) {
	if chrome.IsBrowserService(req) {
		return
	}
	b.mu.Lock()
	b.requests = append(b.requests, req)
	b.mu.Unlock()
}

// Visit is what one page did.
type Visit struct {
	Requests []string // every request other than for the served page, sorted
	Console  []string // console errors and warnings, exceptions, error log entries
}

// Console returns the console messages seen since the last Visit began.
func (b *Browser) Console() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.console...)
}

// Requests returns the requests recorded since the last Visit began.
func (b *Browser) Requests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.requests...)
}

// Visit navigates the browser to u, waits for the load event and then settle, and returns the
// requests (every one but the navigation to u itself, frames' pages included) and console
// messages seen meanwhile. Visits run one at a time.
func (b *Browser) Visit(t testing.TB, u string, settle time.Duration) Visit {
	t.Helper()
	b.visitLock.Lock()
	defer b.visitLock.Unlock()
	ctx, cancel := context.WithTimeout(b.Ctx, 20*time.Second)
	defer cancel()
	// Leave the previous page first, so that its late requests are not counted here.
	// The previous page may still be navigating (a refresh, a frame): that aborts this
	// navigation, so try again a few times.
	var err error
	for try := 0; try < 5; try++ {
		if err = chromedp.Do(ctx, chromedp.Navigate("about:blank")); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("navigate to about:blank: %v", err)
	}
	time.Sleep(50 * time.Millisecond)
	b.mu.Lock()
	b.requests, b.console, b.visiting = nil, nil, u
	b.mu.Unlock()
	loaded := chromedp.Events(ctx, page.LoadEventFired)
	if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
		// A page that navigates away (meta refresh) can fail the navigation; what it
		// requested is still recorded.
		t.Logf("navigate %s: %v", u, err)
	}
	for _, err := range loaded {
		_ = err
		break
	}
	time.Sleep(settle)
	b.mu.Lock()
	defer b.mu.Unlock()
	v := Visit{Requests: append([]string(nil), b.requests...), Console: append([]string(nil), b.console...)}
	sort.Strings(v.Requests)
	return v
}

// Eval evaluates expr in the current page and decodes its result into T; it awaits promises.
func Eval[T any](t testing.TB, b *Browser, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.Ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %q: %v", expr, err)
	}
	return v
}

// URL returns path on origin i.
func (b *Browser) URL(i int, path string) string {
	u, _ := url.JoinPath(b.Origins[i], path)
	return u
}
