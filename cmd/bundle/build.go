package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/oneshot"
	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/pipeline"
)

func runBuild(ctx context.Context, e *env, args []string) int {
	flags := newFlags(e, "build", "[DIR...]",
		"Build each app folder into one offline HTML file pinned by SHA-256, and its registry entry:\n"+
			"<out>/<id>.html and <out>/<id>.json, and <out>/registry.json listing every entry there.\n"+
			"A DIR without a manifest is searched for app folders at any depth, and the apps are\n"+
			"built in parallel; one that fails does not stop the others. The default output folder\n"+
			"is each app's dist. Without DIR, the current folder. On Linux the build runs inside the\n"+
			"kernel's fence (Landlock): it can read only the apps' folders (or workspace roots) and\n"+
			"write only the output folders; it says which fences held. BUNDLE_FENCE=off leaves the\n"+
			"path checks alone.",
		`  # build the plain-HTML sample
  bundle build samples/hello

  # build every app under samples into one folder, with one registry.json
  bundle build --out public/apps samples

  # print the registry entries as JSON
  bundle build --out public/apps --format json samples/hello samples/order-book

  # write a source map beside the page (the page never references it)
  bundle build --sourcemap samples/order-book
`)
	out := flags.String("out", "", "output `folder` (default APP_DIR/dist)")
	format := flags.String("format", "text", "output `format`: text, json or github")
	sourcemap := flags.Bool("sourcemap", false, "write <id>.js.map beside the page")
	jobs := flags.Int("jobs", 0, "build at most `n` apps at once (default: one per core)")
	quiet := flags.Bool("quiet", false, "print errors only: no warnings, no line per app")
	cpuprofile := flags.String("cpuprofile", "", "write a CPU profile of the build to `file`, for go tool pprof")
	if code, ok := parseFlags(e, flags, args); !ok {
		return code
	}
	if *jobs < 0 {
		fmt.Fprintf(e.stderr, "bundle build: --jobs %d is negative; give a number of apps to build at once, or leave it out for one per core\n", *jobs)
		return exitUsage
	}
	if *out != "" {
		if st, err := os.Stat(*out); err == nil && !st.IsDir() {
			fmt.Fprintf(e.stderr, "bundle build: --out %s is a file, not a folder\n", *out)
			return exitUsage
		}
	}
	if !validFormat(e, "build", *format) {
		return exitUsage
	}
	args = flags.Args()
	if len(args) == 0 {
		args = []string{"."} // as vite build builds the folder it runs in
	}
	if *cpuprofile != "" {
		stop, err := profileCPU(*cpuprofile)
		if err != nil {
			fmt.Fprintf(e.stderr, "bundle build: --cpuprofile: %v\n", err)
			return exitUsage
		}
		defer stop()
	}
	// A build is a one-shot process: the collector stays off until it holds oneshot.Floor.
	defer oneshot.Tune(oneshot.Floor)()
	dirs, err := pipeline.FindApps(args...)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("%v: give an app folder, or a folder of app folders", err)
		}
		fmt.Fprintf(e.stderr, "bundle build: %v\n", err)
		if *format == "json" {
			// The same document as ever, so that a script reading stdout reads why.
			writeJSON(e, buildOutput{SchemaVersion: pipeline.SchemaVersion, Entries: []pipeline.Entry{},
				Diagnostics: diag.List{{Text: err.Error()}}, Registries: []string{}, Failed: failures(args, "cannot be read", err.Error())})
		}
		return exitUsage
	}

	// Each app's report is printed in the order of dirs, as soon as it and those before it
	// are done; progress goes to stderr when the build takes over a second.
	var (
		mu      sync.Mutex
		results = make([]*pipeline.AppResult, len(dirs))
		next    int
		code    = exitOK
		entries = []pipeline.Entry{}
		all     = diag.List{}
		failed  = []failure{}
		built   int
		// noHosts holds the apps whose manifests list no hosts: with several apps, the
		// warning is said once for all of them.
		noHosts []diag.Message
	)
	progress := newProgress(e, len(dirs), e.terminal && !*quiet)
	defer progress.stop()
	showSizes := (*format == "text" || *format == "github") && !*quiet
	report := func(r pipeline.AppResult) {
		res, err := r.Result, r.Err
		var el *diag.ListError
		switch {
		case errors.As(err, &el):
			all = append(all, el.List...)
			printDiagnostics(e, *format, el.List)
			fmt.Fprintf(e.stderr, "bundle build: %s refused\n", diag.ShownName(r.Dir))
			failed = append(failed, failure{filepath.ToSlash(r.Dir), "refused", firstError(el.List)})
			code = max(code, exitRefused)
			return
		case errors.Is(err, manifest.ErrNotFound), errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
			all = append(all, diag.Message{File: r.Dir, Text: err.Error()})
			fmt.Fprintf(e.stderr, "bundle build: %v\n", err)
			failed = append(failed, failure{filepath.ToSlash(r.Dir), "cannot be read", err.Error()})
			code = max(code, exitUsage)
			return
		case err != nil:
			all = append(all, diag.Message{File: r.Dir, Text: err.Error()})
			fmt.Fprintf(e.stderr, "bundle build: %v\n", err)
			failed = append(failed, failure{filepath.ToSlash(r.Dir), "bundle failed", err.Error()})
			code = max(code, exitInternal)
			return
		}
		built++
		all = append(all, res.Warnings...)
		warnings := res.Warnings
		if len(dirs) > 1 && *format == "text" {
			warnings = slices.DeleteFunc(slices.Clone(warnings), func(m diag.Message) bool {
				if m.Path == "hosts" && m.Text == pipeline.NoHostsWarning {
					noHosts = append(noHosts, m)
					return true
				}
				return false
			})
		}
		if len(warnings) > 0 && !*quiet {
			printDiagnostics(e, *format, warnings)
		}
		entries = append(entries, res.Entry)
		if showSizes {
			fmt.Fprintf(e.stdout, "%s  %d bytes  %d gzip  sha256:%s\n", diag.ShownName(filepath.ToSlash(res.HTMLPath)), res.Entry.Bytes, res.GzipSize, res.Entry.SHA256)
		}
	}
	// The gzip figure is computed only for the line that shows it.
	opts := pipeline.Options{OutDir: *out, Sourcemap: *sourcemap, NoGzip: !showSizes}
	opts, confined, unfence, err := fence(e, dirs, opts, true)
	defer unfence()
	if err != nil {
		fmt.Fprintf(e.stderr, "bundle build: %v\n", err)
		return exitInternal
	}
	if e.fence && !*quiet && *format != "json" && confined != "" {
		fmt.Fprintf(e.stderr, "bundle build: confined: %s\n", confined)
	}
	_, registries, err := pipeline.BuildAll(ctx, dirs, opts, *jobs, func(i int, r pipeline.AppResult) {
		mu.Lock()
		defer mu.Unlock()
		progress.done()
		results[i] = &r
		for next < len(results) && results[next] != nil {
			progress.clear()
			report(*results[next])
			next++
		}
	})
	progress.stop()
	if err != nil {
		fmt.Fprintf(e.stderr, "bundle build: %v\n", err)
		code = max(code, exitInternal)
	}
	if len(noHosts) > 0 && !*quiet {
		printDiagnostics(e, *format, diag.List{noHostsOnce(noHosts)})
	}
	if confined == "" {
		// Outside the kernel's fence, what held Node is known once it ran.
		confined = fencesHeld()
		if e.fence && !*quiet && *format != "json" {
			fmt.Fprintf(e.stderr, "bundle build: confined: %s\n", confined)
		}
	}
	if *format == "json" {
		if err := writeJSON(e, buildOutput{pipeline.SchemaVersion, entries, all, slashes(registries), failed, confined}); err != nil {
			return exitInternal
		}
	}
	if len(dirs) > 1 && (!*quiet || len(failed) > 0) {
		fmt.Fprintf(e.stderr, "bundle build: %d built", built)
		if len(failed) > 0 {
			var names []string
			for _, f := range failed {
				names = append(names, diag.ShownName(f.Dir)+" ("+f.Reason+")")
			}
			fmt.Fprintf(e.stderr, ", %d failed: %s", len(failed), strings.Join(names, ", "))
		}
		fmt.Fprintln(e.stderr)
	}
	return code
}

// failure is an app folder that was not built, in --format json's "failed": why, in a few
// fixed words ("refused", "cannot be read", "bundle failed"), and the first error's text.
type failure struct {
	Dir     string `json:"dir"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

func failures(dirs []string, reason, message string) []failure {
	out := []failure{}
	for _, d := range dirs {
		out = append(out, failure{filepath.ToSlash(d), reason, message})
	}
	return out
}

// firstError returns the text of the first error of l, as the one-line clang rendering.
func firstError(l diag.List) string {
	for _, m := range l {
		if m.Severity == diag.Error {
			return m.String()
		}
	}
	return ""
}

// noHostsOnce says the warning of apps without hosts once, naming their manifests.
func noHostsOnce(ms []diag.Message) diag.Message {
	if len(ms) == 1 {
		return ms[0]
	}
	var files []string
	for _, m := range ms {
		files = append(files, m.File)
	}
	w := ms[0]
	w.File, w.Line, w.Column, w.Length, w.LineText = "", 0, 0, 0, ""
	w.Text = fmt.Sprintf("%d apps list no hosts (%s): any page that frames them can call their tools and read their context", len(ms), strings.Join(files, ", "))
	return w
}

// buildOutput is what bundle build --format json prints, on success and failure alike.
type buildOutput struct {
	SchemaVersion int              `json:"schema_version"`
	Entries       []pipeline.Entry `json:"entries"`
	Diagnostics   diag.List        `json:"diagnostics"`
	Registries    []string         `json:"registries"`
	Failed        []failure        `json:"failed"`
	// Confined says which fences held: "landlock v7", or "path checks" with Node's permission
	// model where it holds Node ("path checks, node permission model (BUNDLE_FENCE=off)").
	Confined string `json:"confined"`
}

func slashes(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.ToSlash(p)
	}
	return out
}

// progress reports how many of n apps are built, on stderr, once a build has taken a second,
// as one line rewritten in place; only on a terminal, where it can be rewritten.
type progress struct {
	e       *env
	n       int
	mu      sync.Mutex
	count   int
	shown   bool
	over    bool
	stopped chan struct{}
	once    sync.Once
}

func newProgress(e *env, n int, enabled bool) *progress {
	p := &progress{e: e, n: n, stopped: make(chan struct{})}
	if n < 2 || !enabled {
		return p
	}
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-p.stopped:
				return
			case <-t.C:
				p.mu.Lock()
				if p.over {
					p.mu.Unlock()
					return
				}
				fmt.Fprintf(p.e.stderr, "\r\x1b[Kbuilding: %d of %d apps built", p.count, p.n)
				p.shown = true
				p.mu.Unlock()
			}
		}
	}()
	return p
}

func (p *progress) done() {
	p.mu.Lock()
	p.count++
	p.mu.Unlock()
}

// clear erases the terminal progress line before other output.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.e.stderr, "\r\x1b[K")
		p.shown = false
	}
}

func (p *progress) stop() {
	p.once.Do(func() { close(p.stopped) })
	p.clear()
	p.mu.Lock()
	p.over = true
	p.mu.Unlock()
}

// profileCPU starts a CPU profile written to path; stop ends it and closes the file.
func profileCPU(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
