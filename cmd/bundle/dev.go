package main

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/miniapp/bundle/confine"
	"github.com/miniapp/bundle/dev"
	"github.com/miniapp/bundle/internal/oneshot"
	"github.com/miniapp/bundle/pipeline"
)

func runDev(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "dev", "APP_DIR",
		"Build the app, rebuild it on every change, and show it in a host harness on your machine:\n"+
			"http://127.0.0.1:PORT frames the app from http://localhost (another origin) with a real\n"+
			"host's headers, lists its tools, calls them (asking first for those that do not only\n"+
			"read), reads its context and logs every bridge message. A failed build shows over the\n"+
			"frame and here, with file:line:col. Ctrl-C stops.",
		`  # the app in the harness
  bundle dev samples/hello

  # on another port, opening the browser
  bundle dev --port 5190 --open my-app

  # exactly ports 5190 (harness) and 5191 (app), or an error
  bundle dev --port 5190 --strict-port my-app
`)
	port := fs.Int("port", 5180, "the harness's `port` on 127.0.0.1 (the app is on the next one); a taken port moves on to the next free one")
	strict := fs.Bool("strict-port", false, "exit if the port (or the app's, the next one) is taken, instead of taking the next free one")
	openFlag := fs.Bool("open", false, "open the harness in the browser")
	if code, ok := parseFlags(e, fs, args); !ok {
		return code
	}
	if fs.NArg() > 1 {
		fmt.Fprintln(e.stderr, "bundle dev: give one app folder\nRun \"bundle dev -h\" for usage.")
		return exitUsage
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	if *port < 0 || *port > 65534 {
		fmt.Fprintf(e.stderr, "bundle dev: --port %d is not a port the harness can use: give one from 1 to 65534 (the app takes the next), or 0 for any\n", *port)
		return exitUsage
	}
	// The folder errors build gives, before anything starts: a build that can never succeed
	// (no folder, no manifest) is not served.
	apps, err := pipeline.FindApps(dir)
	if err != nil {
		if errors.Is(err, iofs.ErrNotExist) {
			err = fmt.Errorf("%v: give an app folder", err)
		}
		fmt.Fprintf(e.stderr, "bundle dev: %v\n", err)
		return exitUsage
	}
	if len(apps) != 1 || filepath.Clean(apps[0]) != filepath.Clean(dir) {
		fmt.Fprintf(e.stderr, "bundle dev: %s has no manifest but holds %d app %s (%s): give one, as in %s\n", dir, len(apps),
			map[bool]string{true: "folder", false: "folders"}[len(apps) == 1], strings.Join(slashes(apps), ", "), "bundle dev "+shellQuote(apps[0]))
		return exitUsage
	}
	// The browser is opened by a process started before the fence, which lets this one open
	// nothing outside the app.
	open := openBrowser
	if *openFlag && e.fence {
		var err error
		if open, err = startOpener(); err != nil {
			fmt.Fprintf(e.stderr, "bundle dev: warning: could not prepare a browser (%v)\n", err)
			open = openBrowser
		}
	}
	// The servers listen before the fence, which lets this process bind no port.
	listeners, err := dev.Listen(*port, *strict, e.stderr)
	if err != nil {
		fmt.Fprintf(e.stderr, "bundle dev: %v\n", err)
		return exitUsage
	}
	_, confined, unfence, err := fence(e, []string{dir}, pipeline.Options{NoWrite: true}, false, resolverFiles...)
	defer unfence()
	if err != nil {
		listeners.Close()
		fmt.Fprintf(e.stderr, "bundle dev: %v\n", err)
		return exitInternal
	}
	if confined == "" {
		// Outside the kernel's fence, dev's builds start Node inside a kernel's fence of its
		// own where there is one, else under its permission model where Node has one.
		held, why := confine.Status{}.String(), ""
		if st := confine.Available(); st.ABI > 0 {
			held += ", node in " + st.String()
		} else if model, no := pipeline.NodeModel(); model {
			held += ", node permission model"
		} else {
			why = no
		}
		confined = saidFences(held, why)
	}
	if e.fence {
		fmt.Fprintf(e.stderr, "bundle dev: confined: %s\n", confined)
	}
	// Each rebuild allocates what is garbage once it is done (30 MB on dev/testdata/charts):
	// the collector runs only past oneshot.Floor, as in bundle build (a sixth of a rebuild's
	// CPU time there, for about 500 MB held instead of 120).
	defer oneshot.Tune(oneshot.Floor)()
	err = dev.Run(ctx, dir, dev.Options{Listeners: listeners, Log: e.stderr, Ready: func(u string) {
		fmt.Fprintf(e.stdout, "bundle dev: %s (Ctrl-C stops)\n", u)
		if *openFlag {
			if err := open(u); err != nil {
				fmt.Fprintf(e.stderr, "bundle dev: warning: could not open a browser (%v): open %s yourself\n", err, u)
			}
		}
	}})
	switch {
	case errors.Is(err, dev.ErrPortInUse):
		fmt.Fprintf(e.stderr, "bundle dev: %v\n", err)
		return exitUsage
	case err != nil:
		fmt.Fprintf(e.stderr, "bundle dev: %v\n", err)
		return exitUsage
	}
	return exitOK
}

func openBrowser(u string) error {
	return exec.Command(browserCommand(), u).Start()
}

// browserCommand is the program that opens a URL in the user's browser.
func browserCommand() string {
	cmd := map[string]string{"darwin": "open", "windows": "explorer"}[runtime.GOOS]
	if cmd == "" {
		cmd = "xdg-open"
	}
	return cmd
}

// resolverFiles are what the C library reads to resolve localhost, which dev listens on.
var resolverFiles = []string{"/etc/hosts", "/etc/nsswitch.conf", "/etc/host.conf", "/etc/resolv.conf", "/etc/gai.conf"}
