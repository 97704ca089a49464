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

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/miniapp/bundle/host"
	"github.com/miniapp/bundle/registry"
	"github.com/miniapp/bundle/render/chrome"
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
	// Timeout bounds each page: its handshake, tool list and calls (default 10 s).
	Timeout time.Duration
	// Settle is how long to keep watching once the calls are done (default 200 ms, 600 ms
	// with a screenshot), for what the page does late: React 19 reveals what a Suspense
	// boundary waited for at least 300 ms after its fallback, which a screenshot would show.
	Settle time.Duration
	// Screenshot asks for a PNG of each page.
	Screenshot bool

	// afterNavigate runs once the host page is loading (tests crash the renderer here).
	afterNavigate func(ctx context.Context) error
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
	// "crash", "app" (what the app reported to its host) or "entry" (a registry entry a host
	// would not serve the page with).
	Kind string `json:"kind"`
	Text string `json:"message"`
	// Line and Column place it in the page when the browser says where (1-based).
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
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
	Handshake   bool            `json:"handshake"`
	Initialized bool            `json:"initialized"`
	AppInfo     json.RawMessage `json:"appInfo,omitempty"`
	Tools       []Tool          `json:"tools"`
	Calls       []CallResult    `json:"calls"`
	// Requests are the requests the page attempted, each refused, sorted.
	Requests []string  `json:"requests"`
	Problems []Problem `json:"problems"`
	// Size is the content size the app last reported (ui/notifications/size-changed).
	Size *struct {
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	} `json:"size,omitempty"`
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
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.Settle <= 0 {
		opts.Settle = 200 * time.Millisecond
		if opts.Screenshot {
			opts.Settle = 600 * time.Millisecond
		}
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
	if appOrigin == hostOrigin {
		appOrigin = "https://app.render.test"
	}
	return
}

// Render opens page (read from file name) in a host frame and reports what it did. entry,
// when known, gives the origins the app expects, the display modes, and the headers the page
// is served with (host.Headers). The error is for a render that could not happen at all
// (Chromium gone); what went wrong in the page is in the Report.
func (r *Renderer) Render(ctx context.Context, name string, pg []byte, entry *registry.Entry) (*Report, error) {
	r.mu.Lock()
	if r.crashErr != nil {
		err := r.crashErr
		r.mu.Unlock()
		return nil, err
	}
	r.seq++
	n := r.seq
	r.mu.Unlock()
	rep := &Report{File: name, Tools: []Tool{}, Calls: []CallResult{}, Requests: []string{}, Problems: []Problem{}}

	hostOrigin, appOrigin := origins(entry)
	base := filepath.Base(name)
	appPath := fmt.Sprintf("/%d/%s", n, url.PathEscape(base))
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
	cfg, _ := json.Marshal(map[string]any{"app": appOrigin + appPath, "appOrigin": appOrigin, "theme": r.opts.Theme,
		"displayModes": modes, "calls": calls, "width": r.opts.Width, "height": r.opts.Height,
		"callTimeout": r.opts.Timeout.Milliseconds()})
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
	w := &watch{rep: rep, appURL: appOrigin + appPath, events: make(chan event, 256), crashed: make(chan struct{})}
	r.watching.Store(w)
	defer r.watching.Store(nil)

	start := time.Now()
	r.proxy.startRecording(key)
	deadline, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	go func() {
		if err := chromedp.Do(tab, chromedp.Navigate(hostOrigin+hostPath)); err != nil && deadline.Err() == nil {
			w.send(event{Kind: "navigate-error", Text: err.Error()})
		}
	}()
	if r.opts.afterNavigate != nil {
		time.AfterFunc(200*time.Millisecond, func() { r.opts.afterNavigate(tab) })
	}
	done := w.run(deadline)
	rep.Millis = time.Since(start).Milliseconds()
	if !w.isCrashed() && ctx.Err() == nil {
		// Keep watching a moment for what the page does late.
		settle, cancelSettle := context.WithTimeout(ctx, r.opts.Settle)
		w.run(settle)
		cancelSettle()
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
	rep.Requests = append(rep.Requests, r.proxy.take(key)...)
	slices.Sort(rep.Requests)
	for _, q := range rep.Requests {
		rep.add(Error, "request", "the page requested "+q+"; a bundle must load nothing (render refused it)", 0, 0)
	}
	w.finish(done, r.opts.Timeout)
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

// event is a report from the host page or the watcher.
type event struct {
	Kind   string          `json:"kind"`
	Text   string          `json:"text"`
	Params json.RawMessage `json:"params"`
	// a violation
	Directive string `json:"directive"`
	Blocked   string `json:"blocked"`
	Source    string `json:"source"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	Sample    string `json:"sample"`
	Top       bool   `json:"top"`
	// a response
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Method    string          `json:"method"`
	Response  json.RawMessage `json:"response"`
}

// watch collects what one page does.
type watch struct {
	rep     *Report
	appURL  string
	events  chan event
	crashed chan struct{}
	once    sync.Once

	handshake, initialized, listed bool
}

func (w *watch) send(ev event) {
	select {
	case w.events <- ev:
	default: // a page that floods is reported by what came first
	}
}

func (w *watch) isCrashed() bool {
	select {
	case <-w.crashed:
		return true
	default:
		return false
	}
}

// listen turns the browser's events into events and problems.
func (w *watch) listen(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventBindingCalled:
		if ev.Name != binding {
			return
		}
		var e event
		if json.Unmarshal([]byte(ev.Payload), &e) == nil {
			w.send(e)
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text += " " + firstLine(d.Exception.Description)
		}
		w.send(event{Kind: "exception", Text: text, Source: d.URL, Line: int(d.LineNumber) + 1, Column: int(d.ColumnNumber) + 1})
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeWarning {
			return
		}
		var parts []string
		for _, a := range ev.Args {
			if a.Value != nil {
				var s string
				if json.Unmarshal(a.Value, &s) != nil {
					s = string(a.Value)
				}
				parts = append(parts, s)
			} else {
				parts = append(parts, a.Description)
			}
		}
		e := event{Kind: "console-" + string(ev.Type), Text: strings.Join(parts, " ")}
		if ev.StackTrace != nil && len(ev.StackTrace.CallFrames) > 0 {
			f := ev.StackTrace.CallFrames[0]
			e.Source, e.Line, e.Column = f.URL, int(f.LineNumber)+1, int(f.ColumnNumber)+1
		}
		w.send(e)
	case *inspector.EventTargetCrashed:
		w.once.Do(func() { close(w.crashed) })
	}
}

// run handles events until the host page says it is done, the page crashes, or ctx ends. It
// returns whether the page got through its script.
func (w *watch) run(ctx context.Context) bool {
	for {
		select {
		case <-ctx.Done():
			return false
		case <-w.crashed:
			return false
		case e := <-w.events:
			if w.handle(e) {
				return true
			}
		}
	}
}

// besidePage returns the path of blocked relative to the page's folder when it is a URL on
// the page's own origin: a name the page made by itself at run time (Leaflet's marker icons
// are found beside the stylesheet), which a bundle cannot serve.
func (w *watch) besidePage(blocked string) (string, bool) {
	dir := w.appURL[:strings.LastIndexByte(w.appURL, '/')+1]
	rel, ok := strings.CutPrefix(blocked, dir)
	if !ok || rel == "" || blocked == w.appURL {
		return "", false
	}
	rel, _, _ = strings.Cut(rel, "?")
	rel, _, _ = strings.Cut(rel, "#")
	return rel, rel != ""
}

// handle applies one event to the report; it returns true at "done".
func (w *watch) handle(e event) bool {
	rep := w.rep
	place := func() (int, int) {
		if e.Source == w.appURL {
			return e.Line, e.Column
		}
		return 0, 0
	}
	switch e.Kind {
	case "initialize":
		w.handshake = true
		rep.Handshake = true
		var p struct {
			AppInfo json.RawMessage `json:"appInfo"`
		}
		json.Unmarshal(e.Params, &p)
		rep.AppInfo = p.AppInfo
	case "initialized":
		w.initialized = true
		rep.Initialized = true
	case "tools":
		w.listed = true
		var resp struct {
			Result struct {
				Tools []Tool `json:"tools"`
			} `json:"result"`
			Error   *rpcError `json:"error"`
			Timeout bool      `json:"timeout"`
		}
		json.Unmarshal(e.Response, &resp)
		switch {
		case resp.Timeout:
			rep.add(Error, "tools", "the app did not answer tools/list", 0, 0)
		case resp.Error != nil:
			rep.add(Error, "tools", "tools/list failed: "+resp.Error.Message, 0, 0)
		default:
			rep.Tools = resp.Result.Tools // the last list (the app may register tools late)
		}
	case "call":
		w.call(e)
	case "done":
		return true
	case "violation":
		line, col := place()
		what := e.Blocked
		if what == "" || what == "inline" {
			what = "an inline " + strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(e.Directive, "-elem"), "-attr"), "-src")
		}
		text := fmt.Sprintf("the policy's %s blocked %s", e.Directive, what)
		if e.Sample != "" {
			text += fmt.Sprintf(" (%q)", e.Sample)
		}
		if !e.Top && (e.Blocked == "eval") {
			// A probe the page catches (zod 4 tries new Function once at load) is not a
			// failure; one it does not catch is also an uncaught exception.
			rep.add(Warning, "policy", text+caughtEval+"; set eval = true in the manifest if it needs them", line, col)
			return false
		}
		if rel, ok := w.besidePage(e.Blocked); ok {
			text += fmt.Sprintf("; the page made a relative URL (%s) at run time, and a bundle is one file with nothing beside it: import the file in a script (import url from \"./%s\", which inlines it) and use that URL", rel, rel)
		}
		rep.add(Error, "policy", text, line, col)
	case "exception":
		line, col := place()
		text := e.Text
		if strings.Contains(text, "EvalError") && strings.Contains(text, "'unsafe-eval'") {
			text += evalFix
		}
		rep.add(Error, "exception", text, line, col)
	case "console-error":
		line, col := place()
		rep.add(Error, "console", "console.error: "+e.Text, line, col)
	case "console-warning":
		line, col := place()
		rep.add(Warning, "console", "console.warn: "+e.Text, line, col)
	case "apperror":
		var p struct{ Message string }
		json.Unmarshal(e.Params, &p)
		rep.add(Error, "app", appErrorPrefix+strings.TrimSpace(p.Message), 0, 0)
	case "log":
		var p struct {
			Level  string          `json:"level"`
			Logger string          `json:"logger"`
			Data   json.RawMessage `json:"data"`
		}
		json.Unmarshal(e.Params, &p)
		switch p.Level {
		case "error", "critical", "alert", "emergency", "warning":
			rep.add(Warning, "app", fmt.Sprintf("the app logged (%s%s): %s", p.Level, map[bool]string{true: ", " + p.Logger}[p.Logger != ""], clamp(string(p.Data), 300)), 0, 0)
		}
	case "server":
		var p struct {
			Name string `json:"name"`
			URI  string `json:"uri"`
		}
		json.Unmarshal(e.Params, &p)
		rep.add(Warning, "app", fmt.Sprintf("the app sent %s %s%s to its MCP server; render has none and answered with an error", e.Method, p.Name, p.URI), 0, 0)
	case "size":
		var s struct {
			Width  float64 `json:"width"`
			Height float64 `json:"height"`
		}
		if json.Unmarshal(e.Params, &s) == nil {
			rep.Size = &s
		}
	case "oddity":
		rep.add(Warning, "app", e.Text, 0, 0)
	case "navigate-error":
		rep.add(Error, "crash", "the host page did not load: "+e.Text, 0, 0)
	}
	return false
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (w *watch) call(e event) {
	var resp struct {
		Result  json.RawMessage `json:"result"`
		Error   *rpcError       `json:"error"`
		Timeout bool            `json:"timeout"`
	}
	json.Unmarshal(e.Response, &resp)
	c := CallResult{Tool: e.Tool, Arguments: e.Arguments, Result: resp.Result}
	switch {
	case resp.Timeout:
		c.Error = "no answer"
		w.rep.add(Error, "call", fmt.Sprintf("%s: the app did not answer tools/call", e.Tool), 0, 0)
	case resp.Error != nil:
		c.Error = resp.Error.Message
		names := make([]string, len(w.rep.Tools))
		for i, t := range w.rep.Tools {
			names[i] = t.Name
		}
		w.rep.add(Error, "call", fmt.Sprintf("%s: %s (tools: %s)", e.Tool, resp.Error.Message, strings.Join(names, ", ")), 0, 0)
	default:
		var res struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		}
		json.Unmarshal(resp.Result, &res)
		var parts []string
		for _, b := range res.Content {
			if b.Type == "text" {
				parts = append(parts, b.Text)
			}
		}
		c.Text, c.IsError = strings.Join(parts, "\n"), res.IsError
		if res.IsError {
			w.rep.add(Error, "call", fmt.Sprintf("%s returned an error: %s", e.Tool, clamp(c.Text, 300)), 0, 0)
		}
	}
	w.rep.Calls = append(w.rep.Calls, c)
}

const (
	appErrorPrefix = "the app reported an error: "
	caughtEval     = ": the page tried eval or new Function and caught the refusal"
	// evalFix says what to do about an eval or new Function the policy refused and the page
	// did not catch.
	evalFix = " (the page runs eval or new Function: set eval = true in the manifest, whose policy then allows 'unsafe-eval' and whose registry entry says so, or use a build of the library that evaluates no strings, as Alpine's @alpinejs/csp)"
)

// dedupe drops what another problem already says, whatever order the browser's events came
// in: an eval refusal the page did not catch (an uncaught EvalError at the same place) is not
// a caught probe, and the error the SDK reports to its host for an uncaught exception is that
// exception.
func (w *watch) dedupe() {
	var exceptions []Problem
	for _, p := range w.rep.Problems {
		if p.Kind == "exception" {
			exceptions = append(exceptions, p)
		}
	}
	norm := func(s string) string {
		s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "Uncaught "))
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[:i]
		}
		return clamp(s, 60)
	}
	w.rep.Problems = slices.DeleteFunc(w.rep.Problems, func(p Problem) bool {
		for _, x := range exceptions {
			switch {
			case p.Kind == "policy" && strings.Contains(p.Text, caughtEval) && strings.Contains(x.Text, "EvalError") && x.Line == p.Line && x.Column == p.Column:
				return true
			case p.Kind == "app" && strings.HasPrefix(p.Text, appErrorPrefix) && norm(strings.TrimPrefix(p.Text, appErrorPrefix)) == norm(strings.TrimPrefix(x.Text, "Uncaught ")):
				return true
			}
		}
		return false
	})
}

// finish adds what did not happen by the deadline.
func (w *watch) finish(done bool, timeout time.Duration) {
	w.dedupe()
	if done || w.isCrashed() {
		return
	}
	switch {
	case !w.handshake:
		w.rep.add(Error, "handshake", fmt.Sprintf("no handshake: the page sent no ui/initialize in %s; a page built by bundle build carries the SDK that sends it (was it built with the SDK, and do its hosts allow this host?)", timeout), 0, 0)
	case !w.initialized:
		w.rep.add(Error, "handshake", fmt.Sprintf("the app answered the handshake but sent no ui/notifications/initialized in %s (does a script block the page's load event?)", timeout), 0, 0)
	case !w.listed:
		w.rep.add(Error, "tools", fmt.Sprintf("the app did not answer tools/list in %s", timeout), 0, 0)
	default:
		w.rep.add(Error, "call", fmt.Sprintf("the tool calls did not finish in %s", timeout), 0, 0)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func clamp(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
