package repl

import (
	"bytes"
	"context"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
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

const plainBanner = "agsh: connected to agent at https://x.example\nsession: s-1\n"

func plainConfig(r Runner, in io.Reader) (Config, *syncBuffer, *syncBuffer) {
	out, errOut := &syncBuffer{}, &syncBuffer{}
	return Config{
		AgentName: "agent", Target: "https://x.example", Session: "s-1",
		Runner: r, In: in, Out: out, ErrOut: errOut,
		Interrupts: make(chan struct{}),
	}, out, errOut
}

func TestRunPlain(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		runner     *fakeRunner
		wantStatus int
		wantRan    []string
		wantOut    string
		wantErr    string
	}{
		{
			name: "lines then end of input", in: "ls /\n\nread x\n",
			runner:     &fakeRunner{out: "a\r\nb", errOut: "warn\n", status: 1},
			wantStatus: 1, wantRan: []string{"ls /", "read x"},
			wantOut: "a\r\nba\r\nb",
			wantErr: plainBanner + "agent ❯ warn\nagent [1] ❯ agent [1] ❯ warn\nagent [1] ❯ \n",
		},
		{
			name: "continuation", in: "ls |\nhead\n",
			runner:     &fakeRunner{},
			wantStatus: 0, wantRan: []string{"ls |\nhead"},
			wantErr: plainBanner + "agent ❯ … agent ❯ \n",
		},
		{
			name: "exit word", in: "exit 3\nnever\n",
			runner:     &fakeRunner{status: 3, exit: true},
			wantStatus: 3, wantRan: []string{"exit 3"},
			wantErr: plainBanner + "agent ❯ ",
		},
		{
			name: "incomplete at end of input is run", in: "ls |\n",
			runner:     &fakeRunner{status: 2, errOut: "agsh: line 1: incomplete\n"},
			wantStatus: 2, wantRan: []string{"ls |"},
			wantErr: plainBanner + "agent ❯ … \nagsh: line 1: incomplete\n",
		},
		{
			name: "last line without newline", in: "ls",
			runner:     &fakeRunner{out: "x\n", status: 5},
			wantStatus: 5, wantRan: []string{"ls"},
			wantOut: "x\n", wantErr: plainBanner + "agent ❯ ",
		},
		{
			name: "CRLF line endings", in: "ls\r\n",
			runner:     &fakeRunner{},
			wantStatus: 0, wantRan: []string{"ls"},
			wantErr: plainBanner + "agent ❯ agent ❯ \n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, out, errOut := plainConfig(tt.runner, strings.NewReader(tt.in))
			status, err := RunPlain(context.Background(), cfg)
			if err != nil || status != tt.wantStatus {
				t.Fatalf("RunPlain = %d, %v; want %d", status, err, tt.wantStatus)
			}
			if got := tt.runner.ran(); !reflect.DeepEqual(got, tt.wantRan) {
				t.Errorf("ran %q, want %q", got, tt.wantRan)
			}
			if out.String() != tt.wantOut {
				t.Errorf("stdout %q, want %q", out.String(), tt.wantOut)
			}
			if errOut.String() != tt.wantErr {
				t.Errorf("stderr %q, want %q", errOut.String(), tt.wantErr)
			}
		})
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestRunPlainInterrupts(t *testing.T) {
	inR, inW := io.Pipe()
	r := &fakeRunner{}
	r.fn = func(ctx context.Context, src string, stdout, _ io.Writer) (int, bool) {
		if src == "slow" {
			<-ctx.Done()
			return 130, false
		}
		_, _ = io.WriteString(stdout, "ran "+src+"\n")
		return 0, false
	}
	cfg, out, errOut := plainConfig(r, inR)
	intr := make(chan struct{})
	cfg.Interrupts = intr
	done := make(chan int)
	go func() {
		st, _ := RunPlain(context.Background(), cfg)
		done <- st
	}()
	_, _ = io.WriteString(inW, "slow\n")
	waitFor(t, func() bool { return len(r.ran()) == 1 })
	intr <- struct{}{} // cancels the run; the shell stays
	_, _ = io.WriteString(inW, "ls |\n")
	waitFor(t, func() bool { return strings.HasSuffix(errOut.String(), "… ") })
	intr <- struct{}{} // drops the input being typed
	waitFor(t, func() bool { return strings.HasSuffix(errOut.String(), "\nagent [130] ❯ ") })
	_, _ = io.WriteString(inW, "fast\n")
	_ = inW.Close()
	if st := <-done; st != 0 {
		t.Fatalf("status %d", st)
	}
	if got, want := r.ran(), []string{"slow", "fast"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ran %q, want %q", got, want)
	}
	if out.String() != "ran fast\n" {
		t.Fatalf("stdout %q", out.String())
	}
	if want := plainBanner + "agent ❯ agent [130] ❯ … \nagent [130] ❯ agent ❯ \n"; errOut.String() != want {
		t.Fatalf("stderr %q, want %q", errOut.String(), want)
	}
}

func TestRunPlainContextCancel(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	cfg, _, _ := plainConfig(&fakeRunner{block: true}, inR)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		st, _ := RunPlain(ctx, cfg)
		done <- st
	}()
	_, _ = io.WriteString(inW, "slow\n")
	waitFor(t, func() bool { return len(cfg.Runner.(*fakeRunner).ran()) == 1 })
	cancel()
	select {
	case st := <-done:
		if st != 130 {
			t.Fatalf("status %d, want 130", st)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("RunPlain did not end on cancel")
	}
}

func TestRunPlainRunnerPanic(t *testing.T) {
	r := &fakeRunner{fn: func(context.Context, string, io.Writer, io.Writer) (int, bool) { panic("bug") }}
	cfg, _, errOut := plainConfig(r, strings.NewReader("x\n"))
	st, err := RunPlain(context.Background(), cfg)
	if err != nil || st != 1 || !strings.Contains(errOut.String(), "agsh: internal error: bug\n") {
		t.Fatalf("status %d err %v stderr %q", st, err, errOut.String())
	}
}

func TestConfigChecked(t *testing.T) {
	if _, err := RunPlain(context.Background(), Config{}); err == nil || err.Error() != "repl: Config.Runner is nil" {
		t.Errorf("RunPlain: %v", err)
	}
	if _, err := Run(context.Background(), Config{Runner: &fakeRunner{}}); err == nil || err.Error() != "repl: Config.In is nil" {
		t.Errorf("Run: %v", err)
	}
}

func TestBannerLines(t *testing.T) {
	tests := []struct {
		agent, target, session string
		want                   []string
	}{
		{"cm", "https://t", "s1", []string{"agsh: connected to cm at https://t", "session: s1"}},
		{"cm", "", "", []string{"agsh: connected to cm", "session: none (calls run unbound)"}},
		{"", "https://t", "s1", []string{"agsh: connected to https://t", "session: s1"}},
		{"", "", "", []string{"agsh", "session: none (calls run unbound)"}},
	}
	for _, tt := range tests {
		got := bannerLines(Config{AgentName: tt.agent, Target: tt.target, Session: tt.session})
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("bannerLines(%q, %q, %q) = %q, want %q", tt.agent, tt.target, tt.session, got, tt.want)
		}
	}
}
