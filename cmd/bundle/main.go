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
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first signal stops the work, which then returns; a second one, the default way.
	context.AfterFunc(ctx, stop)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
