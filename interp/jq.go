package interp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/itchyny/gojq"
)

// jq runs a gojq filter over the value (an array or object as itself, text parsed
// as a stream of JSON values) and prints each result as the gojq command does.
type jq struct {
	raw, compact bool
	// last: the filter is the last command of its pipeline, where a single
	// result that is an array of objects becomes a table (jqtable.go).
	last   bool
	code   *gojq.Code
	inputs *inputProxy
	// stderr receives what debug and stderr write (nothing when nil), made
	// safe by clean (nil: unchanged).
	stderr io.Writer
	clean  func(string) string
}

func (*jq) name() string { return "jq" }

// newJQ parses `-r`, `-c` (also --raw-output, --compact-output, combinable as
// -rc, before or after the filter; `--` ends them) and the filter (default "."),
// and compiles it. The filter has no
// environment ($ENV is empty) and no modules; debug and stderr write to the
// filter's stderr as the gojq command does, input_filename is null.
func newJQ(args []string) (*jq, error) {
	f := &jq{inputs: &inputProxy{}}
	var program []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			program = append(program, args[i+1:]...)
			i = len(args)
		case a == "--raw-output":
			f.raw = true
		case a == "--compact-output":
			f.compact = true
		case len(a) > 1 && a[0] == '-':
			for _, c := range a[1:] {
				switch c {
				case 'r':
					f.raw = true
				case 'c':
					f.compact = true
				default:
					return nil, fmt.Errorf("unknown option %s; use -r or -c", a)
				}
			}
		default:
			program = append(program, a)
		}
	}
	src := "."
	switch len(program) {
	case 0:
	case 1:
		src = strings.TrimSpace(program[0])
	default:
		return nil, operandError("jq", program[1])
	}
	q, err := gojq.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("invalid filter %q: %s", src, err)
	}
	code, err := gojq.Compile(q,
		gojq.WithInputIter(f.inputs),
		gojq.WithFunction("debug", 0, 0, f.debug),
		gojq.WithFunction("stderr", 0, 0, f.toStderr),
		gojq.WithFunction("input_filename", 0, 0, func(any, []any) any { return nil }),
	)
	if err != nil {
		return nil, fmt.Errorf("invalid filter %q: %s", src, err)
	}
	f.code = code
	return f, nil
}

// inputProxy is the iterator behind `input` and `inputs`: the rest of the input
// stream, as in the gojq command.
type inputProxy struct {
	dec *json.Decoder
	err error
}

// Next returns the next input value, or an error value when the input is not JSON.
func (p *inputProxy) Next() (any, bool) {
	if p.dec == nil || p.err != nil {
		return nil, false
	}
	var v any
	if err := p.dec.Decode(&v); err != nil {
		if err == io.EOF {
			p.err = err
			return nil, false
		}
		p.err = fmt.Errorf("input is not valid JSON: %s", err)
		return p.err, true
	}
	return v, true
}

// reader reads the value as jq's input: its JSON, else its text.
func (v Value) reader() io.Reader {
	if v.IsJSON {
		return bytes.NewReader(v.JSON)
	}
	return strings.NewReader(v.Text)
}

func (f *jq) run(ctx context.Context, _ Renderer, v Value) (Value, int, error) {
	dec := json.NewDecoder(v.reader())
	dec.UseNumber()
	f.inputs.dec, f.inputs.err = dec, nil
	defer func() { f.inputs.dec = nil }()

	var out bytes.Buffer
	enc := &jqEncoder{compact: f.compact}
	var firstErr error
	results, first := 0, any(nil)
	for {
		in, ok := f.inputs.Next()
		if !ok {
			break
		}
		if err, isErr := in.(error); isErr {
			return textValue(out.String()), StatusFailure, err
		}
		iter := f.code.RunWithContext(ctx, in)
		for {
			res, ok := iter.Next()
			if !ok {
				break
			}
			if err, isErr := res.(error); isErr {
				var halt *gojq.HaltError
				if errors.As(err, &halt) {
					return f.halt(out.String(), halt)
				}
				if firstErr == nil {
					firstErr = err
				}
				break
			}
			if results++; results == 1 {
				first = res
			}
			if s, isStr := res.(string); isStr && f.raw {
				out.WriteString(s)
			} else {
				enc.encode(&out, res)
			}
			out.WriteByte('\n')
		}
		if ctx.Err() != nil {
			return textValue(out.String()), StatusInterrupted, nil
		}
	}
	if firstErr != nil {
		return textValue(out.String()), StatusFailure, firstErr
	}
	if f.last && !f.raw && !f.compact && results == 1 {
		if t, ok := tableResult(first, v); ok {
			return t, StatusOK, nil
		}
	}
	return textValue(out.String()), StatusOK, nil
}

// halt ends the filter as halt and halt_error do: stop at once, with the halt's
// exit status; halt_error's value is the error message.
func (f *jq) halt(out string, h *gojq.HaltError) (Value, int, error) {
	val := h.Value()
	if val == nil {
		return textValue(out), h.ExitCode(), nil
	}
	msg, ok := val.(string)
	if !ok {
		var b bytes.Buffer
		(&jqEncoder{compact: true}).encode(&b, val)
		msg = b.String()
	}
	return textValue(out), h.ExitCode(), errors.New(strings.TrimSuffix(msg, "\n"))
}

// debug writes ["DEBUG:",v] in compact JSON and a newline, and passes v on.
func (f *jq) debug(v any, _ []any) any {
	if f.stderr != nil {
		var b bytes.Buffer
		(&jqEncoder{compact: true}).encode(&b, []any{"DEBUG:", v})
		b.WriteByte('\n')
		f.writeStderr(b.String())
	}
	return v
}

// toStderr writes v (a string raw, anything else in compact JSON, no newline)
// and passes v on.
func (f *jq) toStderr(v any, _ []any) any {
	if f.stderr != nil {
		var b bytes.Buffer
		if s, ok := v.(string); ok {
			b.WriteString(s)
		} else {
			(&jqEncoder{compact: true}).encode(&b, v)
		}
		f.writeStderr(b.String())
	}
	return v
}

// writeStderr writes s on stderr, made safe for it.
func (f *jq) writeStderr(s string) {
	if f.clean != nil {
		s = f.clean(s)
	}
	io.WriteString(f.stderr, s)
}
