package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/miniapp/bundle/confine"
	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/rootpath"
	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/pipeline"
	"github.com/miniapp/bundle/registry"
	"github.com/miniapp/bundle/render"
	"github.com/miniapp/bundle/render/chrome"
	"github.com/miniapp/bundle/sourcemap"
)

// renderInput is a page to render: read from a file, or built in memory from an app folder.
type renderInput struct {
	name  string
	page  []byte
	entry *registry.Entry
	smap  *sourcemap.Page
}

// buildForRender builds the app in dir, keeping its source map, for render: the page goes by
// <dir>/<id>.html. A build that fails says why, as bundle build does. Render's own process
// goes on to start Chromium, which the kernel's fence would stop, so where the kernel has one
// (and BUNDLE_FENCE is not off) the build runs in a child bundle build, which confines itself
// as bundle build does, into a temporary folder; elsewhere, and in a test's process, in
// memory with the path checks, and it says which fences held once it is built, as bundle
// build does.
func buildForRender(ctx context.Context, e *env, dir, format string) (renderInput, int) {
	off := os.Getenv(fenceEnv) == "off"
	if e.fence && !off && confine.Available().ABI > 0 {
		return buildFencedForRender(ctx, e, dir, format)
	}
	res, err := pipeline.Build(ctx, dir, pipeline.Options{NoWrite: true, NoGzip: true, KeepSourceMap: true, NoFence: off})
	var el *diag.ListError
	switch {
	case errors.As(err, &el):
		printDiagnostics(e, format, el.List)
		fmt.Fprintf(e.stderr, "bundle render: %s refused: it does not build\n", dir)
		return renderInput{}, exitRefused
	case errors.Is(err, manifest.ErrNotFound):
		fmt.Fprintf(e.stderr, "bundle render: %v: give a built page (dist/<id>.html) or an app folder\n", err)
		return renderInput{}, exitUsage
	case err != nil:
		fmt.Fprintf(e.stderr, "bundle render: %v\n", err)
		return renderInput{}, exitInternal
	}
	if e.fence {
		fmt.Fprintf(e.stderr, "bundle render: built %s confined: %s\n", dir, fencesHeld())
	}
	entry := res.Entry
	return renderInput{filepath.Join(dir, res.Manifest.ID+".html"), res.HTML, &entry, res.SourceMap}, exitOK
}

// buildFencedForRender builds the app in dir with a child bundle build (--sourcemap, into a
// temporary folder removed after), which is confined as bundle build is, and reads back its
// page, entry and source map.
func buildFencedForRender(ctx context.Context, e *env, dir, format string) (renderInput, int) {
	if _, err := manifest.Load(dir); errors.Is(err, manifest.ErrNotFound) {
		// bundle build would search the folder for apps: render takes one.
		fmt.Fprintf(e.stderr, "bundle render: %v: give a built page (dist/<id>.html) or an app folder\n", err)
		return renderInput{}, exitUsage
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(e.stderr, "bundle render: %v\n", err)
		return renderInput{}, exitInternal
	}
	out, err := os.MkdirTemp("", "bundle-render-")
	if err != nil {
		fmt.Fprintf(e.stderr, "bundle render: %v\n", err)
		return renderInput{}, exitInternal
	}
	defer os.RemoveAll(out)
	// The folder after "--": one named "-x" is not a flag. The build's diagnostics as render
	// gives its own: GitHub's annotations on stdout, text on stderr.
	args := []string{exe, "build", "--quiet", "--sourcemap", "--out", out}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Stdout, cmd.Stderr = io.Discard, e.stderr
	if format == "github" {
		args = append(args, "--format", "github")
		cmd.Stdout = e.stdout
	}
	cmd.Args = append(append(args, "--"), dir)
	// Interrupted, the build is stopped as bundle build stops (its Node and its temporary
	// files with it), not killed; killed only if it does not stop.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 30 * time.Second
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		switch {
		case ctx.Err() != nil:
			fmt.Fprintf(e.stderr, "bundle render: %s: interrupted\n", dir)
			return renderInput{}, exitInternal
		case errors.As(err, &ee) && ee.ExitCode() == exitRefused:
			fmt.Fprintf(e.stderr, "bundle render: %s refused: it does not build\n", dir)
			return renderInput{}, exitRefused
		case errors.As(err, &ee) && ee.ExitCode() == exitUsage:
			// Said by the build: a file it cannot read.
			return renderInput{}, exitUsage
		}
		fmt.Fprintf(e.stderr, "bundle render: building %s: %v\n", dir, err)
		return renderInput{}, exitInternal
	}
	pages, _ := filepath.Glob(filepath.Join(out, "*.html"))
	if len(pages) != 1 {
		fmt.Fprintf(e.stderr, "bundle render: building %s gave %d pages, not one\n", dir, len(pages))
		return renderInput{}, exitInternal
	}
	page, err := os.ReadFile(pages[0])
	ent, _ := entryBeside(pages[0])
	if err != nil || ent == nil {
		fmt.Fprintf(e.stderr, "bundle render: building %s: its page or entry cannot be read (%v)\n", dir, err)
		return renderInput{}, exitInternal
	}
	fmt.Fprintf(e.stderr, "bundle render: built %s confined: %s\n", dir, confine.Available())
	// The map's sources are named from the temporary folder: joined to it they are absolute,
	// and named from the working folder they name the app's files as an in-memory build does
	// (not ../../work/app/… through the temporary folder's parents).
	smap := mapBeside(e, pages[0], page, ent)
	if wd, err := os.Getwd(); err == nil && smap != nil {
		smap.NamedFrom(wd)
	}
	return renderInput{filepath.Join(dir, filepath.Base(pages[0])), page, ent, smap}, exitOK
}

// mapBeside reads the source map --sourcemap wrote beside a page (<id>.js.map), nil when there
// is none or it is not the page's (a warning says so). A map that a symbolic link leads out of
// the page's folder is not read, as an entry beside the page that does is not: a warning says
// so, the same whether or not the file outside is there (the path checks' resolver looks at
// nothing outside), since its sourcesContent would be the lines an error is shown with.
func mapBeside(e *env, name string, page []byte, entry *registry.Entry) *sourcemap.Page {
	p := filepath.Join(filepath.Dir(name), entry.ID+".js.map")
	if dir, err := filepath.EvalSymlinks(filepath.Dir(name)); err == nil {
		if dir, err = filepath.Abs(dir); err == nil {
			if _, err := rootpath.Resolve(filepath.Join(dir, filepath.Base(p)), dir); errors.Is(err, rootpath.ErrOutside) {
				fmt.Fprintf(e.stderr, "bundle render: warning: %s is a symbolic link out of its folder, which bundle does not read: errors are placed in the page only; keep the map beside the page, as bundle build --sourcemap writes it\n", p)
				return nil
			}
		}
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	sm := sourcemap.NewPage(page, data, filepath.ToSlash(filepath.Dir(name)))
	if err := sm.Err(); err != nil {
		fmt.Fprintf(e.stderr, "bundle render: warning: %s: %v: errors are placed in the page only\n", p, err)
		return nil
	}
	return sm
}

func runRender(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "render", "FILE.html|APP_DIR...",
		"Open each bundle in headless Chromium, inside a host frame on another origin that speaks\n"+
			"the host half of the bridge protocol, with every request blocked and recorded. Report\n"+
			"console errors, uncaught exceptions, policy violations, requests, the handshake, the\n"+
			"tools registered and each --call's result; fail (exit 1) on any error, violation,\n"+
			"request or peer connection (WebRTC), and on a router's not-found page (the page is\n"+
			"loaded at a path of its own, as a host frames it). A request to an origin the entry's\n"+
			"allowedDomains lists is answered without network (503, or a file of --fixtures) and\n"+
			"reported, not failed. The page is judged once quiet after the calls.\n"+
			"A blocked eval or new Function that the page catches (zod 4 probes for it) is a\n"+
			"warning. The registry entry beside a file (dist/hello.json) gives the origins the\n"+
			"app expects and the headers it is served with. An app folder is built in memory and\n"+
			"rendered. An error in the page's module script is also given in the author's file:\n"+
			"through the map the build keeps for an app folder, or the <id>.js.map --sourcemap\n"+
			"wrote beside the file. Chromium comes from PATH or --chrome.",
		`  # render every built app and keep screenshots
  bundle render --screenshot shots dist/*.html

  # call a tool and see its result
  bundle render --call greet='{"name":"Ada"}' dist/hello.html

  # answer the app's requests to its allowedDomains from files: fixtures/api.example.com/feed.json
  bundle render --fixtures fixtures dist/feed.html
  # build an app in memory and render it, errors placed in its sources
  bundle render my-app

  # annotate a GitHub Actions run, dark theme, phone width
  bundle render --format github --theme dark --width 390 --height 700 dist/*.html
`)
	shots := fs.String("screenshot", "", "write a PNG of each page into `folder` (<name>.png)")
	width := fs.Int("width", 800, "frame width in CSS `pixels`")
	height := fs.Int("height", 600, "frame height in CSS `pixels`")
	theme := fs.String("theme", "light", "host `theme`: light or dark")
	chromePath := fs.String("chrome", "", "Chromium or Chrome `executable` (default: found on PATH)")
	format := fs.String("format", "text", "output `format`: text, json or github")
	fixtures := fs.String("fixtures", "", "answer the page's requests to its entry's allowedDomains with the files of `folder`/<host>/<path> (default: 503)")
	timeout := fs.Duration("timeout", 0, "how long a page may take to handshake, answer the calls and go quiet (default: 10s, 1s more per 50 KB of the page and 5s more per --call)")
	var calls []render.Call
	fs.Func("call", "call a tool once the tools are listed: `TOOL=JSON` (repeatable)", func(s string) error {
		c, err := render.ParseCall(s)
		if err == nil {
			calls = append(calls, c)
		}
		return err
	})
	if code, ok := parseFlags(e, fs, args); !ok {
		return code
	}
	if !validFormat(e, "render", *format) {
		return exitUsage
	}
	if *theme != "light" && *theme != "dark" {
		fmt.Fprintf(e.stderr, "bundle render: --theme %q is not light or dark\n", *theme)
		return exitUsage
	}
	if *width < 100 || *width > 4000 || *height < 100 || *height > 4000 {
		fmt.Fprintln(e.stderr, "bundle render: --width and --height are 100 to 4000 pixels")
		return exitUsage
	}
	if *timeout < 0 {
		fmt.Fprintf(e.stderr, "bundle render: --timeout %v is not a duration a page can take; give one such as 10s\n", *timeout)
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "bundle render: no files given\nRun \"bundle render -h\" for usage.")
		return exitUsage
	}
	type input struct {
		name  string
		page  []byte
		entry *registry.Entry
		smap  *sourcemap.Page
	}
	var inputs []input
	code := exitOK
	for _, name := range fs.Args() {
		if st, err := os.Stat(name); err == nil && st.IsDir() {
			in, c := buildForRender(ctx, e, name, *format)
			if c == exitRefused {
				// Said as bundle build says it; the other pages are rendered, and render
				// exits 1, as for a page that fails.
				code = exitRefused
				continue
			}
			if c != exitOK {
				return c
			}
			inputs = append(inputs, input{in.name, in.page, in.entry, in.smap})
			continue
		}
		page, err := readInput(e, name)
		if err != nil {
			fmt.Fprintf(e.stderr, "bundle render: %v\n", err)
			return exitUsage
		}
		in := input{name: name, page: page}
		if name == "-" {
			in.name = "stdin.html"
		} else if ent, path := entryBeside(name); ent != nil {
			// The entry gives the headers the page is served with; an entry of another
			// build would serve it under a policy of other scripts.
			if sum := sha256.Sum256(page); hex.EncodeToString(sum[:]) == ent.SHA256 {
				in.entry = ent
				in.smap = mapBeside(e, name, page, ent)
			} else {
				fmt.Fprintf(e.stderr, "bundle render: warning: %s does not pin %s (rebuilt since?): rendering it without the entry's headers and origins\n", path, name)
			}
		}
		inputs = append(inputs, in)
	}
	if *fixtures != "" {
		if st, err := os.Stat(*fixtures); err != nil || !st.IsDir() {
			fmt.Fprintf(e.stderr, "bundle render: --fixtures %s is not a folder: give one that holds <host>/<path> files\n", *fixtures)
			return exitUsage
		}
	}
	if *shots != "" {
		if err := os.MkdirAll(*shots, 0o755); err != nil {
			fmt.Fprintf(e.stderr, "bundle render: %v\n", err)
			return exitUsage
		}
	}
	if len(inputs) == 0 { // every app folder refused, and said so: no page to open
		if *format == "json" && writeRenderJSON(e, nil) != nil {
			return exitInternal
		}
		return code
	}
	r, err := render.Start(ctx, render.Options{Chrome: *chromePath, Width: *width, Height: *height, Theme: *theme,
		Calls: calls, Timeout: *timeout, Screenshot: *shots != "", Fixtures: *fixtures})
	if errors.Is(err, chrome.ErrNotFound) {
		fmt.Fprintf(e.stderr, "bundle render: %v\n", err)
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "bundle render: %v\n", err)
		return exitInternal
	}
	defer r.Close()
	var reports []*render.Report
	for _, in := range inputs {
		rep, err := r.RenderMapped(ctx, in.name, in.page, in.entry, in.smap)
		if err != nil {
			// Chromium is gone: this page and the rest cannot be shown.
			fmt.Fprintf(e.stderr, "bundle render: %s: %v\n", in.name, err)
			code = exitRefused
			break
		}
		reports = append(reports, rep)
		shot := ""
		if *shots != "" && len(rep.Screenshot) > 0 {
			shot = filepath.Join(*shots, strings.TrimSuffix(filepath.Base(in.name), filepath.Ext(in.name))+".png")
			if err := os.WriteFile(shot, rep.Screenshot, 0o644); err != nil {
				fmt.Fprintf(e.stderr, "bundle render: %v\n", err)
				code = max(code, exitInternal)
			}
		}
		if rep.Failed() {
			code = max(code, exitRefused)
		}
		if *format != "json" {
			printRender(e, *format, rep, shot)
		}
	}
	if *format == "json" && writeRenderJSON(e, reports) != nil {
		return exitInternal
	}
	return code
}

// writeRenderJSON writes render's --format json: the pages' reports (an empty list for none).
func writeRenderJSON(e *env, reports []*render.Report) error {
	if reports == nil {
		reports = []*render.Report{}
	}
	return writeJSON(e, struct {
		SchemaVersion int              `json:"schema_version"`
		Pages         []*render.Report `json:"pages"`
	}{1, reports})
}

// printRender prints one page's report: a summary line on stdout, problems as diagnostics.
func printRender(e *env, format string, rep *render.Report, shot string) {
	var l diag.List
	for _, p := range rep.Problems {
		m := diag.Message{File: rep.File, Line: p.Line, Column: p.Column, Text: p.Kind + ": " + p.Text}
		if s := p.Source; s != nil {
			m = diag.Message{File: s.File, Line: s.Line, Column: s.Column, LineText: s.LineText, Text: m.Text,
				Note: fmt.Sprintf("in the page: %s:%d:%d", rep.File, p.Line, p.Column)}
		}
		if p.Severity == render.Warning {
			m.Severity = diag.Warning
		}
		l = append(l, m)
	}
	if len(l) > 0 {
		printDiagnostics(e, format, l)
	}
	if format == "github" {
		return
	}
	status := "ok"
	if rep.Failed() {
		status = "FAILED"
	}
	var names []string
	for _, t := range rep.Tools {
		names = append(names, diag.OneLine(t.Name)) // the page's: on this line (diag.ShownName)
	}
	handshake := "no handshake"
	if rep.Initialized {
		handshake = "handshake"
	}
	fmt.Fprintf(e.stdout, "%s: %s in %d ms at %s: %s, %d %s", diag.ShownName(rep.File), status, rep.Millis, rep.Path, handshake, len(names), plural(len(names), "tool", "tools"))
	if len(names) > 0 {
		fmt.Fprintf(e.stdout, " (%s)", strings.Join(names, ", "))
	}
	if shot != "" {
		fmt.Fprintf(e.stdout, ", screenshot %s", filepath.ToSlash(shot))
	}
	fmt.Fprintln(e.stdout)
	for _, c := range rep.Calls {
		out := c.Text
		if c.Error != "" {
			out = "error: " + c.Error
		}
		fmt.Fprintf(e.stdout, "  %s %s → %s\n", diag.OneLine(c.Tool), diag.OneLine(string(c.Arguments)), diag.OneLine(out))
	}
}
