package main

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/miniapp/bundle/host"
)

func runServe(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "serve", "DIR",
		"Serve a folder of built bundles and its registry.json (or the entries bundle build wrote).\n"+
			"Every bundle is verified against its entry at start; one that does not match is not\n"+
			"served, nor a registry whose ids break the manifest's rule. Pages carry the policy their\n"+
			"entry's fields give, as a header with frame-ancestors from the app's hosts, COEP\n"+
			"credentialless, CORP cross-origin, nosniff and an ETag from their SHA-256;\n"+
			"/<id>/<sha256>.html is immutable, /<id>.html and /registry.json revalidate (304).\n"+
			"Every response is compressed at start (Brotli, gzip) and chosen by Accept-Encoding;\n"+
			"ranges are served; a client that stops reading is dropped after 10 s.",
		`  # serve what bundle build wrote
  bundle build --out public/apps samples/hello samples/order-book
  bundle serve public/apps

  # on another port
  bundle serve --addr 127.0.0.1:9000 public/apps
`)
	addr := fs.String("addr", "127.0.0.1:4173", "`host:port` to listen on")
	if code, ok := parseFlags(e, fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "bundle serve: give one folder of built bundles\nRun \"bundle serve -h\" for usage.")
		return exitUsage
	}
	dir := fs.Arg(0)
	switch st, err := os.Stat(dir); {
	case errors.Is(err, iofs.ErrNotExist):
		fmt.Fprintf(e.stderr, "bundle serve: there is no folder %s: give the folder bundle build wrote (its --out, or APP_DIR/dist)\n", dir)
		return exitUsage
	case err != nil:
		fmt.Fprintf(e.stderr, "bundle serve: cannot read %s: %v\n", dir, err)
		return exitUsage
	case !st.IsDir():
		fmt.Fprintf(e.stderr, "bundle serve: %s is a file, not a folder: give the folder that holds the bundles (%s)\n", dir, filepath.Dir(dir))
		return exitUsage
	}
	host_, port, err := net.SplitHostPort(*addr)
	if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 0 || n > 65535 {
		fmt.Fprintf(e.stderr, "bundle serve: --addr %q is not host:port; give one such as 127.0.0.1:4173\n", *addr)
		return exitUsage
	}
	srv, err := host.NewServer(dir)
	if srv != nil {
		for _, r := range srv.Refused {
			fmt.Fprintf(e.stderr, "bundle serve: not serving %s: %v\n", r.ID, r.Err)
		}
	}
	switch {
	case errors.Is(err, host.ErrNoBundles) && srv != nil:
		fmt.Fprintf(e.stderr, "bundle serve: %v\n", err)
		return exitRefused
	case err != nil:
		fmt.Fprintf(e.stderr, "bundle serve: %v\n", err)
		return exitUsage
	}
	for _, w := range srv.Warnings {
		fmt.Fprintf(e.stderr, "bundle serve: warning: %s\n", w)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "bundle serve: %s\n", listenError(*addr, host_, port, err))
		return exitUsage
	}
	hs := host.NewHTTPServer(srv)
	fmt.Fprintf(e.stdout, "serving %d %s from %s at http://%s/registry.json\n", len(srv.IDs()), plural(len(srv.IDs()), "bundle", "bundles"), dir, ln.Addr())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err = <-done:
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = hs.Shutdown(shutdown)
		cancel()
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(e.stderr, "bundle serve: %v\n", err)
		return exitInternal
	}
	if len(srv.Refused) > 0 {
		return exitRefused
	}
	return exitOK
}

// listenError says why serve cannot listen on addr and what to do.
func listenError(addr, host, port string, err error) string {
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		p, _ := strconv.Atoi(port)
		for q := p + 1; q <= 65535 && q < p+100; q++ {
			if l, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(q))); err == nil {
				l.Close()
				return fmt.Sprintf("%s is taken: stop what uses it, or give another port with --addr (%s is free)", addr, net.JoinHostPort(host, strconv.Itoa(q)))
			}
		}
		return fmt.Sprintf("%s is taken: stop what uses it, or give another port with --addr", addr)
	case errors.Is(err, syscall.EACCES):
		return fmt.Sprintf("cannot listen on %s: this user may not use port %s; give a port above 1023 with --addr", addr, port)
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return fmt.Sprintf("cannot listen on %s: %s is not an address of this machine; give one that is, such as 127.0.0.1:%s", addr, host, port)
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return fmt.Sprintf("cannot listen on %s: %s is not a name this machine resolves; give an address such as 127.0.0.1:%s", addr, host, port)
	}
	return fmt.Sprintf("cannot listen on %s: %v", addr, err)
}
