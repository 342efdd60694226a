package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/internal/command"
)

// The whole input as JSON (--input-json) and the @file values of JSON-valued
// flags (docs/cli.md#json-input): inline JSON anywhere; a local file or
// standard input one-shot only, since the shell has no local files.

// maxInputFile is the largest file (or standard input) --input-json and a
// JSON-valued flag read.
const maxInputFile = 16 << 20

// lineOptions are the parse options of a tool line: its whole input
// (--input-json: the line's, else one-shot the command line's) and the
// reader of @file values.
func (a *app) lineOptions(r *toolRequest) (command.ParseOptions, error) {
	o := command.ParseOptions{ReadRef: func(flag, ref string) ([]byte, error) {
		return a.readRef(flag, ref, r.inShell)
	}}
	v, ok := r.inputJSON()
	if !ok && !r.inShell {
		v = a.g.Get("--input-json")
		ok = v != ""
	}
	if !ok {
		return o, nil
	}
	if err := command.CheckOption("--input-json", v); err != nil {
		return o, err
	}
	data, where := []byte(v), "--input-json"
	if strings.HasPrefix(v, "@") {
		var err error
		if data, err = a.readRef("--input-json", v[1:], r.inShell); err != nil {
			return o, err
		}
		where += " " + v
	}
	obj, err := generated.DecodeInput(data)
	if err != nil {
		return o, command.Usagef("%s: %v", where, err)
	}
	o.Input = obj
	return o, nil
}

// readRef reads what "@ref" names for flag (--input-json, or a JSON-valued
// flag): standard input for "-", else a regular file of at most
// maxInputFile bytes. In the shell both are usage errors.
func (a *app) readRef(flag, ref string, inShell bool) ([]byte, error) {
	where := flag + " @" + ref
	if inShell {
		return nil, command.Usagef("%s: the shell has no local files; give the JSON inline ({…}), or run agsh %s @%s <command> one-shot",
			where, flag, ref)
	}
	if ref == "" {
		return nil, command.Usagef("%s: @ needs a file name (@input.json), or @- for standard input", flag)
	}
	if ref == "-" {
		if a.stdinRead {
			return nil, command.Usagef("%s: standard input was already read by another @-; give it once", where)
		}
		a.stdinRead = true
		return readBounded(a.ios.In, where)
	}
	f, err := a.env.Open(ref)
	if err != nil {
		return nil, command.Usagef("%s: %s", where, openErrText(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, command.Usagef("%s: %s", where, openErrText(err))
	}
	switch m := st.Mode(); {
	case m.IsDir():
		return nil, command.Usagef("%s: a directory, not a file", where)
	case !m.IsRegular():
		return nil, command.Usagef("%s: not a regular file (%s); to read a pipe or a device, give @- and redirect it to standard input",
			where, fileKind(m))
	case st.Size() > maxInputFile:
		return nil, tooLarge(where)
	}
	return readBounded(f, where)
}

// readBounded reads r whole, at most maxInputFile bytes: one more byte is
// read to tell a file at the limit from a larger one (a file can grow
// after its size was read).
func readBounded(r io.Reader, where string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxInputFile+1))
	if err != nil {
		return nil, command.Usagef("%s: %s", where, openErrText(err))
	}
	if len(b) > maxInputFile {
		return nil, tooLarge(where)
	}
	return b, nil
}

func tooLarge(where string) error {
	return command.Usagef("%s: larger than %d MiB, the most agsh reads as input", where, maxInputFile>>20)
}

// openErrText is a file error without its path (the message names it).
func openErrText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}

// fileKind names a file that is not regular.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return fmt.Sprintf("mode %v", m.Type())
}
