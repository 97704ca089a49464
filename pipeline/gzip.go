package pipeline

import (
	"io"

	"github.com/klauspost/compress/gzip"
)

// gzipSize returns the size of b gzipped: the figure of the size line, what a host that
// compresses the page sends. It is klauspost/compress's deflate at level 7, one stream on
// one core: within 1% of zlib's default level 6 (what Node's zlib, Apache and Vite's report
// use; +0.4 to +0.8% on the samples and bench/heavy) at 1.6 to 2x the speed of Go's level 6,
// which is itself within 0.5% (order-book's page: 6 ms against 10 ms in a fresh process,
// heavy's 25 against 42). Go's level 5 saves less than 10% in a fresh process; compressing in
// chunks on every core, as pigz does, measured no faster on two cores (level 6 is bound by its
// hash tables' memory, not by the core).
func gzipSize(b []byte) int {
	var c counter
	gzipTo(&c, b)
	return int(c)
}

// gzipTo writes b to w gzipped as gzipSize measures it.
func gzipTo(w io.Writer, b []byte) {
	z, _ := gzip.NewWriterLevel(w, 7) // the level is valid
	z.Write(b)
	z.Close()
}

// counter is an io.Writer that counts what is written to it.
type counter int

func (c *counter) Write(p []byte) (int, error) {
	*c += counter(len(p))
	return len(p), nil
}
