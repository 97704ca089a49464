// Package render opens bundles in a real headless Chromium, inside a host frame on another
// origin that speaks the host half of the bridge protocol, and reports what a static check
// cannot see: console errors, uncaught exceptions, policy violations, every request the page
// attempted (all are blocked), whether the handshake completed, the tools the app registered,
// the result of each tool call, and a screenshot.
//
//	r, err := render.Start(ctx, render.Options{})
//	defer r.Close()
//	rep, err := r.Render(ctx, "dist/hello.html", page, &entry)
//	if rep.Failed() { … rep.Problems … }
//
// Every request leaves the browser through a proxy this package runs, which serves the host
// page and the bundle (on the origins the bundle expects: the host on the first of the app's
// hosts, https: through a certificate of its own) and records and refuses everything else.
// Nothing reaches the network.
package render

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/miniapp/bundle/host"
	"github.com/miniapp/bundle/registry"
	"github.com/miniapp/bundle/render/chrome"
	"github.com/miniapp/bundle/sourcemap"
)

// Options configures a Renderer. The zero value renders at 800×600 in the light theme.
type Options struct {
	// Chrome is the browser to run; "" finds one (FindChrome).
	Chrome string
	// Width and Height are the frame's size in CSS pixels.
	Width, Height int
	// Theme is the host's theme: "light" or "dark".
	Theme string
	// Calls are the tools to call, in order, once the tools are listed.
	Calls []Call
	// Timeout bounds each page: its handshake, tool list, calls and what it does after them.
	// The default scales with what the page does: 10 s, 1 s more for each 50 KB of the page,
	// and 5 s more for each call.
	Timeout time.Duration
	// Settle is how long the page must have been quiet, once the calls are done, to be
	// judged (default 250 ms): no request, no message, no console output, and none of its
	// timers due within 3 s (React 19 reveals what a Suspense boundary waited for 300 ms
	// after its fallback, on a timer; a page may fetch on one). A page still busy at the
	// timeout is judged then.
	Settle time.Duration
	// Screenshot asks for a PNG of each page.
	Screenshot bool
	// Fixtures is a folder whose files answer the page's requests to the origins its
	// entry's allowedDomains lists: <Fixtures>/<host>/<path> (the port left out, a folder's
	// index.html). "" answers them all with 503 Service Unavailable. Either way nothing
	// reaches the network, and the requests are reported, not failed.
	Fixtures string

	// crashAtHandshake, for tests, crashes the renderer when the app's ui/initialize reaches
	// the host page: mid-render, whatever the machine's load (a timer after the navigation
	// started fired before the page had a renderer of its own on a busy machine, or after it
	// was done).
	crashAtHandshake func(ctx context.Context) error
}

// Call is a tool call: the tool's name and its arguments (a JSON object; empty means {}).
type Call struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// ParseCall reads TOOL=JSON (or TOOL alone, for no arguments).
func ParseCall(s string) (Call, error) {
	name, args, hasArgs := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if name == "" {
		return Call{}, fmt.Errorf("%q names no tool; write TOOL=JSON, such as greet={\"name\":\"Ada\"}", s)
	}
	if !hasArgs || strings.TrimSpace(args) == "" {
		return Call{Tool: name, Arguments: json.RawMessage("{}")}, nil
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(args), &obj); err != nil || obj == nil {
		why := "it is not a JSON object"
		if err != nil {
			why = err.Error()
		}
		return Call{}, fmt.Errorf("the arguments of %s are not a JSON object (%s): %s; quote them for the shell, such as %s='{\"name\":\"Ada\"}'", name, why, args, name)
	}
	return Call{Tool: name, Arguments: json.RawMessage(args)}, nil
}

// Severity of a problem: an error fails the page, a warning does not.
const (
	Error   = "error"
	Warning = "warning"
)

// Problem is something the page did that a host would see go wrong.
type Problem struct {
	Severity string `json:"severity"`
	// Kind is "exception", "console", "policy", "request", "handshake", "tools", "call",
	// "crash", "app" (what the app reported to its host), "router" (a router's not-found or
	// error page shown) or "entry" (a registry entry a host would not serve the page with).
	Kind string `json:"kind"`
	Text string `json:"message"`
	// Line and Column place it in the page when the browser says where (1-based).
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Source is that place in the author's file, through the build's source map, when the
	// page was rendered with one (RenderMapped) and the map covers it.
	Source *sourcemap.Position `json:"source,omitempty"`
}

// Tool is a tool the app listed.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// CallResult is what a call returned: the CallToolResult, or the JSON-RPC error.
type CallResult struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     string          `json:"error,omitempty"`
	// Text is the result's text content, joined.
	Text    string `json:"text"`
	IsError bool   `json:"isError"`
}

// Report is what one page did.
type Report struct {
	File string `json:"file"`
	// Handshake says the app sent ui/initialize and was answered; Initialized, that it then
	// sent ui/notifications/initialized.
	Handshake   bool `json:"handshake"`
	Initialized bool `json:"initialized"`
	// Initializes counts the ui/initialize requests the app sent (render answers each): one
	// client, one.
	Initializes int             `json:"initializes"`
	AppInfo     json.RawMessage `json:"appInfo,omitempty"`
	Tools       []Tool          `json:"tools"`
	Calls       []CallResult    `json:"calls"`
	// Path is the path the page was loaded at, never "/": a host frames the app at a URL of
	// its own, and so does render.
	Path string `json:"path"`
	// Requests are the requests the page attempted, each refused, sorted.
	Requests []string `json:"requests"`
	// Answered are the requests to origins the entry's allowedDomains lists, answered by
	// render without network (from Options.Fixtures, or 503), sorted: "GET URL → 503".
	Answered []string  `json:"answered"`
	Problems []Problem `json:"problems"`
	// Size is the content size the app last reported (ui/notifications/size-changed).
	Size *struct {
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	} `json:"size,omitempty"`
	// Text is what the app's frame shows once the page is judged: its document's rendered
	// text (innerText).
	Text string `json:"text"`
	// Screenshot is the PNG of the frame (not in JSON; the caller writes it).
	Screenshot []byte `json:"-"`
	// Millis is how long the page took, from navigation to the last call's answer.
	Millis int64 `json:"ms"`
}

// Failed reports whether the page has an error.
func (r *Report) Failed() bool {
	return slices.ContainsFunc(r.Problems, func(p Problem) bool { return p.Severity == Error })
}

// add records a problem once: a violation of the policy a page carries both as a header and
// as a <meta> is reported by each.
func (r *Report) add(sev, kind, text string, line, col int) {
	p := Problem{Severity: sev, Kind: kind, Text: text, Line: line, Column: col}
	if !slices.Contains(r.Problems, p) {
		r.Problems = append(r.Problems, p)
	}
}

// Renderer is a running Chromium and its proxy. Render may be called from one goroutine at a
// time.
type Renderer struct {
	opts     Options
	proxy    *proxy
	tmp      string
	browser  context.Context
	cancel   func()
	seq      int
	mu       sync.Mutex
	crashErr error

	// One tab shows every page in turn; watching is the watch of the page it shows.
	tab      context.Context
	closeTab func()
	watching atomic.Pointer[watch]
}

// tabFor returns the tab pages are shown in, opening and preparing it first when there is
// none (the first page, or the one after a crash): the watcher in its isolated world in every
// frame, the binding it reports through, the viewport, the theme.
func (r *Renderer) tabFor() (context.Context, error) {
	if r.tab != nil {
		return r.tab, nil
	}
	tab, closeTab := chromedp.NewContext(r.browser)
	fail := func(err error) (context.Context, error) {
		closeTab()
		return nil, r.gone(err)
	}
	if err := chromedp.Do(tab); err != nil {
		return fail(err)
	}
	if err := chromedp.Listen(tab, func(ev any) {
		if w := r.watching.Load(); w != nil {
			w.listen(ev)
		}
	}); err != nil {
		return fail(err)
	}
	if _, err := chromedp.Call(tab, runtime.AddBinding, runtime.AddBindingParams{Name: binding, ExecutionContextName: world}); err != nil {
		return fail(err)
	}
	if _, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: watcher, WorldName: world}); err != nil {
		return fail(err)
	}
	// The page watcher, in the main world: the binding it takes is added before it runs.
	if _, err := chromedp.Call(tab, runtime.AddBinding, runtime.AddBindingParams{Name: pageBinding}); err != nil {
		return fail(err)
	}
	if _, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: pageWatcher}); err != nil {
		return fail(err)
	}
	if err := chromedp.Do(tab, chromedp.EmulateViewport(int64(r.opts.Width), int64(r.opts.Height))); err != nil {
		return fail(err)
	}
	if err := emulateTheme(tab, r.opts.Theme); err != nil {
		return fail(err)
	}
	r.tab, r.closeTab = tab, closeTab
	return tab, nil
}

func (r *Renderer) dropTab() {
	if r.closeTab != nil {
		r.closeTab()
	}
	r.tab, r.closeTab = nil, nil
}

// Start launches Chromium. It returns an error wrapping chrome.ErrNotFound when there is none.
func Start(ctx context.Context, opts Options) (*Renderer, error) {
	if opts.Width <= 0 {
		opts.Width = 800
	}
	if opts.Height <= 0 {
		opts.Height = 600
	}
	if opts.Theme == "" {
		opts.Theme = "light"
	}
	if opts.Settle <= 0 {
		opts.Settle = 250 * time.Millisecond
	}
	exe, err := chrome.Find(opts.Chrome)
	if err != nil {
		return nil, err
	}
	p, err := newProxy()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "bundle-render-")
	if err != nil {
		p.close()
		return nil, err
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.WithoutCancel(ctx), chrome.Options(exe, tmp, p.addr(), true, true)...)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	r := &Renderer{opts: opts, proxy: p, tmp: tmp, browser: browser, cancel: func() { cancelBrowser(); cancelAlloc() }}
	if err := chromedp.Do(browser); err != nil {
		r.Close()
		return nil, fmt.Errorf("start %s: %w", exe, err)
	}
	return r, nil
}

// Close stops Chromium and the proxy and removes the profile.
func (r *Renderer) Close() {
	r.dropTab()
	// Quit as a user quits (Browser.close), so that Chromium removes what it keeps outside
	// the profile (its singleton socket's org.chromium.Chromium.* folder in the system's
	// temporary folder, left by every render when Chromium was only killed); then stop it,
	// whether it quit or not in the time given (a wedged Chromium does not hold Close).
	quit, stop := context.WithTimeout(r.browser, 10*time.Second)
	chromedp.Cancel(quit)
	stop()
	r.cancel()
	r.proxy.close()
	os.RemoveAll(r.tmp)
}

// origins returns the host's origin and the app's: the host on the first of the app's hosts
// (a wildcard's subdomain "render"), the app on its _meta.ui.domain when it has one. Without
// an entry, both are on render.test.
func origins(e *registry.Entry) (hostOrigin, appOrigin string) {
	hostOrigin, appOrigin = "https://host.render.test", "https://app.render.test"
	if e == nil {
		return
	}
	if len(e.Hosts) > 0 {
		hostOrigin = strings.Replace(e.Hosts[0], "://*.", "://render.", 1)
	}
	if d := e.Meta.UI.Domain; d != "" {
		appOrigin = "https://" + d
	}
	// The host page and the app never share an origin, whatever hosts and domain say: the
	// app could then reach into the host page and forge what render reads from it.
	for i := 2; appOrigin == hostOrigin; i++ {
		appOrigin = fmt.Sprintf("https://app-%d.render.test", i)
	}
	return
}

// timeout returns the time a page may take, and how it was set: Options.Timeout, else 10 s
// and 1 s for each 50 KB of the page (its scripts to parse and run) and 5 s for each call.
func (r *Renderer) timeout(page []byte) (time.Duration, string) {
	if r.opts.Timeout > 0 {
		return r.opts.Timeout, "the timeout given"
	}
	d := 10*time.Second + time.Duration(len(page))*time.Second/(50<<10) + time.Duration(len(r.opts.Calls))*5*time.Second
	return d, fmt.Sprintf("render's timeout for a %d KB page with %d %s; --timeout gives more", (len(page)+1023)/1024, len(r.opts.Calls), map[bool]string{true: "call", false: "calls"}[len(r.opts.Calls) == 1])
}

// Render opens page (read from file name) in a host frame and reports what it did. entry,
// when known, gives the origins the app expects, the display modes, and the headers the page
// is served with (host.Headers). The error is for a render that could not happen at all
// (Chromium gone); what went wrong in the page is in the Report.
func (r *Renderer) Render(ctx context.Context, name string, pg []byte, entry *registry.Entry) (*Report, error) {
	return r.RenderMapped(ctx, name, pg, entry, nil)
}

// RenderMapped is Render with the source map of the page's module script (the build's
// Result.SourceMap, or a written map read with sourcemap.NewPage): every problem the
// browser places in that script is placed in the author's file too (Problem.Source).
func (r *Renderer) RenderMapped(ctx context.Context, name string, pg []byte, entry *registry.Entry, sm *sourcemap.Page) (*Report, error) {
	rep, err := r.render(ctx, name, pg, entry)
	if err != nil || sm == nil {
		return rep, err
	}
	for i, p := range rep.Problems {
		if p.Line > 0 {
			if pos, ok := sm.Locate(p.Line, p.Column); ok {
				rep.Problems[i].Source = &pos
			}
		}
	}
	return rep, nil
}

func (r *Renderer) render(ctx context.Context, name string, pg []byte, entry *registry.Entry) (*Report, error) {
	r.mu.Lock()
	if r.crashErr != nil {
		err := r.crashErr
		r.mu.Unlock()
		return nil, err
	}
	r.seq++
	n := r.seq
	r.mu.Unlock()
	rep := &Report{File: name, Tools: []Tool{}, Calls: []CallResult{}, Requests: []string{}, Answered: []string{}, Problems: []Problem{}}

	hostOrigin, appOrigin := origins(entry)
	base := filepath.Base(name)
	appPath := fmt.Sprintf("/%d/%s", n, url.PathEscape(base))
	rep.Path = appPath
	hostPath := fmt.Sprintf("/%d/", n)
	appHeader := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	modes := []string{"inline"}
	if entry != nil {
		if h, err := host.Headers(*entry); err != nil {
			rep.add(Error, "entry", "a host would not serve the page: "+err.Error(), 0, 0)
		} else {
			appHeader = h
		}
		if len(entry.DisplayModes) > 0 {
			modes = entry.DisplayModes
		}
	}
	calls := r.opts.Calls
	if calls == nil {
		calls = []Call{}
	}
	timeout, budget := r.timeout(pg)
	cfg, _ := json.Marshal(map[string]any{"app": appOrigin + appPath, "appOrigin": appOrigin, "theme": r.opts.Theme,
		"displayModes": modes, "calls": calls, "width": r.opts.Width, "height": r.opts.Height,
		"callTimeout": timeout.Milliseconds()})
	hp := strings.Replace(hostPage, "CONFIG", strings.ReplaceAll(string(cfg), "</", `<\/`), 1)
	r.proxy.serve(hostOrigin, hostPath, []byte(hp), http.Header{"Content-Type": {"text/html; charset=utf-8"}})
	r.proxy.serve(appOrigin, appPath, pg, appHeader)
	defer r.proxy.forget(hostOrigin, hostPath)
	defer r.proxy.forget(appOrigin, appPath)
	key := strconv.Itoa(n)

	tab, err := r.tabFor()
	if err != nil {
		return nil, err
	}
	w := &watch{rep: rep, appURL: appOrigin + appPath, events: make(chan event, 256), crashed: make(chan struct{}),
		tab: chromedp.FromContext(tab).Target.TargetID, calls: len(calls), webrtc: entry != nil && entry.WebRTC}
	if r.opts.crashAtHandshake != nil {
		w.crash = func() { r.opts.crashAtHandshake(tab) }
	}
	// Every window the page opens is watched as the page is, and closed with it. Its session
	// runs inside the tab's (chrome.Attach): chromedp's own Target for it races.
	var watched []*chrome.Session
	w.attach = func(id target.ID) {
		actx, cancelAttach := context.WithTimeout(tab, 5*time.Second)
		defer cancelAttach()
		s, err := chrome.Attach(actx, id)
		if err != nil {
			return
		}
		watched = append(watched, s)
		exceptions, console := cdp.Events(tab, s, runtime.ExceptionThrown), cdp.Events(tab, s, runtime.ConsoleAPICalled)
		go func() {
			for ev, err := range exceptions {
				if err != nil {
					return
				}
				w.listen(&ev)
			}
		}()
		go func() {
			for ev, err := range console {
				if err != nil {
					return
				}
				w.listen(&ev)
			}
		}()
		cdp.Call(actx, s, runtime.Enable, cdp.Empty{})
	}
	w.touch()
	r.watching.Store(w)
	defer r.watching.Store(nil)

	start := time.Now()
	var allow func(string) bool
	if entry != nil && len(entry.AllowedDomains) > 0 {
		allow = entry.Connects
	}
	r.proxy.startRecording(key, allow, r.opts.Fixtures)
	deadline, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	go func() {
		if err := chromedp.Do(tab, chromedp.Navigate(hostOrigin+hostPath)); err != nil && deadline.Err() == nil {
			w.send(event{Kind: "navigate-error", Text: err.Error()})
		}
	}()
	done := w.run(deadline)
	rep.Millis = time.Since(start).Milliseconds()
	if done && !w.quiet(deadline, r.opts.Settle, r.proxy.lastActivity) && ctx.Err() == nil && !w.isCrashed() {
		// Judged once quiet, so that what the page does late is counted (a request on a
		// timer) and shown (what React reveals after a Suspense fallback): still busy at the
		// timeout, it is judged as it is.
		rep.add(Warning, "busy", fmt.Sprintf("the page was still busy (%d of its timers due within 3 s) when render judged it, %s after it started (%s)", w.timers.Load(), timeout.Round(100*time.Millisecond), budget), 0, 0)
	}
	if !w.isCrashed() && ctx.Err() == nil {
		r.notFound(tab, rep)
	}
	if w.isCrashed() {
		rep.add(Error, "crash", "Chromium's renderer crashed while showing the page (out of memory, or a browser bug); the page did not finish", 0, 0)
	} else if r.opts.Screenshot {
		shotCtx, cancelShot := context.WithTimeout(tab, 10*time.Second)
		png, err := chromedp.Run(shotCtx, chromedp.CaptureScreenshot())
		cancelShot()
		if err != nil {
			rep.add(Error, "crash", "the screenshot failed: "+err.Error(), 0, 0)
		}
		rep.Screenshot = png
	}
	if err := r.alive(); err != nil {
		rep.add(Error, "crash", "Chromium exited while showing the page: "+err.Error(), 0, 0)
	}
	for _, id := range w.targets() {
		closing, cancelClose := context.WithTimeout(r.browser, 5*time.Second)
		chromedp.CallBrowser(closing, target.CloseTarget, target.CloseTargetParams{TargetID: id})
		cancelClose()
	}
	for _, s := range watched {
		closing, cancelClose := context.WithTimeout(tab, 5*time.Second)
		s.Close(closing)
		cancelClose()
	}
	if w.isCrashed() {
		r.dropTab()
	} else {
		// Leave the page, so that nothing it does late is counted for the next one.
		leave, cancelLeave := context.WithTimeout(tab, 5*time.Second)
		if err := chromedp.Do(leave, chromedp.Navigate("about:blank")); err != nil {
			r.dropTab()
		}
		cancelLeave()
	}
	refused, answered := r.proxy.take(key)
	rep.Requests = append(rep.Requests, refused...)
	slices.Sort(rep.Requests)
	for _, q := range rep.Requests {
		rep.add(Error, "request", "the page requested "+q+"; a bundle must load nothing (render refused it)", 0, 0)
	}
	rep.Answered = append(rep.Answered, answered...)
	slices.Sort(rep.Answered)
	for _, q := range rep.Answered {
		how := "with 503, as --fixtures DIR would answer from DIR/<host>/<path>"
		if r.opts.Fixtures != "" {
			how = "from the fixtures folder, or 503 where it has no file"
		}
		rep.add(Warning, "request", "the page requested "+q+": its entry allows that origin (allowedDomains), and render answered without network, "+how, 0, 0)
	}
	w.finish(done, timeout, budget)
	return rep, nil
}

// gone records that the browser can no longer render, and returns the error.
func (r *Renderer) gone(err error) error {
	if aerr := r.alive(); aerr != nil {
		err = fmt.Errorf("Chromium exited: %w", aerr)
		r.mu.Lock()
		r.crashErr = err
		r.mu.Unlock()
	}
	return err
}

// alive returns an error when the browser process has gone away.
func (r *Renderer) alive() error {
	ctx, cancel := context.WithTimeout(r.browser, 5*time.Second)
	defer cancel()
	if _, err := chromedp.Targets(ctx); err != nil {
		if r.browser.Err() != nil {
			return r.browser.Err()
		}
		return err
	}
	return nil
}

// emulateTheme makes prefers-color-scheme match the host's theme.
func emulateTheme(ctx context.Context, theme string) error {
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}}})
	return err
}
