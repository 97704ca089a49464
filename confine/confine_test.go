package confine_test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/miniapp/bundle/confine"
)

// A test binary run with CONFINE_CHILD fences itself and reports what it could open.
func TestMain(m *testing.M) {
	if dirs := os.Getenv("CONFINE_CHILD"); dirs != "" {
		os.Exit(child(strings.Split(dirs, string(os.PathListSeparator))))
	}
	if sock := os.Getenv("CONFINE_SOCKETS"); sock != "" {
		// Connect to the UNIX socket at sock and send a datagram to CONFINE_UDP: print what
		// each gave.
		c, err := net.Dial("unix", sock)
		if err == nil {
			c.Write([]byte("unix"))
			c.Close()
		}
		fmt.Println("unix", err == nil)
		u, err := net.Dial("udp", os.Getenv("CONFINE_UDP"))
		if err == nil {
			_, err = u.Write([]byte("udp"))
			u.Close()
		}
		fmt.Println("udp", err == nil)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// child fences itself to read dirs[0], write dirs[1], and run cat; then tries each path of
// dirs[2:] (reads) and prints one line per attempt.
func child(dirs []string) int {
	cat, err := exec.LookPath("cat")
	if err != nil {
		fmt.Println("no cat:", err)
		return 1
	}
	runtime, err := confine.Program(cat)
	if err != nil {
		fmt.Println("program:", err)
		return 1
	}
	if os.Getenv("CONFINE_PREPARE") != "" {
		if err := confine.Prepare(); err != nil {
			fmt.Println("prepare:", err)
			return 1
		}
	}
	// Threads started between Prepare and Restrict, each holding its goroutine: Restrict
	// must confine them too.
	const held = 6
	asks := make(chan string)
	answers := make(chan bool)
	started := make(chan bool)
	for range held {
		go func() {
			goruntime.LockOSThread()
			started <- true
			for p := range asks {
				_, err := os.ReadFile(p)
				answers <- err == nil
			}
		}()
	}
	for range held {
		<-started
	}
	st, err := confine.Fence{Read: dirs[:1], Exec: runtime, Write: dirs[1:2]}.Restrict()
	if err != nil {
		fmt.Println("restrict:", err)
		return 1
	}
	fmt.Println("status", st)
	for _, p := range dirs[2:] {
		_, err := os.ReadFile(p)
		// The same read on every held thread: each answers as this one.
		same := true
		for range held {
			asks <- p
			if <-answers != (err == nil) {
				same = false
			}
		}
		fmt.Println("read", p, err == nil, "every thread", same)
	}
	close(asks)
	err = os.WriteFile(filepath.Join(dirs[1], "w"), []byte("x"), 0o644)
	fmt.Println("write inside", err == nil)
	err = os.WriteFile(filepath.Join(dirs[0], "w"), []byte("x"), 0o644)
	fmt.Println("write read-only", err == nil)
	out, err := exec.Command(cat, filepath.Join(dirs[0], "ok.txt")).Output()
	fmt.Println("child reads", err == nil && string(out) == "ok")
	// A child Start fenced, killed from this thread, not the one that started it: where each
	// thread was fenced on its own (ABI 6 and 7), its kill was refused (EPERM) and the child,
	// a cat reading its input, lived on.
	sleeper := exec.Command(cat)
	in, err := sleeper.StdinPipe()
	if err != nil {
		fmt.Println("stdin:", err)
		return 1
	}
	if _, err := (confine.Fence{Read: dirs[:1], Exec: runtime}).Start(sleeper); err != nil {
		fmt.Println("start:", err)
		return 1
	}
	kerr := confine.Kill(sleeper.Process)
	if kerr != nil {
		in.Close() // it ends with its input
	}
	sleeper.Wait()
	ws, _ := sleeper.ProcessState.Sys().(syscall.WaitStatus)
	fmt.Println("kill of a fenced child", kerr == nil && ws.Signaled() && ws.Signal() == syscall.SIGKILL)
	return 0
}

func setup(t *testing.T) (read, write, secret string) {
	t.Helper()
	base := t.TempDir()
	read, write = filepath.Join(base, "app"), filepath.Join(base, "out")
	secret = filepath.Join(base, "secrets", "token.txt")
	for _, d := range []string{read, write, filepath.Dir(secret)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(read, "ok.txt"), []byte("ok"), 0o644)
	os.WriteFile(secret, []byte("secret"), 0o644)
	// A link inside the fence to a file outside it: Landlock checks the file the link names.
	os.Symlink(secret, filepath.Join(read, "link.txt"))
	return read, write, secret
}

// TestRestrict fences a process, with and without Prepare before (then Restrict makes only
// the round of landlock_restrict_self on every thread): every thread of it, those started
// after Prepare included, reads only what the fence lets it.
func TestRestrict(t *testing.T) {
	if confine.Available().ABI == 0 {
		t.Logf("this kernel has no Landlock: Restrict is a no-op, and says so")
	}
	for _, prepare := range []bool{false, true} {
		t.Run(fmt.Sprintf("prepare=%v", prepare), func(t *testing.T) {
			read, write, secret := setup(t)
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "CONFINE_CHILD="+strings.Join([]string{read, write,
				filepath.Join(read, "ok.txt"), secret, filepath.Join(read, "link.txt"), "/proc/self/environ", "/etc/passwd"}, string(os.PathListSeparator)))
			if prepare {
				cmd.Env = append(cmd.Env, "CONFINE_PREPARE=1")
			}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			fenced := confine.Available().ABI > 0
			want := []string{
				"status " + confine.Available().String(),
				"read " + filepath.Join(read, "ok.txt") + " true every thread true",
				fmt.Sprintf("read %s %v every thread true", secret, !fenced),
				fmt.Sprintf("read %s %v every thread true", filepath.Join(read, "link.txt"), !fenced),
				fmt.Sprintf("read /proc/self/environ %v every thread true", !fenced),
				fmt.Sprintf("read /etc/passwd %v every thread true", !fenced),
				"write inside true",
				fmt.Sprintf("write read-only %v", !fenced),
				"child reads true",
				"kill of a fenced child true",
			}
			if got := strings.Split(strings.TrimSpace(string(out)), "\n"); !slices.Equal(got, want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestStart fences one child, and only it: the test process reads the secret after.
func TestStart(t *testing.T) {
	read, write, secret := setup(t)
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Fatal(err)
	}
	rt, err := confine.Program(cat)
	if err != nil {
		t.Fatal(err)
	}
	fence := confine.Fence{Read: []string{read}, Exec: rt, Write: []string{write}}
	fenced := confine.Available().ABI > 0
	for _, row := range []struct {
		name, file string
		ok         bool
	}{
		{"inside", filepath.Join(read, "ok.txt"), true},
		{"outside", secret, !fenced},
		{"link_out", filepath.Join(read, "link.txt"), !fenced},
		{"environ", "/proc/self/environ", !fenced},
	} {
		t.Run(row.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			cmd := exec.Command(cat, row.file)
			cmd.Stdout, cmd.Stderr = &out, &errb
			st, err := fence.Start(cmd)
			if err != nil {
				t.Fatal(err)
			}
			if st != confine.Available() {
				t.Errorf("status %v, want %v", st, confine.Available())
			}
			err = cmd.Wait()
			if (err == nil) != row.ok {
				t.Errorf("cat %s: %v (%s), want ok=%v", row.file, err, errb.String(), row.ok)
			}
		})
	}
	if _, err := os.ReadFile(secret); err != nil {
		t.Errorf("the test process is fenced after Start: %v", err)
	}
}

// TestProgram holds Program to the loader's own answer: ldd (LD_TRACE_LOADED_OBJECTS) names
// the same files.
func TestProgram(t *testing.T) {
	for _, name := range []string{"node", "cat", "git"} {
		path, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			got, err := confine.Program(path)
			if err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("ldd", path).Output()
			if err != nil {
				t.Fatalf("ldd %s: %v", path, err)
			}
			for _, line := range strings.Split(string(out), "\n") {
				f := strings.Fields(line)
				var lib string
				switch {
				case len(f) >= 3 && f[1] == "=>":
					lib = f[2]
				case len(f) >= 1 && strings.HasPrefix(f[0], "/"):
					lib = f[0]
				default:
					continue
				}
				real, err := filepath.EvalSymlinks(lib)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Contains(got, real) {
					t.Errorf("Program(%s) lacks %s (ldd: %s)", path, real, strings.TrimSpace(line))
				}
			}
		})
	}
}

// TestStartNoSockets: a child Start fences creates no socket, whatever the Landlock ABI
// (UNIX sockets by path are Landlock's from ABI 9 only, UDP not at all): it neither connects
// to a UNIX socket of the machine nor sends a datagram, and neither listener hears from it.
func TestStartNoSockets(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s.sock")
	ul, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ul.Close()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	heard := make(chan string, 2)
	go func() {
		if c, err := ul.Accept(); err == nil {
			heard <- "unix"
			c.Close()
		}
	}()
	go func() {
		if _, _, err := pc.ReadFrom(make([]byte, 16)); err == nil {
			heard <- "udp"
		}
	}()
	rt, err := confine.Program(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	run := func(fenced bool) string {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "CONFINE_SOCKETS="+sock, "CONFINE_UDP="+pc.LocalAddr().String())
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if fenced {
			if _, err := (confine.Fence{Read: []string{dir}, Exec: rt}).Start(cmd); err != nil {
				t.Fatal(err)
			}
		} else if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		return strings.TrimSpace(out.String())
	}
	fenced := confine.Available().ABI > 0
	if got, want := run(true), fmt.Sprintf("unix %v\nudp %v", !fenced, !fenced); got != want {
		t.Errorf("fenced child: got\n%s\nwant\n%s", got, want)
	}
	if fenced {
		select {
		case h := <-heard:
			t.Errorf("the %s listener heard from the fenced child", h)
		default:
		}
	}
	// The same child unfenced reaches both: the test would catch a filter that held nothing.
	if got := run(false); got != "unix true\nudp true" {
		t.Errorf("unfenced child: got\n%s", got)
	}
}
