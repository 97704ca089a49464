package pipeline

import (
	"bytes"
	"context"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/miniapp/bundle/internal/testwait"
)

// TestGateLetsEveryLoadIn: when goroutines that are not the build's keep the count over the
// bound, every load still gets in.
func TestGateLetsEveryLoadIn(t *testing.T) {
	base := runtime.NumGoroutine()
	g := &gate{limit: base + 8}
	release := make(chan struct{})
	var hold sync.WaitGroup
	for range 16 { // over the bound until released
		hold.Add(1)
		go func() { defer hold.Done(); <-release }()
	}
	var mu sync.Mutex
	var order []int
	var done sync.WaitGroup
	for i := range 40 {
		done.Add(1)
		go func() {
			defer done.Done()
			g.enter()
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
		}()
		time.Sleep(200 * time.Microsecond) // enter one after the other
	}
	finished := make(chan struct{})
	go func() { done.Wait(); close(finished) }()
	// Let in by the stand-still rule while the count is held up.
	testwait.Recv(t, "every load to get in while other goroutines hold the count over the bound", finished)
	close(release)
	hold.Wait()
	if len(order) != 40 {
		t.Fatalf("%d of 40 loads got in", len(order))
	}
}

// TestBuildUnderManyGoroutines: a build finishes, with the same bytes, while the process holds
// far more goroutines than the gate's bound (a server's connections, other builds).
func TestBuildUnderManyGoroutines(t *testing.T) {
	dir := sampleDir(t, "todo-ts")
	want, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	for range 2 * loadGateLimit {
		go func() { <-release }()
	}
	defer close(release)
	got, err := Build(testwait.Context(t, context.Background()), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.HTML, want.HTML) {
		t.Error("the page differs when the build waited at the gate")
	}
}

// TestGrowStack: growStack leaves its goroutine a stack of parseStack, reserved in one step
// (if the compiler dropped the unused pad, these goroutines would keep their 8 KB and a parse
// would grow them by doublings again).
func TestGrowStack(t *testing.T) {
	const n = 256
	sample := []metrics.Sample{{Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(sample)
	before := sample[0].Value.Uint64()
	ready, release := make(chan struct{}), make(chan struct{})
	var done sync.WaitGroup
	for range n {
		done.Add(1)
		go func() {
			defer done.Done()
			growStack(false)
			ready <- struct{}{}
			<-release
		}()
	}
	for range n {
		<-ready
	}
	metrics.Read(sample)
	grown := int64(sample[0].Value.Uint64()) - int64(before)
	close(release)
	done.Wait()
	if per := grown / n; per < parseStack/2+1 {
		t.Errorf("%d goroutines past growStack hold %d KB of stack more than before, %d KB each: want %d KB each", n, grown>>10, per>>10, parseStack>>10)
	}
}
