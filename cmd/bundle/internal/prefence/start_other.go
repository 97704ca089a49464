//go:build !linux || !cgo || landlocktsync

package prefence

// setAtStart is false where no C constructor runs before the Go runtime (a build without cgo):
// the round is made in init.
func setAtStart() bool { return false }

// startRuns is false: no constructor.
func startRuns() bool { return false }
