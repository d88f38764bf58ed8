package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/stockroom/stockroom/internal/jsonbody"
	"github.com/stockroom/stockroom/internal/service"
)

// readCSV reads a CSV table (RFC 4180, as encoding/csv reads it) whose
// header row names fields of T, the API's names in any letter case, and
// returns its rows after the first skip, each read as a body of T would be
// (jsonbody.Record) with its line. A column that is no field of T, or a
// file that is not CSV, is an error naming its line; a row whose cells are
// not as many as the header's columns has that problem.
func readCSV[T any](in io.Reader, skip int) ([]service.ImportRow[T], error) {
	r := csv.NewReader(in)
	r.FieldsPerRecord = -1 // a row of another length is that row's problem
	r.ReuseRecord = true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("the file is empty: want a header row of field names")
	}
	if err != nil {
		return nil, err
	}
	header = append([]string(nil), header...)
	header[0] = strings.TrimPrefix(header[0], "\uFEFF") // a spreadsheet's byte order mark
	if unknown := jsonbody.Unknown(header, new(T)); len(unknown) > 0 {
		return nil, fmt.Errorf("line 1: column %q is not a field of the API's %s", unknown[0], resourceOf[T]())
	}
	var rows []service.ImportRow[T]
	for i := 0; ; i++ {
		cells, err := r.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		if i < skip {
			continue
		}
		line, _ := r.FieldPos(0)
		row := service.ImportRow[T]{Line: line}
		res, err := jsonbody.Record(header, cells, &row.In)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		row.Problems = res.Problems
		if len(cells) != len(header) {
			row.Problems.Add("", fmt.Sprintf("has %d cells, the header %d", len(cells), len(header)))
		}
		rows = append(rows, row)
	}
}

// resourceOf names the API's record of T for a message.
func resourceOf[T any]() string {
	name := fmt.Sprintf("%T", *new(T))
	name = name[strings.LastIndex(name, ".")+1:]
	for _, suffix := range []string{"Request", "Change"} {
		name = strings.TrimSuffix(name, suffix)
	}
	return name
}

// progress draws an import's progress bar on a terminal: rows written of
// the total, after each transaction commits. Anywhere else (a file, a
// pipe) it draws nothing.
type progress struct {
	out   io.Writer // nil: not a terminal
	total int
	start time.Time
	drawn bool
}

// newProgress returns the progress bar of an import that writes on w.
func newProgress(w io.Writer) *progress {
	p := &progress{start: time.Now()}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.out = w
		}
	}
	return p
}

// progressWidth is how many characters the bar itself takes.
const progressWidth = 30

// checking says that the rows are being checked, before the bar.
func (p *progress) checking() {
	if p.out != nil && p.total > 0 {
		fmt.Fprintf(p.out, "\rchecking %d rows before writing any ", p.total)
		p.drawn = true
	}
}

// done draws the bar at n rows written.
func (p *progress) done(n int) {
	if p.out == nil || p.total == 0 {
		return
	}
	filled := n * progressWidth / p.total
	elapsed := time.Since(p.start).Seconds()
	fmt.Fprintf(p.out, "\r[%s%s] %d/%d rows written, %d%%, %.0f rows/s ", strings.Repeat("#", filled),
		strings.Repeat(".", progressWidth-filled), n, p.total, n*100/p.total, float64(n)/max(elapsed, 1e-3))
	p.drawn = true
}

// end ends the bar's line, if it drew one.
func (p *progress) end() {
	if p.drawn {
		fmt.Fprintln(p.out)
	}
}
