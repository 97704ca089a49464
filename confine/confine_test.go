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
	"golang.org/x/sys/unix"
)

// A test binary run with CONFINE_CHILD fences itself and reports what it could open.
func TestMain(m *testing.M) {
	if again := os.Getenv("CONFINE_EXEC"); again != "" {
		// Start again as a process of a user (without CAP_SYS_ADMIN, which lets
		// landlock_restrict_self do without no_new_privs), and with no_new_privs where
		// asked, as a process whose first thread set it before the Go runtime started
		// another: every thread has it from the first.
		goruntime.LockOSThread()
		if err := unprivileged(); err != nil {
			fmt.Println("drop CAP_SYS_ADMIN:", err)
			os.Exit(1)
		}
		if again == "nnp" {
			if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
				fmt.Println("prctl:", err)
				os.Exit(1)
			}
		}
		os.Unsetenv("CONFINE_EXEC")
		err := syscall.Exec(os.Args[0], os.Args, os.Environ())
		fmt.Println("exec:", err)
		os.Exit(1)
	}
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

// unprivileged takes CAP_SYS_ADMIN out of this thread's bounding and inheritable sets (and its
// ambient ones), so that a program it executes does not have it, root's included; it does
// nothing where the thread does not have it (a user's test run).
func unprivileged() error {
	const admin = unix.CAP_SYS_ADMIN
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return err
	}
	if data[0].Effective&(1<<admin) == 0 && data[0].Permitted&(1<<admin) == 0 {
		return nil
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_CAPBSET_DROP, admin, 0, 0, 0); err != nil {
		return err
	}
	data[0].Inheritable &^= 1 << admin
	return unix.Capset(&hdr, &data[0])
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
	switch os.Getenv("CONFINE_PREPARE") {
	case "prepare":
		if err := confine.Prepare(); err != nil {
			fmt.Println("prepare:", err)
			return 1
		}
	case "at-start":
		confine.PreparedAtStart()
	case "at-start-one-thread":
		// Said, but only the thread that restricts has it.
		goruntime.LockOSThread()
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			fmt.Println("prctl:", err)
			return 1
		}
		confine.PreparedAtStart()
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
// the round of landlock_restrict_self on every thread), or PreparedAtStart in a process
// started with no_new_privs: every thread of it, those started after Prepare included, reads
// only what the fence lets it. PreparedAtStart said where it is not so leaves no thread
// unconfined: where no thread has no_new_privs Restrict fails, and where only the thread that
// restricts has it the process is ended (the threads' results differ); where no round is made
// (ABI 8, no Landlock) it changes nothing.
func TestRestrict(t *testing.T) {
	if confine.Available().ABI == 0 {
		t.Logf("this kernel has no Landlock: Restrict is a no-op, and says so")
	}
	abi := confine.Available().ABI
	rounds := abi > 0 && abi < 8 && !tsync
	for _, row := range []struct {
		name, prepare string
		nnp           bool   // started with no_new_privs
		fails         string // where the rounds are made: "" (fenced), "restrict" (an error) or "ended"
	}{
		{name: "restrict"},
		{name: "prepare", prepare: "prepare"},
		{name: "prepared_at_start", prepare: "at-start", nnp: true},
		{name: "at_start_said_none_has_it", prepare: "at-start", fails: "restrict"},
		{name: "at_start_said_one_thread_has_it", prepare: "at-start-one-thread", fails: "ended"},
	} {
		t.Run(row.name, func(t *testing.T) {
			read, write, secret := setup(t)
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "CONFINE_CHILD="+strings.Join([]string{read, write,
				filepath.Join(read, "ok.txt"), secret, filepath.Join(read, "link.txt"), "/proc/self/environ", "/etc/passwd"}, string(os.PathListSeparator)))
			// Started as a user's process (no CAP_SYS_ADMIN, as bundle runs): Restrict
			// needs no_new_privs on every thread.
			again := "user"
			if row.nnp {
				again = "nnp"
			}
			cmd.Env = append(cmd.Env, "CONFINE_PREPARE="+row.prepare, "CONFINE_EXEC="+again)
			out, err := cmd.CombinedOutput()
			if row.fails != "" && rounds {
				// Nothing read, whichever way it failed.
				if err == nil || strings.Contains(string(out), "read ") || strings.Contains(string(out), "status ") {
					t.Fatalf("exit %v, want a failure before anything is read:\n%s", err, out)
				}
				if row.fails == "restrict" && !strings.Contains(string(out), "restrict: landlock_restrict_self: operation not permitted") {
					t.Errorf("want Restrict's error, got %v:\n%s", err, out)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			fenced := abi > 0
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
