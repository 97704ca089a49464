//go:build !linux

package confine

import (
	"os"
	"os/exec"
)

func available() Status { return Status{} }

// Restrict does nothing where there is no Landlock: Status{} says that only the build's path
// checks hold.
func (f Fence) Restrict() (Status, error) { return Status{}, nil }

// Prepare does nothing where there is no Landlock.
func Prepare() error { return nil }

// PreparedAtStart does nothing where there is no Landlock.
func PreparedAtStart() {}

// Start starts cmd unconfined where there is no Landlock: Status{} says so.
func (f Fence) Start(cmd *exec.Cmd) (Status, error) { return Status{}, cmd.Start() }

// Program returns path alone where there is no Landlock to give its files to.
func Program(path string) ([]string, error) { return []string{path}, nil }

// Kill kills p.
func Kill(p *os.Process) error { return p.Kill() }
