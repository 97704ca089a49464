//go:build landlocktsync

package confine_test

// tsync is set in a build with the landlocktsync tag: no rounds are made.
const tsync = true
