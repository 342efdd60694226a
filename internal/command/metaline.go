package command

import (
	"context"

	"github.com/agsh-dev/agsh/internal/meta"
	"github.com/agsh-dev/agsh/render"
)

// A meta command line read as every command line is: its --output and
// --yes are agsh's, the rest is the meta command's (the table of them is
// internal/meta's, as curated's is curated's).

// ScanMetaWords scans meta command name's words (after its name) as
// ScanWords does, except that the words of a meta command that wraps a
// command line (:curl, Wraps) are read as that command's: the word after
// grep's -e, once the wrapped command's name is passed, is the command's
// whatever its spelling (TakesWord), as on the line without :curl.
func ScanMetaWords(name string, words []string) Line {
	if m, ok := meta.LookupMeta(name); ok && m.Wraps {
		return scan(words, false, []string{"--output"}, eAfterWord)
	}
	return ScanWords(words)
}

// MetaPage is what a meta command line prints without a deployment: its
// --help page (help: the line's scan took its --help as agsh's), or
// :help's list; ok is false for any other line. l is the line of the
// command's words (ScanMetaWords, or ScannedWords after a Taken Scan).
func MetaPage(name string, l Line, help bool) (page string, ok bool) {
	m, found := meta.LookupMeta(name)
	switch {
	case !found:
		return "", false
	case help || meta.AsksHelp(l.Args):
		return m.Page(), true
	case m.Name == meta.MetaHelp && len(l.words) == 0:
		return meta.MetaHelpText(), true
	}
	return "", false
}

// CheckMeta checks a meta command line (argv[0] is its name) without
// calling the deployment: its --output and its words. l is the line as
// scanned, the meta command's words in l.Args.
func CheckMeta(argv []string) (l Line, err error) {
	m, ok := meta.LookupMeta(argv[0])
	l = ScanMetaWords(argv[0], argv[1:])
	if !ok {
		return l, Usagef("unknown meta command %q; :help lists them", argv[0])
	}
	return l, checkMeta(m, l)
}

// checkMeta checks a scanned meta command line.
func checkMeta(m *meta.MetaCommand, l Line) error {
	if _, err := l.Format(render.Text); err != nil {
		return err
	}
	args, _ := takeYes(l.Args)
	return m.CheckArgs(args)
}

// takeYes takes agsh's --yes (an option of every command line) out of a
// meta command's words before "--", and says whether it was there.
func takeYes(args []string) ([]string, bool) {
	yes := false
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		if a == "--yes" {
			yes = true
			continue
		}
		out = append(out, a)
	}
	return out, yes
}

// RunMeta runs a meta command line, name and the line of its words as
// scanned (ScanMetaWords, or ScannedWords after a Taken Scan): what it
// produced, and the line's format (m.Format, the run's, unless the line
// gives --output), which the command received.
func RunMeta(ctx context.Context, m *meta.MetaRun, name string, l Line) (res meta.MetaResult, f render.Format, err error) {
	mc, ok := meta.LookupMeta(name)
	f, _ = l.Format(m.Format)
	if ok && meta.AsksHelp(l.Args) {
		// --help before anything is checked, as a tool's.
		return meta.MetaResult{Value: render.Value{Text: mc.Page(), Final: true}}, f, nil
	}
	if !ok {
		return res, f, Usagef("unknown meta command %q; :help lists them", name)
	}
	if err := checkMeta(mc, l); err != nil {
		return res, f, err
	}
	run := *m
	run.Format = f
	args, yes := takeYes(l.Args)
	run.Yes = run.Yes || yes
	res, err = mc.Exec(ctx, &run, args)
	if err != nil {
		return meta.MetaResult{}, f, err
	}
	return res, f, nil
}
