package render

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"

	"github.com/miniapp/bundle/internal/v8stack"
)

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
	// an RTCPeerConnection's ICE servers; a target the page opened
	Servers []string  `json:"-"`
	Target  target.ID `json:"-"`
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
	// tab is the target the page is shown in; calls, how many tool calls render makes;
	// webrtc, that the page's entry lets it open peer connections.
	tab    target.ID
	calls  int
	webrtc bool

	handshake, initialized, listed bool

	// crash, for tests, crashes the renderer at the app's handshake (Options.crashAtHandshake).
	crash func()

	// timers is how many of the app's timers are due within timerHorizon (pageWatcher);
	// last, when the page last did something (an event), in Unix nanoseconds.
	timers atomic.Int64
	last   atomic.Int64

	mu sync.Mutex
	// opened are the targets the page opened (popups, window.open, and theirs), in order;
	// attach starts watching one (run by handle, outside the browser's listener).
	opened []target.ID
	attach func(target.ID)
}

// touch records that the page did something now.
func (w *watch) touch() { w.last.Store(time.Now().UnixNano()) }

// openedBy reports whether id is the page's tab or a target the page opened.
func (w *watch) openedBy(id target.ID) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return id == w.tab || slices.Contains(w.opened, id)
}

// targets returns the targets the page opened.
func (w *watch) targets() []target.ID {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.opened)
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
		switch ev.Name {
		case binding:
			var e event
			if json.Unmarshal([]byte(ev.Payload), &e) == nil {
				w.send(e)
			}
		case pageBinding:
			// Only what the page watcher says: the page cannot reach the binding, and what it
			// could say through it would fail the page, never pass it.
			var e struct {
				Kind    string   `json:"kind"`
				Text    string   `json:"text"`
				N       int64    `json:"n"`
				Servers []string `json:"servers"`
			}
			if json.Unmarshal([]byte(ev.Payload), &e) != nil {
				return
			}
			switch e.Kind {
			case "timers":
				w.timers.Store(e.N)
				w.touch()
			case "webrtc":
				w.send(event{Kind: "webrtc", Text: e.Text, Servers: e.Servers})
			}
		}
	case *target.EventTargetCreated:
		info := ev.TargetInfo
		if info == nil || info.OpenerID == "" || info.TargetID == w.tab || !w.openedBy(info.OpenerID) {
			return
		}
		w.mu.Lock()
		if !slices.Contains(w.opened, info.TargetID) {
			w.opened = append(w.opened, info.TargetID)
		}
		w.mu.Unlock()
		w.send(event{Kind: "popup", Text: info.URL, Target: info.TargetID})
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
		// An Error logged (a framework's handler logs what a component threw: Vue's) is
		// placed where it was thrown, as DevTools links it: its stack's first frame in the
		// page, not the framework's console.error.
		for _, a := range ev.Args {
			if a.Subtype != runtime.RemoteObjectSubtypeError {
				continue
			}
			if url, line, col, ok := firstFrameIn(a.Description, w.appURL); ok {
				e.Source, e.Line, e.Column = url, line, col
			}
			break
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
			if e.Kind == "initialize" && w.crash != nil {
				// What the page sent before the crash is not handled after it: a "done"
				// already sent would end the render as though nothing happened. Page.crash
				// gets no answer from the renderer it crashes: it is not waited for.
				go w.crash()
				select {
				case <-w.crashed:
				case <-ctx.Done():
				}
				return false
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

// quiet handles events until the page has done nothing for settle (no event, no request
// since lastRequest, none of the app's timers due within timerHorizon) or ctx ends; it reports
// whether the page went quiet.
func (w *watch) quiet(ctx context.Context, settle time.Duration, lastRequest func() int64) bool {
	tick := time.NewTicker(max(settle/5, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-w.crashed:
			return false
		case e := <-w.events:
			w.handle(e)
		case <-tick.C:
			if w.timers.Load() == 0 && time.Since(time.Unix(0, max(w.last.Load(), lastRequest()))) >= settle {
				return true
			}
		}
	}
}

// handle applies one event to the report; it returns true at "done".
func (w *watch) handle(e event) bool {
	w.touch()
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
		rep.Initializes++
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
			text += fmt.Sprintf("; the page made a relative URL (%s) at run time, and a bundle is one file with nothing beside it: put the file in the app's public folder (or anywhere in the app folder) and import it in a script by its path from the app folder (import url from \"/%s\", which inlines it, whichever folder the script is in), then use that URL", rel, rel)
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
	case "webrtc":
		servers := ""
		if len(e.Servers) > 0 {
			servers = " with the ICE servers " + strings.Join(e.Servers, ", ")
		}
		if w.webrtc {
			// The app said so (webrtc = true): hosts know, and render gives it no network.
			rep.add(Warning, "webrtc", fmt.Sprintf("the page created an %s%s, as its entry says it may (webrtc: true); render gives WebRTC no network, so its connections were not tried", e.Text, servers), 0, 0)
			break
		}
		rep.add(Error, "webrtc", fmt.Sprintf("the page created an %s%s: WebRTC reaches the network outside any policy a page carries (STUN over UDP, DNS for any name), so render refuses it; a bundle connects to nothing unless its manifest says webrtc = true", e.Text, servers), 0, 0)
	case "popup":
		if w.attach != nil {
			w.attach(e.Target)
		}
		where := e.Text
		if where == "" {
			where = "about:blank"
		}
		rep.add(Warning, "popup", fmt.Sprintf("the page opened a window at %s; render watched it and closed it with the page, and counts its requests as the page's (in a host, open a link with openLink, which asks the host: ui/open-link)", where), 0, 0)
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

// finish adds what did not happen by the deadline: the step the page was at, and the
// timeout, described by budget (how it was set, and how to give more).
func (w *watch) finish(done bool, timeout time.Duration, budget string) {
	w.dedupe()
	if done || w.isCrashed() {
		return
	}
	in := fmt.Sprintf("in %s (%s)", timeout.Round(100*time.Millisecond), budget)
	switch {
	case !w.handshake:
		w.rep.add(Error, "handshake", "no handshake: render waited for the page's ui/initialize and got none "+in+"; a page built by bundle build carries the SDK that sends it (was it built with the SDK, and do its hosts allow this host?)", 0, 0)
	case !w.initialized:
		w.rep.add(Error, "handshake", "render answered the handshake and waited for ui/notifications/initialized, which the app did not send "+in+" (does a script block the page's load event?)", 0, 0)
	case !w.listed:
		w.rep.add(Error, "tools", "render waited for the app's answer to tools/list, which did not come "+in, 0, 0)
	default:
		w.rep.add(Error, "call", fmt.Sprintf("render waited for the answer to call %d of %d, which did not come %s", len(w.rep.Calls)+1, w.calls, in), 0, 0)
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

// firstFrameIn returns the place of the first frame of V8's stack text (an Error's stack, as
// Error.prototype.stack gives it) whose script is the one at url, read as V8 writes a frame
// (v8stack); line and column are 1-based, as V8 writes them. A frame of eval'd code ("at eval
// (eval at …)", its script "<anonymous>") or of another script is passed over.
func firstFrameIn(stack, url string) (string, int, int, bool) {
	for l := range strings.SplitSeq(stack, "\n") {
		f, ok := v8stack.ParseFrame(l)
		if ok && f.Place.Script == url && f.Place.Line > 0 {
			return url, f.Place.Line, f.Place.Column, true
		}
	}
	return "", 0, 0, false
}
