// Command walpages shows what SQLite's commits write: it reads the
// write-ahead log of a database, takes the commits it holds whole (every
// frame's salt and checksum valid), and prints how many pages a commit
// writes, in all and per table or index, named through the dbstat virtual
// table. Under synchronous=FULL a commit's cost is its pages' writes and
// one fsync that grows with them, so this is where the one writer's commit
// time goes (bench/sqlite.sh, PAGES=1).
//
//	go run ./bench/walpages [-watch 10s] DB
//
// The log starts again from its beginning once a checkpoint has copied all
// of it, so one reading holds only the commits since then. With -watch the
// log is read every 100 ms for that long, while a server writes, and every
// whole commit seen is counted once. The database is opened read-only
// afterwards, so closing it checkpoints nothing. The output is tab
// separated: a comment with the number of commits, then the pages per
// commit in all ("(all)") and per table or index, most first.
package main

import (
	"cmp"
	"database/sql"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"slices"
	"time"

	_ "modernc.org/sqlite"
)

func main() {
	watch := flag.Duration("watch", 0, "read the log every 100 ms for this long (0: once)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: walpages [-watch D] DB")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *watch); err != nil {
		fmt.Fprintln(os.Stderr, "walpages:", err)
		os.Exit(1)
	}
}

// commitKey names a commit: the salts of the log's run it is in, and the
// offset of its first frame.
type commitKey struct {
	salt   string
	offset int
}

func run(path string, watch time.Duration) error {
	seen := map[commitKey][]uint32{}
	end := time.Now().Add(watch)
	for {
		log, err := os.ReadFile(path + "-wal")
		if err != nil {
			return err
		}
		if err := walCommits(log, seen); err != nil {
			return err
		}
		if !time.Now().Before(end) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(seen) == 0 {
		return errors.New("the log holds no whole commit")
	}
	names, err := pageNames(path)
	if err != nil {
		return err
	}
	count := map[string]int{}
	frames := 0
	for _, c := range seen {
		for _, pg := range c {
			name, ok := names[pg]
			if !ok {
				name = "(free or new page)"
			}
			count[name]++
		}
		frames += len(c)
	}
	n := float64(len(seen))
	fmt.Printf("# %d commits\n(all)\t%.2f\n", len(seen), float64(frames)/n)
	byCount := make([]string, 0, len(count))
	for name := range count {
		byCount = append(byCount, name)
	}
	slices.SortFunc(byCount, func(a, b string) int { return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a, b)) })
	for _, name := range byCount {
		fmt.Printf("%s\t%.2f\n", name, float64(count[name])/n)
	}
	return nil
}

// walCommits adds to seen the page numbers each whole commit in a log
// wrote. A log is a 32-byte header, then frames: a 24-byte header (page
// number, the database's size in pages on a commit's last frame and 0
// before, the log's two salts, a running checksum) and the page. A frame
// belongs to the log's current run only while its salts are the header's
// and the checksum, carried on from the header's, matches
// (https://www.sqlite.org/fileformat.html#the_write_ahead_log).
func walCommits(log []byte, seen map[commitKey][]uint32) error {
	if len(log) < 32 {
		return errors.New("the log is shorter than its header")
	}
	magic := binary.BigEndian.Uint32(log)
	var order binary.ByteOrder
	switch magic {
	case 0x377f0682:
		order = binary.LittleEndian
	case 0x377f0683:
		order = binary.BigEndian
	default:
		return fmt.Errorf("not a write-ahead log (magic %#x)", magic)
	}
	pageSize := int(binary.BigEndian.Uint32(log[8:]))
	salt := log[16:24]
	s1, s2 := checksum(order, log[:24], 0, 0)
	if s1 != binary.BigEndian.Uint32(log[24:]) || s2 != binary.BigEndian.Uint32(log[28:]) {
		return nil // caught while the log started again: the next reading has it whole
	}
	var open []uint32
	start := 32
	for off := 32; off+24+pageSize <= len(log); off += 24 + pageSize {
		h := log[off : off+24]
		if string(h[8:16]) != string(salt) {
			break
		}
		s1, s2 = checksum(order, h[:8], s1, s2)
		s1, s2 = checksum(order, log[off+24:off+24+pageSize], s1, s2)
		if s1 != binary.BigEndian.Uint32(h[16:]) || s2 != binary.BigEndian.Uint32(h[20:]) {
			break
		}
		open = append(open, binary.BigEndian.Uint32(h))
		if binary.BigEndian.Uint32(h[4:]) != 0 {
			seen[commitKey{string(salt), start}] = open
			open, start = nil, off+24+pageSize
		}
	}
	return nil
}

// checksum is the log's running checksum over b, from s1 and s2: pairs of
// 32-bit words in the log's byte order.
func checksum(order binary.ByteOrder, b []byte, s1, s2 uint32) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		s1 += order.Uint32(b[i:]) + s2
		s2 += order.Uint32(b[i+4:]) + s1
	}
	return s1, s2
}

// pageNames maps each page of the database to the table or index it
// belongs to.
func pageNames(path string) (map[uint32]string, error) {
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.Query("SELECT pageno, name FROM dbstat")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	names := map[uint32]string{}
	for rows.Next() {
		var pg uint32
		var name string
		if err := rows.Scan(&pg, &name); err != nil {
			return nil, err
		}
		names[pg] = name
	}
	return names, rows.Err()
}
