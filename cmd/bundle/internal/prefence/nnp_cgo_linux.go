//go:build linux && cgo

package prefence

// The constructor runs before the Go runtime starts, while the program has one thread: the
// no_new_privs it sets there is passed on to every thread the runtime starts, so that
// confine.Prepare finds it on all of them and makes no round of a system call on every
// thread (which waits for each to run: a few hundred microseconds of a 25 ms build). The
// commands and the switch are init's (prefence.go); glibc gives a constructor the program's
// arguments and environment, another C library none, and the constructor then leaves the
// round to init.

/*
#include <string.h>
#include <sys/prctl.h>

static int bundle_prefence_set;

#ifdef __GLIBC__
__attribute__((constructor)) static void bundle_prefence(int argc, char **argv, char **envp) {
	if (argc < 2 || (strcmp(argv[1], "build") != 0 && strcmp(argv[1], "pin") != 0)) {
		return;
	}
	// The first BUNDLE_FENCE is the one os.Getenv reads.
	for (char **e = envp; e != NULL && *e != NULL; e++) {
		if (strncmp(*e, "BUNDLE_FENCE=", 13) == 0) {
			if (strcmp(*e + 13, "off") == 0) {
				return;
			}
			break;
		}
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0) {
		bundle_prefence_set = 1;
	}
}
static int bundle_prefence_supported(void) { return 1; }
#else
static int bundle_prefence_supported(void) { return 0; }
#endif

static int bundle_prefence_ran(void) { return bundle_prefence_set; }
*/
import "C"

// constructed reports whether the constructor set no_new_privs.
func constructed() bool { return C.bundle_prefence_ran() != 0 }

// constructs reports whether this program has the constructor (glibc's).
func constructs() bool { return C.bundle_prefence_supported() != 0 }
