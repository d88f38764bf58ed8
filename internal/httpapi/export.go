package httpapi

import (
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom/internal/csvexport"
)

// CSV exports (contract §13): a list asked for with Accept: text/csv
// answers every matching record as CSV, streamed as the database hands the
// rows over. What is decided here, and documented in the OpenAPI
// description:
//
//   - An error before the first row (a refusal, the database down) is the
//     usual JSON error object with its status: nothing is sent before the
//     first row is in hand.
//   - An error after it cannot change the 200 already sent. The server
//     logs it (ERROR, with the request id and the rows written) and aborts
//     the connection without ending the body (no closing chunk), so that a
//     client sees a truncated transfer, never a short file that looks
//     complete.
//   - An export is bounded by ExportTimeout (1 h by default), not by the
//     request timeout, and a client that stops reading for
//     exportWriteStall is cut off.

// csvType is the Content-Type of every CSV export.
const csvType = "text/csv; charset=utf-8"

// DefaultExportTimeout bounds an export when Config.ExportTimeout is zero:
// a million lots take seconds, so an hour is room for a slow reader, not a
// target.
const DefaultExportTimeout = time.Hour

// exportWriteStall is how long an export waits for its client to take the
// rows already written (a batch of csvexport's flush) before it gives up.
const exportWriteStall = time.Minute

// wantsCSV reports whether the request's Accept asks for CSV: text/csv
// listed with a quality above 0 and above application/json's, if that is
// listed too. Anything else (no Accept, */*, JSON, a type the server does
// not make) is answered with JSON, as before exports existed.
func wantsCSV(r *http.Request) bool {
	csvQ, jsonQ := -1.0, -1.0
	for _, accept := range r.Header.Values("Accept") {
		for part := range strings.SplitSeq(accept, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil {
				continue
			}
			q := 1.0
			if s, ok := params["q"]; ok {
				if q, err = strconv.ParseFloat(s, 64); err != nil {
					continue
				}
			}
			switch mt {
			case "text/csv":
				csvQ = max(csvQ, q)
			case "application/json":
				jsonQ = max(jsonQ, q)
			}
		}
	}
	return csvQ > 0 && csvQ > jsonQ
}

// exportStream is the answer of one export, begun at its first row (or at
// its end, when it has none): until then an error is still the JSON error
// object.
type exportStream struct {
	s        *Server
	w        http.ResponseWriter
	r        *http.Request
	filename string
	out      *csvexport.Writer
	begun    bool
	// closing: the last rows are being pushed, after which nothing is left
	// to give way with.
	closing bool
}

// writeError is the failure to send rows to the client: it has gone.
type writeError struct{ err error }

func (e writeError) Error() string { return "writing the export: " + e.err.Error() }
func (e writeError) Unwrap() error { return e.err }

// writeExport answers the request with the CSV of the records run hands to
// its function: the columns of T's JSON form (csvexport.Columns), one row
// per record. run is the service's export, which admits the request before
// it hands on anything.
func writeExport[T any](s *Server, w http.ResponseWriter, r *http.Request, filename string, run func(fn func(T) error) error) error {
	cols := csvexport.ColumnsOf[T]()
	var row []string
	return writeCSV(s, w, r, csvFile{filename, cols.Header()}, func(fn func([]string) error) error {
		return run(func(v T) error {
			row = cols.Row(row, v)
			return fn(row)
		})
	})
}

// csvFile is an export as the client saves it: its file name (a constant
// of the route, or made of a number) and its header row.
type csvFile struct {
	name   string
	header []string
}

// writeCSV answers the request with file, the header and the rows run hands
// to its function, each written before the next is asked for.
func writeCSV(s *Server, w http.ResponseWriter, r *http.Request, file csvFile, run func(fn func([]string) error) error) error {
	e := &exportStream{s: s, w: w, r: r, filename: file.name}
	err := run(func(row []string) error { return e.write(file.header, row) })
	if err == nil {
		err = e.close(file.header)
	}
	if err != nil && !e.begun {
		return err
	}
	if err != nil {
		e.abort(err)
	}
	return nil
}

// begin sends the status, the headers and the header row.
func (e *exportStream) begin(header []string) error {
	e.begun = true
	h := e.w.Header()
	setJSONHeaders(h, csvType)                                            // nosniff and no-store, as on every answer
	h.Set("Content-Disposition", `attachment; filename="`+e.filename+`"`) // a constant of the route
	rc := http.NewResponseController(e.w)
	batch := time.Now()
	push := func() error {
		_ = rc.SetWriteDeadline(time.Now().Add(exportWriteStall))
		if err := rc.Flush(); err != nil {
			return writeError{err}
		}
		if !e.closing {
			batch = e.s.writes.giveWay(e.r.Context(), batch)
		}
		return nil
	}
	_ = rc.SetWriteDeadline(time.Now().Add(exportWriteStall))
	e.w.WriteHeader(http.StatusOK)
	out, err := csvexport.NewWriter(e.w, push, header)
	e.out = out
	if err != nil {
		return writeError{err}
	}
	return nil
}

// write writes one row, beginning the answer at the first.
func (e *exportStream) write(header, row []string) error {
	if !e.begun {
		if err := e.begin(header); err != nil {
			return err
		}
	}
	if err := e.out.Write(row); err != nil {
		return writeError{err}
	}
	return nil
}

// close ends a complete export.
func (e *exportStream) close(header []string) error {
	if !e.begun {
		if err := e.begin(header); err != nil {
			return err
		}
	}
	e.closing = true
	if err := e.out.Close(); err != nil {
		return writeError{err}
	}
	return nil
}

// abort ends an export that failed after its answer began: logged, and the
// connection closed without ending the body, so that the client sees a
// truncated transfer.
func (e *exportStream) abort(err error) {
	info := infoFrom(e.r.Context())
	rows := 0
	if e.out != nil {
		rows = e.out.Rows()
	}
	attrs := []slog.Attr{slog.String("request_id", info.id), slog.Int("rows", rows), slog.String("error", err.Error())}
	if errors.As(err, new(writeError)) || clientHungUp(e.r) {
		info.clientGone = true
		e.s.logger.LogAttrs(e.r.Context(), slog.LevelWarn, "client closed export", attrs...)
	} else {
		e.s.logger.LogAttrs(e.r.Context(), slog.LevelError, "export failed after its first row; connection aborted", attrs...)
	}
	panic(http.ErrAbortHandler)
}
