package diag

import "strings"

// Suggest returns the candidate closest to s, ignoring case, when it is close enough to be
// what the author meant (an edit distance of at most a third of s, and at least 2); ok is
// false when none is. Of candidates as close, the one closest with case counted wins, then
// the first in byte order.
func Suggest(s string, candidates []string) (best string, ok bool) {
	limit := max(2, len(s)/3)
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

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
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
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
