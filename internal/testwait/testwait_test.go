package testwait

import (
	"testing"
	"time"
)

func TestScale(t *testing.T) {
	for _, r := range []struct {
		env  string
		want float64
	}{
		{"", 1}, {"3", 3}, {"2.5", 2.5}, {"0.5", 1}, {"-2", 1}, {"x", 1},
	} {
		t.Setenv("BUNDLE_TEST_SCALE", r.env)
		if got := Scale(); got != r.want {
			t.Errorf("BUNDLE_TEST_SCALE=%q: Scale() = %g, want %g", r.env, got, r.want)
		}
	}
	t.Setenv("BUNDLE_TEST_SCALE", "3")
	if Deadline() != 3*deadline || Window(100*time.Millisecond) != 300*time.Millisecond {
		t.Errorf("scaled by 3: deadline %s, window %s", Deadline(), Window(100*time.Millisecond))
	}
}

// TestFor: a condition that comes true is seen at once, not at the deadline.
func TestFor(t *testing.T) {
	start := time.Now()
	n := 0
	if !For(func() bool { n++; return n == 5 }) {
		t.Fatal("For gave up on a condition that held")
	}
	ch := make(chan int, 1)
	go func() { ch <- 7 }()
	if v := Recv(t, "seven", ch); v != 7 {
		t.Errorf("Recv = %d", v)
	}
	if d := time.Since(start); d > Deadline()/2 {
		t.Errorf("waited %s for conditions that held", d)
	}
}
