package stockroom

import (
	"fmt"
	"time"
)

// Withdrawal is a validated issue or move: units drawn from the candidate
// lots of one item in one warehouse.
type Withdrawal struct {
	Type   TxType // TxIssue, TxMove or TxTransfer
	PartNo int64
	WID    int64
	Units  Units
	// Owner is whose lots are drawn; OwnerIsDefault as for a Receipt.
	Owner          int64
	OwnerIsDefault bool

	// Lot filters; zero values do not filter.
	Spot     string
	Serial   string
	Serial2  string
	RFIDTag  string
	RecNo    int64
	Received time.Time // a UTC day: lots received on it

	// Move destination; a transfer's, where its transit goes.
	ToWID  int64
	ToSpot string
	// Slip is a transfer's transit slip.
	Slip string
}

// LotSelection is the set of lots a draw may take from, for the store to
// read (and lock) in draw order: oldest received first (FIFO), then lowest
// recNo (contract §7). A lot split off by a move keeps its source's
// received and takes a new recNo, so the two orders differ after a split.
// Zero fields do not narrow it.
type LotSelection struct {
	PartNo, WID int64
	Owner       int64
	Spot        string
	Serial      string
	Serial2     string
	RFIDTag     string
	RecNo       int64
	// ReceivedFrom and ReceivedTo keep lots received in [from, to).
	ReceivedFrom, ReceivedTo time.Time
	// NotSpot leaves out the lots already at this spot.
	NotSpot *string
	// WithHeld includes held lots, which are left out otherwise.
	WithHeld bool
}

// Candidates returns the lots w may draw from: in stock, of its item in its
// warehouse, matching every filter given. Held lots are read only when a lot
// is named by recNo, the one case in which one may be drawn (see Plan). A move
// within a warehouse leaves the lots already at its destination alone.
func (w Withdrawal) Candidates() LotSelection {
	s := LotSelection{
		PartNo: w.PartNo, WID: w.WID, Owner: w.Owner, Spot: w.Spot, Serial: w.Serial, Serial2: w.Serial2, RFIDTag: w.RFIDTag,
		RecNo: w.RecNo, WithHeld: w.RecNo != 0,
	}
	if !w.Received.IsZero() {
		s.ReceivedFrom = w.Received.UTC().Truncate(24 * time.Hour)
		s.ReceivedTo = s.ReceivedFrom.Add(24 * time.Hour)
	}
	if w.Type == TxMove && w.ToWID == w.WID {
		to := w.ToSpot
		s.NotSpot = &to
	}
	return s
}

// Candidate is a lot that may be drawn from, in draw order. Allocated are
// its units promised to orders: a draw takes only the rest (Free).
type Candidate struct {
	RecNo     int64
	Units     Units
	Allocated Units
	Hold      bool
	Spot      string
}

// Free is what a draw or a commit may take of the lot: its units not
// allocated to orders.
func (c Candidate) Free() Units {
	f := c.Units.Sub(c.Allocated)
	if f.Sign() < 0 {
		return Units{}
	}
	return f
}

// Draw is one lot's part in an issue or move.
type Draw struct {
	RecNo int64 `json:"recNo"`
	Units Units `json:"units"`
	// Remaining is what stays in the source lot.
	Remaining Units `json:"remaining"`
	// NewRecNo is, for a move, the lot split off at the destination: 0 when
	// the whole lot moved in place. Absent for an issue.
	NewRecNo *int64 `json:"newRecNo,omitempty"`
}

// SplitRecNo is, for a move, the lot split off at the destination; 0 when
// the whole lot moved, and for an issue.
func (d Draw) SplitRecNo() int64 {
	if d.NewRecNo == nil {
		return 0
	}
	return *d.NewRecNo
}

// Plan decides which lots give how much, drawing from the candidates in the
// order given (draw order, see LotSelection). A lot gives only its units not
// allocated to orders (Free), and those alone count as available. A held lot
// (which has no allocation) gives nothing, unless w is a move that names it
// by recNo; an issue or transfer that names a held lot is refused as such. Too few units is ECONFLICT naming the requested and available
// units; nothing is drawn then. A withdrawal of no units that names a lot
// by recNo (a whole-lot move) takes all the lot's free units, and is
// ECONFLICT when it has none.
func (w Withdrawal) Plan(candidates []Candidate) ([]Draw, error) {
	var available Units
	usable := make([]Candidate, 0, len(candidates))
	for _, c := range candidates {
		if c.Hold && !(w.Type == TxMove && w.RecNo != 0 && c.RecNo == w.RecNo) {
			if w.RecNo != 0 && c.RecNo == w.RecNo {
				verb := "issued"
				if w.Type == TxTransfer {
					verb = "shipped"
				}
				return nil, Errorf(ECONFLICT, "Lot %d is on hold; release it before it can be %s.", c.RecNo, verb)
			}
			continue
		}
		if c.Free().Sign() > 0 {
			usable = append(usable, c)
			available = available.Add(c.Free())
		}
	}
	if w.Units.IsZero() && w.RecNo != 0 {
		if available.IsZero() {
			return nil, Errorf(ECONFLICT, "Lot %d has no free units: none in stock here, or all committed to orders.", w.RecNo)
		}
		w.Units = available
	}
	if w.Units.Sign() <= 0 || available.Less(w.Units) {
		return nil, &Error{Code: ECONFLICT, Message: fmt.Sprintf(
			"Insufficient stock: %s requested, %s available.", CountUnits(w.Units), available)}
	}
	var draws []Draw
	left := w.Units
	for _, c := range usable {
		if left.IsZero() {
			break
		}
		take := MinUnits(c.Free(), left)
		draws = append(draws, Draw{RecNo: c.RecNo, Units: take, Remaining: c.Units.Sub(take)})
		left = left.Sub(take)
	}
	return draws, nil
}

// CountUnits writes a quantity with its noun: "1 unit", "2 units",
// "0.5 units".
func CountUnits(u Units) string {
	if u == Whole(1) || u == Whole(-1) {
		return u.String() + " unit"
	}
	return u.String() + " units"
}

// DrawnUnits is what the draws take in all: a withdrawal's units, as
// planned (a whole-lot move names none).
func DrawnUnits(draws []Draw) Units {
	var sum Units
	for _, d := range draws {
		sum = sum.Add(d.Units)
	}
	return sum
}
