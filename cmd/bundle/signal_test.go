package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/miniapp/bundle/internal/testwait"
)

// TestSignalStopsBuild sends SIGTERM to bundle build while it bundles an app of 30,000
// modules (a build of some 25 s on a two-core machine), and holds it to ending: exit 3 with
// "interrupted", and no page written. Before, a build ran to its end whatever the signal (a
// worker that started itself ran forever).
func TestSignalStopsBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 30,000 files")
	}
	work := t.TempDir()
	bin := filepath.Join(work, "bundle")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	app := filepath.Join(work, "long")
	for i := 0; i < 30000; i++ {
		d := filepath.Join(app, "data", fmt.Sprintf("d%03d", i%100))
		if i < 100 {
			os.MkdirAll(d, 0o755)
		}
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%06d.js", i)), []byte(fmt.Sprintf("export default %d;\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(app, "miniapp.toml"), []byte("id = \"long\"\nname = \"Long\"\ndescription = \"A long build.\"\nentry = \"main.ts\"\nmaxKB = 8192\n"), 0o644)
	os.WriteFile(filepath.Join(app, "main.ts"), []byte("const all = import.meta.glob(\"./data/**/*.js\", { eager: true, import: \"default\" });\n(window as any).result = Object.keys(all).length;\n"), 0o644)

	cmd := exec.Command(bin, "build", "--out", filepath.Join(work, "dist"), app)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Signal once the build has used a second of CPU: it is bundling then.
	for cpu := time.Duration(0); cpu < time.Second; cpu = cpuTime(cmd.Process.Pid) {
		select {
		case err := <-done:
			t.Fatalf("bundle build ended before the signal: %v\n%s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 3 {
			t.Errorf("bundle build ended with %v, want exit 3", err)
		}
	case <-time.After(testwait.Deadline()):
		cmd.Process.Kill()
		t.Fatalf("bundle build still runs %s after SIGTERM", testwait.Deadline())
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("stderr does not say the build was interrupted:\n%s", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(work, "dist", "long.html")); err == nil {
		t.Errorf("the interrupted build wrote its page")
	}
}

// cpuTime is the user and system CPU time the process pid has used (Linux's /proc).
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's name, which is in parentheses: utime and stime are the
	// 12th and 13th, in clock ticks (100 a second on Linux).
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return time.Duration(u+s) * 10 * time.Millisecond
}
