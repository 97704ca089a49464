package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/registry"
)

// Exit codes, stable for CI.
const (
	exitOK       = 0 // built, clean, verified
	exitRefused  = 1 // the input is refused: manifest, offline check, size budget, hash mismatch
	exitUsage    = 2 // bad flags or arguments, or a file that cannot be read
	exitInternal = 3 // the tool itself failed
)

// env is what a command may touch: its streams, whether stderr is a terminal (progress is
// drawn only there) and whether diagnostics are coloured; fence is set for the command's own
// process (main), which build and dev confine (fence.go), and not for a run inside a test's
// process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	terminal       bool
	color          bool
	fence          bool
}

type command struct {
	name, summary string
	run           func(ctx context.Context, e *env, args []string) int
}

func commands() []command {
	return []command{
		{"init", "write a new mini app from a template", runInit},
		{"build", "build app folders into one offline HTML file each, with a registry entry", runBuild},
		{"dev", "serve an app in a host harness, rebuilt on every change", runDev},
		{"check", "check that HTML files load nothing from outside themselves", runCheck},
		{"pin", "make one HTML page that no build wrote into a pinned bundle, with its entry", runPin},
		{"render", "open bundles in headless Chromium inside a host frame and report what broke", runRender},
		{"verify", "check that a file is the bundle its registry entry pins", runVerify},
		{"serve", "serve a folder of built bundles and their registry, verified, with safe headers", runServe},
		{"sdk", "print the SDK's TypeScript declarations or its host protocol", runSDK},
		{"version", "print the version of bundle", runVersion},
	}
}

const exitCodesHelp = `Exit codes:
  0  ok: built, clean
  1  the input is refused: manifest, esbuild error, offline check, size budget, hash mismatch
  2  usage: bad flags or arguments, a file or folder that cannot be read
  3  bundle itself failed
`

// commandExits is what each exit code means for one command, for its -h.
var commandExits = map[string]string{
	"init":    "  0  written\n  2  usage: bad flags, a folder that is not empty, an unknown template\n  3  bundle itself failed\n",
	"build":   "  0  built\n  1  refused: manifest, esbuild error, a reference that cannot be inlined, offline check, size budget\n     (with several apps: some failed)\n  2  usage: bad flags, a folder that cannot be read\n  3  bundle itself failed\n",
	"dev":     "  0  stopped (Ctrl-C)\n  2  usage: bad flags, a folder that cannot be read, a port that cannot be used\n  3  bundle itself failed\n",
	"check":   "  0  every file is clean\n  1  a file would load from outside itself\n  2  usage: bad flags, a file that cannot be read\n  3  bundle itself failed\n",
	"pin":     "  0  pinned\n  1  refused: a place in the page that loads or breaks under the policy, the manifest, size budget\n  2  usage: bad flags, a page that cannot be read\n  3  bundle itself failed\n",
	"render":  "  0  every page rendered clean\n  1  a page failed in the browser: an error, a policy violation, a request\n  2  usage: bad flags, a file that cannot be read, no Chromium\n  3  bundle itself failed\n",
	"verify":  "  0  every file is the bundle its entry pins\n  1  a hash, size or policy mismatch, or an offline finding\n  2  usage: bad flags, a file or entry that cannot be read\n  3  bundle itself failed\n",
	"serve":   "  0  stopped\n  1  a bundle was not served (it failed verification)\n  2  usage: bad flags, a folder that cannot be read, an address that cannot be used\n  3  bundle itself failed\n",
	"sdk":     "  0  printed\n  2  usage\n",
	"version": "  0  printed\n  2  usage\n",
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "bundle turns a mini app into one offline HTML file pinned by SHA-256.\n\nUsage:\n  bundle <command> [flags] [args]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun \"bundle <command> -h\" for a command's flags and examples.\n\n%s", exitCodesHelp)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	return runIn(ctx, newEnv(stdin, stdout, stderr), args)
}

// newEnv is the env of a command with these streams.
func newEnv(stdin io.Reader, stdout, stderr io.Writer) *env {
	term := isTerminal(stderr)
	return &env{stdin: stdin, stdout: stdout, stderr: stderr, terminal: term, color: useColor(term, os.LookupEnv)}
}

// runIn runs the command args names in e.
func runIn(ctx context.Context, e *env, args []string) (code int) {
	stderr, stdout := e.stderr, e.stdout
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "bundle: internal error: %v\n", r)
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && name == "help" {
			for _, c := range commands() {
				if c.name == args[1] {
					return c.run(ctx, e, []string{"-h"})
				}
			}
			fmt.Fprintf(stderr, "bundle help: unknown command %q%s\n", args[1], didYouMean(args[1], commandNames()))
			return exitUsage
		}
		usage(stdout)
		return exitOK
	case "-v", "-version", "--version":
		name = "version"
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, e, args[1:])
		}
	}
	fmt.Fprintf(stderr, "bundle: unknown command %q%s\n\n", name, didYouMean(name, commandNames()))
	usage(stderr)
	return exitUsage
}

func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

// flagSet is a command's flags with its help text.
type flagSet struct {
	*flag.FlagSet
	help func(w io.Writer)
}

// newFlags returns a FlagSet whose -h prints the command's usage and examples on stdout.
func newFlags(e *env, name, argsUsage, about, examples string) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	help := func(w io.Writer) {
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintf(w, "Usage: bundle %s [flags] %s\n\n%s\n\nFlags:\n", name, argsUsage, about)
			fs.SetOutput(w)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		} else {
			fmt.Fprintf(w, "Usage: bundle %s %s\n\n%s\n", name, argsUsage, about)
		}
		fmt.Fprintf(w, "\nExamples:\n%s\nExit codes:\n%s", examples, commandExits[name])
	}
	return &flagSet{FlagSet: fs, help: help}
}

// parseFlags parses args, printing help for -h (exit 0) and an error with the likely fix for an
// unknown flag (exit 2). ok is false when the command should return code.
func parseFlags(e *env, fs *flagSet, args []string) (code int, ok bool) {
	// Flags may come after arguments too (bundle build app --out x), as in go and npm: parse,
	// set the first argument aside, parse the rest, until none is left. After "--" every
	// argument is an argument.
	var pos []string
	rest := args
	var err error
	for {
		if err = fs.Parse(rest); err != nil {
			break
		}
		left := fs.Args()
		if consumed := len(rest) - len(left); consumed > 0 && rest[consumed-1] == "--" {
			pos = append(pos, left...)
			break
		}
		if len(left) == 0 {
			break
		}
		pos, rest = append(pos, left[0]), left[1:]
	}
	if err == nil {
		fs.Parse(append([]string{"--"}, pos...))
		return 0, true
	}
	if errors.Is(err, flag.ErrHelp) {
		fs.help(e.stdout)
		return exitOK, false
	}
	msg := err.Error()
	if name, found := strings.CutPrefix(msg, "flag provided but not defined: -"); found {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		msg += didYouMean(strings.TrimLeft(name, "-"), names)
	}
	fmt.Fprintf(e.stderr, "bundle %s: %s\nRun \"bundle %s -h\" for usage.\n", fs.Name(), msg, fs.Name())
	return exitUsage, false
}

// didYouMean returns ` (did you mean "X"?)` for the name closest to s, or "".
func didYouMean(s string, names []string) string {
	if best, ok := diag.Suggest(s, names); ok {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}

// useColor reports whether diagnostics are coloured: on a terminal unless NO_COLOR is set or
// TERM is dumb. FORCE_COLOR overrides both ways, as Node.js reads it: 0 or false turns colour
// off, any other value (empty included) turns it on, terminal or not.
func useColor(terminal bool, lookupEnv func(string) (string, bool)) bool {
	if v, ok := lookupEnv("FORCE_COLOR"); ok {
		return v != "0" && !strings.EqualFold(v, "false")
	}
	if v, _ := lookupEnv("NO_COLOR"); v != "" {
		return false
	}
	if v, _ := lookupEnv("TERM"); v == "dumb" {
		return false
	}
	return terminal
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// printDiagnostics renders l: GitHub annotations on stdout, where the runner reads them; text
// (also for --format json, whose stdout carries the result) on stderr.
func printDiagnostics(e *env, format string, l diag.List) {
	if format == "github" {
		io.WriteString(e.stdout, diag.FormatGitHub(l))
		return
	}
	io.WriteString(e.stderr, diag.FormatText(l, e.color))
}

func validFormat(e *env, cmd, format string) bool {
	switch format {
	case "text", "json", "github":
		return true
	}
	fmt.Fprintf(e.stderr, "bundle %s: unknown --format %q%s; use text, json or github\n", cmd, format, didYouMean(format, []string{"text", "json", "github"}))
	return false
}

// writeJSON writes v to stdout as indented JSON, HTML characters unescaped.
func writeJSON(e *env, v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// entryBeside returns the registry entry bundle build wrote beside the page name
// (dist/hello.html → dist/hello.json) and its path; the entry is nil when there is none, or
// when it is the entry of another file.
func entryBeside(name string) (*registry.Entry, string) {
	path := strings.TrimSuffix(name, filepath.Ext(name)) + ".json"
	if name == "-" {
		return nil, path
	}
	e, err := registry.ReadEntry(path)
	if err != nil || e.File != filepath.Base(name) {
		return nil, path
	}
	return &e, path
}
