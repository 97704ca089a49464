package dev

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/miniapp/bundle/internal/testwait"
	"github.com/miniapp/bundle/render/chrome"
	"github.com/miniapp/bundle/scaffold"
)

// harnessSession starts bundle dev on a new app from the ts template and opens the harness in
// headless Chromium; it returns the app folder and the tab.
func harnessSession(t testing.TB) (string, context.Context) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "counter")
	if _, err := scaffold.Write(dir, "ts", false); err != nil {
		t.Fatal(err)
	}
	return dir, harnessOn(t, dir)
}

// harnessOn starts bundle dev on the app in dir and opens the harness in headless Chromium,
// in a browser context of its own.
func harnessOn(t testing.TB, dir string) context.Context {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- Run(ctx, dir, Options{Log: io.Discard, Ready: func(u string) { ready <- u }}) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	var u string
	select {
	case u = <-ready:
	case err := <-done:
		t.Fatalf("Run: %v", err)
	case <-time.After(testwait.Deadline()):
		t.Fatalf("bundle dev did not start within %s", testwait.Deadline())
	}
	exe, err := chrome.Find("")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chrome.Options(exe, t.TempDir(), "", false, false), chromedp.WSURLReadTimeout(testwait.Deadline()))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancelBrowser(); cancelAlloc() })
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	tab, cancelTab := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancelTab)
	if err := chromedp.Do(tab); err != nil { // the tab lives as long as the context of its first action
		t.Fatalf("open a tab: %v", err)
	}
	if err := chromedp.Do(testwait.Context(t, tab), chromedp.Navigate(u)); err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestHarnessCarriedClient: an app that brings the official MCP Apps client works in the
// harness as ours does: its tools and the page's are listed, and its own tool answers.
func TestHarnessCarriedClient(t *testing.T) {
	dir := filepath.Join("..", "sdk", "testdata", "extapp")
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		t.Fatalf("%s needs its npm packages: run (cd %s && npm ci), as scripts/test does", dir, dir)
	}
	tab := harnessOn(t, dir)
	waitJS(t, tab, `document.querySelectorAll("#tools .tool").length === 4`)
	js(t, tab, fmt.Sprintf(call, "app_echo", "{}", "app_echo"))
	waitJS(t, tab, `document.getElementById("approval").classList.contains("on")`)
	js(t, tab, `document.getElementById("allow").click(), ""`)
	waitJS(t, tab, fmt.Sprintf(out, "app_echo")+` === "echo from App"`)
	// Each request once: the SDK sends the same ui/initialize again until the host answers.
	if n := js(t, tab, `String(new Set([...document.querySelectorAll("#log div")].filter(d => d.textContent.includes('"method":"ui/initialize"')).map(d => d.textContent)).size)`); n != "1" {
		t.Errorf("%s ui/initialize messages: the page must make one handshake", n)
	}
}

// waitJS polls the condition cond in the harness every 20 ms, for up to testwait.Deadline.
func waitJS(t testing.TB, tab context.Context, cond string) {
	t.Helper()
	ms := testwait.Deadline().Milliseconds() * 9 / 10
	ctx, cancel := context.WithTimeout(tab, testwait.Deadline())
	defer cancel()
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`new Promise(r => { const end = Date.now() + %d; const w = () => { let v = false; try { v = !!(%s); } catch (e) {} v ? r(true) : Date.now() > end ? r(false) : setTimeout(w, 20); }; w(); })`, ms, cond), chromedp.EvalAwaitPromise))
	if err != nil || !ok {
		state, _ := chromedp.Run(testwait.Context(t, tab), chromedp.Evaluate[string](`document.querySelector("aside").innerText.slice(0, 2000) + "\n--overlay--\n" + document.getElementById("overlay").textContent`))
		t.Fatalf("waiting for %s: %v\n%s", cond, err, state)
	}
}

func js(t testing.TB, tab context.Context, expr string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, testwait.Deadline())
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

const (
	tool = `document.querySelector('[data-tool="%s"]')`
	call = tool + `.querySelector("textarea").value = %q, ` + tool + `.querySelector("button").click(), ""`
	out  = tool + `.querySelector(".out").textContent`
)

// TestHarness drives the harness as an author would: the tools appear, the read tool answers,
// the write tool asks first and runs only when allowed, an edit reaches the frame, and a
// syntax error shows over it until fixed.
func TestHarness(t *testing.T) {
	dir, tab := harnessSession(t)
	waitJS(t, tab, `document.querySelectorAll("#tools .tool").length === 2`)

	js(t, tab, fmt.Sprintf(call, "get_count", "{}", "get_count"))
	waitJS(t, tab, fmt.Sprintf(out, "get_count")+` === '{"count":0}'`)

	js(t, tab, fmt.Sprintf(call, "set_count", `{"count":5}`, "set_count"))
	waitJS(t, tab, `document.getElementById("approval").classList.contains("on")`)
	if got := js(t, tab, fmt.Sprintf(out, "set_count")); got != "" {
		t.Fatalf("the write tool ran before approval: %q", got)
	}
	js(t, tab, `document.getElementById("allow").click(), ""`)
	waitJS(t, tab, fmt.Sprintf(out, "set_count")+` === "The count is now 5."`)

	js(t, tab, fmt.Sprintf(call, "set_count", `{"count":9}`, "set_count"))
	waitJS(t, tab, `document.getElementById("approval").classList.contains("on")`)
	js(t, tab, `document.getElementById("deny").click(), ""`)
	waitJS(t, tab, fmt.Sprintf(out, "set_count")+` === "denied"`)
	js(t, tab, fmt.Sprintf(call, "get_count", "{}", "get_count"))
	waitJS(t, tab, fmt.Sprintf(out, "get_count")+` === '{"count":5}'`)

	// Arguments the schema refuses never reach the app.
	js(t, tab, fmt.Sprintf(call, "set_count", `{"count":5000}`, "set_count"))
	waitJS(t, tab, fmt.Sprintf(out, "set_count")+` === "invalid arguments: arguments.count: maximum 1000"`)

	js(t, tab, `document.getElementById("getctx").click(), ""`)
	waitJS(t, tab, `document.getElementById("context").textContent.includes("The count is 5.")`)

	// An edit reaches the frame: a new build, a new document, its new tool description.
	main := filepath.Join(dir, "src", "main.ts")
	src, _ := os.ReadFile(main)
	os.WriteFile(main, []byte(strings.Replace(string(src), "Read the current count.", "Read the count, edited.", 1)), 0o644)
	waitJS(t, tab, fmt.Sprintf(tool, "get_count")+`.querySelector(".desc").textContent === "Read the count, edited."`)

	// A syntax error shows over the frame with its place, and goes when fixed.
	os.WriteFile(main, append([]byte("const broken = ;\n"), src...), 0o644)
	waitJS(t, tab, `document.getElementById("overlay").classList.contains("on") && document.getElementById("overlay").textContent.includes("src/main.ts:1:16")`)
	os.WriteFile(main, src, 0o644)
	waitJS(t, tab, `!document.getElementById("overlay").classList.contains("on") && document.querySelector("[data-tool=get_count] .desc").textContent === "Read the current count."`)
}

// TestPorts: a taken port moves each server on to the next free one, as Vite does, and says
// so; with StrictPort it is an error that names the port and what to do.
func TestPorts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	scaffold.Write(dir, "html", false)
	// Two ports in a row that are free, the first then taken.
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port

	var log strings.Builder
	ls, err := Listen(port, false, &log)
	if err != nil {
		t.Fatalf("Listen(%d) with the port taken: %v", port, err)
	}
	hp, ap := ls.harness.Addr().(*net.TCPAddr).Port, ls.app.Addr().(*net.TCPAddr).Port
	ls.Close()
	if hp <= port || ap <= hp {
		t.Errorf("harness on %d, app on %d: want both past the taken %d, the app after the harness", hp, ap, port)
	}
	if want := fmt.Sprintf("bundle dev: port %d is taken; the harness is on %d\n", port, hp); !strings.Contains(log.String(), want) {
		t.Errorf("log %q lacks %q", log.String(), want)
	}

	// The harness's port taken; the app's (the port before a taken one, found free).
	below := port - 1
	for i := 0; freePort(below) != below; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil || i == 50 {
			t.Fatalf("no free port below a taken one: %v", err)
		}
		defer l.Close()
		port, below = l.Addr().(*net.TCPAddr).Port, l.Addr().(*net.TCPAddr).Port-1
	}
	for _, strictPort := range []int{port, below} {
		_, err = Listen(strictPort, true, io.Discard)
		if !errors.Is(err, ErrPortInUse) || !strings.Contains(err.Error(), fmt.Sprintf(":%d, the", port)) || !strings.Contains(err.Error(), "(--strict-port): stop what uses it, or give") {
			t.Errorf("strict on %d: %v", strictPort, err)
		}
	}
}

// TestURLBeforeBuild: the harness's URL is given, and the harness answers, while the first
// build runs; it says it is building, and shows the app once the build ends.
func TestURLBeforeBuild(t *testing.T) {
	release := make(chan struct{})
	first := true
	testBuildStarts = func() {
		if first {
			first = false
			<-release
		}
	}
	t.Cleanup(func() { testBuildStarts = nil })
	dir := filepath.Join(t.TempDir(), "counter")
	if _, err := scaffold.Write(dir, "ts", false); err != nil {
		t.Fatal(err)
	}
	tab := harnessOn(t, dir) // returns once Ready gave the URL and the page loaded
	waitJS(t, tab, `document.getElementById("status").textContent === "building…" && !document.getElementById("overlay").classList.contains("on")`)
	close(release)
	waitJS(t, tab, `document.querySelectorAll("#tools .tool").length === 2`)
}
