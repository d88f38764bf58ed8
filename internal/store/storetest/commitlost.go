package storetest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

// testCommitAnswerLost loses the answer to a COMMIT that PostgreSQL carried
// out: the connection breaks after the database committed and before the
// store heard so. The transaction is durable, so its requests must not run
// again (each would then be in the ledger twice), and each is answered
// with what it did. A lone transaction and a batch in a lockstep each lose
// one answer; then each loses its COMMIT on the way, which the database
// never commits, and runs again; then each loses the answer with the
// database, and nobody can tell what became of it.
func (h *harness) testCommitAnswerLost(t *testing.T) {
	dsn := h.newDSN(t)
	if !strings.HasPrefix(dsn, "postgres") {
		t.Skip("SQLite commits in the process: there is no answer to lose on the way")
	}
	p := startCommitDropper(t, dsn)
	l := &lostCommits{t: t, s: stockOn(t, mustOpen(t, p.dsn)), p: p, c: newItem("C", t0)}
	must(t, l.s.CreateItem(ctx, nil, &l.c))
	l.answerLost()
	l.lostOnTheWay()
	l.outcomeUnknown()
	l.check()
}

// lostCommits is testCommitAnswerLost's fixture: the stock fixture behind
// the proxy that loses COMMITs, a third item C, and the outcomes so far.
type lostCommits struct {
	t        *testing.T
	s        *stockDB
	p        *commitDropper
	c        stockroom.Item
	outcomes []outcome
}

// receive is a receipt of units of part into warehouse 1.
func (l *lostCommits) receive(part int64, units stockroom.Units) func(e stockroom.LedgerEntry) (int64, error) {
	return l.s.receiveOp(ctx, part, 1, units, nil)
}

// answerLost: a lone transaction and a batch in a lockstep each lose the
// answer to a COMMIT the database carried out.
func (l *lostCommits) answerLost() {
	t, s, p := l.t, l.s, l.p
	p.arm()
	e := s.entry()
	e.Reference = "lone"
	res, err := s.Receive(ctx, nil, stockroom.Receipt{PartNo: s.a.PartNo, ReceiveRequest: stockroom.ReceiveRequest{WID: 1, Units: u(10)}}, e)
	if err != nil {
		t.Fatalf("lone receive whose COMMIT answer was lost: %v, want success", err)
	}
	if p.dropped.Load() != 1 {
		t.Fatalf("%d COMMIT answers lost, want 1", p.dropped.Load())
	}
	l.outcomes = append(l.outcomes, outcome{ref: "lone", op: "lone receive", ok: true, txID: res.TransactionID})

	receive := l.receive
	members := []batchMember{
		{"issue 4 of A", s.drawOp(stockroom.TxIssue, s.a.PartNo, u(4)), nil},
		{"receive 3 of B", receive(s.b.PartNo, u(3)), nil},
		{"receive 2 of C", receive(l.c.PartNo, u(2)), nil},
		{"keyed receive of B", s.receiveOp(ctx, s.b.PartNo, 2, u(5), batchKey("lost-1")), nil},
		{"move 6 of A", s.drawOp(stockroom.TxMove, s.a.PartNo, u(6)), nil},
	}
	before := s.WriteStats()
	p.arm()
	l.outcomes = append(l.outcomes, s.runBatchOf(members, nil)...)
	after := s.WriteStats()
	if p.dropped.Load() != 2 {
		t.Fatalf("%d COMMIT answers lost, want 2", p.dropped.Load())
	}
	if after.Batches-before.Batches != 1 || after.Again != before.Again {
		t.Errorf("write stats %+v then %+v: want one batch, nothing run again", before, after)
	}
}

// lostOnTheWay: a lone transaction and a batch each lose their COMMIT on
// its way.
func (l *lostCommits) lostOnTheWay() {
	t, s, p := l.t, l.s, l.p
	receive := l.receive
	// The connection breaks before the database sees the COMMIT: the
	// transaction is rolled back, the store learns so, and the requests
	// run again, each alone.
	p.before.Store(true)
	p.arm()
	e := s.entry()
	e.Reference = "lone-aborted"
	res, err := s.Receive(ctx, nil, stockroom.Receipt{PartNo: s.a.PartNo, ReceiveRequest: stockroom.ReceiveRequest{WID: 2, Units: u(1)}}, e)
	if err != nil {
		t.Fatalf("lone receive whose COMMIT was lost on its way: %v, want success", err)
	}
	l.outcomes = append(l.outcomes, outcome{ref: "lone-aborted", op: "lone receive, run again", ok: true, txID: res.TransactionID})
	members := []batchMember{
		{"receive 1 of C", receive(l.c.PartNo, u(1)), nil},
		{"issue 1 of B", s.drawOp(stockroom.TxIssue, s.b.PartNo, u(1)), nil},
	}
	before := s.WriteStats()
	p.arm()
	l.outcomes = append(l.outcomes, s.runBatchOf(members, nil)...)
	after := s.WriteStats()
	p.before.Store(false)
	if p.dropped.Load() != 4 {
		t.Fatalf("%d COMMITs lost, want 4", p.dropped.Load())
	}
	if after.Again-before.Again != int64(len(members)) {
		t.Errorf("write stats %+v then %+v: want every member of the batch run again", before, after)
	}
}

// outcomeUnknown: a lone transaction and a batch each lose the answer with
// the database.
func (l *lostCommits) outcomeUnknown() {
	t, s, p := l.t, l.s, l.p
	receive := l.receive
	// The database goes away with the answer, so nobody can say what
	// became of the transaction: the requests that changed something are
	// answered so, and not run again; the one refused in the batch changed
	// nothing, and runs again alone.
	s.SetCommitOutcomeWaitForTest(300 * time.Millisecond)
	p.arm()
	p.sever.Store(true)
	e := s.entry()
	e.Reference = "lone-unknown"
	key := batchKey("lost-2")
	lone := stockroom.Receipt{PartNo: l.c.PartNo, ReceiveRequest: stockroom.ReceiveRequest{WID: 2, Units: u(4)}}
	_, err := s.Receive(ctx, key, lone, e)
	if !isOutcomeUnknown(err) {
		t.Fatalf("lone receive whose COMMIT answer was lost with the database: %v, want its outcome unknown", err)
	}
	p.sever.Store(false)
	// It committed: the ledger has it, though its request was not told,
	// and its key tells a repeat so, as the answer advises.
	l.outcomes = append(l.outcomes, outcome{ref: "lone-unknown", op: "lone receive, outcome unknown", txID: committedUnseen})
	if _, err := s.Receive(ctx, key, lone, s.entry()); !isReplay(err) {
		t.Fatalf("repeat of the receive whose outcome was unknown: %v, want its answer replayed", err)
	}
	p.arm()
	p.sever.Store(true)
	members := []batchMember{
		{"receive 1 of A", receive(s.a.PartNo, u(1)), isOutcomeUnknown},
		// Refused before it wrote, it runs again alone, while the
		// database is still gone: unavailable, its outcome known.
		{"issue 9 of C", s.drawOp(stockroom.TxIssue, l.c.PartNo, u(9)), func(err error) bool {
			return isCode(stockroom.EUNAVAILABLE)(err) && !isOutcomeUnknown(err)
		}},
		{"receive 1 of B", receive(s.b.PartNo, u(1)), isOutcomeUnknown},
	}
	unknown := s.runBatchOf(members, nil)
	p.sever.Store(false)
	unknown[0].txID, unknown[2].txID = committedUnseen, committedUnseen
	l.outcomes = append(l.outcomes, unknown...)
	if p.dropped.Load() != 6 {
		t.Fatalf("%d COMMIT answers lost, want 6 in all", p.dropped.Load())
	}
}

// check checks the ledger and the levels against the outcomes.
func (l *lostCommits) check() {
	t, s := l.t, l.s
	s.checkLedgerByReference(l.outcomes)
	for _, c := range []struct {
		part, wid int64
		want      stockroom.Units
	}{{s.a.PartNo, 1, u(1)}, {s.a.PartNo, 2, u(7)}, {s.b.PartNo, 1, u(3)}, {s.b.PartNo, 2, u(5)}, {l.c.PartNo, 1, u(3)}, {l.c.PartNo, 2, u(4)}} {
		if got := s.level(c.part, c.wid).InStock; got != c.want {
			t.Errorf("item %d warehouse %d: inStock %s, want %s", c.part, c.wid, got, c.want)
		}
	}
	s.audit()
}

// isOutcomeUnknown reports whether err answers a request whose COMMIT's
// answer was lost when the database could not say what became of it.
func isOutcomeUnknown(err error) bool {
	var se *stockroom.Error
	return errors.As(err, &se) && se.Code == stockroom.EUNAVAILABLE && strings.Contains(se.Message, "Idempotency-Key")
}

// commitDropper is a TCP proxy in front of PostgreSQL. Once armed, it
// breaks the first connection on which the database answers a COMMIT
// (CommandComplete "COMMIT"), closing both ends without passing that
// answer on: the transaction is committed, and its client never learns it.
type commitDropper struct {
	dsn     string // the database's DSN, through the proxy
	armed   atomic.Bool
	dropped atomic.Int32
	// before: the armed proxy breaks the connection on which a COMMIT is
	// sent instead, before the database sees it: the transaction is
	// rolled back, and its client cannot tell.
	before atomic.Bool
	// sever: the database is gone while set, from the next COMMIT answer
	// lost: every connection through the proxy is closed, and new ones are
	// closed as they come.
	sever atomic.Bool
	// cut closes every connection through the proxy.
	cut func()
	wg  sync.WaitGroup
}

func (p *commitDropper) arm() { p.armed.Store(true) }

// startCommitDropper starts a proxy to dsn's server on loopback, stopped
// when the test ends.
func startCommitDropper(t *testing.T, dsn string) *commitDropper {
	t.Helper()
	u, err := url.Parse(dsn)
	must(t, err)
	target := u.Host
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	u.Host = ln.Addr().String()
	p := &commitDropper{dsn: u.String()}
	var (
		mu    sync.Mutex
		conns []net.Conn
	)
	track := func(cs ...net.Conn) {
		mu.Lock()
		conns = append(conns, cs...)
		mu.Unlock()
	}
	p.cut = func() {
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		conns = nil
		mu.Unlock()
	}
	p.wg.Go(func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			if p.sever.Load() && p.dropped.Load() > 0 && !p.armed.Load() {
				client.Close()
				continue
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			track(client, server)
			p.wg.Go(func() { p.requests(client, server); server.Close() })
			p.wg.Go(func() { p.answers(server, client); client.Close() })
		}
	})
	t.Cleanup(func() {
		ln.Close()
		p.cut()
		p.wg.Wait()
	})
	return p
}

// answers passes the server's messages on to the client, one by one, until
// either end closes, or until the armed proxy meets a COMMIT's answer.
func (p *commitDropper) answers(server, client net.Conn) {
	defer server.Close()
	for {
		head, body, err := readMessage(server, 5)
		if err != nil {
			return
		}
		if head[0] == 'C' && bytes.Equal(body, []byte("COMMIT\x00")) && !p.before.Load() && p.armed.CompareAndSwap(true, false) {
			p.dropped.Add(1)
			if p.sever.Load() {
				p.cut()
			}
			return
		}
		if _, err := client.Write(append(head, body...)); err != nil {
			return
		}
	}
}

// requests passes the client's messages on to the server, one by one,
// until either end closes, or until the armed proxy, set to break a
// connection before its COMMIT, meets one: the COMMIT's execution (a Bind
// of a statement parsed from "COMMIT", or a simple query of it).
func (p *commitDropper) requests(client, server net.Conn) {
	defer client.Close()
	head, body, err := readMessage(client, 4) // the startup message has no type
	if err != nil {
		return
	}
	if _, err := server.Write(append(head, body...)); err != nil {
		return
	}
	commits := map[string]bool{} // prepared statements of COMMIT, by name
	for {
		head, body, err := readMessage(client, 5)
		if err != nil {
			return
		}
		commit := false
		switch fields := bytes.SplitN(body, []byte{0}, 3); head[0] {
		case 'P': // Parse: name, query, ...
			if len(fields) > 1 {
				commits[string(fields[0])] = strings.EqualFold(strings.TrimSpace(string(fields[1])), "COMMIT")
			}
		case 'B': // Bind: portal, statement, ...
			commit = len(fields) > 1 && commits[string(fields[1])]
		case 'Q': // a simple query
			commit = strings.EqualFold(strings.TrimSpace(strings.TrimRight(string(body), "\x00")), "COMMIT")
		}
		if commit && p.before.Load() && p.armed.CompareAndSwap(true, false) {
			p.dropped.Add(1)
			return
		}
		if _, err := server.Write(append(head, body...)); err != nil {
			return
		}
	}
}

// readMessage reads one message of PostgreSQL's protocol from r: its head,
// of n bytes (its type and then its length with itself; the startup
// message has only the length), and its body.
func readMessage(r io.Reader, n int) (head, body []byte, err error) {
	head = make([]byte, n)
	if _, err := io.ReadFull(r, head); err != nil {
		return nil, nil, err
	}
	size := int(binary.BigEndian.Uint32(head[n-4:])) - 4
	if size < 0 {
		return nil, nil, errors.New("a message shorter than its length")
	}
	body = make([]byte, size)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, nil, err
	}
	return head, body, nil
}
