// Package prefence makes, while bundle starts, the round of the kernel's fence that reads
// nothing, for the commands that fence their whole process before they build (bundle build,
// bundle pin): confine.Prepare, no_new_privs on every thread, which on a kernel before
// Landlock ABI 8 is a round of a system call that waits for every thread of the process to
// run (milliseconds on a busy machine). Imported by the command, its init starts the round
// in the background while the other packages' init functions run; the command's fence then
// waits for it and makes only the round of landlock_restrict_self.
//
// bundle dev is left out (it starts the browser's opener before its fence, which must not
// inherit no_new_privs), and so is a process with BUNDLE_FENCE=off or another command: each
// is left as it was.
package prefence

import (
	"os"

	"github.com/miniapp/bundle/confine"
)

// round is closed when the round init started has ended; nil where it started none.
var round chan struct{}

func init() {
	if len(os.Args) < 2 || os.Getenv("BUNDLE_FENCE") == "off" {
		return
	}
	switch os.Args[1] {
	case "build", "pin":
		round = make(chan struct{})
		go func() {
			// Its error, if any, is the fence's to report: confine.Prepare returns it
			// again.
			confine.Prepare()
			close(round)
		}()
	}
}
