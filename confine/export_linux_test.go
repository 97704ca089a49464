package confine

import (
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// PreparedByRound reports whether Prepare made its round of no_new_privs on every thread.
func PreparedByRound() bool { return preparedByRound }

// StartNoNewPrivs starts cmd with no_new_privs, which its every thread then has from the
// start, and leaves this process as it was (the thread that starts cmd ends with its
// goroutine).
func StartNoNewPrivs(cmd *exec.Cmd) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			errc <- err
			return
		}
		errc <- cmd.Start()
	}()
	return <-errc
}

// NoNewPrivsOnOneThread sets no_new_privs on one thread of this process, which a goroutine
// then holds until the process ends.
func NoNewPrivsOnOneThread() error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		errc <- unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
		select {}
	}()
	return <-errc
}
