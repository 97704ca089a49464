package pin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/host"
	"github.com/miniapp/bundle/registry"
)

const clock = `<!doctype html>
<html><head><meta charset="utf-8"><title>Clock</title><style>body{font:2rem system-ui}</style></head>
<body><p id="t"></p><button id="b">Now</button>
<script>
const t = document.getElementById('t');
document.getElementById('b').addEventListener('click', () => { t.textContent = new Date().toLocaleTimeString(); });
</script>
<script type="module">document.body.dataset.ready = "1";</script>
</body></html>
`

var flags = Options{ID: "clock", Name: "Clock", Description: "Shows the time", Hosts: []string{"https://chat.example.com"}}

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// verify runs what bundle verify runs on the written page and its entry.
func verify(t *testing.T, htmlPath, entryPath string) []byte {
	t.Helper()
	page, err := os.ReadFile(htmlPath)
	if err != nil {
		t.Fatal(err)
	}
	e, err := registry.ReadEntry(entryPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Verify(htmlPath, page, e); err != nil {
		t.Fatalf("bundle verify refuses the pinned page: %v", err)
	}
	return page
}

// TestPinVerifies: a page and the options give a bundle that bundle verify passes, with the
// SDK, a policy hashing each inline script, registry.json; the same bytes again; and
// --no-sdk leaves the SDK out.
func TestPinVerifies(t *testing.T) {
	dir := t.TempDir()
	page := write(t, dir, "clock.html", clock)
	res, err := Page(context.Background(), page, flags)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "dist", "clock.html"); res.HTMLPath != want {
		t.Errorf("written to %s, want %s", res.HTMLPath, want)
	}
	first := verify(t, res.HTMLPath, res.EntryPath)
	if !bytes.Contains(first, []byte("modelContext")) {
		t.Error("the pinned page has no SDK")
	}
	if n := strings.Count(res.Entry.CSP, "'sha256-"); n < 3 {
		t.Errorf("the policy hashes %d scripts, want the SDK and the page's two: %s", n, res.Entry.CSP)
	}
	reg, err := os.ReadFile(filepath.Join(dir, "dist", "registry.json"))
	if err != nil || !bytes.Contains(reg, []byte(`"clock"`)) {
		t.Errorf("registry.json: %v %s", err, reg)
	}
	if _, err := os.Stat(filepath.Join(dir, "dist", workDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the build's folder is left in the output: %v", err)
	}
	again, err := Page(context.Background(), page, flags)
	if err != nil {
		t.Fatal(err)
	}
	if again.Entry.SHA256 != res.Entry.SHA256 {
		t.Errorf("pinned twice: %s, then %s", res.Entry.SHA256, again.Entry.SHA256)
	}
	noSDK := flags
	noSDK.NoSDK = true
	noSDK.OutDir = filepath.Join(dir, "bare")
	bare, err := Page(context.Background(), page, noSDK)
	if err != nil {
		t.Fatal(err)
	}
	if b := verify(t, bare.HTMLPath, bare.EntryPath); bytes.Contains(b, []byte("modelContext")) {
		t.Error("--no-sdk page has the SDK")
	}
}

// TestPinManifestBeside: the miniapp.toml beside the page gives the manifest, and its
// mistakes are placed in it.
func TestPinManifestBeside(t *testing.T) {
	dir := t.TempDir()
	page := write(t, dir, "weather.html", clock)
	write(t, dir, "miniapp.toml", "id = \"weather\"\nname = \"Weather\"\ndescription = \"Today's weather\"\nhosts = [\"https://chat.example.com\"]\n")
	res, err := Page(context.Background(), page, Options{OutDir: filepath.Join(dir, "out")})
	if err != nil {
		t.Fatal(err)
	}
	verify(t, res.HTMLPath, res.EntryPath)
	if res.Entry.ID != "weather" {
		t.Errorf("id %q", res.Entry.ID)
	}
	manifestPath := write(t, dir, "miniapp.toml", "id = \"Weather!\"\nname = \"Weather\"\ndescription = \"Today's weather\"\n")
	_, err = Page(context.Background(), page, Options{})
	var el *diag.ListError
	if !errors.As(err, &el) || el.List[0].File != manifestPath || el.List[0].Line != 1 || !strings.Contains(el.List[0].Text, "id") {
		t.Errorf("a bad id in the manifest beside: %v", err)
	}
	_, err = Page(context.Background(), page, flags)
	if !errors.As(err, &el) || !strings.Contains(el.List[0].Text, "has a manifest beside it, and the options give another") {
		t.Errorf("options and a manifest: %v", err)
	}
}

// TestPinManifestLinkOutside: a manifest beside the page that a symbolic link leads out of
// the page's folder is refused unread, as bundle build refuses an app's, and none of its
// lines is shown: its line 2 (the secret in a string the line ends) was the message's.
func TestPinManifestLinkOutside(t *testing.T) {
	const secret = "Sekret7f3a9c1d"
	base := t.TempDir()
	dir := filepath.Join(base, "page")
	os.Mkdir(dir, 0o755)
	page := write(t, dir, "clock.html", clock)
	for _, name := range []string{"miniapp.toml", "manifest.json"} {
		t.Run(name, func(t *testing.T) {
			os.Remove(filepath.Join(dir, "miniapp.toml"))
			os.Remove(filepath.Join(dir, "manifest.json"))
			outside := write(t, base, name, "id = \"clock\"\nname = \""+secret+"\n")
			if err := os.Symlink(outside, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			_, err := Page(context.Background(), page, Options{OutDir: filepath.Join(base, "out")})
			var el *diag.ListError
			if !errors.As(err, &el) || !strings.Contains(el.List[0].Text, name+" is a symbolic link to a file outside the app folder") || el.List[0].File != filepath.Join(dir, name) {
				t.Errorf("not refused at the link: %v", err)
			}
			if err != nil && strings.Contains(fmt.Sprintf("%v %+v", err, el), secret) {
				t.Errorf("the message shows the file outside: %v", err)
			}
		})
	}
}

// TestPinPageLinkOutside: a page that a symbolic link leads out of its folder (the app's) is
// refused unread, as bundle build refuses an entry that leads out, with a manifest beside it or
// the options', and the message is the same whether or not the file outside is there: pin read
// it through the link and pinned a file beside the folder (its text in the page).
func TestPinPageLinkOutside(t *testing.T) {
	const secret = "Sekret7f3a9c1d"
	const toml = "id = \"clock\"\nname = \"Clock\"\ndescription = \"Shows the time\"\nhosts = [\"https://chat.example.com\"]\nentry = \"page.html\"\n"
	for _, row := range []struct {
		name string
		opts Options
	}{{"manifest_beside", Options{}}, {"options", flags}} {
		t.Run(row.name, func(t *testing.T) {
			var msgs []string
			for _, there := range []bool{true, false} {
				base := t.TempDir()
				dir := filepath.Join(base, "page")
				os.Mkdir(dir, 0o755)
				if row.opts.ID == "" {
					write(t, dir, "miniapp.toml", toml)
				}
				if there {
					write(t, base, "secret.html", "<!doctype html><title>T</title><p>"+secret+"</p>")
				}
				page := filepath.Join(dir, "page.html")
				if err := os.Symlink(filepath.Join(base, "secret.html"), page); err != nil {
					t.Fatal(err)
				}
				opts := row.opts
				opts.OutDir = filepath.Join(base, "out")
				_, err := Page(context.Background(), page, opts)
				var el *diag.ListError
				if !errors.As(err, &el) || el.List[0].File != page || !strings.Contains(el.List[0].Text, "page.html is a symbolic link to a file outside its folder") {
					t.Errorf("not refused at the page (outside there: %v): %v", there, err)
				}
				if err != nil && strings.Contains(fmt.Sprintf("%v %+v", err, el), secret) {
					t.Errorf("the message shows the file outside: %v", err)
				}
				if b, _ := os.ReadFile(filepath.Join(base, "out", "clock.html")); bytes.Contains(b, []byte(secret)) {
					t.Errorf("the file outside was pinned")
				}
				msgs = append(msgs, strings.ReplaceAll(fmt.Sprint(err), base, "BASE"))
			}
			if msgs[0] != msgs[1] {
				t.Errorf("the message differs with the file outside there and not:\n%s\n%s", msgs[0], msgs[1])
			}
		})
	}
}

// TestPinOutputLinkOutside: the page's default output folder (dist beside it) that a symbolic
// link leads out of the page's folder is refused before anything is written or removed, as
// bundle build refuses an app's: pin removed the folder's .bundle-pin (a folder elsewhere,
// with what it held) and built into it.
func TestPinOutputLinkOutside(t *testing.T) {
	base := t.TempDir()
	dir, elsewhere := filepath.Join(base, "page"), filepath.Join(base, "elsewhere")
	os.MkdirAll(filepath.Join(elsewhere, workDir), 0o755)
	os.Mkdir(dir, 0o755)
	victim := write(t, filepath.Join(elsewhere, workDir), "victim", "the host's")
	page := write(t, dir, "clock.html", clock)
	if err := os.Symlink(elsewhere, filepath.Join(dir, "dist")); err != nil {
		t.Fatal(err)
	}
	_, err := Page(context.Background(), page, flags)
	var el *diag.ListError
	if !errors.As(err, &el) || !strings.Contains(el.List[0].Text, "is a symbolic link to a folder outside the app folder") {
		t.Errorf("not refused: %v", err)
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "the host's" {
		t.Errorf("the folder the link leads to was changed: %q %v", b, err)
	}
	if left, _ := os.ReadDir(elsewhere); len(left) != 1 {
		t.Errorf("written where the link leads: %v", left)
	}
}

// TestPinRefuses: what bundle build refuses in a page, and what loads from outside it, is
// refused at its place in the page, with the note for one file, and nothing is written; a
// bad option names the flag.
func TestPinRefuses(t *testing.T) {
	rows := []struct {
		name, html string
		opts       Options
		file       string // "" for the page
		line, col  int
		text, note string
	}{
		{"event_handler", `<!doctype html><button onclick="go()">go</button>`, flags, "", 1, 33, `inline event handler onclick="go()"`, `addEventListener("click"`},
		{"javascript_url", `<!doctype html><a href="javascript:go()">go</a>`, flags, "", 1, 25, "runs a javascript: URL", "use a <button>"},
		{"remote_script", `<!doctype html><script src="https://cdn.example/x.js"></script>`, flags, "", 1, 29, `loads "https://cdn.example/x.js"`, "a <script> element with no src"},
		{"fetch_not_granted", `<!doctype html><script>fetch("https://api.example.com/q")</script>`, flags, "", 1, 30, "fetch() connects to https://api.example.com", "no network at run time"},
		{"remote_image", `<!doctype html><img src="https://cdn.example/a.png">`, flags, "", 1, 26, "<img src> loads", "as a data: URL"},
		{"image_beside", `<!doctype html><img src="logo.png">`, flags, "", 1, 26, `<img src> loads "logo.png"`, "the 3000-byte file adds 4022 bytes to the page"},
		{"bad_id_flag", `<!doctype html><p>hi</p>`, Options{ID: "Clock!", Name: "Clock", Description: "d"}, "bundle pin --id", 0, 0, "", ""},
		{"no_manifest", `<!doctype html><p>hi</p>`, Options{}, "", 0, 0, "has no manifest", "give --id, --name and --description"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			dir := t.TempDir()
			page := write(t, dir, "p.html", row.html)
			write(t, dir, "logo.png", string(make([]byte, 3000)))
			_, err := Page(context.Background(), page, row.opts)
			var el *diag.ListError
			if !errors.As(err, &el) {
				t.Fatalf("not refused: %v", err)
			}
			m := el.List[0]
			file := row.file
			if file == "" {
				file = page
			}
			if m.File != file || m.Line != row.line || m.Column != row.col || !strings.Contains(m.Text, row.text) || !strings.Contains(m.Note, row.note) {
				t.Errorf("%s:%d:%d: %s\n  %s\nwant %s:%d:%d %q, note with %q", m.File, m.Line, m.Column, m.Text, m.Note, file, row.line, row.col, row.text, row.note)
			}
			if _, err := os.Stat(filepath.Join(dir, "dist", "clock.html")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused page was written")
			}
		})
	}
}

// TestPinGrantedFetch: a fetch of an origin the manifest grants is pinned, with the origin in
// the policy's connect-src.
func TestPinGrantedFetch(t *testing.T) {
	dir := t.TempDir()
	page := write(t, dir, "p.html", `<!doctype html><p id=o></p><script>fetch("https://api.example.com/q").then(r => r.text()).then(t => { document.getElementById("o").textContent = t })</script>`)
	o := flags
	o.AllowedDomains = []string{"https://api.example.com"}
	res, err := Page(context.Background(), page, o)
	if err != nil {
		t.Fatal(err)
	}
	verify(t, res.HTMLPath, res.EntryPath)
	if !strings.Contains(res.Entry.CSP, "connect-src https://api.example.com") {
		t.Errorf("csp %s", res.Entry.CSP)
	}
}

// TestPinIcon: the icon the manifest beside the page names is the file beside the page, as
// bundle build takes an app's: pin said `icon "i.svg" does not exist` and to create
// dist/.bundle-pin/i.svg (its own build folder) for an i.svg that was there. A missing icon
// names the file beside the page; one a link leads out of the page's folder is refused at the
// manifest's icon field, with the same message whether or not the target exists.
func TestPinIcon(t *testing.T) {
	const toml = "id = \"clock\"\nname = \"Clock\"\ndescription = \"Shows the time\"\nhosts = [\"https://chat.example.com\"]\nentry = \"index.html\"\nicon = \"i.svg\"\n"
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>`
	t.Run("beside", func(t *testing.T) {
		dir := t.TempDir()
		page := write(t, dir, "page.html", clock)
		write(t, dir, "miniapp.toml", toml)
		write(t, dir, "i.svg", svg)
		res, err := Page(context.Background(), page, Options{})
		if err != nil {
			t.Fatal(err)
		}
		verify(t, res.HTMLPath, res.EntryPath)
		if !strings.HasPrefix(res.Entry.Icon, "data:image/svg+xml") {
			t.Errorf("entry icon %q", res.Entry.Icon)
		}
	})
	t.Run("missing", func(t *testing.T) {
		dir := t.TempDir()
		page := write(t, dir, "page.html", clock)
		write(t, dir, "miniapp.toml", toml)
		_, err := Page(context.Background(), page, Options{})
		var el *diag.ListError
		if !errors.As(err, &el) || !strings.Contains(el.List[0].Note, "create "+filepath.Join(dir, "i.svg")+",") || strings.Contains(el.List[0].Note, workDir) {
			t.Errorf("a missing icon: %v", err)
		}
	})
	t.Run("link_outside", func(t *testing.T) {
		var msgs []string
		for _, there := range []bool{true, false} {
			base := t.TempDir()
			dir := filepath.Join(base, "page")
			os.Mkdir(dir, 0o755)
			page := write(t, dir, "page.html", clock)
			write(t, dir, "miniapp.toml", toml)
			if there {
				write(t, base, "x.svg", svg)
			}
			if err := os.Symlink(filepath.Join(base, "x.svg"), filepath.Join(dir, "i.svg")); err != nil {
				t.Fatal(err)
			}
			_, err := Page(context.Background(), page, Options{OutDir: filepath.Join(base, "out")})
			var el *diag.ListError
			if !errors.As(err, &el) || el.List[0].Path != "icon" || el.List[0].Line != 6 || !strings.Contains(el.List[0].Text, "leaves the app folder") {
				t.Errorf("not refused at the icon field (outside there: %v): %v", there, err)
			}
			msgs = append(msgs, strings.ReplaceAll(fmt.Sprint(err), base, "BASE"))
		}
		if msgs[0] != msgs[1] {
			t.Errorf("the message differs with the file outside there and not:\n%s\n%s", msgs[0], msgs[1])
		}
	})
}
