package chrome_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/miniapp/bundle/internal/testwait"
	"github.com/miniapp/bundle/render/chrome"
)

// busy changes its document's root element all the time (an attribute, a child), so that
// the DOM events of a client that knows the root never stop.
const busy = `<!doctype html><title>busy</title><p>busy</p><script>
let n = 0;
setInterval(() => {
  document.documentElement.dataset.n = ++n;
  document.documentElement.append(document.createComment(n));
  document.documentElement.lastChild.remove();
}, 1);
</script>`

// changed awaits the busy page's first change and gives its address.
const changed = `new Promise(done => {
  const check = () => document.documentElement.dataset.n > 0 ? done(location.href) : setTimeout(check, 1);
  check();
})`

// TestAttach: a session on another target of the tab (a frame of another site, which
// Chromium runs as its own target with site isolation; a window the page opened) evaluates
// there, and ends with Close, while that target's document changes all the time. Its
// chromedp.NewContext(tab, chromedp.WithTargetID(id)) version raced under -race (chromedp
// v0.23.0 writes the target's DOM model from the goroutine that attaches while the
// target's goroutine reads it for each DOM event): 2 runs of 10 reported the race, and
// TestHotStyles failed once so.
func TestAttach(t *testing.T) {
	tab, top, other := open(t)
	for _, tc := range []struct {
		name, page, kind string
	}{
		{"frame of another site", `<iframe src="` + other + `/busy"></iframe>`, "iframe"},
		{"window the page opened", `<script>window.open("` + other + `/busy")</script>`, "page"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testwait.Context(t, tab)
			if err := chromedp.Do(ctx, chromedp.Navigate(top+"/?page="+url.QueryEscape(tc.page))); err != nil {
				t.Fatal(err)
			}
			var id target.ID
			testwait.Until(t, "the busy page's target", func() bool {
				targets, err := chromedp.Targets(ctx)
				if err != nil {
					t.Fatal(err)
				}
				for _, ti := range targets {
					// A window's target is listed from its about:blank on: its title says the
					// busy page is parsed. A frame's is made as the busy page commits.
					if ti.Type == tc.kind && ti.URL == other+"/busy" && (ti.Type == "iframe" || ti.Title == "busy") {
						id = ti.TargetID
						return true
					}
				}
				return false
			})
			for i := range 5 {
				s, err := chrome.Attach(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				res, err := cdp.Call(ctx, s, runtime.Evaluate, runtime.EvaluateParams{Expression: changed, ReturnByValue: new(true), AwaitPromise: new(true)})
				if err != nil {
					t.Fatalf("attach %d: %v", i, err)
				}
				var got string
				json.Unmarshal(res.Result.Value, &got)
				if want := other + "/busy"; got != want {
					t.Errorf("attach %d: evaluated to %q, want %q (the busy page's)", i, got, want)
				}
				if err := s.Close(ctx); err != nil {
					t.Fatalf("attach %d: close: %v", i, err)
				}
				if _, err := cdp.Call(ctx, s, runtime.Evaluate, runtime.EvaluateParams{Expression: "1"}); err == nil {
					t.Errorf("attach %d: a closed session still evaluates", i)
				}
			}
		})
	}
}

// open starts Chromium (site isolation on, as bundle dev's tests run it) with a tab, and a
// server of the busy page (/busy) and of the page its query gives (/?page=…); it returns the
// tab and the server's origin as two sites, 127.0.0.1 and localhost.
func open(t *testing.T) (tab context.Context, top, other string) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/busy" {
			fmt.Fprint(w, busy)
			return
		}
		fmt.Fprint(w, r.URL.Query().Get("page"))
	}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	exe, err := chrome.Find("")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chrome.Options(exe, t.TempDir(), "", false, false), chromedp.WSURLReadTimeout(testwait.Deadline()))
	var cancelTab context.CancelFunc
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	tab, cancelTab = chromedp.NewContext(alloc)
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return tab, srv.URL, "http://localhost:" + port
}
