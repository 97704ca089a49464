package main

import (
	"context"
	"fmt"
	"io"

	"github.com/miniapp/bundle/sdk"
)

func runSDK(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "sdk", "types|protocol",
		"Print the SDK's TypeScript declarations (types) or the protocol a host implements (protocol).",
		`  # write the declarations beside an app's sources
  bundle sdk types > src/miniapp-sdk.d.ts

  # read the host protocol
  bundle sdk protocol | less
`)
	if code, ok := parseFlags(e, fs, args); !ok {
		return code
	}
	switch fs.Arg(0) {
	case "types":
		io.WriteString(e.stdout, sdk.Types())
	case "protocol":
		io.WriteString(e.stdout, sdk.Protocol())
	default:
		fmt.Fprintf(e.stderr, "bundle sdk: say types or protocol%s\nRun \"bundle sdk -h\" for usage.\n", didYouMean(fs.Arg(0), []string{"types", "protocol"}))
		return exitUsage
	}
	return exitOK
}
