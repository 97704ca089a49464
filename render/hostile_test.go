package render

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/miniapp/bundle/internal/testwait"
	"github.com/miniapp/bundle/registry"
)

// problem returns the first problem of kind whose text holds text, or nil.
func problem(rep *Report, kind, text string) *Problem {
	for i, p := range rep.Problems {
		if p.Kind == kind && strings.Contains(p.Text, text) {
			return &rep.Problems[i]
		}
	}
	return nil
}

// TestRenderWebRTC: Chromium gathers no candidate that would leave the proxy (no STUN over
// UDP, no DNS for the STUN server's name), and a page that opens a peer connection (in its
// window, and in a frame it makes) fails, unless its entry says webrtc: true, when it is a
// warning.
func TestRenderWebRTC(t *testing.T) {
	r := start(t, Options{Calls: []Call{{Tool: "candidates", Arguments: []byte("{}")}}})
	pg, entry := build(t, filepath.Join("testdata", "webrtc"))
	undeclared := *entry
	undeclared.WebRTC = false
	for _, row := range []struct {
		name     string
		entry    *registry.Entry
		severity string
	}{{"declared", entry, Warning}, {"undeclared", &undeclared, Error}, {"no_entry", nil, Error}} {
		t.Run(row.name, func(t *testing.T) {
			rep, err := r.Render(context.Background(), "webrtc.html", pg, row.entry)
			if err != nil {
				t.Fatal(err)
			}
			p := problem(rep, "webrtc", "created an RTCPeerConnection with the ICE servers stun:stun.leak.example:3478")
			if p == nil || p.Severity != row.severity {
				t.Errorf("want a webrtc %s: %+v", row.severity, rep.Problems)
			}
			if len(rep.Calls) != 1 {
				t.Fatalf("calls: %+v", rep.Calls)
			}
			t.Logf("candidates gathered: %q", rep.Calls[0].Text)
			for _, c := range strings.Split(rep.Calls[0].Text, "\n") {
				if strings.Contains(strings.ToLower(c), " udp ") {
					t.Errorf("Chromium gathered a UDP candidate: %s", c)
				}
			}
		})
	}
}

// TestRenderPopup: the windows a page opens are watched with it, their requests counted as
// its own, and closed with it: nothing they do lands on the next page rendered.
func TestRenderPopup(t *testing.T) {
	r := start(t, Options{})
	pg, entry := build(t, filepath.Join("testdata", "popup"))
	rep, err := r.Render(context.Background(), "popup.html", pg, entry)
	if err != nil {
		t.Fatal(err)
	}
	if problem(rep, "popup", "opened a window") == nil {
		t.Errorf("no popup reported: %+v", rep.Problems)
	}
	if problem(rep, "request", "https://popup.example/now") == nil {
		t.Errorf("the popup's request is not the page's: %+v %v", rep.Problems, rep.Requests)
	}
	targets, err := chromedp.Targets(r.browser)
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range targets {
		if tg.Type == "page" && tg.OpenerID != "" {
			t.Errorf("a window the page opened is still open: %s %s", tg.TargetID, tg.URL)
		}
	}
	// The next page: the refresh the second window held (2 s after it opened) never comes.
	hello, helloEntry := build(t, filepath.Join("..", "samples", "hello"))
	deadline := time.Now().Add(testwait.Window(3 * time.Second))
	for time.Now().Before(deadline) {
		rep, err := r.Render(context.Background(), "hello.html", hello, helloEntry)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Failed() || len(rep.Requests) > 0 {
			t.Fatalf("the next page got what the popup did: %+v %v", rep.Problems, rep.Requests)
		}
	}
}

// TestRenderLateRequest: a request the page makes 1.5 s after the calls (on a timer) is
// counted: the page is judged once it is quiet, not after a fixed window.
func TestRenderLateRequest(t *testing.T) {
	r := start(t, Options{Calls: []Call{{Tool: "save", Arguments: []byte("{}")}}})
	pg, entry := build(t, filepath.Join("testdata", "laterequest"))
	rep, err := r.Render(context.Background(), "laterequest.html", pg, entry)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Calls) != 1 || rep.Calls[0].Text != "saved" {
		t.Fatalf("calls: %+v", rep.Calls)
	}
	if problem(rep, "request", "GET https://api.example.com/late") == nil {
		t.Errorf("the late request was not counted: %+v %v", rep.Problems, rep.Requests)
	}
}

// TestRenderHostNeverTheAppsOrigin: an app whose hosts name the origin render serves apps on
// is framed by a host page on that origin and served on another, so that it cannot reach into
// the host page to forge its report.
func TestRenderHostNeverTheAppsOrigin(t *testing.T) {
	r := start(t, Options{Calls: []Call{{Tool: "where", Arguments: []byte("{}")}}})
	pg, entry := build(t, filepath.Join("testdata", "samehost"))
	rep, err := r.Render(context.Background(), "samehost.html", pg, entry)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Calls) != 1 {
		t.Fatalf("calls: %+v (%+v)", rep.Calls, rep.Problems)
	}
	f := strings.Fields(rep.Calls[0].Text)
	if len(f) < 3 || f[0] == f[1] || f[1] != "https://app.render.test" || !strings.HasPrefix(strings.Join(f[2:], " "), "refused:") {
		t.Errorf("app origin, host origin, forgery: %q", rep.Calls[0].Text)
	}
	for _, e := range []*struct{ hosts []string }{{[]string{"https://app.render.test"}}, {[]string{"https://*.render.test"}}} {
		entry.Hosts = e.hosts
		for _, d := range []string{"", "app.render.test", "render.render.test", "app-2.render.test"} {
			entry.Meta.UI.Domain = d
			if h, a := origins(entry); h == a {
				t.Errorf("hosts %v, domain %q: host and app both on %s", e.hosts, d, h)
			}
		}
	}
}

// TestRenderTimeout: the default timeout scales with the page and the calls; a page that
// runs out of it is told which step render waited on, and how to give more.
func TestRenderTimeout(t *testing.T) {
	r := &Renderer{}
	for _, row := range []struct {
		bytes, calls int
		want         time.Duration
	}{{0, 0, 10 * time.Second}, {250 << 10, 0, 15 * time.Second}, {600 << 10, 2, 32 * time.Second}} {
		r.opts.Calls = make([]Call, row.calls)
		if got, budget := r.timeout(make([]byte, row.bytes)); got != row.want || !strings.Contains(budget, fmt.Sprintf("%d KB page with %d call", row.bytes>>10, row.calls)) {
			t.Errorf("%d bytes, %d calls: %v (%s), want %v", row.bytes, row.calls, got, budget, row.want)
		}
	}
	rr := start(t, Options{Timeout: 2 * time.Second})
	b, err := os.ReadFile(filepath.Join("testdata", "nosdk.html"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := rr.Render(context.Background(), "nosdk.html", b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if problem(rep, "handshake", "render waited for the page's ui/initialize and got none in 2s (the timeout given)") == nil {
		t.Errorf("the timeout does not say the step: %+v", rep.Problems)
	}
}
