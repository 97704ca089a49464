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
	fs := newFlags(e, "verify", "FILE.html",
		"Check that FILE.html is the bundle its registry entry pins: the same SHA-256 and size, a\n"+
			"policy <meta> equal to the entry's csp, and a page that passes the offline check.\n"+
			"The entry defaults to the one bundle build wrote beside the file (dist/hello.json).",
		`  # verify a built bundle against the entry beside it
  bundle verify dist/hello.html

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
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "bundle verify: give one HTML file\nRun \"bundle verify -h\" for usage.")
		return exitUsage
	}
	if *entryPath != "" && *sum != "" {
		fmt.Fprintln(e.stderr, "bundle verify: give --entry or --sha256, not both")
		return exitUsage
	}
	if *sum != "" && (len(*sum) != 64 || strings.Trim(strings.ToLower(*sum), "0123456789abcdef") != "") {
		fmt.Fprintf(e.stderr, "bundle verify: --sha256 %q is not 64 hex digits\n", *sum)
		return exitUsage
	}
	name := fs.Arg(0)
	page, err := readInput(e, name)
	if err != nil {
		fmt.Fprintf(e.stderr, "bundle verify: %v\n", err)
		return exitUsage
	}
	if *sum != "" {
		err = host.VerifySHA256(name, page, *sum, entryLinkDomains(e, name))
	} else {
		if *entryPath == "" {
			_, *entryPath = entryBeside(name)
			if _, statErr := os.Stat(*entryPath); statErr != nil {
				fmt.Fprintf(e.stderr, "bundle verify: no entry beside %s (%s); give --entry ENTRY.json or --sha256 HEX\n", name, *entryPath)
				return exitUsage
			}
		}
		entry, readErr := registry.ReadEntry(*entryPath)
		if readErr != nil {
			fmt.Fprintf(e.stderr, "bundle verify: %v\n", readErr)
			return exitUsage
		}
		err = host.Verify(name, page, entry)
	}
	var ve *host.VerifyError
	if err != nil && !errors.As(err, &ve) {
		fmt.Fprintf(e.stderr, "bundle verify: %v\n", err)
		return exitInternal
	}
	s := sha256.Sum256(page)
	got := hex.EncodeToString(s[:])
	switch *format {
	case "json":
		out := struct {
			SchemaVersion int              `json:"schema_version"`
			File          string           `json:"file"`
			Verified      bool             `json:"verified"`
			SHA256        string           `json:"sha256"`
			Bytes         int              `json:"bytes"`
			Mismatches    []host.Mismatch  `json:"mismatches"`
			Findings      offline.Findings `json:"findings"`
		}{1, name, ve == nil, got, len(page), []host.Mismatch{}, offline.Findings{}}
		if ve != nil {
			out.Mismatches = append(out.Mismatches, ve.Mismatches...)
			out.Findings = append(out.Findings, ve.Findings...)
		}
		if err := writeJSON(e, out); err != nil {
			return exitInternal
		}
	default:
		if ve != nil {
			var l diag.List
			for _, m := range ve.Mismatches {
				l = append(l, diag.Message{File: name, Path: m.Field, Text: m.Text})
			}
			l = append(l, ve.Findings.Diagnostics()...)
			printDiagnostics(e, *format, l)
		} else if *format == "text" {
			fmt.Fprintf(e.stdout, "%s: verified  %d bytes  sha256:%s\n", name, len(page), got)
		}
	}
	if ve != nil {
		fmt.Fprintf(e.stderr, "bundle verify: %s is not the bundle %s pins\n", name, map[bool]string{true: "--sha256", false: *entryPath}[*sum != ""])
		return exitRefused
	}
	return exitOK
}
