package repl

import (
	"context"
	"strings"
	"testing"
)

// The output held for the pager keeps every line's newline however it
// arrived in chunks (each chunk's last newline is dropped for Println), so
// the pager is given exactly what the command wrote and the screen rows are
// counted for every line.
func TestPagerHoldKeepsEveryLine(t *testing.T) {
	m := newModel(context.Background(), Config{AgentName: "a", NoColor: true, Pager: "cat"})
	m.width, m.height = 80, 10
	m.run = runState{active: true, id: 1, pipe: newOutPipe()}
	chunks := []string{"header\nrow 1\n", "row 2\n", "(2 more columns: a, b)\n"}
	for _, c := range chunks {
		m.output(outputMsg{id: 1, data: c})
	}
	got := strings.Join(m.run.held, "")
	if want := strings.Join(chunks, ""); got != want {
		t.Fatalf("held %q, want %q", got, want)
	}
	if m.run.heldRows != 4 {
		t.Fatalf("held rows %d, want 4", m.run.heldRows)
	}
}
