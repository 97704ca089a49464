// Package prefence makes, while bundle starts, the round of the kernel's fence that reads
// nothing, for the commands that fence their whole process before they build (bundle build,
// bundle pin): no_new_privs on every thread, which on a kernel before Landlock ABI 8
// landlock_restrict_self needs on each thread it confines.
//
// In a program built with cgo on glibc, a C constructor (start_cgo_linux.go) sets it before
// the Go runtime starts, on the process's only thread, which every thread started after
// inherits: one system call, and no round (confine.PreparedAtStart). Elsewhere (a build
// without cgo) init starts the round, confine.Prepare, a system call on every thread that
// waits for each to run it, in the background while the other packages' init functions
// run. Either way the command's fence makes only the round of landlock_restrict_self.
//
// bundle dev is left out (it starts the browser's opener before its fence, which must not
// inherit no_new_privs), and so is a process with BUNDLE_FENCE=off or another command, or
// where the kernel has no Landlock: each is left as it was.
package prefence

import (
	"os"

	"github.com/miniapp/bundle/confine"
)

// AtStart is set where no_new_privs was set before the Go runtime started (start_cgo_linux.go),
// and no round was made.
var AtStart bool

// round is closed when the round init started has ended; nil where it started none.
var round chan struct{}

func init() {
	if len(os.Args) < 2 || os.Getenv("BUNDLE_FENCE") == "off" {
		return
	}
	switch os.Args[1] {
	case "build", "pin":
		round = make(chan struct{})
		if AtStart = setAtStart(); AtStart {
			confine.PreparedAtStart()
			close(round)
			return
		}
		go func() {
			// Its error, if any, is the fence's to report: confine.Prepare returns it
			// again.
			confine.Prepare()
			close(round)
		}()
	}
}
