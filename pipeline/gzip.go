package pipeline

import (
	"compress/flate"
	"io"
	"runtime"
	"sync"
)

// The size line's gzip figure is the size of the page gzipped at level 6, what servers use by
// default (level 9 costs three times as long for a figure about 0.1% smaller). The page is
// compressed as pigz does, in chunks on all cores, each primed with the 32 KB before it and
// ended with a sync flush: one valid gzip stream, within 0.1% of a one-core one. And it is
// begun before the page is final: all that follows its first chunk is compressed while the
// policy is computed and the page checked, since the policy goes in <head>, before that.

// gzipChunk is the part of a page one core compresses.
const gzipChunk = 128 << 10

// gzipper computes the gzip size of a page that is final but for text inserted at one
// offset.
type gzipper struct {
	tailLen int // bytes at the end of the page compressed early, in chunks
	wg      sync.WaitGroup
	sizes   []int // of those chunks
	head    int   // of the chunk before them
}

// startGzip begins compressing page on other cores, from gzipChunk bytes after at, the
// offset where text will still be inserted.
func startGzip(page []byte, at int) *gzipper {
	tail := min(len(page), at+gzipChunk)
	g := &gzipper{tailLen: len(page) - tail}
	n := (g.tailLen + gzipChunk - 1) / gzipChunk
	g.sizes = make([]int, n)
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	g.wg.Add(n)
	go func() {
		for i := range n {
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; g.wg.Done() }()
				var c counter
				start := tail + i*gzipChunk
				deflateChunk(&c, page, start, min(len(page), start+gzipChunk))
				g.sizes[i] = int(c)
			}()
		}
	}()
	return g
}

// finish begins compressing the first chunk of final, the page given to startGzip with
// text inserted at the offset given there.
func (g *gzipper) finish(final []byte) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		var c counter
		deflateChunk(&c, final, 0, len(final)-g.tailLen) // the tail ends both pages
		g.head = int(c)
	}()
}

// size waits for the chunks and returns the gzip size of the final page.
func (g *gzipper) size() int {
	g.wg.Wait()
	total := 10 + 8 + g.head // gzip header and trailer
	for _, s := range g.sizes {
		total += s
	}
	return total
}

// deflateChunk writes to w the deflate blocks of b[start:end] as they stand in the stream of
// all of b: with the 32 KB before start as dictionary, ended by a sync flush, or by the
// final block when end is the end of b.
func deflateChunk(w io.Writer, b []byte, start, end int) {
	fw, _ := flate.NewWriterDict(w, flate.DefaultCompression, b[max(0, start-32<<10):start]) // the level is valid
	fw.Write(b[start:end])
	if end == len(b) {
		fw.Close()
	} else {
		fw.Flush()
	}
}

type counter int

func (c *counter) Write(p []byte) (int, error) {
	*c += counter(len(p))
	return len(p), nil
}
