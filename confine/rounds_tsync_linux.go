//go:build linux && landlocktsync

package confine

import "github.com/landlock-lsm/go-landlock/landlock"

// threadRounds is not set in a build with the landlocktsync tag: go-landlock then confines
// only on kernels with Landlock ABI 8, in one call, and Prepare does nothing; on an older
// kernel there is no kernel's fence (Available says "path checks").
const threadRounds = false

func psxRules() []landlock.Rule { return nil }
