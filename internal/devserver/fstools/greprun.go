package fstools

import (
	"context"
	"errors"
	"runtime"
	"sync"
)

// grepFile is a searched file with at least one match.
type grepFile struct {
	disp string // path as printed
	res  *fileResult
}

// grepJob is one file handed to a search worker; idx keeps path order.
type grepJob struct {
	idx  int
	real string
	disp string
}

// grepDone is a worker's answer for one job.
type grepDone struct {
	idx  int
	disp string
	res  *fileResult
}

// grepFiles searches the request's target and returns the files with
// matches in path order. With head_limit it stops once more results than
// offset+head_limit are known, so the caller can tell the limit cut.
func (w *workspace) grepFiles(ctx context.Context, r *grepRequest) ([]grepFile, error) {
	if r.targetIsFile {
		// The same rules as a directory walk: regular files only, none
		// over maxGrepFileSize.
		data, ok, err := readFileInto(r.target.real, nil)
		if errors.Is(err, errNotRegular) {
			return nil, errorf("Not a regular file: %s", r.target.virt)
		}
		if err != nil {
			return nil, statError(r.target, err)
		}
		if !ok {
			return nil, errorf("File too large to search: %s (grep searches files up to %d bytes)", r.target.virt, maxGrepFileSize)
		}
		if isBinary(data) {
			return nil, errorf("Binary file: %s", r.target.virt)
		}
		res := &fileResult{}
		var scratch []byte
		r.scan(data, res, &scratch)
		if res.count == 0 {
			return nil, nil
		}
		return []grepFile{{disp: w.displayPath(r.target.mount, r.target.rel), res: res}}, nil
	}

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan grepJob, 256)
	done := make(chan grepDone, 256)
	var walkErr error
	go func() {
		defer close(jobs)
		idx := 0
		walkErr = w.eachFile(runCtx, r.target, func(mount int, e entry, rel string) error {
			if !r.wants(rel) {
				return nil
			}
			select {
			case jobs <- grepJob{idx: idx, real: e.real, disp: w.displayPath(mount, e.rel)}:
				idx++
				return nil
			case <-runCtx.Done():
				return runCtx.Err()
			}
		})
	}()
	workers := min(max(runtime.GOMAXPROCS(0), 1), 8)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf, scratch []byte
			for j := range jobs {
				res := &fileResult{}
				if runCtx.Err() == nil {
					var data []byte
					var ok bool
					data, ok, _ = readFileInto(j.real, buf)
					buf = data
					if ok && !isBinary(data) {
						r.scan(data, res, &scratch)
					}
				}
				done <- grepDone{idx: j.idx, disp: j.disp, res: res}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(done)
	}()

	var out []grepFile
	pending := map[int]grepFile{}
	next, total, need := 0, 0, r.offset+r.headLimit
	for d := range done {
		pending[d.idx] = grepFile{disp: d.disp, res: d.res}
		for {
			f, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if f.res.count == 0 || (r.headLimit > 0 && total > need) {
				continue
			}
			out = append(out, f)
			if r.content {
				total += f.res.count
			} else {
				total++
			}
			if r.headLimit > 0 && total > need {
				cancel()
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if walkErr != nil && !errors.Is(walkErr, context.Canceled) {
		return nil, walkErr
	}
	return out, nil
}
