// Package dev is bundle dev: it builds an app with the same pipeline as bundle build, rebuilds
// it when a file changes (fsnotify events, debounced), and serves it framed in a host harness:
// the project's reference host for sdk/PROTOCOL.md, in the browser, on the author's machine.
//
// The harness listens on http://127.0.0.1:PORT and frames the app from http://localhost:PORT2,
// another origin, served with the headers a real host uses (its policy with frame-ancestors
// naming the harness, COEP credentialless, CORP cross-origin). Both listen on loopback only,
// answer 403 to a request whose Host is not a loopback name with their port (DNS rebinding),
// and time out requests and idle connections. A rebuild reloads the frame; a failed one shows
// its diagnostics over it and in the terminal.
package dev

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/host"
	"github.com/miniapp/bundle/pipeline"
	"github.com/miniapp/bundle/sourcemap"
)

// Options configures Run.
type Options struct {
	// Port is the harness's port (0: any free one); the app is served on the next one. A
	// port that is taken moves each server on to the next free port, as Vite does.
	Port int
	// StrictPort makes a taken port an error (ErrPortInUse) instead: the harness on Port and
	// the app on Port+1, or neither.
	StrictPort bool
	// Log receives what the terminal shows: each build's result and diagnostics.
	Log io.Writer
	// Listeners are the servers' listeners, from Listen; nil: Run calls Listen with Port and
	// StrictPort. A process that fences itself listens first (bundle dev does).
	Listeners *Listeners
	// Ready is called once both servers listen, with the harness's URL, before the first
	// build: the harness shows the build's progress.
	Ready func(harnessURL string)
}

// Build is the state of the last build, as the harness receives it.
type Build struct {
	Version int `json:"version"`
	// Building is set on the state before the first build ends.
	Building    bool   `json:"building,omitempty"`
	OK          bool   `json:"ok"`
	Bytes       int    `json:"bytes"`
	MaxBytes    int    `json:"maxBytes"`
	SHA256      string `json:"sha256"`
	Diagnostics string `json:"diagnostics"`
	Millis      int64  `json:"ms"`
	// Styles, on a build whose page differs from the one of version Base only in the text of
	// its <style> elements, are those texts: a frame showing Base takes them without
	// reloading, as Vite's CSS hot update does. Otherwise empty, and the frame reloads.
	Styles []StyleEdit `json:"styles,omitempty"`
	Base   int         `json:"base,omitempty"`
	// Same is set on a build whose page is the bytes of Base's: nothing to show.
	Same bool `json:"same,omitempty"`
}

// ErrPortInUse is what a taken port is (errors.Is) with StrictPort, or when no port is free.
var ErrPortInUse = errors.New("port in use")

// portError says which port is taken and what to do; it is ErrPortInUse.
type portError string

func (e portError) Error() string        { return string(e) }
func (e portError) Is(target error) bool { return target == ErrPortInUse }

type server struct {
	dir         string
	opts        Options
	mu          sync.Mutex
	page        []byte
	pageVersion int // the build that made page
	// smap is page's source map, made when an error is first placed (see stack); mapSession
	// keeps the contexts of the builds that make it, under mapMu.
	smap                     *sourcemap.Page
	mapMu                    sync.Mutex
	mapSession               *pipeline.Session
	header                   http.Header
	state                    Build
	subs                     map[chan Build]bool
	harnessOrigin, appOrigin string
	// session keeps esbuild's incremental contexts between rebuilds.
	session *pipeline.Session
	// lastLogged is the warnings of the last build that built, as the terminal last showed them.
	lastLogged string
	// cuts are the served page's cuts for styleEdits, with its scripts' texts (0) and
	// without (1), once read; under mu.
	cuts [2]*pageCut
}

// cut returns the served page cut for styleEdits, with its scripts' texts (i = 0) or without
// (1), reading it the first time. s.mu is held.
func (s *server) cut(i int) *pageCut {
	if s.cuts[i] == nil {
		s.cuts[i] = cutOf(s.page, i == 1)
	}
	return s.cuts[i]
}

// Run serves the app in dir until ctx ends. It listens, calls Ready, and then builds, so that
// the harness's URL is known at once; the harness shows the first build when it ends.
func Run(ctx context.Context, dir string, opts Options) error {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	ls := opts.Listeners
	if ls == nil {
		var err error
		if ls, err = Listen(opts.Port, opts.StrictPort, opts.Log); err != nil {
			return err
		}
	}
	hl, al := ls.harness, ls.app
	s := &server{dir: dir, opts: opts, subs: map[chan Build]bool{}, session: pipeline.NewSession(),
		state:         Build{Building: true},
		harnessOrigin: "http://" + hl.Addr().String(),
		appOrigin:     fmt.Sprintf("http://localhost:%d", al.Addr().(*net.TCPAddr).Port)}
	defer s.session.Close()
	defer func() {
		s.mapMu.Lock()
		defer s.mapMu.Unlock()
		if s.mapSession != nil {
			s.mapSession.Close()
		}
	}()

	// Watched before the first build, so that an edit made while it runs builds again.
	w, err := fsnotify.NewWatcher()
	if err != nil {
		hl.Close()
		al.Close()
		return err
	}
	defer w.Close()
	if err := s.watch(w, s.dir); err != nil {
		hl.Close()
		al.Close()
		return err
	}
	hs := newServer(loopbackOnly(hl.Addr(), http.HandlerFunc(s.harness)))
	as := newServer(loopbackOnly(al.Addr(), http.HandlerFunc(s.app)))
	go hs.Serve(hl)
	go as.Serve(al)
	if opts.Ready != nil {
		opts.Ready(s.harnessOrigin + "/")
	}
	defer func() {
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		s.closeSubs()
		hs.Shutdown(shut)
		as.Shutdown(shut)
	}()
	var timer *time.Timer
	changed := make(chan struct{}, 1)
	changed <- struct{}{} // the first build
	// paths are the files changed since the last build began.
	paths := map[string]bool{}
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if ignored(s.dir, ev.Name) {
				continue
			}
			paths[ev.Name] = true
			if ev.Op&fsnotify.Create != 0 {
				if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
					if err := s.watch(w, ev.Name); err != nil {
						fmt.Fprintf(opts.Log, "bundle dev: watching %s: %v\n", ev.Name, err)
					}
				}
			}
			// Editors write a file in several steps: build once they are done.
			if timer != nil {
				timer.Stop()
			}
			timer = time.AfterFunc(30*time.Millisecond, func() {
				select {
				case changed <- struct{}{}:
				default:
				}
			})
		case <-changed:
			p := paths
			paths = map[string]bool{}
			s.rebuild(ctx, p)
		case err, ok := <-w.Errors:
			if ok {
				fmt.Fprintf(opts.Log, "bundle dev: watching: %v\n", err)
			}
		}
	}
}

// Listeners are the two servers' listeners, open before Run.
type Listeners struct{ harness, app net.Listener }

// Close closes both; Run closes them itself.
func (l *Listeners) Close() {
	l.harness.Close()
	l.app.Close()
}

// Listen opens the harness's listener on 127.0.0.1:port and the app's on localhost at the
// next port. A taken port moves a server on to the next free one, said on log, as Vite does;
// with strict it is an error (ErrPortInUse). Port 0 gives both any free port.
func Listen(port int, strict bool, log io.Writer) (*Listeners, error) {
	hl, al, err := listen(port, strict, log)
	if err != nil {
		return nil, err
	}
	return &Listeners{hl, al}, nil
}

func listen(port int, strict bool, log io.Writer) (hl, al net.Listener, err error) {
	if port == 0 {
		if hl, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			return nil, nil, err
		}
		if al, err = net.Listen("tcp", "localhost:0"); err != nil {
			hl.Close()
			return nil, nil, err
		}
		return hl, al, nil
	}
	open := func(host string, p int, what, flag string) (net.Listener, error) {
		for q := p; q <= 65535; q++ {
			l, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(q)))
			if err == nil {
				if q != p {
					fmt.Fprintf(log, "bundle dev: port %d is taken; the %s is on %d\n", p, what, q)
				}
				return l, nil
			}
			if !errors.Is(err, syscall.EADDRINUSE) {
				return nil, fmt.Errorf("listen on %s:%d for the %s: %w", host, q, what, err)
			}
			if strict {
				return nil, portError(fmt.Sprintf("%s:%d, the %s's port, is taken (--strict-port): stop what uses it, or %s", host, q, what, flag))
			}
		}
		return nil, portError(fmt.Sprintf("no port from %d to 65535 is free on %s for the %s: give a lower --port", p, host, what))
	}
	if hl, err = open("127.0.0.1", port, "harness", fmt.Sprintf("give another with --port (%d is free, and %d for the app)", freePair(port+1), freePair(port+1)+1)); err != nil {
		return nil, nil, err
	}
	hp := hl.Addr().(*net.TCPAddr).Port
	if hp == 65535 {
		hl.Close()
		return nil, nil, portError("the app is served on the harness's port + 1, and the harness has 65535: give a lower --port")
	}
	if al, err = open("localhost", hp+1, "app", fmt.Sprintf("give another harness port with --port (%d and %d are free)", freePair(port+2), freePair(port+2)+1)); err != nil {
		hl.Close()
		return nil, nil, err
	}
	return hl, al, nil
}

// timeouts are those of both servers: a request's headers in 10 s and all of it in 30 s, a
// response written in 30 s (the event stream sets its own deadline per event), an idle
// connection closed after 60 s. Tests shorten them.
var timeouts = struct{ header, read, write, idle time.Duration }{10 * time.Second, 30 * time.Second, 30 * time.Second, 60 * time.Second}

func newServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: timeouts.header, ReadTimeout: timeouts.read,
		WriteTimeout: timeouts.write, IdleTimeout: timeouts.idle, MaxHeaderBytes: 64 << 10}
}

// loopbackOnly answers 403 to a request whose Host is not a loopback name (127.0.0.1,
// localhost, [::1]) with the port of addr, as Vite does outside server.allowedHosts since
// CVE-2025-24010: a page on another site, once its name resolves to 127.0.0.1 (DNS
// rebinding), sends its own name as Host, and must not read the harness, the event stream
// (failed builds' source lines) or the app.
func loopbackOnly(addr net.Addr, next http.Handler) http.Handler {
	port := strconv.Itoa(addr.(*net.TCPAddr).Port)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, p, err := net.SplitHostPort(r.Host)
		if err != nil || p != port || !slices.Contains([]string{"127.0.0.1", "localhost", "::1"}, strings.ToLower(h)) {
			http.Error(w, fmt.Sprintf("bundle dev answers only requests to http://127.0.0.1:%s or http://localhost:%s, not to Host %q: open the URL bundle dev printed", port, port, r.Host), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// freePort returns the first port from p on that is free on 127.0.0.1.
func freePort(p int) int {
	for ; p < 65535; p++ {
		if l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p))); err == nil {
			l.Close()
			return p
		}
	}
	return 0
}

// freePair returns the first port from p on that is free with the next one.
func freePair(p int) int {
	for ; p < 65535; p++ {
		if freePort(p) == p && freePort(p+1) == p+1 {
			return p
		}
	}
	return 0
}

// ignored reports whether a change at p cannot change the build: output, packages, VCS.
func ignored(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		return true
	}
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if part == "dist" || part == "node_modules" || part == ".git" || strings.HasSuffix(part, "~") || strings.HasPrefix(part, ".#") {
			return true
		}
	}
	return false
}

// watch watches dir and every folder below it that can change the build.
func (s *server) watch(w *fsnotify.Watcher, dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if p != s.dir && ignored(s.dir, p) {
			return filepath.SkipDir
		}
		return w.Add(p)
	})
}

// testBuildStarts, when set by a test, is called as each build starts.
var testBuildStarts func()

// rebuild builds the app, keeps the page when it built, and tells every harness.
func (s *server) rebuild(ctx context.Context, changed map[string]bool) {
	if testBuildStarts != nil {
		testBuildStarts()
	}
	start := time.Now()
	res, err := pipeline.Build(ctx, s.dir, pipeline.Options{NoWrite: true, NoGzip: true, Session: s.session, DevHosts: []string{s.harnessOrigin},
		DevScript: client(s.harnessOrigin)})
	s.mu.Lock()
	st := Build{Version: s.state.Version + 1, Millis: time.Since(start).Milliseconds()}
	var el *diag.ListError
	switch {
	case errors.As(err, &el):
		st.Diagnostics = diag.FormatText(el.List, false)
	case err != nil:
		st.Diagnostics = err.Error()
	default:
		e := res.Entry
		e.Hosts = []string{s.harnessOrigin}
		h, herr := host.Headers(e)
		if herr != nil {
			st.Diagnostics = "the page built, but a host would not serve it: " + herr.Error() + "\n"
			break
		}
		st.OK = true
		st.Bytes, st.SHA256, st.MaxBytes = res.Entry.Bytes, res.Entry.SHA256, res.Manifest.MaxKB*1024
		var cuts [2]*pageCut // res.HTML's, as far as read
		if s.page != nil {
			var edits []StyleEdit
			ok := bytes.Equal(s.page, res.HTML)
			if ok {
				cuts = s.cuts
			} else {
				cuts[0] = cutOf(res.HTML, false)
				edits, ok = editsBetween(s.cut(0), cuts[0])
			}
			if !ok && onlyStylesheets(s.dir, changed, res) {
				cuts[1] = cutOf(res.HTML, true)
				edits, ok = editsBetween(s.cut(1), cuts[1])
			}
			if ok {
				st.Styles, st.Base, st.Same = edits, s.pageVersion, len(edits) == 0
			}
		}
		s.page, s.header, s.pageVersion, s.smap, s.cuts = res.HTML, h, st.Version, nil, cuts
		if len(res.Warnings) > 0 {
			st.Diagnostics = diag.FormatText(res.Warnings, false)
		}
	}
	s.state = st
	for c := range s.subs {
		select { // under the lock, so that no stream closes it meanwhile
		case c <- st:
		default:
		}
	}
	s.mu.Unlock()
	if st.OK {
		fmt.Fprintf(s.opts.Log, "bundle dev: built in %d ms: %d bytes of %d KB, sha256:%s\n", st.Millis, st.Bytes, st.MaxBytes/1024, st.SHA256)
	} else {
		fmt.Fprintf(s.opts.Log, "bundle dev: the build failed:\n")
	}
	// The same warnings at every save would bury what changed: print them when they do.
	if !st.OK || st.Diagnostics != s.lastLogged {
		io.WriteString(s.opts.Log, st.Diagnostics)
	}
	if st.OK {
		s.lastLogged = st.Diagnostics
	} else {
		s.lastLogged = ""
	}
}

func (s *server) closeSubs() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.subs {
		close(c)
		delete(s.subs, c)
	}
}

// app serves the last page that built, as a host serves a bundle.
func (s *server) app(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	page, header := s.page, s.header
	s.mu.Unlock()
	if r.URL.Path != "/" || page == nil {
		http.Error(w, "bundle dev serves the app at /, once it builds", http.StatusNotFound)
		return
	}
	for k, v := range header {
		w.Header()[k] = v
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Write(page)
}

// harness serves the harness page, the build state and its stream of changes.
func (s *server) harness(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		cfg, _ := json.Marshal(map[string]string{"app": s.appOrigin + "/", "appOrigin": s.appOrigin})
		io.WriteString(w, strings.Replace(harnessPage, "CONFIG", string(cfg), 1))
	case "/events":
		s.events(w, r)
	case "/stack":
		s.stack(w, r)
	default:
		http.NotFound(w, r)
	}
}

// events streams each build's state to a harness (server-sent events), the current one first.
func (s *server) events(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	// The stream outlives the server's read and write timeouts: no read deadline (the
	// server's read of a closed connection ends the request), and one per event.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	c := make(chan Build, 8)
	s.mu.Lock()
	s.subs[c] = true
	st := s.state
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.subs[c] {
			delete(s.subs, c)
			close(c)
		}
		s.mu.Unlock()
	}()
	write := func(text string) bool {
		rc.SetWriteDeadline(time.Now().Add(timeouts.write))
		_, err := io.WriteString(w, text)
		if err == nil {
			err = rc.Flush()
		}
		return err == nil
	}
	send := func(b Build) bool {
		j, _ := json.Marshal(b)
		return write("data: " + string(j) + "\n\n")
	}
	if !send(st) {
		return
	}
	// A comment every 30 s, as esbuild's stream does: a harness gone without a word is
	// found by the write that fails.
	keep := time.NewTicker(30 * time.Second)
	defer keep.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-keep.C:
			if !write(": keep-alive\n\n") {
				return
			}
		case b, ok := <-c:
			if !ok || !send(b) {
				return
			}
		}
	}
}
