//go:build linux

package confine

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A child a Fence starts (Start: Node, which runs the app's own PostCSS config and plugins)
// creates no socket. Landlock holds TCP from ABI 4, but a UNIX socket by its path only from
// ABI 9, and UDP not at all: under ABI 7 the app's PostCSS config connected to a socket of
// the machine (Docker's, a session bus) and sent UDP datagrams. A seccomp filter on the
// thread that starts the child, which the child inherits, answers socket(2) with EACCES, as
// the kernel's fence answers an open, and io_uring_setup(2) with ENOSYS (its ring can make
// and connect sockets without socket(2); libuv then uses its thread pool, as on a kernel
// without io_uring). socketpair(2), which connects nothing outside the process, stays.

// auditArch is the AUDIT_ARCH of the architectures the filter knows, by GOARCH; on another
// one the child starts without it (Landlock still holds).
var auditArch = map[string]uint32{"amd64": unix.AUDIT_ARCH_X86_64, "arm64": unix.AUDIT_ARCH_AARCH64}

// x32Bit marks a system call of the x32 ABI on amd64 (the same numbers with this bit set),
// which would otherwise go around a filter of the x86-64 numbers.
const x32Bit = 0x40000000

// noSockets installs the filter on the calling thread (after PR_SET_NO_NEW_PRIVS). It
// reports whether it did: false on an architecture it does not know.
func noSockets() (bool, error) {
	arch, ok := auditArch[runtime.GOARCH]
	if !ok {
		return false, nil
	}
	const (
		ld  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		ret = unix.BPF_RET | unix.BPF_K
	)
	errno := func(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e)&unix.SECCOMP_RET_DATA }
	// struct seccomp_data: nr at 0, arch at 4.
	prog := []unix.SockFilter{
		{Code: ld, K: 4},
		{Code: jeq, Jt: 1, Jf: 0, K: arch},
		{Code: ret, K: unix.SECCOMP_RET_KILL_PROCESS}, // another ABI than the one filtered
		{Code: ld, K: 0},
		{Code: jge, Jt: 3, Jf: 0, K: x32Bit},
		{Code: jeq, Jt: 2, Jf: 0, K: uint32(unix.SYS_SOCKET)},
		{Code: jeq, Jt: 2, Jf: 0, K: uint32(unix.SYS_IO_URING_SETUP)},
		{Code: ret, K: unix.SECCOMP_RET_ALLOW},
		{Code: ret, K: errno(unix.EACCES)},
		{Code: ret, K: errno(unix.ENOSYS)},
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return false, err
	}
	runtime.KeepAlive(prog)
	return true, nil
}
