// Command bundle builds mini apps into one offline HTML file pinned by SHA-256, and checks
// that HTML loads nothing from outside itself.
//
// Run "bundle help" for the commands and their exit codes.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	_ "github.com/miniapp/bundle/cmd/bundle/internal/prefence" // the fence's first round, early
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first signal stops the work, which then returns; a second one, the default way.
	context.AfterFunc(ctx, stop)
	e := newEnv(os.Stdin, os.Stdout, os.Stderr)
	e.fence = true // the command's own process: build and dev confine it
	code := runIn(ctx, e, os.Args[1:])
	stop()
	os.Exit(code)
}
