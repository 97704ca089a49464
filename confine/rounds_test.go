//go:build !landlocktsync

package confine_test

// tsync is not set: before Landlock ABI 8, Restrict makes rounds on every thread.
const tsync = false
