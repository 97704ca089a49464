package pipeline

import "compress/gzip"

// gzipSize returns the size of b gzipped at level 6, what servers use by default (level 9
// costs three times as long for a figure about 0.1% smaller). It is one stream on one core:
// compressing in chunks on every core, as pigz does, measured slower in a one-shot process
// on two cores (each chunk's compressor is fresh memory), and no faster in a build.
func gzipSize(b []byte) int {
	var c counter
	w, _ := gzip.NewWriterLevel(&c, gzip.DefaultCompression) // the level is valid
	w.Write(b)
	w.Close()
	return int(c)
}

// counter is an io.Writer that counts what is written to it.
type counter int

func (c *counter) Write(p []byte) (int, error) {
	*c += counter(len(p))
	return len(p), nil
}
