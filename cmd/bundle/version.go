package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

func runVersion(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "version", "", "Print the version of bundle, read from the build information.", "  bundle version\n")
	if code, ok := parseFlags(e, fs, args); !ok {
		return code
	}
	fmt.Fprintln(e.stdout, version())
	return exitOK
}

// version reads the module version and VCS revision from the build information.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "bundle (unknown version)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	out := "bundle " + v
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		out += " " + rev
		if dirty {
			out += "+dirty"
		}
	}
	return out + " " + bi.GoVersion
}
