package diag

import "strings"

// Suggest returns the candidate closest to s, ignoring case, when it is close enough to be
// what the author meant; ok is false when none is. Close enough is a slip of one or two
// keystrokes: an optimal string alignment distance (Damerau's edits: a letter dropped, added
// or replaced, or two neighbours swapped, each one edit) of at most 2, and less than the
// length of s, so that a short name is not "meant" as any other short name. The distance does
// not grow with the name: a long name that shares a long prefix with another
// (postcss-preset-env, postcss-nesting) is another name, not a misspelling of it. Of
// candidates as close, the one closest with case counted wins, then the first in byte order.
func Suggest(s string, candidates []string) (best string, ok bool) {
	limit := min(2, len(s)-1)
	if limit < 1 {
		return "", false
	}
	bestD, bestExact := limit+1, 0
	for _, c := range candidates {
		d := editDistance(strings.ToLower(s), strings.ToLower(c))
		if d > bestD {
			continue
		}
		exact := editDistance(s, c)
		if d < bestD || exact < bestExact || (exact == bestExact && c < best) {
			best, bestD, bestExact = c, d, exact
		}
	}
	return best, bestD <= limit
}

// editDistance is the optimal string alignment distance between a and b, in bytes: the
// Levenshtein distance with the swap of two neighbouring bytes counted as one edit.
func editDistance(a, b string) int {
	// Three rows: the one before the previous is what a swap reaches back to.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
