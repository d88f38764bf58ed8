package store

import (
	"strings"

	"github.com/stockroom/stockroom"
)

// lotLocks is the part of a selection's lots, in draw order, that a
// transaction has locked: always a prefix. Locking moves forward only:
// lockMore locks the next lots after the last one locked, so that every
// transaction takes its lot locks in one order (lotLockOrder) and none
// waits for a lot while holding one that comes after it. (Locking the
// whole selection again would not do: a lot that became a candidate
// meanwhile, behind the prefix, released from hold, moved in or no longer
// all allocated, would be locked out of order, and two transactions could
// wait for each other.) Such a lot is not taken.
//
// On PostgreSQL a lot whose lock was awaited is judged again on its new
// version and may drop out, still locked; it does not count against the
// limit. So a pass that returns fewer lots than its limit has met every
// candidate to the end, and one that returns its limit stopped at the last
// lot it returned: either way nothing after the last lot returned is
// locked.
type lotLocks struct {
	sel   stockroom.LotSelection
	cands []stockroom.Candidate
	// received and recNo are the last lot's place in draw order; recNo is
	// 0 before any lot is locked.
	received, recNo int64
	// all: every candidate there was is locked.
	all bool
}

// lockMore locks and adds the selection's next lots in draw order: the
// next limit of them, or all the rest when limit is 0. Lots whose every
// unit is allocated to orders are left out: they have nothing to give. It
// flushes, unless every candidate is locked already.
//
// Draw order (contract §7) is its statement's ORDER BY received, rec_no:
// oldest received first, then lowest recNo; "after the last lot" is the
// same pair compared. Issues, moves, transfers and every commit take their
// lots here (storetest's DrawAfterSplit pins the order).
func (t *Tx) lockMore(l *lotLocks, limit int) error {
	if l.all {
		return nil
	}
	s := l.sel
	var a args
	conds := []string{
		"part_no = " + a.add(s.PartNo),
		"wid = " + a.add(s.WID),
		"owner = " + a.add(s.Owner),
		"shipped IS NULL", // in stock: the condition of lots_draw
		"units > allocated",
	}
	if !s.WithHeld {
		conds = append(conds, "NOT hold")
	}
	for _, f := range []struct{ col, v string }{{"spot", s.Spot}, {"serial", s.Serial}, {"serial2", s.Serial2}, {"rfid_tag", s.RFIDTag}} {
		if f.v != "" {
			conds = append(conds, f.col+" = "+a.add(f.v))
		}
	}
	if s.RecNo != 0 {
		conds = append(conds, "rec_no = "+a.add(s.RecNo))
	}
	if !s.ReceivedFrom.IsZero() {
		conds = append(conds, "received >= "+a.add(micros(s.ReceivedFrom)), "received < "+a.add(micros(s.ReceivedTo)))
	}
	if s.NotSpot != nil {
		conds = append(conds, "spot <> "+a.add(*s.NotSpot))
	}
	if l.recNo != 0 {
		after := a.add(l.received)
		conds = append(conds, "(received > "+after+" OR received = "+after+" AND rec_no > "+a.add(l.recNo)+")")
	}
	limitClause := ""
	if limit > 0 {
		limitClause = "\n\t\tLIMIT " + a.add(limit)
	}
	t.Query(func(r rows) error {
		n := 0
		for r.Next() {
			var c stockroom.Candidate
			if err := r.Scan(&c.RecNo, &c.Units, &c.Allocated, &c.Hold, &c.Spot, &l.received); err != nil {
				return err
			}
			l.cands, l.recNo = append(l.cands, c), c.RecNo
			n++
		}
		l.all = limit == 0 || n < limit
		return nil
	}, `
		SELECT rec_no, units, allocated, hold, spot, received
		FROM lots
		WHERE `+strings.Join(conds, "\n\t\t  AND ")+`
		ORDER BY received, rec_no`+limitClause+t.forUpdate(), a...)
	return t.Flush()
}
