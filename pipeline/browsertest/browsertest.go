// Package browsertest runs pages in a real headless Chromium for tests, and records every
// request they make.
//
//	b := browsertest.Start(t)
//	u := b.Serve("/app.html", page)
//	v := b.Visit(t, u, 300*time.Millisecond) // load, then watch 300 ms (scaled) for late requests
//	if len(v.Requests) > 0 { t.Errorf("the page loaded %v", v.Requests) }
//	if !b.Await(t, `document.title === "ready"`) { t.Error("never ready") }
//
// Chromium runs once per test binary (for each browser and process layout), with a fresh
// profile, shared by the tests' Browsers, and each Visit opens its page in a browser context of
// its own (an incognito profile: no storage, cache, cookies or workers shared with another
// page), closed at the next Visit. Every request of the page, loopback included, goes through
// a proxy on 127.0.0.1 that this package runs for that page alone: it serves the pages given
// to Serve and records and refuses everything else, from every frame, worker and process of
// the page, so a late request is counted for the page that made it. Nothing leaves the
// machine. The browser is $CHROMIUM, else Chromium's headless shell (chromium-headless-shell,
// Debian's), else the desktop Chromium bundle render runs (chrome.Find); Config.Desktop asks
// for the desktop one. ./scripts/test installs both.
//
// Waits are awaited conditions bounded by testwait.Deadline, and Visit's settle is a
// testwait.Window: both grow with $BUNDLE_TEST_SCALE.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/miniapp/bundle/internal/testwait"
	"github.com/miniapp/bundle/render/chrome"
)

// Browser is a headless Chromium and the proxy that records its requests. Its methods are
// safe for concurrent use, but Visit runs one page at a time, and Eval, Await, Console and
// Requests are about the page of the last Visit.
type Browser struct {
	Origins []string // the origins that Serve serves pages on: "http://127.0.0.1:PORT", …

	chromium  *chromium       // the test binary's Chromium, shared
	browser   context.Context // the browser; each Visit opens a tab in a browser context of its own
	initJS    string
	mu        sync.Mutex
	pages     map[string]page_
	servers   []string // host:port of each origin
	visitLock sync.Mutex
	cur       *visit         // the last Visit's page
	next      *visit         // the next Visit's tab, opened ahead (under visitLock)
	leaving   sync.WaitGroup // pages being closed
}

// visit is one page in its own browser context (Chromium's incognito profile: no cookies,
// storage, cache or service workers shared with another visit), whose requests go to a proxy
// of its own, so that what a page requests is recorded for that page only, however late.
type visit struct {
	tab    context.Context
	cancel context.CancelFunc
	srv    *http.Server
	opened chan error // receives when the tab is ready (nil) or could not be opened

	mu       sync.Mutex
	url      string // the URL Visit navigated to, which is not counted as a request
	requests []string
	console  []string
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
	// Desktop runs the desktop browser (chrome.Find's, the one bundle render runs) rather
	// than Chromium's headless shell: for a test of what the browser requests of its own
	// accord around a page (the desktop browser asks for /favicon.ico and a page's icons;
	// the shell does not), as hosts run it.
	Desktop bool
}

// headlessShell returns Chromium's headless shell on PATH (Debian's chromium-headless-shell,
// Chrome for Testing's chrome-headless-shell), or "" when there is none. It is the browser
// Puppeteer and Playwright run for a headless page: the desktop browser's Blink, V8 and
// network stack without its profile services, so that a browser context of its own (one per
// Visit) takes a quarter of the CPU (0.28 against 1.0 s on two cores).
func headlessShell() string {
	for _, name := range []string{"chromium-headless-shell", "chrome-headless-shell"} {
		if exe, err := exec.LookPath(name); err == nil {
			return exe
		}
	}
	return ""
}

// Start returns a Browser on the test binary's Chromium (see StartWith); the test's cleanup
// closes its pages.
func Start(t testing.TB) *Browser { return StartWith(t, Config{}) }

// StartWith is Start with a Config. Chromium is started once per test binary for each
// browser and process layout (Desktop, SameProcessFrames) and shared by the Browsers of its
// tests, one after another or at once: starting it took about 1.9 s of CPU a test, and what a
// page sees of it is its Visit's own browser context and proxy, which no other Browser's page
// shares. Each Browser serves its own origins (new ports) and pages.
func StartWith(t testing.TB, cfg Config) *Browser {
	t.Helper()
	n := max(cfg.Origins, 1)
	exe := os.Getenv("CHROMIUM")
	if exe == "" && !cfg.Desktop {
		if exe = headlessShell(); exe == "" {
			t.Logf("Chromium's headless shell is not installed (apt-get install -y chromium-headless-shell; ./scripts/test does): the desktop Chromium runs the pages, at about four times the CPU a page")
		}
	}
	exe, err := chrome.Find(exe)
	if err != nil {
		t.Fatalf("%v (./scripts/test installs chromium-headless-shell and chromium)", err)
	}
	b := &Browser{pages: map[string]page_{}, initJS: cfg.InitScript}
	for i := 0; i < n; i++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		// What reaches an origin's server other than through a visit's proxy (a page the
		// per-context proxy missed) is counted for the page shown.
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { b.handle(b.current(), w, r) })}
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
	}
	c, err := sharedChromium(exe, cfg.SameProcessFrames)
	if err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	b.chromium = c
	b.browser = c.ctx
	t.Cleanup(func() {
		b.visitLock.Lock()
		b.leave()
		if b.next != nil {
			b.next.close()
		}
		b.visitLock.Unlock()
		b.leaving.Wait()
		c.mu.Lock()
		if c.shown == b {
			c.shown = nil
		}
		c.mu.Unlock()
	})
	return b
}

// chromium is a Chromium process that the Browsers of a test binary share, and the proxy
// it sends what is not a page's (its own services) to, counted for the page shown last.
type chromium struct {
	ctx   context.Context // the browser; done when it has exited
	mu    sync.Mutex
	shown *Browser // the Browser whose Visit ran last
}

type chromiumKey struct {
	exe         string
	sameProcess bool
}

var (
	chromiumsMu sync.Mutex
	chromiums   = map[chromiumKey]*chromium{}
)

// profilePrefix names the profile folders of the shared Chromiums, one per test binary
// (its pid) and browser; a test binary's is removed by the next one to start after it
// exited (Chromium ends with the test binary, which has no hook at its exit).
const profilePrefix = "bundle-browsertest-"

// sharedChromium returns the running Chromium for exe and the process layout, starting it
// with a fresh profile when there is none or it has exited.
func sharedChromium(exe string, sameProcess bool) (*chromium, error) {
	chromiumsMu.Lock()
	defer chromiumsMu.Unlock()
	key := chromiumKey{exe, sameProcess}
	if c := chromiums[key]; c != nil && c.ctx.Err() == nil {
		return c, nil
	}
	if len(chromiums) == 0 {
		removeStaleProfiles()
	}
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", profilePrefix, os.Getpid()))
	if err != nil {
		return nil, err
	}
	c := &chromium{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	go (&http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		b := c.shown
		c.mu.Unlock()
		if b == nil {
			http.Error(w, "offline", http.StatusNotFound)
			return
		}
		b.handle(b.current(), w, r)
	})}).Serve(ln)
	opts := append(chrome.Options(exe, dir, ln.Addr().String(), sameProcess, false),
		chromedp.WSURLReadTimeout(testwait.Deadline()))
	allocCtx, _ := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, _ := chromedp.NewContext(allocCtx)
	if err := chromedp.Do(ctx); err != nil {
		return nil, err
	}
	c.ctx = ctx
	chromiums[key] = c
	return c, nil
}

// removeStaleProfiles removes the profile folders of test binaries that have exited.
func removeStaleProfiles() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), profilePrefix+"*"))
	for _, d := range dirs {
		pid, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(d), profilePrefix), "-")
		n, err := strconv.Atoi(pid)
		if err != nil || n == os.Getpid() {
			continue
		}
		if err := syscall.Kill(n, 0); errors.Is(err, syscall.ESRCH) {
			os.RemoveAll(d)
		}
	}
}

// listen records console errors, uncaught exceptions and the browser's error log entries.
func (v *visit) listen(ev any) {
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
	v.mu.Lock()
	v.console = append(v.console, msg)
	v.mu.Unlock()
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

// Reset stops serving every page Serve was given, so that a page of another test is not
// found where this one's is missing.
func (b *Browser) Reset() {
	b.mu.Lock()
	b.pages = map[string]page_{}
	b.mu.Unlock()
}

func (b *Browser) isOwn(host string) bool {
	for _, s := range b.servers {
		if strings.EqualFold(host, s) {
			return true
		}
	}
	return false
}

func (b *Browser) current() *visit {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cur
}

// handle serves registered pages to requests for our origins, and records (for the visit v,
// when there is one) and refuses every other request: CONNECT tunnels (https:, wss:) and
// absolute-form proxy requests alike.
func (b *Browser) handle(v *visit, w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		v.record("CONNECT "+r.Host, "")
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
	v.record(r.Method+" "+u.String(), u.String())
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

// record records the request req for u, unless it is the navigation to the page itself.
func (v *visit) record(req, u string) {
	if v == nil || chrome.IsBrowserService(req) {
		return
	}
	v.mu.Lock()
	if u != v.url {
		v.requests = append(v.requests, req)
	}
	v.mu.Unlock()
}

// Visit is what one page did.
type Visit struct {
	Requests []string // every request other than for the served page, sorted
	Console  []string // console errors and warnings, exceptions, error log entries
}

// Console returns the console messages of the last Visit's page so far.
func (b *Browser) Console() []string {
	v := b.current()
	if v == nil {
		return nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]string(nil), v.console...)
}

// Requests returns the requests of the last Visit's page so far.
func (b *Browser) Requests() []string {
	v := b.current()
	if v == nil {
		return nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]string(nil), v.requests...)
}

// AwaitRequests waits until the last Visit's page has made a request, for up to
// testwait.Deadline, and returns the requests made so far (none when it made none).
func (b *Browser) AwaitRequests() []string {
	testwait.For(func() bool { return len(b.Requests()) > 0 })
	return b.Requests()
}

// leave closes the last Visit's page, in the background: its browser context, with
// everything the page stored, and its proxy, which counts what the page does meanwhile for
// that page alone. The caller holds visitLock.
func (b *Browser) leave() {
	b.mu.Lock()
	v := b.cur
	b.cur = nil
	b.mu.Unlock()
	if v == nil {
		return
	}
	b.leaving.Add(1)
	go func() {
		defer b.leaving.Done()
		v.close()
	}()
}

// close closes v's tab, disposing its browser context and so every page, frame and worker in
// it, and then its proxy.
func (v *visit) close() {
	v.cancel()
	v.srv.Close()
}

// open opens a tab in a new browser context whose requests go to a proxy of its own, in the
// background: v.opened says when it is ready.
func (b *Browser) open() *visit {
	v := &visit{opened: make(chan error, 1)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		v.opened <- err
		v.cancel = func() {}
		v.srv = &http.Server{}
		return v
	}
	v.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { b.handle(v, w, r) })}
	go v.srv.Serve(ln)
	v.tab, v.cancel = chromedp.NewContext(b.browser,
		chromedp.WithNewBrowserContext(func(p *target.CreateBrowserContextParams) {
			p.ProxyServer = "http://" + ln.Addr().String()
			p.ProxyBypassList = "<-loopback>" // loopback through the proxy too, so that it sees every request
		}),
		chromedp.WithListener(v.listen))
	// The tab lives as long as the context of its first action: v.tab, with no deadline.
	go func() {
		v.opened <- chromedp.Do(v.tab, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); err != nil {
				return fmt.Errorf("enable log: %w", err)
			}
			if b.initJS != "" {
				if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: b.initJS}); err != nil {
					return fmt.Errorf("add init script: %w", err)
				}
			}
			return nil
		}))
	}()
	return v
}

// Visit closes the last Visit's page, opens u in a new tab in a browser context of its own,
// waits for the load event, then watches the page for testwait.Window(settle) (a page's late
// requests are counted however late they come; settle is for a test that asserts that
// something did not happen), and returns the requests (every one but the navigation to u
// itself, frames' pages included) and console messages seen meanwhile. Visits run one at a
// time.
func (b *Browser) Visit(t testing.TB, u string, settle time.Duration) Visit {
	t.Helper()
	b.visitLock.Lock()
	defer b.visitLock.Unlock()
	b.leave()

	if b.next == nil {
		b.next = b.open()
	}
	v := b.next
	b.next = nil
	if err := testwait.Recv(t, "a new tab in Chromium", v.opened); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	v.mu.Lock()
	v.url = u
	v.mu.Unlock()
	b.mu.Lock()
	b.cur = v
	b.mu.Unlock()
	b.chromium.mu.Lock()
	b.chromium.shown = b
	b.chromium.mu.Unlock()
	ctx, cancel := context.WithTimeout(v.tab, testwait.Deadline())
	defer cancel()
	loaded := chromedp.Events(ctx, page.LoadEventFired)
	if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
		// A page that navigates away (meta refresh) can fail the navigation; what it
		// requested is still recorded, and the page it went to fires the load event.
		t.Logf("navigate %s: %v", u, err)
		for _, err := range loaded {
			if err != nil {
				t.Fatalf("no load event for %s within %s: %v", u, testwait.Deadline(), err)
			}
			break
		}
	}
	b.next = b.open() // the next Visit's tab opens while this page is tested
	testwait.Quiet(settle)
	v.mu.Lock()
	defer v.mu.Unlock()
	out := Visit{Requests: append([]string(nil), v.requests...), Console: append([]string(nil), v.console...)}
	sort.Strings(out.Requests)
	return out
}

// Eval evaluates expr in the last Visit's page and decodes its result into T; it awaits
// promises, for up to testwait.Deadline.
func Eval[T any](t testing.TB, b *Browser, expr string) T {
	t.Helper()
	v := b.current()
	if v == nil {
		t.Fatalf("evaluate %q: no page; Visit one first", expr)
	}
	ctx, cancel := context.WithTimeout(v.tab, testwait.Deadline())
	defer cancel()
	r, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %q: %v", expr, err)
	}
	return r
}

// Await waits until the JavaScript expression cond holds in the last Visit's page (an
// expression that throws does not), for up to testwait.Deadline, and reports whether it did.
// The page polls it every 20 ms, so a condition seen costs 20 ms at most.
func (b *Browser) Await(t testing.TB, cond string) bool {
	t.Helper()
	ms := testwait.Deadline().Milliseconds()
	return Eval[bool](t, b, fmt.Sprintf(`new Promise(r => { const end = Date.now() + %d; const w = () => { let v = false; try { v = !!(%s); } catch {} v ? r(true) : Date.now() > end ? r(false) : setTimeout(w, 20); }; w(); })`, ms-ms/10, cond))
}

// Screenshot returns the last Visit's page as Chromium paints it, a PNG of its viewport (the
// same size for every Visit: each tab has the browser's window), taken once the page's fonts
// have loaded (document.fonts.ready) and two frames have been painted since, so that what
// the page changed before the call is on it.
func (b *Browser) Screenshot(t testing.TB) []byte {
	t.Helper()
	v := b.current()
	if v == nil {
		t.Fatal("screenshot: no page; Visit one first")
	}
	Eval[bool](t, b, `document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))))`)
	ctx, cancel := context.WithTimeout(v.tab, testwait.Deadline())
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return png
}

// URL returns path on origin i.
func (b *Browser) URL(i int, path string) string {
	u, _ := url.JoinPath(b.Origins[i], path)
	return u
}
