package main

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/miniapp/bundle/scaffold"
)

func runInit(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "init", "DIR",
		"Write a new mini app into DIR: a commented miniapp.toml, index.html, sources with one read\n"+
			"tool, one write tool and the context the host reads, the SDK's declarations for editors\n"+
			"(miniapp-sdk.d.ts), and for React a package.json with pinned versions. The app's id\n"+
			"comes from the folder's name.",
		`  # a TypeScript app, nothing to install
  bundle init my-app && bundle dev my-app

  # a React app
  bundle init --template react my-app && (cd my-app && npm install) && bundle dev my-app
`)
	template := fs.String("template", scaffold.Templates[0], "`template`: "+strings.Join(scaffold.Templates, ", "))
	force := fs.Bool("force", false, "write into a folder that is not empty (the template's files are overwritten)")
	if code, ok := parseFlags(e, fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "bundle init: give the folder to write the app into\nRun \"bundle init -h\" for usage.")
		return exitUsage
	}
	dir := fs.Arg(0)
	files, err := scaffold.Write(dir, *template, *force)
	if err != nil {
		msg := err.Error()
		if strings.HasPrefix(msg, "unknown template") {
			msg += didYouMean(*template, scaffold.Templates)
		}
		fmt.Fprintf(e.stderr, "bundle init: %s\n", msg)
		if errors.Is(err, scaffold.ErrNotEmpty) || strings.HasPrefix(msg, "unknown template") {
			return exitUsage
		}
		return exitInternal
	}
	for _, f := range files {
		fmt.Fprintf(e.stdout, "  %s/%s\n", strings.TrimSuffix(dir, "/"), f)
	}
	fmt.Fprintf(e.stdout, "\nNext:\n")
	q := shellQuote(dir)
	if *template == "react" {
		fmt.Fprintf(e.stdout, "  (cd %s && npm install)\n", q)
	}
	fmt.Fprintf(e.stdout, "  bundle dev %s      # the app in a host on your machine, rebuilt as you edit\n  bundle build %s    # %s, one offline file\n", q, q, path.Join(filepath.ToSlash(dir), "dist", "<id>.html"))
	return exitOK
}

// shellQuote returns s as a POSIX shell word: as it is when it holds only characters no shell
// reads specially, else in single quotes, so that a printed command runs when pasted.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
