package dev

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/internal/testwait"
	"github.com/miniapp/bundle/scaffold"
)

// startDev runs bundle dev on a new html app and returns the app folder, the harness's
// address and the app's.
func startDev(t *testing.T) (dir, harness, app string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "app")
	if _, err := scaffold.Write(dir, "html", false); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- Run(ctx, dir, Options{Ready: func(u string) { ready <- u }}) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case u := <-ready:
		harness = strings.TrimSuffix(strings.TrimPrefix(u, "http://"), "/")
	case err := <-done:
		t.Fatalf("Run: %v", err)
	case <-time.After(testwait.Deadline()):
		t.Fatalf("bundle dev did not start within %s", testwait.Deadline())
	}
	resp, err := http.Get("http://" + harness + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	_, rest, _ := strings.Cut(string(page), `"appOrigin":"http://`)
	app, _, _ = strings.Cut(rest, `"`)
	if app == "" {
		t.Fatalf("no app origin in the harness page")
	}
	// The URL comes before the first build ends: wait for it on the event stream.
	resp, err = http.Get("http://" + harness + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok && !strings.Contains(d, `"building":true`) {
			return dir, harness, app
		}
	}
	t.Fatalf("the event stream ended before the first build: %v", sc.Err())
	return
}

// TestDevHostHeader: both servers answer only their own loopback names and ports; a page on
// another name (DNS rebinding makes it resolve to 127.0.0.1) gets 403, as from Vite.
func TestDevHostHeader(t *testing.T) {
	_, harness, app := startDev(t)
	_, hport, _ := net.SplitHostPort(harness)
	_, aport, _ := net.SplitHostPort(app)
	rows := []struct {
		addr, host, path string
		code             int
	}{
		{harness, "127.0.0.1:" + hport, "/", 200},
		{harness, "localhost:" + hport, "/", 200},
		{harness, "LOCALHOST:" + hport, "/", 200},
		{harness, "[::1]:" + hport, "/", 200},
		{harness, "attacker.example:" + hport, "/", 403},
		{harness, "attacker.example:" + hport, "/events", 403},
		{harness, "127.0.0.1.nip.io:" + hport, "/", 403},
		{harness, "127.0.0.1", "/", 403},
		{harness, "127.0.0.1:" + aport, "/", 403},
		{app, "localhost:" + aport, "/", 200},
		{app, "attacker.example:" + aport, "/", 403},
		{app, "localhost:" + hport, "/", 403},
	}
	for _, row := range rows {
		req, _ := http.NewRequest(http.MethodGet, "http://"+row.addr+row.path, nil)
		req.Host = row.host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s Host %s: %v", row.addr, row.host, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != row.code {
			t.Errorf("%s%s with Host %q: %d, want %d", row.addr, row.path, row.host, resp.StatusCode, row.code)
		}
		if row.code == 403 && (!strings.Contains(string(body), "bundle dev answers only") || strings.Contains(string(body), "data:")) {
			t.Errorf("403 body: %s", body)
		}
	}
}

// TestDevTimeouts: connections that send nothing, and keep-alive connections left idle, are
// closed; the event stream outlives the write timeout and still carries the next build.
func TestDevTimeouts(t *testing.T) {
	saved := timeouts
	timeouts.header, timeouts.read, timeouts.write, timeouts.idle = 500*time.Millisecond, time.Second, time.Second, time.Second
	t.Cleanup(func() { timeouts = saved })
	dir, harness, app := startDev(t)

	for _, addr := range []string{harness, app} {
		// 20 connections that send nothing, and 20 left idle after a request.
		var conns []net.Conn
		for i := range 40 {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
			if i%2 == 1 {
				host := "127.0.0.1"
				if addr == app {
					host = "localhost"
				}
				_, port, _ := net.SplitHostPort(addr)
				fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s:%s\r\n\r\n", host, port)
				resp, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err != nil {
					t.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}
		for i, c := range conns {
			c.SetReadDeadline(time.Now().Add(testwait.Deadline()))
			if _, err := io.Copy(io.Discard, c); err != nil {
				t.Errorf("%s connection %d: %v: the server did not close it", addr, i, err)
			}
			c.Close()
		}
	}

	// The stream: open, wait past the write and read timeouts, rebuild, read the new build.
	req, _ := http.NewRequest(http.MethodGet, "http://"+harness+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				events <- d
			}
		}
		close(events)
	}()
	first := testwait.Recv(t, "the first build's event", events)
	time.Sleep(3 * time.Second) // the scenario: past the write and read timeouts (1 s)
	index := filepath.Join(dir, "index.html")
	src, _ := os.ReadFile(index)
	os.WriteFile(index, append(src, []byte("\n<!-- edited -->\n")...), 0o644)
	select {
	case e, ok := <-events:
		if !ok || !strings.Contains(e, `"version":2`) {
			t.Errorf("after the timeouts the stream gave %q (open %v); first %s", e, ok, first)
		}
	case <-time.After(testwait.Deadline()):
		t.Errorf("no event %s after an edit: the stream died with the timeouts", testwait.Deadline())
	}
}
