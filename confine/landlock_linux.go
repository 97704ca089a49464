//go:build linux

package confine

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// config handles every right this go-landlock knows; on an older kernel it is lowered to the
// kernel's ABI (best effort), never to nothing while the kernel has Landlock.
var config = landlock.V11.BestEffort()

// Rights by what a Fence's list grants.
const (
	readRights  = ll.AccessFSReadFile | ll.AccessFSReadDir
	execRights  = readRights | ll.AccessFSExecute
	writeRights = readRights | ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSMakeReg |
		ll.AccessFSMakeDir | ll.AccessFSMakeSym | ll.AccessFSRemoveFile | ll.AccessFSRemoveDir
	// fileRights are the rights that mean something on a file, rather than a folder.
	fileRights = ll.AccessFSReadFile | ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSTruncate
)

func available() Status {
	v, err := ll.LandlockGetABIVersion()
	if err != nil || v <= 0 {
		return Status{}
	}
	if v >= 6 {
		// Where the kernel lacks the fix that lets a process's threads signal each other
		// (errata 2), go-landlock enforces ABI 5: say what holds.
		if e, err := ll.LandlockGetErrata(); err != nil || e&0x2 == 0 {
			v = 5
		}
	}
	if !threadRounds && v < 8 {
		// A build with the landlocktsync tag: go-landlock confines nothing before ABI 8,
		// and says no error (best effort). Restrict said "landlock v7" and held nothing.
		return Status{}
	}
	return Status{ABI: v}
}

// rules turns f into Landlock rules: a folder's rights hold beneath it, a file gets those that
// mean something on a file.
func (f Fence) rules() ([]landlock.Rule, error) {
	// /dev/null is always open: os/exec gives it to a child for a stream left nil.
	rules := []landlock.Rule{landlock.PathAccess(ll.AccessFSReadFile|ll.AccessFSWriteFile, os.DevNull)}
	for _, list := range []struct {
		paths  []string
		rights landlock.AccessFSSet
	}{{f.Read, readRights}, {f.Exec, execRights}, {f.Write, writeRights}} {
		for _, p := range list.paths {
			st, err := os.Stat(p)
			if err != nil {
				return nil, fmt.Errorf("fence %s: %w", p, err)
			}
			r := list.rights
			if !st.IsDir() {
				r &= fileRights
			}
			rules = append(rules, landlock.PathAccess(r, p))
		}
	}
	return rules, nil
}

// Restrict confines this process, every thread of it and every child it starts from now on, to
// f, irrevocably; nothing can be opened that f does not list, and no TCP port reached. It
// returns the fence that holds: Status{} with no error where the kernel has no Landlock.
//
// Where the kernel's Landlock confines one thread at a time (ABI 7 and older), it makes two
// rounds of a system call on every thread, no_new_privs then landlock_restrict_self, each
// waiting for every thread to run; after Prepare, only the second. From ABI 8 the kernel
// confines every thread in one call.
func (f Fence) Restrict() (Status, error) {
	st := available()
	if st.ABI == 0 {
		return st, nil
	}
	rules, err := f.rules()
	if err != nil {
		return Status{}, err
	}
	if !prepared.Load() {
		if err := config.Restrict(rules...); err != nil {
			return Status{}, fmt.Errorf("landlock: %w", err)
		}
		return st, nil
	}
	// Every thread has no_new_privs, and every thread started since inherited it: what
	// go-landlock's Restrict does after its own round of prctl.
	fd, flags, err := config.NewRulesetFD(append(rules, psxRules()...)...)
	if err != nil {
		return Status{}, fmt.Errorf("landlock: %w", err)
	}
	if fd < 0 {
		return st, nil
	}
	defer unix.Close(fd)
	if err := ll.AllThreadsLandlockRestrictSelf(fd, flags); err != nil {
		return Status{}, fmt.Errorf("landlock_restrict_self: %w", err)
	}
	return st, nil
}

// prepared is set once Prepare has set no_new_privs on every thread of the process.
var prepared atomic.Bool

// Prepare readies this process for Restrict where the kernel confines one thread at a time
// (Landlock ABI 7 and older): it sets no_new_privs (which landlock_restrict_self needs, and
// which a thread passes on to the threads and children it starts) on every thread of the
// process, the first of Restrict's two rounds, which Restrict then leaves out. It opens and
// reads nothing, and changes nothing but what Restrict would (the process can no longer
// gain privileges through a set-user-ID program): a caller may run it while it gathers what
// to fence, so that the round's wait for every thread overlaps that work. Restrict works
// without it; it does nothing where the kernel has no Landlock or confines every thread in
// one call (ABI 8).
//
// Only the first call makes the round; the others wait for it and return what it did.
func Prepare() error {
	prepareOnce.Do(func() {
		if st := available(); !threadRounds || st.ABI == 0 || st.ABI >= 8 {
			return
		}
		if err := ll.AllThreadsPrctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			prepareErr = fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
			return
		}
		prepared.Store(true)
	})
	return prepareErr
}

// PreparedAtStart tells Prepare and Restrict that every thread of the process already has
// no_new_privs: it was set on the process's first thread before that thread started another
// (a C constructor's prctl, as bundle's commands make it), or the process was started with it,
// and every thread inherits it from the thread that started it. Prepare then makes no round,
// and Restrict only that of landlock_restrict_self. It changes nothing where Prepare would
// make no round (no Landlock, or ABI 8). Should a thread lack it all the same, that round
// fails on the thread: the process is ended there (libpsx, or the Go runtime without cgo,
// ends it when the threads' results differ), or Restrict returns the error where the calling
// thread lacks it; no thread goes on unconfined.
func PreparedAtStart() {
	prepareOnce.Do(func() {
		if st := available(); threadRounds && st.ABI > 0 && st.ABI < 8 {
			prepared.Store(true)
		}
	})
}

var (
	prepareOnce sync.Once
	prepareErr  error
)

// Start starts cmd confined to f, leaving the calling process as it was: the fence is put on
// one OS thread, which starts cmd (a child takes its fence from the thread that forks it) and
// then stays, to kill it when Kill asks, until cmd's process ends. cmd can also create no socket (a seccomp filter, on amd64 and arm64), whatever
// the Landlock ABI: it runs code of the app's. It returns the fence cmd holds; where the kernel has no Landlock, cmd starts
// unconfined and Status{} says so.
func (f Fence) Start(cmd *exec.Cmd) (Status, error) {
	st := available()
	if st.ABI == 0 {
		return st, cmd.Start()
	}
	rules, err := f.rules()
	if err != nil {
		return Status{}, err
	}
	fd, flags, err := config.NewRulesetFD(rules...)
	if err != nil {
		return Status{}, fmt.Errorf("landlock: %w", err)
	}
	if fd < 0 {
		return Status{}, cmd.Start()
	}
	defer unix.Close(fd)
	errc := make(chan error, 1)
	go func() {
		// Never unlocked: the runtime ends a thread whose goroutine exits locked to it, and
		// the fence ends with it, so no other goroutine ever runs fenced.
		runtime.LockOSThread()
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			errc <- fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
			return
		}
		if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
			errc <- fmt.Errorf("landlock_restrict_self: %w", err)
			return
		}
		if _, err := noSockets(); err != nil {
			errc <- fmt.Errorf("seccomp: %w", err)
			return
		}
		if err := cmd.Start(); err != nil {
			errc <- err
			return
		}
		k := newKiller(cmd.Process)
		errc <- nil
		if k != nil {
			k.serve()
		}
	}()
	if err := <-errc; err != nil {
		return Status{}, err
	}
	return st, nil
}

// A killer is the thread that started a fenced child, which signals it for Kill. Landlock's
// signal scope (ABI 6) lets a process signal only processes of its own fence or one nested in
// it; where the process's threads were confined one by one (ABI 6 and 7: Prepare), each has
// a fence of its own, and the child's is nested in its starter's alone: another thread's
// kill was refused (EPERM), and a Node that looped or held its event loop outlived its build,
// which waited on it.
type killer struct {
	p           *os.Process
	pidfd, r, w int
}

var killers sync.Map // *os.Process → *killer

// newKiller holds p's pidfd and a pipe by which Kill asks; nil where the kernel gives no
// pidfd (Kill then signals p from the caller's thread).
func newKiller(p *os.Process) *killer {
	pidfd, err := unix.PidfdOpen(p.Pid, 0)
	if err != nil {
		return nil
	}
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		unix.Close(pidfd)
		return nil
	}
	k := &killer{p: p, pidfd: pidfd, r: fds[0], w: fds[1]}
	killers.Store(p, k)
	return k
}

// serve waits, on the thread that started the child, for its end or a request to kill it.
func (k *killer) serve() {
	defer func() {
		if killers.CompareAndDelete(k.p, k) {
			unix.Close(k.w) // not asked: Kill has it no more
		}
		unix.Close(k.pidfd)
		unix.Close(k.r)
	}()
	fds := []unix.PollFd{{Fd: int32(k.pidfd), Events: unix.POLLIN}, {Fd: int32(k.r), Events: unix.POLLIN}}
	for {
		if _, err := unix.Poll(fds, -1); err != nil && err != unix.EINTR {
			return
		}
		if fds[0].Revents != 0 {
			return // it ended
		}
		if fds[1].Revents != 0 {
			var b [1]byte
			unix.Read(k.r, b[:])
			unix.PidfdSendSignal(k.pidfd, unix.SIGKILL, nil, 0)
			fds[1].Events = 0 // asked once: wait for the end
		}
	}
}

// Kill kills a process Start started, from the thread that started it (which the signal
// scope of its fence lets signal it); any other process, as p.Kill does.
func Kill(p *os.Process) error {
	v, ok := killers.LoadAndDelete(p)
	if !ok {
		return p.Kill()
	}
	k := v.(*killer)
	_, err := unix.Write(k.w, []byte{1})
	unix.Close(k.w)
	return err
}
