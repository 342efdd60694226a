package spin

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestSpinnerShowsAndErases(t *testing.T) {
	var w syncBuffer
	stop := Start(&w, 0, time.Millisecond)
	for !strings.Contains(w.String(), Label) {
		time.Sleep(time.Millisecond)
	}
	stop()
	stop() // twice is fine
	out := w.String()
	if !strings.HasSuffix(out, erase) || !strings.HasPrefix(out, erase) {
		t.Errorf("spinner not erased: %q", out)
	}
	n := len(out)
	time.Sleep(5 * time.Millisecond)
	if len(w.String()) != n {
		t.Error("written after stop")
	}
}

func TestQuickCallShowsNothing(t *testing.T) {
	var w syncBuffer
	stop := Start(&w, time.Hour, time.Millisecond)
	stop()
	if w.String() != "" {
		t.Errorf("wrote %q", w.String())
	}
}
