package exitcode

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

type coded struct{ exit int }

func (c coded) Error() string { return "x" }
func (c coded) ExitCode() int { return c.exit }
func (c coded) Code() string  { return "" }

func TestOfAndCode(t *testing.T) {
	cases := []struct {
		err  error
		exit int
		code string
	}{
		{nil, OK, "error"},
		{errors.New("x"), ToolError, "error"},
		{fmt.Errorf("w: %w", context.Canceled), Interrupted, "interrupted"},
		{coded{Usage}, Usage, "usage"},
		{fmt.Errorf("w: %w", coded{Auth}), Auth, "unauthorized"},
		{coded{Unreachable}, Unreachable, "bad_response"},
		{coded{Refused}, Refused, "error"},
	}
	for _, tc := range cases {
		if got := Of(tc.err); got != tc.exit {
			t.Errorf("Of(%v) = %d, want %d", tc.err, got, tc.exit)
		}
		if tc.err != nil {
			if got := Code(tc.err); got != tc.code {
				t.Errorf("Code(%v) = %q, want %q", tc.err, got, tc.code)
			}
		}
	}
}
