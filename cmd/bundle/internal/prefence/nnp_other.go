//go:build !linux || !cgo

package prefence

// constructed reports whether a constructor set no_new_privs: there is none without cgo, or
// on another system.
func constructed() bool { return false }

// constructs reports whether this program has the constructor.
func constructs() bool { return false }
