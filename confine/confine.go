// Package confine is the kernel's fence around a build: on Linux it asks Landlock to let a
// process (or one child it starts) open only the folders and files it is given, and connect
// nowhere.
//
//	f := confine.Fence{Read: []string{appRoot}, Exec: runtime, Write: []string{outDir, tmp}}
//	st, err := f.Restrict()        // this process, all its threads and children, irrevocably
//	st, err = f.Start(cmd)         // or only cmd (Node running the app's CSS tools)
//	fmt.Println("confined:", st)   // "landlock v7", or "path checks" where the kernel has none
//
// It owns the second of a build's two fences; the first, the path checks of every reader of
// the build, is the pipeline's. A fence is best effort: a kernel without Landlock (or another
// system) gives Status{} and no error, and the caller says so.
//
// # Guarantees
//
// Under a Fence (Status.ABI > 0), the process and its children can read and list only
// beneath Read, Exec and Write, execute only beneath Exec, create, write and remove only
// beneath Write; stat and readlink are not restricted (Landlock does not cover them). With
// ABI 4 and later no TCP port can be bound or connected to, with ABI 6 and later no signal
// reaches a process outside the fence and no abstract UNIX socket outside it is reachable.
// Connecting to a UNIX socket by its path is refused only from ABI 9, and UDP not at all: a
// child that Start starts (on amd64 and arm64) can create no socket at all, by a seccomp
// filter, whatever the ABI.
package confine

import "fmt"

// Fence lists what a confined process may open. Every path must exist; a folder's rule holds
// for everything beneath it, symbolic links resolved when the fence is made. The zero Fence
// lets nothing be opened but /dev/null, which every fence lets a process read and write.
type Fence struct {
	Read  []string // read, and for folders list
	Exec  []string // read and execute: programs and their shared libraries
	Write []string // folders read, listed, written, created in and removed from
}

// Status is the fence that holds: the Landlock ABI version, 0 where there is none and only
// the build's own path checks hold. The zero value is "path checks".
type Status struct{ ABI int }

// String says which fences hold, as bundle prints it: "landlock v7" or "path checks".
func (s Status) String() string {
	if s.ABI == 0 {
		return "path checks"
	}
	return fmt.Sprintf("landlock v%d", s.ABI)
}

// Available returns the fence this kernel can give.
func Available() Status { return available() }
