package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/internal/testwait"
)

// cliRow is one run of the CLI: its arguments and standard input, and what it must give.
type cliRow struct {
	name string
	args []string
	code int
	out  string // substring of stdout
	err  string // substring of stderr
	in   string // standard input
}

func runRows(t *testing.T, rows []cliRow) {
	t.Helper()
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			code, stdout, stderr := bundle(t, row.in, row.args...)
			if code != row.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, row.code, stdout, stderr)
			}
			if row.out != "" && !strings.Contains(stdout, row.out) {
				t.Errorf("stdout lacks %q:\n%s", row.out, stdout)
			}
			if row.err != "" && !strings.Contains(stderr, row.err) {
				t.Errorf("stderr lacks %q:\n%s", row.err, stderr)
			}
		})
	}
}

func TestVerifyCommand(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := bundle(t, "", "build", "--out", out, "../../samples/hello", "../../samples/todo-ts"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	built := filepath.Join(out, "hello.html")
	page, _ := os.ReadFile(built)
	tampered := filepath.Join(t.TempDir(), "hello.html")
	b := append([]byte(nil), page...)
	b[len(b)/3] ^= 1
	os.WriteFile(tampered, b, 0o644)
	truncated := filepath.Join(t.TempDir(), "hello.html")
	os.WriteFile(truncated, page[:len(page)/2], 0o644)
	entry := filepath.Join(out, "hello.json")
	sum := strings.Fields(strings.SplitN(mustRead(t, entry), `"sha256": "`, 2)[1])[0]
	sum = strings.Trim(sum, `",`)
	runRows(t, []cliRow{
		{"beside", []string{"verify", built}, 0, "verified", "", ""},
		{"entry_flag", []string{"verify", "--entry", entry, tampered}, 1, "", "sha256: error: its SHA-256 is", ""},
		{"truncated", []string{"verify", "--entry", entry, truncated}, 1, "", "(truncated?)", ""},
		{"entry_of_another", []string{"verify", "--entry", filepath.Join(out, "todo-ts.json"), built}, 1, "", "the entry is for todo-ts.html", ""},
		{"sha_flag", []string{"verify", "--sha256", sum, built}, 0, "verified", "", ""},
		{"sha_mismatch_json", []string{"verify", "--format", "json", "--sha256", strings.Repeat("0", 64), built}, 1, `"verified": false`, "", ""},
		{"sha_not_hex", []string{"verify", "--sha256", "xyz", built}, 2, "", "not 64 hex digits", ""},
		{"no_entry", []string{"verify", tampered}, 2, "", "no entry beside", ""},
		{"both", []string{"verify", "--entry", entry, "--sha256", sum, built}, 2, "", "not both", ""},
		{"github", []string{"verify", "--format", "github", "--entry", entry, tampered}, 1, "::error file=" + tampered, "", ""},
	})
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestBuildManyCommand(t *testing.T) {
	root := t.TempDir()
	for _, a := range []struct{ dir, id, src string }{
		{"a/one", "one", "document.body.append('1')\n"},
		{"b/deep/two", "two", "document.body.append('2')\n"},
		{"b/broken", "broken", "document.body.append(\n"},
	} {
		dir := filepath.Join(root, filepath.FromSlash(a.dir))
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "miniapp.toml"), []byte("id = \""+a.id+"\"\nname = \"N\"\ndescription = \"D.\"\nentry = \"main.ts\"\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "main.ts"), []byte(a.src), 0o644)
	}
	out := t.TempDir()
	runRows(t, []cliRow{
		{"one_broken", []string{"build", "--out", out, root}, 1, "two.html", "2 built, 1 failed: " + filepath.Join(root, "b", "broken") + " (refused)", ""},
		{"no_apps", []string{"build", t.TempDir()}, 2, "", "no app folders", ""},
		{"missing", []string{"build", filepath.Join(root, "nope")}, 2, "", "give an app folder", ""},
	})
	if !strings.Contains(mustRead(t, filepath.Join(out, "registry.json")), `"two": {`) {
		t.Error("registry.json does not list two")
	}
}

func TestServeCommand(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := bundle(t, "", "build", "--out", out, "../../samples/hello"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr strings.Builder
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", out}, strings.NewReader(""), pw, &stderr)
		pw.Close()
	}()
	type read struct {
		line string
		err  error
	}
	first := make(chan read, 1)
	go func() {
		line, err := bufio.NewReader(pr).ReadString('\n')
		first <- read{line, err}
	}()
	r := testwait.Recv(t, "serve's address", first)
	line, err := r.line, r.err
	if err != nil {
		t.Fatalf("serve printed nothing: %v %s", err, stderr.String())
	}
	go io.Copy(io.Discard, pr)
	u := strings.TrimSpace(line[strings.Index(line, "http://"):])
	resp, err := http.Get(u)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %v %v", u, resp, err)
	}
	resp.Body.Close()
	cancel()
	if code := testwait.Recv(t, "serve to stop", done); code != 0 {
		t.Errorf("serve exited %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "lists no hosts") {
		t.Errorf("no warning about hosts: %s", stderr.String())
	}

	// A folder whose only bundle was tampered with serves nothing.
	p := filepath.Join(out, "hello.html")
	os.WriteFile(p, append([]byte(mustRead(t, p)), '\n'), 0o644)
	runRows(t, []cliRow{
		{"tampered", []string{"serve", "--addr", "127.0.0.1:0", out}, 1, "", "not serving hello", ""},
		{"empty", []string{"serve", t.TempDir()}, 2, "", "no bundles", ""},
	})
}

func TestRenderCommand(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := bundle(t, "", "build", "--out", out, "../../samples/hello"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	built := filepath.Join(out, "hello.html")
	shots := filepath.Join(t.TempDir(), "shots")
	timeout := testwait.Deadline().String() // a page's handshake and calls, on a busy machine
	runRows(t, []cliRow{
		{"ok", []string{"render", "--timeout", timeout, "--screenshot", shots, "--call", `set_name={"name":"Ada"}`, built}, 0, `set_name {"name":"Ada"} → Hello, Ada`, "", ""},
		{"json", []string{"render", "--timeout", timeout, "--format", "json", built}, 0, `"initialized": true`, "", ""},
		{"unknown_tool", []string{"render", "--timeout", timeout, "--format", "github", "--call", "nope", built}, 1, "::error file=" + built, "", ""},
		{"bad_call", []string{"render", "--call", `x={"a"`, built}, 2, "", "not a JSON object", ""},
		{"no_chrome", []string{"render", "--chrome", filepath.Join(t.TempDir(), "chromium"), built}, 2, "", "apt-get install -y chromium", ""},
		{"bad_theme", []string{"render", "--theme", "blue", built}, 2, "", "not light or dark", ""},
	})
	if st, err := os.Stat(filepath.Join(shots, "hello.png")); err != nil || st.Size() < 1000 {
		t.Errorf("screenshot: %v", err)
	}
}

// TestVerifyQuotesNoOutsideFile: an entry or a registry.json that is a symbolic link out of its
// folder is refused, not read, with the same message whether or not the file outside is there
// (the link is followed by the path checks' resolver, which looks at nothing outside), and a file that is not an entry is refused with the place of
// the fault, not its character: bundle verify of a folder whose hello.json linked to a secret
// printed "invalid character 'S'", the secret's first letter, in its error (text and JSON).
func TestVerifyQuotesNoOutsideFile(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := bundle(t, "", "build", "--out", out, "../../samples/hello"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	base := t.TempDir()
	secret := filepath.Join(base, "secrets", "token.txt")
	os.MkdirAll(filepath.Dir(secret), 0o755)
	os.WriteFile(secret, []byte(token+"\n"), 0o644)
	notEntry := filepath.Join(base, "secrets", "entry.json")
	os.WriteFile(notEntry, []byte(`{"schema_version": 1, "id": "hello", "file": "`+token+`/x", "sha256": "`+token+`", "bytes": 1e999}`), 0o644)
	linked := filepath.Join(base, "dist")
	os.MkdirAll(linked, 0o755)
	os.WriteFile(filepath.Join(linked, "hello.html"), []byte(mustRead(t, filepath.Join(out, "hello.html"))), 0o644)
	os.Symlink(secret, filepath.Join(linked, "hello.json"))
	os.Symlink(secret, filepath.Join(linked, "registry.json"))
	page := filepath.Join(linked, "hello.html")
	// The same folder with links to files outside that are not there: refused the same way
	// (verify said "no entry beside" there, and the link's target where the file was).
	dangling := filepath.Join(base, "dangling")
	os.MkdirAll(dangling, 0o755)
	os.WriteFile(filepath.Join(dangling, "hello.html"), []byte(mustRead(t, filepath.Join(out, "hello.html"))), 0o644)
	missing := filepath.Join(base, "secrets", "missing.json")
	os.Symlink(missing, filepath.Join(dangling, "hello.json"))
	os.Symlink(missing, filepath.Join(dangling, "registry.json"))
	for _, row := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"entry_beside_links_out", []string{"verify", page}, 2, filepath.Join(linked, "hello.json") + " is a symbolic link out of its folder, which bundle does not read"},
		{"entry_beside_links_out_missing", []string{"verify", filepath.Join(dangling, "hello.html")}, 2, filepath.Join(dangling, "hello.json") + " is a symbolic link out of its folder, which bundle does not read"},
		{"entry_beside_links_out_json", []string{"verify", "--format", "json", page}, 2, "is a symbolic link out of its folder"},
		{"entry_not_json", []string{"verify", "--entry", secret, page}, 2, "is not a registry entry: not JSON at line 1, column 1"},
		{"entry_not_json_json", []string{"verify", "--format", "json", "--entry", secret, page}, 2, "not JSON at line 1, column 1"},
		{"entry_value_not_a_number", []string{"verify", "--entry", notEntry, page}, 2, "bytes is not a number that fits"},
		{"registry_links_out", []string{"serve", "--addr", "127.0.0.1:0", linked}, 2, filepath.Join(linked, "registry.json") + " is a symbolic link out of its folder"},
		{"registry_links_out_missing", []string{"serve", "--addr", "127.0.0.1:0", dangling}, 2, filepath.Join(dangling, "registry.json") + " is a symbolic link out of its folder"},
	} {
		t.Run(row.name, func(t *testing.T) {
			code, stdout, stderr := bundle(t, "", row.args...)
			if code != row.code || !strings.Contains(stdout+stderr, row.want) {
				t.Errorf("exit %d, want %d and %q\nstdout: %s\nstderr: %s", code, row.code, row.want, stdout, stderr)
			}
			if strings.Contains(stdout+stderr, token[:1]+"'") || strings.Contains(stdout+stderr, token) {
				t.Errorf("a message quotes the file:\nstdout: %s\nstderr: %s", stdout, stderr)
			}
		})
	}
	// The file's own values are quoted by no message either.
	os.WriteFile(notEntry, []byte(`{"schema_version": 1, "id": "hello", "file": "`+token+`/x", "sha256": "`+strings.Repeat("a", 64)+`"}`), 0o644)
	if code, stdout, stderr := bundle(t, "", "verify", "--entry", notEntry, page); code != 2 || !strings.Contains(stderr, "its file is not a file name") || strings.Contains(stdout+stderr, token) {
		t.Errorf("exit %d, want 2 and \"its file is not a file name\", the value not quoted:\n%s%s", code, stdout, stderr)
	}
}
