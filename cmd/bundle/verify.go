package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/host"
	"github.com/miniapp/bundle/offline"
	"github.com/miniapp/bundle/registry"
)

func runVerify(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "verify", "FILE.html...",
		"Check that each FILE.html is the bundle its registry entry pins: the same SHA-256 and\n"+
			"size, a policy <meta> equal to the entry's csp, and a page that passes the offline\n"+
			"check. The entry defaults to the one bundle build wrote beside each file\n"+
			"(dist/hello.json); --entry and --sha256 name one file's.",
		`  # verify a built bundle against the entry beside it
  bundle verify dist/hello.html

  # verify every bundle of a folder
  bundle verify public/apps/*.html

  # verify a downloaded copy against the registry entry it was reviewed with
  bundle verify --entry reviewed/hello.json hello.html

  # verify against a hash alone
  bundle verify --sha256 ef6ef301…9109 hello.html
`)
	entryPath := fs.String("entry", "", "the registry entry `file` (default: FILE's .json beside it)")
	sum := fs.String("sha256", "", "verify against this SHA-256 (`hex`) instead of an entry")
	format := fs.String("format", "text", "output `format`: text, json or github")
	if code, ok := parseFlags(e, fs, args); !ok {
		return code
	}
	if !validFormat(e, "verify", *format) {
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "bundle verify: give an HTML file\nRun \"bundle verify -h\" for usage.")
		return exitUsage
	}
	if *entryPath != "" && *sum != "" {
		fmt.Fprintln(e.stderr, "bundle verify: give --entry or --sha256, not both")
		return exitUsage
	}
	if (*entryPath != "" || *sum != "") && fs.NArg() > 1 {
		fmt.Fprintf(e.stderr, "bundle verify: --entry and --sha256 pin one file, and %d are given; verify them one at a time, or leave the flag out to use the entry beside each\n", fs.NArg())
		return exitUsage
	}
	if *sum != "" && (len(*sum) != 64 || strings.Trim(strings.ToLower(*sum), "0123456789abcdef") != "") {
		fmt.Fprintf(e.stderr, "bundle verify: --sha256 %q is not 64 hex digits\n", *sum)
		return exitUsage
	}
	code := exitOK
	var results []verifyResult
	for _, name := range fs.Args() {
		r, c := verifyOne(e, name, *entryPath, *sum, *format)
		code = max(code, c)
		if r != nil {
			results = append(results, *r)
		}
	}
	if *format == "json" {
		// One file: its object, as ever; several: every file's, in the order given.
		var out any = results
		switch {
		case fs.NArg() == 1 && len(results) == 1:
			out = results[0]
		case fs.NArg() > 1:
			out = struct {
				SchemaVersion int            `json:"schema_version"`
				Verified      bool           `json:"verified"`
				Files         []verifyResult `json:"files"`
			}{1, code == exitOK, append([]verifyResult{}, results...)}
		}
		if len(results) > 0 || fs.NArg() > 1 {
			if err := writeJSON(e, out); err != nil {
				return exitInternal
			}
		}
	}
	return code
}

// verifyResult is what bundle verify --format json says of one file.
type verifyResult struct {
	SchemaVersion int              `json:"schema_version"`
	File          string           `json:"file"`
	Verified      bool             `json:"verified"`
	SHA256        string           `json:"sha256"`
	Bytes         int              `json:"bytes"`
	Mismatches    []host.Mismatch  `json:"mismatches"`
	Findings      offline.Findings `json:"findings"`
	// Error says why the file could not be verified at all (it or its entry cannot be read).
	Error string `json:"error,omitempty"`
}

// verifyOne verifies one file, printing what text and github output say of it, and returns
// its JSON result (nil for an internal failure) and exit code.
func verifyOne(e *env, name, entryPath, sum, format string) (*verifyResult, int) {
	unreadable := func(err error) (*verifyResult, int) {
		fmt.Fprintf(e.stderr, "bundle verify: %v\n", err)
		return &verifyResult{SchemaVersion: 1, File: name, Mismatches: []host.Mismatch{}, Findings: offline.Findings{}, Error: err.Error()}, exitUsage
	}
	page, err := readInput(e, name)
	if err != nil {
		return unreadable(err)
	}
	if sum != "" {
		err = host.VerifySHA256(name, page, sum, entryLinkDomains(e, name))
	} else {
		if entryPath == "" {
			_, entryPath = entryBeside(name)
			if _, statErr := os.Lstat(entryPath); statErr != nil { // a link out of the folder is refused by ReadEntry, there or not
				return unreadable(fmt.Errorf("no entry beside %s (%s); give --entry ENTRY.json or --sha256 HEX", name, entryPath))
			}
		}
		entry, readErr := registry.ReadEntry(entryPath)
		if readErr != nil {
			return unreadable(readErr)
		}
		err = host.Verify(name, page, entry)
	}
	var ve *host.VerifyError
	if err != nil && !errors.As(err, &ve) {
		fmt.Fprintf(e.stderr, "bundle verify: %v\n", err)
		return nil, exitInternal
	}
	s := sha256.Sum256(page)
	got := hex.EncodeToString(s[:])
	r := &verifyResult{SchemaVersion: 1, File: name, Verified: ve == nil, SHA256: got, Bytes: len(page), Mismatches: []host.Mismatch{}, Findings: offline.Findings{}}
	if ve != nil {
		r.Mismatches = append(r.Mismatches, ve.Mismatches...)
		r.Findings = append(r.Findings, ve.Findings...)
	}
	if format != "json" {
		if ve != nil {
			var l diag.List
			for _, m := range ve.Mismatches {
				l = append(l, diag.Message{File: name, Path: m.Field, Text: m.Text})
			}
			l = append(l, ve.Findings.Diagnostics()...)
			printDiagnostics(e, format, l)
		} else if format == "text" {
			fmt.Fprintf(e.stdout, "%s: verified  %d bytes  sha256:%s\n", diag.ShownName(name), len(page), got)
		}
	}
	if ve != nil {
		fmt.Fprintf(e.stderr, "bundle verify: %s is not the bundle %s pins\n", name, map[bool]string{true: "--sha256", false: entryPath}[sum != ""])
		return r, exitRefused
	}
	return r, exitOK
}
