package main

import "context"

func runBuild(ctx context.Context, e *env, args []string) int { return exitInternal }
