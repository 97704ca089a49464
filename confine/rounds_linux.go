//go:build linux && !landlocktsync

package confine

// threadRounds is set where go-landlock confines a process on a kernel before Landlock ABI 8
// by rounds of a system call on every thread (libpsx), which Prepare and Restrict make
// themselves.
const threadRounds = true
