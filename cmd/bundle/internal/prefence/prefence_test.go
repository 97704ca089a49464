package prefence

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/miniapp/bundle/confine"
)

// A test binary run with PREFENCE_CHILD is a command started as bundle is (os.Args[1] the
// command): it prints whether init started the round, whether no_new_privs was set before the
// Go runtime started (AtStart) and which threads have it then, without waiting for a round,
// and once the round has ended, whether every thread has it ("all"), none has ("none"), or
// some have.
func TestMain(m *testing.M) {
	if os.Getenv("PREFENCE_CHILD") != "" {
		started := round != nil
		first := noNewPrivs()
		if started {
			<-round
		}
		fmt.Println(started, AtStart, first, noNewPrivs())
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// noNewPrivs reads the NoNewPrivs field of every thread's status.
func noNewPrivs() string {
	tasks, _ := filepath.Glob("/proc/self/task/*/status")
	set := 0
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		if strings.Contains(string(b), "\nNoNewPrivs:\t1\n") {
			set++
		}
	}
	switch set {
	case 0:
		return "none"
	case len(tasks):
		return "all"
	}
	return fmt.Sprintf("%d of %d", set, len(tasks))
}

// TestInit runs the package's init as bundle's commands do: build and pin give every thread
// no_new_privs (on a kernel with Landlock: the round, where it confines one thread at a time);
// in a program built with cgo on glibc, the constructor has set it on the first thread before
// the Go runtime started, so every thread has it as the package's init runs, with no round
// (the round's CPU was most of the fence's cost for a small app); dev, another command, and
// build with BUNDLE_FENCE=off do neither, and no thread has it.
func TestInit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Logf("no_new_privs is Linux's: the rows say none")
	}
	st := confine.Available()
	rounds := st.ABI > 0 && st.ABI < 8 // where confine.Prepare makes its round
	for _, row := range []struct {
		name, command, fence string
		started              bool
	}{
		{"build", "build", "", true},
		{"pin", "pin", "", true},
		{"build_fence_off", "build", "off", false},
		{"dev", "dev", "", false},
		{"check", "check", "", false},
	} {
		t.Run(row.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], row.command)
			cmd.Env = append(os.Environ(), "PREFENCE_CHILD=1", "BUNDLE_FENCE="+row.fence)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			want := "false false none none"
			if row.started {
				switch {
				case startRuns() && st.ABI > 0:
					want = "true true all all"
				case rounds:
					// The round runs in the background: which threads have it before
					// it ends is the scheduler's.
					want = "true false * all"
				default:
					want = "true false none none"
				}
			}
			got, w := strings.Fields(string(out)), strings.Fields(want)
			same := len(got) == len(w)
			for i := range w {
				same = same && (w[i] == "*" || w[i] == got[i])
			}
			if !same {
				t.Errorf("round started, set at start, no_new_privs on which threads at init and after the round: %s, want %s", strings.TrimSpace(string(out)), want)
			}
		})
	}
}
