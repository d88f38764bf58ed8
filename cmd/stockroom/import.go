package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// importer is who imports from the command line (contract §15): whoever
// can reach the database is its administrator, with every permission,
// warehouse and owner. Its rows go through the service exactly as the
// endpoints' requests do; the ledger and the items record them as the
// client "import".
var importer = func() *stockroom.Principal {
	p := *service.Operator
	p.ClientID, p.Name = "import", "import"
	return &p
}()

// importSource is what an import reads and what it tells: the file's
// name, its reader, and the lines the rows written came from.
type importSource struct {
	name string
	in   io.Reader
}

// importCommand is `stockroom import KIND FILE`: the rows of a CSV file,
// every one checked before any is written, then written 1,000 to a
// transaction (service.ImportRowsPerTx).
func importCommand(kind string) func(ctx context.Context, e env, args []string) error {
	return func(ctx context.Context, e env, args []string) error {
		fs, dsn := newFlags("import " + kind)
		skip := fs.Int("skip", 0, "pass over the first N rows after the header (an import cut short resumes by itself: run it again)")
		var (
			reason *int64
			again  = new(bool)
		)
		if kind == "stock" {
			reason = fs.Int64("reason", 0, "the reason code of rows that give no reasonCode")
			again = fs.Bool("again", false, "receive a file imported completely before once more")
		}
		var file string
		if len(args) > 0 && (args[0] == "-" || !strings.HasPrefix(args[0], "-")) {
			file, args = args[0], args[1:]
		}
		check := func() error {
			switch {
			case file == "":
				return usageFor(fs, "want the CSV file first (- for standard input): stockroom import %s FILE [flags]", kind)
			case *skip < 0:
				return usageFor(fs, "--skip must be 0 or more")
			}
			return nil
		}
		return withService(ctx, e, args, serviceFlags{fs: fs, dsn: dsn, check: check}, func(svc *service.Service) error {
			src := importSource{name: file, in: e.stdin}
			if file != "-" {
				f, err := os.Open(file)
				if err != nil {
					return err
				}
				defer f.Close()
				src.in = f
			}
			run := importRun{e: e, kind: kind, start: time.Now(), bar: newProgress(e.stderr)}
			if reason != nil {
				run.reason = *reason
			}
			return run.do(ctx, svc, src, service.ImportFile{Kind: kind, Skip: *skip, Again: *again})
		})
	}
}

// importRun is one run of an import: what it imports, where it starts,
// and how it tells its progress.
type importRun struct {
	e      env
	kind   string
	at     *service.ImportStart
	reason int64
	start  time.Time
	bar    *progress
	lines  []int // the line of each row read, for the summary
}

// do reads the file, learns where its import starts (after the rows a
// run of it cut short wrote: service.StartImport), and imports the rows
// from there as the requests of kind.
func (r *importRun) do(ctx context.Context, svc *service.Service, src importSource, f service.ImportFile) error {
	data, err := io.ReadAll(src.in)
	if err != nil {
		return fmt.Errorf("%s: %w", src.name, err)
	}
	sum := sha256.Sum256(data)
	f.SHA256 = hex.EncodeToString(sum[:])
	if r.at, err = svc.StartImport(ctx, f); err != nil {
		return err
	}
	r.at.Progress = r.bar.done
	if run := r.at.Resumed; run != nil {
		fmt.Fprintf(r.e.stdout, "resuming the import of this file begun %s and cut short: its first %d rows are imported already\n",
			run.Started.Local().Format("2006-01-02 15:04:05"), run.Rows)
	}
	src.in = bytes.NewReader(data)
	var n int
	switch r.kind {
	case "items":
		n, err = importRows(r, src, func(rows []service.ImportRow[stockroom.ItemChange]) (int, error) {
			return svc.ImportItemRows(ctx, importer, r.at, rows)
		})
	case "customers", "vendors":
		kind := stockroom.Customer
		if r.kind == "vendors" {
			kind = stockroom.Vendor
		}
		n, err = importRows(r, src, func(rows []service.ImportRow[stockroom.PartyChange]) (int, error) {
			return svc.ImportPartyRows(ctx, importer, kind, r.at, rows)
		})
	default:
		n, err = importRows(r, src, func(rows []service.ImportRow[stockroom.ReceiveRequest]) (int, error) {
			return svc.ImportStockRows(ctx, importer, r.at, rows, r.reason)
		})
	}
	r.bar.end()
	return r.report(n, err)
}

// importRows reads the rows of src as requests of T, after the first
// r.at.From, and gives them to load.
func importRows[T any](r *importRun, src importSource, load func([]service.ImportRow[T]) (int, error)) (int, error) {
	rows, err := readCSV[T](src.in, r.at.From)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", src.name, err)
	}
	r.lines = make([]int, len(rows))
	for i, row := range rows {
		r.lines[i] = row.Line
	}
	r.bar.total = len(rows)
	r.bar.checking()
	return load(rows)
}

// report says how the import ended: a summary line on standard output, or
// every bad row on standard error and an error; after rows were written,
// how to resume it: the same command again.
func (r *importRun) report(n int, err error) error {
	if refusal, ok := errors.AsType[*service.ImportRefusal](err); ok {
		r.problems(refusal.Problems)
		return fmt.Errorf("%s (of %d); nothing was imported", plural(refusal.BadRows, "bad row"), len(r.lines))
	}
	if we, ok := errors.AsType[*service.ImportWriteError](err); ok {
		r.problems(we.Problems)
		switch {
		case errors.Is(we.Err, context.Canceled):
			fmt.Fprintln(r.e.stderr, "interrupted")
		case len(we.Problems) == 0:
			fmt.Fprintf(r.e.stderr, "%s\n", describe(we.Err))
		}
		return fmt.Errorf("stopped with %d rows of the file imported%s, each once; run the same command again to resume after them", r.at.From+n, r.through(n))
	}
	if err != nil {
		return err
	}
	took := time.Since(r.start)
	fmt.Fprintf(r.e.stdout, "imported %d rows of %s%s in %.1f s (%.0f rows/s)", n, r.kind, r.through(n), took.Seconds(), float64(n)/took.Seconds())
	switch {
	case r.at.Resumed != nil:
		fmt.Fprintf(r.e.stdout, ", after the %d rows done before", r.at.From)
	case r.at.From > 0:
		fmt.Fprintf(r.e.stdout, ", after the %d rows skipped", r.at.From)
	}
	fmt.Fprintln(r.e.stdout)
	return nil
}

// through names the lines of the first n rows read: " (lines 2–1001)".
func (r *importRun) through(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (lines %d–%d)", r.lines[0], r.lines[n-1])
}

// problems writes each fault of a row on a line of its own.
func (r *importRun) problems(ps []service.RowProblem) {
	for _, p := range ps {
		if p.Field == "" {
			fmt.Fprintf(r.e.stderr, "line %d: %s\n", p.Line, p.Message)
		} else {
			fmt.Fprintf(r.e.stderr, "line %d: %s: %s\n", p.Line, p.Field, p.Message)
		}
	}
}

// plural is n things: "1 bad row", "3 bad rows".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}
