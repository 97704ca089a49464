// Package measure times the commands that bench/'s programs compare: wall time and peak
// resident memory of one run, and the median of several.
package measure

import (
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"syscall"
	"time"
)

// Run runs c and returns its wall time and the peak resident set of its largest process, in
// KB (wait4's ru_maxrss). A command that fails gives its error and what it printed.
func Run(c *exec.Cmd) (time.Duration, int64, error) {
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	start := time.Now()
	err := c.Run()
	d := time.Since(start)
	if err != nil {
		return 0, 0, fmt.Errorf("%v: %s", err, out.String())
	}
	var rss int64
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss
	}
	return d, rss, nil
}

// Median returns the median of ds (the upper one of an even count); ds is left as it was.
func Median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
