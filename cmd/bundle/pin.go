package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/pin"
	"github.com/miniapp/bundle/pipeline"
)

func runPin(ctx context.Context, e *env, args []string) int {
	fset := newFlags(e, "pin", "PAGE.html",
		"Make one HTML page that no build wrote (a model's) into a bundle, as bundle build would:\n"+
			"check it as bundle check --single-file does (refused at each place, with a note for the\n"+
			"page), put the SDK in, write the policy hashing every inline script, pin it by SHA-256\n"+
			"and write its registry entry and registry.json. The manifest is the miniapp.toml beside\n"+
			"the page, or the flags --id, --name and --description give it.",
		`  # a page with a miniapp.toml beside it
  bundle pin weather.html

  # a page alone: the manifest from flags, into a host's folder of bundles
  bundle pin --id weather --name Weather --description "Today's weather in Paris" \
    --hosts https://chat.example.com --out public/apps weather.html

  # without the SDK (the page cannot talk to its host)
  bundle pin --no-sdk --id clock --name Clock --description "A clock" clock.html
`)
	id := fset.String("id", "", "the app's `id` (^[a-z][a-z0-9-]{0,62}$), for a page with no manifest beside it")
	name := fset.String("name", "", "the app's `name`, shown by the host and told to the model")
	desc := fset.String("description", "", "what the app does, for the model (`text`)")
	version := fset.String("version", "", "the app's semantic `version`")
	hosts := fset.String("hosts", "", "comma-separated `origins` that may embed the page")
	links := fset.String("link-domains", "", "comma-separated `hosts` the page may ask its host to open")
	allowed := fset.String("allowed-domains", "", "comma-separated `origins` the page may connect to")
	out := fset.String("out", "", "output `folder` (default: dist beside the page)")
	noSDK := fset.Bool("no-sdk", false, "leave the SDK out")
	format := fset.String("format", "text", "output `format`: text, json or github")
	if code, ok := parseFlags(e, fset, args); !ok {
		return code
	}
	if !validFormat(e, "pin", *format) {
		return exitUsage
	}
	if fset.NArg() != 1 {
		fmt.Fprintln(e.stderr, "bundle pin: give one HTML page\nRun \"bundle pin -h\" for usage.")
		return exitUsage
	}
	page := fset.Arg(0)
	if st, err := os.Stat(page); err != nil || st.IsDir() {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(e.stderr, "bundle pin: cannot read %s: there is no such file\n", page)
		case err != nil:
			fmt.Fprintf(e.stderr, "bundle pin: cannot read %s: %v\n", page, err)
		default:
			fmt.Fprintf(e.stderr, "bundle pin: %s is a directory; give its HTML page (bundle build builds an app folder)\n", page)
		}
		return exitUsage
	}
	unfence, afterPin := func() {}, false
	res, err := pin.Page(ctx, page, pin.Options{ID: *id, Name: *name, Description: *desc, Version: *version,
		Hosts: splitList(*hosts), LinkDomains: splitList(*links), AllowedDomains: splitList(*allowed),
		OutDir: *out, NoSDK: *noSDK, Confine: func(dir string, o pipeline.Options) (pipeline.Options, error) {
			// The process builds inside the kernel's fence, as bundle build does: it reads
			// the folder holding the page and its manifest, and writes the output folder.
			o, confined, done, err := fence(e, []string{dir}, o, true)
			unfence = done
			if err == nil && e.fence && *format != "json" && confined != "" {
				fmt.Fprintf(e.stderr, "bundle pin: confined: %s\n", confined)
			}
			afterPin = confined == ""
			return o, err
		}})
	unfence()
	if afterPin && e.fence && *format != "json" {
		// Outside the kernel's fence, what held Node is known once it ran.
		fmt.Fprintf(e.stderr, "bundle pin: confined: %s\n", fencesHeld())
	}
	var el *diag.ListError
	switch {
	case errors.As(err, &el):
		if *format == "json" {
			writeJSON(e, struct {
				SchemaVersion int       `json:"schema_version"`
				Pinned        bool      `json:"pinned"`
				Diagnostics   diag.List `json:"diagnostics"`
			}{1, false, el.List})
		} else {
			printDiagnostics(e, *format, el.List)
		}
		return exitRefused
	case err != nil:
		fmt.Fprintf(e.stderr, "bundle pin: %v\n", err)
		return exitInternal
	}
	warnings := res.Warnings
	if warnings == nil {
		warnings = diag.List{}
	}
	if *format == "json" {
		if err := writeJSON(e, struct {
			SchemaVersion int       `json:"schema_version"`
			Pinned        bool      `json:"pinned"`
			Entry         any       `json:"entry"`
			Diagnostics   diag.List `json:"diagnostics"`
		}{1, true, res.Entry, warnings}); err != nil {
			return exitInternal
		}
		return exitOK
	}
	printDiagnostics(e, *format, warnings)
	fmt.Fprintf(e.stdout, "%s  %d bytes  %d gzip  sha256:%s\n", diag.ShownName(filepath.ToSlash(res.HTMLPath)), res.Entry.Bytes, res.GzipSize, res.Entry.SHA256)
	return exitOK
}
