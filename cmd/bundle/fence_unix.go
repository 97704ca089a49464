//go:build !windows

package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// removeAtExit removes the folder dir when this process exits, however it exits: a fenced
// process may empty its temporary folder but not remove it from its parent, so a shell started
// before the fence waits for the end of a pipe this process holds open, then removes it. It
// has a process group of its own, so that Ctrl-C does not stop it first.
func removeAtExit(dir string) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd := exec.Command("/bin/sh", "-c", `read _ ; exec rm -rf -- "$0"`, dir)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return fmt.Errorf("start the removal of %s: %w", dir, err)
	}
	go cmd.Wait()
	keep = append(keep, w) // open until the process ends
	return nil
}

// keep holds the write ends of removeAtExit's pipes.
var keep []*os.File

// startOpener starts, before the fence, a shell that waits for a URL on its standard input
// and opens it in the browser; open gives it the URL.
func startOpener() (open func(string) error, err error) {
	cmd := exec.Command("/bin/sh", "-c", `read u && exec "$0" "$u"`, browserCommand())
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go cmd.Wait()
	return func(u string) error {
		_, err := fmt.Fprintln(w, u)
		w.Close()
		return err
	}, nil
}
