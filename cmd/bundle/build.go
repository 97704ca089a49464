package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/pipeline"
	"github.com/miniapp/bundle/pipeline/diag"
)

func runBuild(ctx context.Context, e *env, args []string) int {
	flags := newFlags(e, "build", "APP_DIR...",
		"Build each app folder into one offline HTML file pinned by SHA-256, and its registry entry:\n"+
			"<out>/<id>.html and <out>/<id>.json. The default output folder is APP_DIR/dist.",
		`  # build the plain-HTML sample
  bundle build samples/hello

  # build two apps into one folder and print their registry entries
  bundle build --out public/apps --format json samples/hello samples/order-book

  # write a source map beside the page (the page never references it)
  bundle build --sourcemap samples/order-book
`)
	out := flags.String("out", "", "output `folder` (default APP_DIR/dist)")
	format := flags.String("format", "text", "output `format`: text, json or github")
	sourcemap := flags.Bool("sourcemap", false, "write <id>.js.map beside the page")
	if code, ok := parseFlags(e, flags, args); !ok {
		return code
	}
	if !validFormat(e, "build", *format) {
		return exitUsage
	}
	if flags.NArg() == 0 {
		fmt.Fprintln(e.stderr, "bundle build: no app folder given\nRun \"bundle build -h\" for usage.")
		return exitUsage
	}
	code := exitOK
	entries := []pipeline.Entry{}
	for _, dir := range flags.Args() {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			fmt.Fprintf(e.stderr, "bundle build: %s is not an app folder\n", dir)
			code = max(code, exitUsage)
			continue
		}
		res, err := pipeline.Build(ctx, dir, pipeline.Options{OutDir: *out, Sourcemap: *sourcemap})
		var el *diag.ListError
		switch {
		case errors.As(err, &el):
			printDiagnostics(e, *format, el.List)
			fmt.Fprintf(e.stderr, "bundle build: %s refused\n", dir)
			code = max(code, exitRefused)
			continue
		case errors.Is(err, manifest.ErrNotFound), errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(e.stderr, "bundle build: %v\n", err)
			code = max(code, exitUsage)
			continue
		case err != nil:
			fmt.Fprintf(e.stderr, "bundle build: %v\n", err)
			code = max(code, exitInternal)
			continue
		}
		if len(res.Warnings) > 0 {
			printDiagnostics(e, *format, res.Warnings)
		}
		entries = append(entries, res.Entry)
		if *format == "text" || *format == "github" {
			fmt.Fprintf(e.stdout, "%s  %d bytes  %d gzip  sha256:%s\n", filepath.ToSlash(res.HTMLPath), res.Entry.Bytes, res.GzipSize, res.Entry.SHA256)
		}
	}
	if *format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			SchemaVersion int              `json:"schema_version"`
			Entries       []pipeline.Entry `json:"entries"`
		}{pipeline.SchemaVersion, entries}); err != nil {
			return exitInternal
		}
	}
	return code
}
