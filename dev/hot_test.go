package dev

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/miniapp/bundle/internal/testwait"
	"github.com/miniapp/bundle/pipeline"
	"github.com/miniapp/bundle/render/chrome"
	"github.com/miniapp/bundle/scaffold"
	"github.com/miniapp/bundle/sourcemap"
)

// inFrame evaluates expr in the app's frame (another site than the harness's, so its own
// target in Chromium) and returns its string value.
func inFrame(t testing.TB, tab context.Context, expr string) string {
	t.Helper()
	// Chromium lists a frame's target a moment after the frame loads: look until it does
	// (a moment that a loaded machine makes seconds: the suite's one deadline).
	var n int
	for deadline := time.Now().Add(testwait.Deadline()); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		targets, err := chromedp.Targets(tab)
		if err != nil {
			t.Fatal(err)
		}
		n = len(targets)
		for _, ti := range targets {
			if ti.Type == "iframe" && strings.HasPrefix(ti.URL, "http://localhost:") {
				s, err := chrome.Attach(tab, ti.TargetID)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close(tab)
				res, err := cdp.Call(tab, s, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ReturnByValue: new(true)})
				if err != nil {
					t.Fatalf("in the frame, %s: %v", expr, err)
				}
				if d := res.ExceptionDetails; d != nil {
					t.Fatalf("in the frame, %s threw: %s %v", expr, d.Text, d.Exception)
				}
				var v string
				if err := json.Unmarshal(res.Result.Value, &v); err != nil {
					t.Fatalf("in the frame, %s is %s, not a string", expr, res.Result.Value)
				}
				return v
			}
		}
	}
	t.Fatalf("no frame of the app among %d targets", n)
	return ""
}

// TestHotStyles: a stylesheet edit reaches the frame without reloading it (the app keeps its
// state: the count set before the edit), through bundle dev's client; a script edit reloads
// it, and the harness gives the new document the last tool input again.
func TestHotStyles(t *testing.T) {
	dir, tab := harnessSession(t)
	waitJS(t, tab, `document.querySelectorAll("#tools .tool").length === 2`)
	js(t, tab, fmt.Sprintf(call, "set_count", `{"count":7}`, "set_count"))
	waitJS(t, tab, `document.getElementById("approval").classList.contains("on")`)
	js(t, tab, `document.getElementById("allow").click(), ""`)
	waitJS(t, tab, fmt.Sprintf(out, "set_count")+` === "The count is now 7."`)
	handshakes := js(t, tab, `document.getElementById("status").dataset.handshakes`)

	css := filepath.Join(dir, "src", "style.css")
	src, _ := os.ReadFile(css)
	os.WriteFile(css, append(src, []byte("h1 { color: rgb(1, 2, 3); }\n")...), 0o644)
	waitJS(t, tab, `document.getElementById("status").dataset.styled === document.getElementById("status").dataset.version`)
	if got := inFrame(t, tab, `getComputedStyle(document.querySelector("h1")).color`); got != "rgb(1, 2, 3)" {
		t.Errorf("the h1's colour in the frame is %s after the edit", got)
	}
	if got := inFrame(t, tab, `document.getElementById("count").textContent`); got != "7" {
		t.Errorf("the frame shows the count %s: it was reloaded, losing its state", got)
	}
	if now := js(t, tab, `document.getElementById("status").dataset.handshakes`); now != handshakes {
		t.Errorf("%s handshakes after a stylesheet edit, %s before: the frame reloaded", now, handshakes)
	}

	main := filepath.Join(dir, "src", "main.ts")
	msrc, _ := os.ReadFile(main)
	os.WriteFile(main, []byte(strings.Replace(string(msrc), "Read the current count.", "Read the count, edited.", 1)), 0o644)
	waitJS(t, tab, fmt.Sprintf(tool, "get_count")+`.querySelector(".desc").textContent === "Read the count, edited."`)
	waitJS(t, tab, `[...document.querySelectorAll("#log div")].some(d => d.textContent.startsWith("→") && d.textContent.includes('"method":"ui/notifications/tool-input","params":{"arguments":{"count":7}}'))`)
	if got := inFrame(t, tab, `getComputedStyle(document.querySelector("h1")).color`); got != "rgb(1, 2, 3)" {
		t.Errorf("after the reload the h1's colour is %s", got)
	}
}

// TestRuntimeOverlay: an uncaught error in the app shows over the frame placed in the
// author's file (through the source map the dev build keeps), with its source line, and goes
// with the reload that fixes it.
func TestRuntimeOverlay(t *testing.T) {
	dir, tab := harnessSession(t)
	waitJS(t, tab, `document.querySelectorAll("#tools .tool").length === 2`)
	main := filepath.Join(dir, "src", "main.ts")
	src, _ := os.ReadFile(main)
	broken := string(src) + "\nconst price: any = \"12\";\nsetTimeout(() => document.body.append(price.toFixed(2)));\n"
	os.WriteFile(main, []byte(broken), 0o644)
	line := strings.Count(broken, "\n") // the last line's number
	col := strings.Index(strings.Split(broken, "\n")[line-1], "toFixed") + 1
	place := fmt.Sprintf("%s:%d:%d: error: ", filepath.ToSlash(main), line, col)
	waitJS(t, tab, `document.getElementById("runtime").classList.contains("on") && document.getElementById("runtime").textContent.includes(`+strconv.Quote(place)+`)`)
	text := js(t, tab, `document.getElementById("runtime").textContent`)
	if !strings.Contains(text, place) || !strings.Contains(text, "toFixed is not a function") || !strings.Contains(text, "price.toFixed(2)));") {
		t.Errorf("the overlay does not place the error at %s with its line:\n%s", place, text)
	}
	os.WriteFile(main, src, 0o644)
	waitJS(t, tab, `!document.getElementById("runtime").classList.contains("on") && document.getElementById("status").dataset.handshakes === "3"`)
}

// TestStyleEditsInARow: each rebuild compares the new page with the page served, whose tree
// bundle dev keeps from the build before: two stylesheet edits in a row each give their own
// texts (the second from the first's), a save that changes nothing is the same page, and a
// script edit after them reloads.
func TestStyleEditsInARow(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "counter")
	if _, err := scaffold.Write(dir, "ts", false); err != nil {
		t.Fatal(err)
	}
	s := &server{dir: dir, opts: Options{Log: io.Discard}, subs: map[chan Build]bool{}, session: pipeline.NewSession(), harnessOrigin: "http://127.0.0.1:1"}
	defer s.session.Close()
	css, main := filepath.Join(dir, "src", "style.css"), filepath.Join(dir, "src", "main.ts")
	src, _ := os.ReadFile(css)
	msrc, _ := os.ReadFile(main)
	for i, step := range []struct {
		name, file, text string
		from, to         string // an edit's texts hold them ("" for none)
		same, reload     bool
	}{
		{"first", css, string(src), "", "", false, true},
		{"style", css, string(src) + "h1{color:#010203}\n", "", "#010203", false, false},
		{"style_again", css, string(src) + "h1{color:#040506}\n", "#010203", "#040506", false, false},
		{"unchanged", css, string(src) + "h1{color:#040506}\n", "", "", true, false},
		{"script", main, strings.Replace(string(msrc), "Read the current count.", "Read it.", 1), "", "", false, true},
	} {
		os.WriteFile(step.file, []byte(step.text), 0o644)
		s.rebuild(context.Background(), map[string]bool{step.file: true})
		st := s.state
		if !st.OK {
			t.Fatalf("%s: %s", step.name, st.Diagnostics)
		}
		if reload := st.Base == 0; reload != step.reload || st.Same != step.same {
			t.Errorf("%s: reload %v, same %v; want %v, %v", step.name, reload, st.Same, step.reload, step.same)
		}
		if step.to != "" && (len(st.Styles) != 1 || !strings.Contains(st.Styles[0].From, step.from) || !strings.Contains(st.Styles[0].To, step.to) || st.Base != i) {
			t.Errorf("%s: the edits %+v (base %d) do not take %q to %q from the page of build %d", step.name, st.Styles, st.Base, step.from, step.to, i)
		}
	}
}

// TestMapStack: the runtime overlay gives each frame's place in the page (the app's URL with
// the harness's query, as V8 writes it) in the author's file: a frame's, an eval origin's, an
// async frame's; not text of the message that looks like one (mapped before, and taken for
// the error's place), nor a place in another script of the app's origin (mapped through the
// page's map before). Stacks of Firefox and Safari, whose frames are "f@place" (as
// SpiderMonkey's js102 and JavaScriptCore's jsc write them), are mapped too.
func TestMapStack(t *testing.T) {
	const mapJSON = `{"version":3,"sources":["src/a.ts"],"sourcesContent":["abc"],"names":[],"mappings":"AAAA"}`
	smap := sourcemap.NewPage([]byte("<script type=\"module\">abc</script>"), []byte(mapJSON), "")
	const prefix = "http://localhost:5173/"
	for _, row := range []struct {
		name, stack, want, first string
	}{
		{"function", "Error: x\n    at f (http://localhost:5173/?v=3:1:23)\n", "Error: x\n    at f (src/a.ts:1:1)\n", "src/a.ts:1:1"},
		{"top_level_async", "Error: x\n    at async Promise.all (index 0)\n    at async http://localhost:5173/?v=3:1:23", "Error: x\n    at async Promise.all (index 0)\n    at async src/a.ts:1:1", "src/a.ts:1:1"},
		{"no_query", "Error: x\n    at http://localhost:5173/:1:23", "Error: x\n    at src/a.ts:1:1", "src/a.ts:1:1"},
		{"eval_origin", "Error: x\n    at eval (eval at run (http://localhost:5173/?v=3:1:23), <anonymous>:1:1)\n    at run (http://localhost:5173/?v=3:1:23)",
			"Error: x\n    at eval (eval at run (src/a.ts:1:1), <anonymous>:1:1)\n    at run (src/a.ts:1:1)", "src/a.ts:1:1"},
		{"not_in_map", "Error: x\n    at f (http://localhost:5173/?v=3:7:1)\n    at g (http://localhost:5173/?v=3:1:23)", "Error: x\n    at f (http://localhost:5173/?v=3:7:1)\n    at g (src/a.ts:1:1)", "src/a.ts:1:1"},
		{"message_with_a_place", "Error: see http://localhost:5173/?v=3:1:23 now\n    at f (data:text/javascript,f():1:1)",
			"Error: see http://localhost:5173/?v=3:1:23 now\n    at f (data:text/javascript,f():1:1)", ""},
		{"another_script", "Error: x\n    at f (http://localhost:5173/sdk.js:1:23)", "Error: x\n    at f (http://localhost:5173/sdk.js:1:23)", ""},
		// The harness open in Firefox (SpiderMonkey's stack) and Safari (JavaScriptCore's):
		{"spidermonkey", "f@http://localhost:5173/?v=3:1:23\n@http://localhost:5173/?v=3 line 4 > eval:1:1\nasync*@http://localhost:5173/?v=3:1:23\n",
			"f@src/a.ts:1:1\n@http://localhost:5173/?v=3 line 4 > eval:1:1\nasync*@src/a.ts:1:1\n", "src/a.ts:1:1"},
		{"javascriptcore", "f@http://localhost:5173/?v=3:1:23\neval code@\neval@[native code]\nglobal code@http://localhost:5173/?v=3:1:23",
			"f@src/a.ts:1:1\neval code@\neval@[native code]\nglobal code@src/a.ts:1:1", "src/a.ts:1:1"},
		{"another_origin", "Error: x\n    at f (http://localhost:51730/?v=3:1:23)", "Error: x\n    at f (http://localhost:51730/?v=3:1:23)", ""},
	} {
		t.Run(row.name, func(t *testing.T) {
			got, first := mapStack(row.stack, prefix, smap)
			f := ""
			if first != nil {
				f = first.String()
			}
			if got != row.want || f != row.first {
				t.Errorf("mapStack = %q, first %q\nwant %q, first %q", got, f, row.want, row.first)
			}
		})
	}
}
