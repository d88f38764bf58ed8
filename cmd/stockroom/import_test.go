package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// importDB is a fresh database of engine with warehouses 1 and 2 (2
// inactive) and reason codes 1 (receive) and 2 (issue).
func importDB(t *testing.T, engine string) string {
	t.Helper()
	dsn := testdb.DSN(t, engine)
	mustAdmin(t, dsn, "migrate")
	mustAdmin(t, dsn, "warehouse", "add", "--id", "1", "--name", "Main")
	mustAdmin(t, dsn, "warehouse", "add", "--id", "2", "--name", "Closed")
	mustAdmin(t, dsn, "warehouse", "update", "--id", "2", "--active=false")
	mustAdmin(t, dsn, "reasoncode", "add", "--code", "1", "--description", "Opening balance", "--direction", "receive")
	mustAdmin(t, dsn, "reasoncode", "add", "--code", "2", "--description", "Scrap", "--direction", "issue")
	return dsn
}

// csvFile writes a CSV file of a header and rows made by row(i), i from 0
// to n−1, and returns its path.
func csvFile(t *testing.T, header string, n int, row func(i int) string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(header + "\n")
	for i := range n {
		b.WriteString(row(i) + "\n")
	}
	path := filepath.Join(t.TempDir(), "import.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// itemsCSV is a file of n items IMP-00000 onwards; stockCSV one of n
// receipts of those items, each with its own reference R00000 onwards.
func itemsCSV(t *testing.T, n int) string {
	return csvFile(t, "shortID,Description,unit,units", n, func(i int) string {
		return fmt.Sprintf("IMP-%05d,\"Part %d, plain\",EA,%d", i, i, 1+i%12)
	})
}

func stockCSV(t *testing.T, n, items int) string {
	return csvFile(t, "itemID,wid,units,reasonCode,serial,price,reference", n, func(i int) string {
		return fmt.Sprintf("IMP-%05d,1,%d.5,1,S%06d,0.25,R%06d", i%items, 1+i%40, i, i)
	})
}

// count is the number of rows of a table, or of rows matching where.
func count(t *testing.T, dsn, table, where string, args ...any) int {
	t.Helper()
	db, err := store.OpenExisting(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pools := db.Pools()
	pool := pools[db.Engine()]
	if pool == nil {
		pool = pools[db.Engine()+"-read"]
	}
	var n int
	if err := pool.QueryRow(`SELECT COUNT(*) FROM `+table+` WHERE `+where, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// eachReferenceOnce fails the test unless the ledger holds exactly one
// entry for each reference R000000..R(n−1), and no other, and the audit
// finds nothing.
func eachReferenceOnce(t *testing.T, dsn string, n int) {
	t.Helper()
	db, err := store.OpenExisting(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ledger := ledgerByReference(t, db, "R")
	if len(ledger) != n {
		t.Errorf("the ledger has %d references, want %d", len(ledger), n)
	}
	for i := range n {
		if ids := ledger[fmt.Sprintf("R%06d", i)]; len(ids) != 1 {
			t.Fatalf("R%06d is in the ledger %d times", i, len(ids))
		}
	}
	if out := mustAdmin(t, dsn, "audit"); !strings.Contains(out, "every invariant holds") {
		t.Errorf("audit: %s", out)
	}
}

// TestImportThenAuditClean moves in 10,000 items and 20,000 receipts of
// them: every row lands once, each receipt a lot with its ledger entry and
// its event, and the audit finds nothing.
func TestImportThenAuditClean(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := importDB(t, engine)
			out := mustAdmin(t, dsn, "import", "items", itemsCSV(t, 10_000))
			if !strings.Contains(out, "imported 10000 rows of items (lines 2–10001)") {
				t.Errorf("summary: %s", out)
			}
			out = mustAdmin(t, dsn, "import", "stock", stockCSV(t, 20_000, 10_000))
			if !strings.Contains(out, "imported 20000 rows of stock (lines 2–20001)") {
				t.Errorf("summary: %s", out)
			}
			if n := count(t, dsn, "items", "short_id LIKE 'IMP-%'"); n != 10_000 {
				t.Errorf("%d items, want 10000", n)
			}
			if n := count(t, dsn, "lots", "serial LIKE 'S%'"); n != 20_000 {
				t.Errorf("%d lots, want 20000", n)
			}
			if n := count(t, dsn, "events", "type = $1", "inventory.received"); n != 20_000 {
				t.Errorf("%d inventory.received events, want 20000", n)
			}
			if n := count(t, dsn, "events", "type = $1", "item.created"); n != 10_000 {
				t.Errorf("%d item.created events, want 10000", n)
			}
			eachReferenceOnce(t, dsn, 20_000)
		})
	}
}

// badLines are the lines a refusal names, with their fields.
var badLine = regexp.MustCompile(`(?m)^line (\d+): (\w*):? `)

// TestImportWithBadRowsWritesNothing: files of 2,500 rows (three
// transactions' worth) with three bad rows each, far apart, one of them
// bad only by the state of what it names: nothing is written, and the
// refusal names all three with their line and field.
func TestImportWithBadRowsWritesNothing(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := importDB(t, engine)
			items := csvFile(t, "shortID,description,units", 2500, func(i int) string {
				switch i {
				case 5:
					return "BAD-1,negative,-1"
				case 1498:
					return ",no ShortID,1"
				case 2398:
					return "imp-00007,given on line 9 already,1"
				}
				return fmt.Sprintf("IMP-%05d,fine,1", i)
			})
			wantBadRows(t, dsn, []string{"import", "items", items}, "3 bad rows (of 2500); nothing was imported",
				"7 units", "1500 shortID", "2400 shortID")
			if n := count(t, dsn, "items", "1 = 1"); n != 0 {
				t.Fatalf("%d items written", n)
			}

			mustAdmin(t, dsn, "import", "items", itemsCSV(t, 100))
			stock := csvFile(t, "itemID,wid,units,reasonCode,reference", 2500, func(i int) string {
				switch i {
				case 10:
					return "NO-SUCH-ITEM,1,1,1,x"
				case 1200:
					return "IMP-00001,2,1,1,x" // warehouse 2 is inactive
				case 2490:
					return "IMP-00001,1,lots,1,x"
				}
				return fmt.Sprintf("IMP-%05d,1,1,1,R%06d", i%100, i)
			})
			wantBadRows(t, dsn, []string{"import", "stock", stock}, "3 bad rows (of 2500); nothing was imported",
				"12 itemID", "1202 wid", "2492 units")
			if n := count(t, dsn, "lots", "1 = 1"); n != 0 {
				t.Fatalf("%d lots written", n)
			}
			if n := count(t, dsn, "transactions", "1 = 1"); n != 0 {
				t.Fatalf("%d ledger entries written", n)
			}
		})
	}
}

// wantBadRows runs an import that must be refused with summary, naming
// exactly the lines and fields of want ("7 units").
func wantBadRows(t *testing.T, dsn string, args []string, summary string, want ...string) {
	t.Helper()
	code, _, errOut := admin(t, dsn, args...)
	if code != 1 || !strings.Contains(errOut, summary) {
		t.Fatalf("exit %d, want 1 with %q: %s", code, summary, errOut)
	}
	var got []string
	for _, m := range badLine.FindAllStringSubmatch(errOut, -1) {
		got = append(got, m[1]+" "+m[2])
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("named %q, want %q:\n%s", got, want, errOut)
	}
}

// interruptImport starts `stockroom import stock FILE --db dsn` as a
// process of its own, sends it sig once it has committed a transaction
// (1,000 lots), and returns its exit status and output once it has ended.
func interruptImport(t *testing.T, dsn, file string, sig os.Signal) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "import", "stock", file, "--db", dsn)
	out := &syncBuffer{}
	cmd.Env = append(os.Environ(), "STOCKROOM_TEST_MAIN=1")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	for deadline := time.Now().Add(2 * time.Minute); count(t, dsn, "lots", "1 = 1") < 1000; {
		if time.Now().After(deadline) {
			t.Fatalf("no 1,000 lots after two minutes: %s", out)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	return cmd.ProcessState.ExitCode(), out.String()
}

// TestImportResumesAfterKill kills an import of 30,000 receipts with
// SIGKILL once it has committed a transaction, and interrupts another with
// SIGINT, then runs the same command again: it resumes after the rows the
// database recorded with them, whatever the killed process last drew, and
// every row is then in the ledger exactly once and the audit clean. Run a
// third time, the finished import is refused, naming that run.
func TestImportResumesAfterKill(t *testing.T) {
	const total = 30_000
	type run struct {
		name, engine string
		sig          os.Signal
	}
	var runs []run
	for _, engine := range testdb.Engines(t) {
		runs = append(runs, run{engine + "/killed", engine, syscall.SIGKILL})
	}
	runs = append(runs, run{"sqlite/interrupted", store.SQLite, os.Interrupt})
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			dsn := importDB(t, r.engine)
			mustAdmin(t, dsn, "import", "items", itemsCSV(t, 1000))
			file := stockCSV(t, total, 1000)
			code, out := interruptImport(t, dsn, file, r.sig)
			n := count(t, dsn, "lots", "1 = 1")
			if n <= 0 || n >= total || n%1000 != 0 {
				t.Fatalf("%d rows imported when interrupted: want a multiple of 1,000 between 0 and %d", n, total)
			}
			if r.sig == os.Interrupt && (code != 1 || !strings.Contains(out, fmt.Sprintf("stopped with %d rows of the file imported", n)) ||
				!strings.Contains(out, "run the same command again")) {
				t.Fatalf("exit %d with %d lots written: %s", code, n, out)
			}
			out = mustAdmin(t, dsn, "import", "stock", file)
			want := fmt.Sprintf("its first %d rows are imported already", n)
			summary := fmt.Sprintf("imported %d rows of stock (lines %d–%d)", total-n, n+2, total+1)
			if !strings.Contains(out, want) || !strings.Contains(out, summary) {
				t.Errorf("resumed: want %q and %q: %s", want, summary, out)
			}
			eachReferenceOnce(t, dsn, total)
			code, _, errOut := admin(t, dsn, "import", "stock", file)
			if code != 1 || !strings.Contains(errOut, "this file's 30000 rows of stock were imported completely already") {
				t.Errorf("again: exit %d: %s", code, errOut)
			}
			eachReferenceOnce(t, dsn, total)
		})
	}
}

// TestImportSkipBelowRecorded: an import cut short records how many rows
// it wrote; --skip below that count is refused naming it (it would write
// rows again), and changes nothing; --skip above it passes over the rows
// between. A file of receipts imported completely is refused, and
// received once more with --again.
func TestImportSkipBelowRecorded(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := importDB(t, engine)
			mustAdmin(t, dsn, "import", "items", itemsCSV(t, 10))
			file := stockCSV(t, 2500, 10)
			cutShort(t, dsn, file, 2000)
			if n := count(t, dsn, "lots", "1 = 1"); n != 2000 {
				t.Fatalf("%d lots written, want 2000", n)
			}
			code, _, errOut := admin(t, dsn, "import", "stock", file, "--skip", "1000")
			if code != 1 || !strings.Contains(errOut, "--skip 1000 would import rows again: the first 2000 rows of this file are imported already") {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if n := count(t, dsn, "lots", "1 = 1"); n != 2000 {
				t.Fatalf("%d lots after the refusal, want 2000", n)
			}
			out := mustAdmin(t, dsn, "import", "stock", file, "--skip", "2200")
			if !strings.Contains(out, "imported 300 rows of stock (lines 2202–2501)") {
				t.Errorf("skip 2200: %s", out)
			}
			if n := count(t, dsn, "transactions", "reference >= 'R002200'"); n != 300 {
				t.Errorf("%d receipts from R002200, want 300", n)
			}
			code, _, errOut = admin(t, dsn, "import", "stock", file)
			if code != 1 || !strings.Contains(errOut, "give --again to receive them all again") {
				t.Fatalf("finished: exit %d: %s", code, errOut)
			}
			out = mustAdmin(t, dsn, "import", "stock", file, "--again")
			if !strings.Contains(out, "imported 2500 rows of stock") {
				t.Errorf("--again: %s", out)
			}
			if n := count(t, dsn, "lots", "1 = 1"); n != 4800 {
				t.Errorf("%d lots, want 4800", n)
			}
		})
	}
}

// cutShort imports the receipts of file into dsn as the command does
// (service.StartImport, then ImportStockRows), and stops it between two
// transactions once after rows are written, as Ctrl-C does.
func cutShort(t *testing.T, dsn, file string, after int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db, err := store.OpenExisting(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := service.New(db, service.Options{})
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	at, err := svc.StartImport(ctx, service.ImportFile{SHA256: hex.EncodeToString(sum[:]), Kind: "stock"})
	if err != nil {
		t.Fatal(err)
	}
	at.Progress = func(n int) {
		if n >= after {
			cancel()
		}
	}
	rows, err := readCSV[stockroom.ReceiveRequest](bytes.NewReader(data), at.From)
	if err != nil {
		t.Fatal(err)
	}
	n, err := svc.ImportStockRows(ctx, importer, at, rows, 0)
	if n != after || !errors.Is(err, context.Canceled) {
		t.Fatalf("cut short after %d rows: %v", n, err)
	}
}

// TestImportFromStandardInput reads the file from standard input (-), and
// refuses what is no import before reading a row: a column that is no
// field, no file named.
func TestImportFromStandardInput(t *testing.T) {
	dsn := importDB(t, store.SQLite)
	cmd := exec.Command(os.Args[0], "import", "customers", "-", "--db", dsn)
	cmd.Env = append(os.Environ(), "STOCKROOM_TEST_MAIN=1")
	cmd.Stdin = strings.NewReader("\uFEFFShortID,NAME,city,active\nACME,Acme Ltd,Leeds,TRUE\nGLOBEX,Globex,,false\n")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "imported 2 rows of customers (lines 2–3)") {
		t.Fatalf("%v: %s", err, out)
	}
	if n := count(t, dsn, "parties", "kind = 'customer' AND active = $1", false); n != 1 {
		t.Errorf("%d inactive customers, want GLOBEX", n)
	}
	code, _, errOut := admin(t, dsn, "import", "vendors", csvFile(t, "shortID,name,colour", 1, func(int) string { return "V,Vendor,red" }))
	if code != 1 || !strings.Contains(errOut, `line 1: column "colour" is not a field of the API's Party`) {
		t.Errorf("unknown column: exit %d: %s", code, errOut)
	}
	if count(t, dsn, "parties", "kind = 'vendor'") != 0 {
		t.Error("a vendor was written")
	}
	if code, _, errOut := admin(t, dsn, "import", "stock", "--reason", "1"); code != 2 || !strings.Contains(errOut, "want the CSV file first") {
		t.Errorf("no file: exit %d: %s", code, errOut)
	}
}
