//go:build linux && cgo && !landlocktsync

package confine

import (
	"fmt"
	"os"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// psxRules are the rules the round of landlock_restrict_self needs in a program built with
// cgo, which go-landlock's Restrict adds too: libpsx lists /proc/PID/task (the process's
// threads, nothing in them) after the call on each thread, which a thread already confined
// must be let do (go-landlock issue 39).
func psxRules() []landlock.Rule {
	return []landlock.Rule{landlock.PathAccess(ll.AccessFSReadDir, fmt.Sprintf("/proc/%d/task", os.Getpid()))}
}
