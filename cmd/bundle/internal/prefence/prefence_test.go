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
// command): it prints whether init started the round, and once that has ended, whether
// every thread has no_new_privs ("all"), none has ("none"), or some have.
func TestMain(m *testing.M) {
	if os.Getenv("PREFENCE_CHILD") != "" {
		started := round != nil
		if started {
			<-round
		}
		fmt.Println(started, noNewPrivs())
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

// TestInit runs the package's init as bundle's commands do: build and pin start the round,
// which gives every thread no_new_privs (on a kernel whose Landlock confines one thread at a
// time); dev, another command, and build with BUNDLE_FENCE=off start none, and no thread
// has it.
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
			want := "false none"
			if row.started {
				want = "true none"
				if rounds {
					want = "true all"
				}
			}
			if got := strings.TrimSpace(string(out)); got != want {
				t.Errorf("round started, no_new_privs on which threads: %s, want %s", got, want)
			}
		})
	}
}
