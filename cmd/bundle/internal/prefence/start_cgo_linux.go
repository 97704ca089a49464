//go:build linux && cgo && !landlocktsync

package prefence

/*
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif

// set is 1 once start set no_new_privs.
static int set;

// start runs before the Go runtime starts, while the process has one thread: for bundle build
// and bundle pin, the fence not turned off, on a kernel with Landlock, it sets no_new_privs on
// that thread, which every thread started after inherits. glibc gives an ELF constructor the
// program's arguments; another C library gives none (musl), and the Go side makes the round.
__attribute__((constructor)) static void start(int argc, char **argv, char **envp) {
#ifdef __GLIBC__
	if (argc < 2 || (strcmp(argv[1], "build") != 0 && strcmp(argv[1], "pin") != 0)) {
		return;
	}
	const char *fence = getenv("BUNDLE_FENCE");
	if (fence != NULL && strcmp(fence, "off") == 0) {
		return;
	}
	// LANDLOCK_CREATE_RULESET_VERSION: the ABI, or an error where there is no Landlock.
	if (syscall(SYS_landlock_create_ruleset, NULL, 0, 1) < 1) {
		return;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0) {
		set = 1;
	}
#endif
}

static int set_at_start(void) { return set; }

// glibc is 1 where start is given the program's arguments.
static int glibc(void) {
#ifdef __GLIBC__
	return 1;
#else
	return 0;
#endif
}
*/
import "C"

// setAtStart reports whether the process's first thread set no_new_privs before the Go runtime
// started another.
func setAtStart() bool { return C.set_at_start() != 0 }

// startRuns reports whether the constructor can set it: it is given the program's arguments.
func startRuns() bool { return C.glibc() != 0 }
