package pipeline

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// loadGate bounds how far esbuild's parses run ahead of it. esbuild starts a goroutine for
// each file as soon as an import names it, and each hands its result over an unbuffered
// channel to the one goroutine that scans the graph; on a few cores thousands of parses get
// ahead of that scanner, and each finished one waits there holding the stack its parse grew,
// which the runtime shrinks only at a collection (bench/heavy, 12,000 modules, held 650 MB of
// such stacks). Every file's load passes the gate first: while the process runs more than
// loadGateLimit goroutines besides those waiting, a load waits, parked, on the 16 KB stack
// esbuild's own frames need, and is let in, oldest first, as goroutines end (the peak falls
// to about 185 MB, most of it loads waiting there). The gate never refuses and
// never changes what is built, only when a file is read.
//
// The 16 KB is close to full: esbuild's parseFile alone has a 10.6 KB frame. Anything that
// grows the frames below a waiting load doubles its stack to 32 KB and bench/heavy's peak by
// about 200 MB: a fatter gate callback did, and so did profile-guided optimisation, which
// inlined into parseFile and esbuild's plugin wrapper (tried and reverted).
var loadGate = &gate{limit: loadGateLimit}

// loadGateLimit is the gate's bound: high enough that the cores never wait for work (on two
// cores bench/heavy takes the same time from 128 to 1,024), low enough that waiting parses'
// stacks stay small; it grows with the cores, which parallel builds of many apps keep busy.
var loadGateLimit = 128 * max(2, runtime.GOMAXPROCS(0))

type gate struct {
	limit int
	// open counts the interrupted builds still running: while there are any, loads do not
	// wait (theirs end as soon as they are let in, and the build must not wait their turn).
	open   atomic.Int32
	mu     sync.Mutex
	queue  []chan struct{}
	keeper bool
}

// enter returns when the load may go on.
func (g *gate) enter() {
	if g.open.Load() > 0 {
		return
	}
	g.mu.Lock()
	if len(g.queue) == 0 && runtime.NumGoroutine() <= g.limit {
		g.mu.Unlock()
		return
	}
	ch := make(chan struct{})
	g.queue = append(g.queue, ch)
	if !g.keeper {
		g.keeper = true
		go g.keep()
	}
	g.mu.Unlock()
	<-ch
}

// interrupt opens the gate while an interrupted build ends, and lets every waiting load in:
// that build's loads end as soon as they are let in, and must not wait their turn (other
// builds' loads go unpaced meanwhile). The function it returns closes it again.
func (g *gate) interrupt() func() {
	g.open.Add(1)
	g.mu.Lock()
	for _, ch := range g.queue {
		close(ch)
	}
	g.queue = nil
	g.mu.Unlock()
	return func() { g.open.Add(-1) }
}

// keep lets waiting loads in as goroutines end. When the count stands still for a
// millisecond (goroutines of something else than a build hold it above the bound, or one
// long parse runs alone), it lets in a few anyway, so that a build always progresses.
func (g *gate) keep() {
	last, still := -1, 0
	for {
		time.Sleep(100 * time.Microsecond)
		g.mu.Lock()
		n := runtime.NumGoroutine() - len(g.queue)
		if n == last {
			still++
		} else {
			last, still = n, 0
		}
		admit := g.limit - n
		if still >= 10 {
			admit, still = max(admit, 4), 0
		}
		for ; admit > 0 && len(g.queue) > 0; admit-- {
			close(g.queue[0])
			g.queue = g.queue[1:]
		}
		if len(g.queue) == 0 { // flush may have emptied it
			g.keeper = false
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
	}
}

// growStack grows the calling goroutine's stack to parseStack in one step, before esbuild's
// parse, which would otherwise grow it from 16 KB by doublings, each copying every frame of a
// deep recursion (bench/heavy: a fifth of the build's CPU time in runtime.copystack). The
// frame is reserved, never written: the pad is declared only on a branch no call takes, so
// nothing is zeroed. It is called after the gate, so a load waiting there keeps 16 KB.
//
//go:noinline
func growStack(never bool) {
	if never {
		var pad [parseStack - 28<<10]byte
		growSink(&pad)
	}
}

// parseStack is the stack a load is given before its parse: the frame growStack reserves,
// with the ~13 KB of esbuild's frames under it, fits in it and not in half of it. 128 KB was
// as fast on bench/heavy but not as safe: the loads let in hold their stacks against the
// memory limit, and with 128 KB each the first collection came earlier and, in 3 runs of 60,
// the second one before esbuild's link phase started its thousands of goroutines, whose
// stacks then took the process 90 MB over the limit (none in 100 runs with 64 KB).
const parseStack = 64 << 10

//go:noinline
func growSink(p *[parseStack - 28<<10]byte) { p[0]++ }
