//go:build linux && !cgo && !landlocktsync

package confine

import "github.com/landlock-lsm/go-landlock/landlock"

// psxRules are none without cgo: the Go runtime makes the rounds (syscall.AllThreadsSyscall),
// and reads nothing. Such a build (CGO_ENABLED=0) holds the same fence, but the runtime
// stops the world for each round, which cost a fenced bundle build more than libpsx's rounds
// (README, Performance).
func psxRules() []landlock.Rule { return nil }
