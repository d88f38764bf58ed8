package stockroom

import "time"

// ImportRun is the record of one run of `stockroom import` of a file
// (contract §15), kept in the database and written in the same transaction
// as each 1,000 rows the run imports, so that it never tells other rows
// than those written: an import cut short, however, resumes after them.
type ImportRun struct {
	// File is the SHA-256 of the file's bytes, in hex; Kind what it
	// imports: items, customers, vendors or stock.
	File, Kind string
	// Run is 1 for the first run of File and Kind, then 2, ... (a file
	// imported again on purpose).
	Run int64
	// Rows is how many rows after the header are done: imported, or
	// passed over by --skip; Total how many the file has.
	Rows, Total int64
	// Started is when the run began, Modified when it last committed.
	Started, Modified time.Time
	// Finished: every row of the file is done.
	Finished bool
}

// ImportMark is what one transaction of an import records of its run, in
// the same transaction as its rows: Run as it stands once the transaction
// commits, and Was, Run.Rows before it (−1 when the run has no record
// yet). The store refuses the transaction with ErrImportMoved when the
// record does not hold Was.
type ImportMark struct {
	Run ImportRun
	Was int64
}

// ErrImportMoved refuses the rows of an import whose run's record is not
// where the import left it: another run of the same file and kind wrote
// rows meanwhile.
var ErrImportMoved = &Error{Code: ECONFLICT, Message: "Another import of this file is running: its record moved."}
