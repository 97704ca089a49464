//go:build linux && !cgo && !landlocktsync

package confine

import "github.com/landlock-lsm/go-landlock/landlock"

// psxRules are none without cgo: the Go runtime makes the rounds (syscall.AllThreadsSyscall),
// and reads nothing.
func psxRules() []landlock.Rule { return nil }
