package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/offline"
)

func runCheck(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "check", "FILE...",
		"Check that each HTML file loads nothing from outside itself: every URL attribute, srcset,\n"+
			"CSS url()/@import/image-set(), script import, import map, srcdoc and data: document.\n"+
			"FILE - reads standard input.",
		`  # check a built bundle
  bundle check dist/hello.html

  # allow <a href> links to these hosts, as the manifest's linkDomains does
  bundle check --link-domains example.com,*.docs.example.com page.html

  # annotate a GitHub Actions run
  bundle check --format github dist/*.html

  # a page a model wrote, that no build reads: notes it can follow in that one file
  bundle check --single-file --allowed-domains https://api.example.com --format json page.html
`)
	format := fs.String("format", "text", "output `format`: text, json or github")
	links := fs.String("link-domains", "", "comma-separated `hosts` that <a href> may link to")
	single := fs.Bool("single-file", false, "word every note for someone who can change only this file (no build), and report\nwhat breaks it under a host's policy: event handlers, javascript: URLs, fetch of other origins")
	allowed := fs.String("allowed-domains", "", "with --single-file, comma-separated `origins` the host lets the page connect to")
	if code, ok := parseFlags(e, fs, args); !ok {
		return code
	}
	if !validFormat(e, "check", *format) {
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "bundle check: no files given\nRun \"bundle check -h\" for usage.")
		return exitUsage
	}
	if *allowed != "" && !*single {
		fmt.Fprintln(e.stderr, "bundle check: --allowed-domains needs --single-file (a built page's policy holds its own)\nRun \"bundle check -h\" for usage.")
		return exitUsage
	}
	opts := offline.Options{SingleFile: *single, LinkDomains: splitList(*links), AllowedDomains: splitList(*allowed)}
	var report offline.Report
	var clean []string // the files with nothing to report
	code := exitOK
	for _, name := range fs.Args() {
		display := name
		if name == "-" {
			display = "<stdin>"
		}
		src, err := readInput(e, name)
		if err != nil {
			// Check every file it can; report this one and exit with the worst code.
			fmt.Fprintf(e.stderr, "bundle check: %v\n", err)
			report.AddError(display, err)
			code = max(code, exitUsage)
			continue
		}
		fileOpts := opts
		if *links == "" {
			fileOpts.LinkDomains = entryLinkDomains(e, name)
		}
		if *single && name != "-" {
			fileOpts.FileSize = offline.SizesBeside(filepath.Dir(name))
		}
		found, err := offline.Check(display, src, fileOpts)
		if err != nil {
			fmt.Fprintf(e.stderr, "bundle check: %v\n", err)
			return exitInternal
		}
		report.Add(display, found)
		if len(found) == 0 {
			clean = append(clean, display)
		}
	}
	all := report.Findings
	switch *format {
	case "json":
		if err := report.Encode(e.stdout); err != nil {
			return exitInternal
		}
	case "github":
		printDiagnostics(e, "github", all.Diagnostics())
	default:
		printDiagnostics(e, "text", all.Diagnostics())
		for _, name := range clean {
			fmt.Fprintf(e.stdout, "%s: clean\n", diag.ShownName(name))
		}
		if len(all) > 0 {
			fmt.Fprintf(e.stderr, "%d %s would load from outside the bundle\n", len(all), plural(len(all), "place", "places"))
		}
	}
	if len(all) > 0 {
		code = max(code, exitRefused)
	}
	return code
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(v string) []string {
	var out []string
	for _, h := range strings.Split(v, ",") {
		if h = strings.TrimSpace(h); h != "" {
			out = append(out, h)
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// entryLinkDomains returns the linkDomains of the registry entry that bundle build wrote beside
// the page name (dist/hello.html → dist/hello.json), so that a built page checks as it was
// built; nil when there is no such entry.
func entryLinkDomains(e *env, name string) []string {
	entry, path := entryBeside(name)
	if entry == nil || len(entry.LinkDomains) == 0 {
		return nil
	}
	fmt.Fprintf(e.stderr, "bundle check: %s: links to %s allowed by %s\n", name, strings.Join(entry.LinkDomains, ", "), path)
	return entry.LinkDomains
}

// readInput reads a named file, or standard input for "-". A directory is a usage error.
func readInput(e *env, name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(e.stdin)
	}
	st, err := os.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("cannot read %s: there is no such file", name)
	case errors.Is(err, fs.ErrPermission):
		return nil, fmt.Errorf("cannot read %s: permission denied", name)
	case err != nil:
		return nil, fmt.Errorf("cannot read %s: %w", name, err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory; give the HTML files to check (bundle build checks what it builds)", name)
	}
	return os.ReadFile(name)
}
