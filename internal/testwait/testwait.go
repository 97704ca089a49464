// Package testwait is how bundle's tests wait, so that they pass on a busy machine as on an
// idle one.
//
//	testwait.Until(t, "the frame to grow", func() bool { return height() > 800 })
//	u := testwait.Recv(t, "bundle dev's URL", ready)
//	ctx := testwait.Context(t, tab) // one awaited step of a browser
//
// A test awaits a condition; it never sleeps a fixed time and then asserts. What it awaits is
// bounded by a deadline (Deadline), long enough that only a condition that will never be met
// reaches it, so a slow step costs a slow step, not a failure. A test that must show that
// something does NOT happen (a second handshake, a request) can await nothing: it watches for
// a window (Window) after a condition that says the thing would have happened by then.
//
// Both are multiplied by one factor, $BUNDLE_TEST_SCALE (default 1: a two-core machine kept
// busy by other work passes), which a slower machine raises, as scripts/test raises go test's
// -timeout with it:
//
//	BUNDLE_TEST_SCALE=3 ./scripts/test
package testwait

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"
)

// deadline is the unscaled bound on one awaited condition: a page's handshake, a first build
// of an npm app, ten thousand messages through the bridge. Under -race on two busy cores the
// slowest of these took about 20 s.
const deadline = 90 * time.Second

// Scale returns $BUNDLE_TEST_SCALE, the factor every deadline and window is multiplied by:
// 1 when it is unset, and at least 1 (a test must not be made shorter than written).
func Scale() float64 {
	s, err := strconv.ParseFloat(os.Getenv("BUNDLE_TEST_SCALE"), 64)
	if err != nil || s < 1 {
		return 1
	}
	return s
}

// Scaled returns d multiplied by Scale.
func Scaled(d time.Duration) time.Duration { return time.Duration(float64(d) * Scale()) }

// Deadline is how long one awaited condition may take before the test fails: 90 s, scaled.
func Deadline() time.Duration { return Scaled(deadline) }

// Window is a scaled d: how long a test watches for something that must not happen, once
// what it waits on has happened. It is the only fixed wait a test may have, and it decides
// nothing but whether a late event would be seen; keep it short.
func Window(d time.Duration) time.Duration { return Scaled(d) }

// Quiet sleeps for Window(d): a test watching for what must not happen.
func Quiet(d time.Duration) { time.Sleep(Window(d)) }

// Context returns a context derived from parent that ends after Deadline, or when the test
// ends.
func Context(t testing.TB, parent context.Context) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(parent, Deadline())
	t.Cleanup(cancel)
	return ctx
}

// For polls cond, at first every few milliseconds and then less often, until it holds or
// Deadline passes, and reports whether it held.
func For(cond func() bool) bool {
	end := time.Now().Add(Deadline())
	for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return cond()
		}
		time.Sleep(pause)
	}
}

// Until is For that fails the test, saying what it waited for, when cond never holds.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !For(cond) {
		t.Fatalf("waited %s for %s", Deadline(), what)
	}
}

// Recv receives from ch, failing the test, saying what it waited for, when nothing comes
// within Deadline.
func Recv[T any](t testing.TB, what string, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(Deadline()):
		t.Fatalf("waited %s for %s", Deadline(), what)
		panic("unreachable")
	}
}
