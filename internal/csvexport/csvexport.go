// Package csvexport writes lists and reports as CSV (contract §13): a header
// row, then one row per record, written as the records come, so that an
// export of any length holds one row (and the database layer one batch) in
// memory. It knows no list or report: a caller gives the header and hands
// it rows, built by hand or by Columns from a record's JSON form.
package csvexport

import (
	"bufio"
	"encoding/csv"
	"io"
)

// flushEvery is how many rows are written between pushes to the client, so
// that a slow export shows progress and the transfer never waits on a
// buffer.
const flushEvery = 1000

// bufferSize is how many bytes of rows go to the destination in one write:
// encoding/csv's own buffer is 4 KiB, and an HTTP response writes each
// write of that size as a chunk of its own, so an export of 170 MiB would
// be 43,000 chunks and as many system calls; at 64 KiB it is 2,700.
const bufferSize = 64 << 10

// Writer writes one export: the header row when made, then each row.
type Writer struct {
	csv   *csv.Writer
	buf   *bufio.Writer
	push  func() error
	count int
}

// NewWriter writes the header row to w and returns a Writer for the rows.
// push, when not nil, sends what w holds on to the client (an
// http.ResponseController's Flush); it is called every flushEvery rows and
// at Close.
func NewWriter(w io.Writer, push func() error, header []string) (*Writer, error) {
	buf := bufio.NewWriterSize(w, bufferSize)
	cw := &Writer{csv: csv.NewWriter(buf), buf: buf, push: push}
	return cw, cw.csv.Write(header)
}

// Write writes one row; the slice may be reused once it returns.
func (w *Writer) Write(row []string) error {
	if err := w.csv.Write(row); err != nil {
		return err
	}
	w.count++
	if w.count%flushEvery == 0 {
		return w.flush()
	}
	return nil
}

// Rows is how many rows were written, the header not counted.
func (w *Writer) Rows() int { return w.count }

// Close flushes what is left; the export is complete when it returns nil.
func (w *Writer) Close() error { return w.flush() }

func (w *Writer) flush() error {
	w.csv.Flush()
	if err := w.csv.Error(); err != nil {
		return err
	}
	if err := w.buf.Flush(); err != nil {
		return err
	}
	if w.push != nil {
		return w.push()
	}
	return nil
}
