package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestEventsCommand: `stockroom events` prints the feed of a running
// server's database as JSON lines, resumes after --cursor and keeps to
// --types; with --follow, run as its own process, it prints each new event
// as it commits and ends with status 0 on SIGINT.
func TestEventsCommand(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := testdb.DSN(t, engine)
			s := startServe(t, dsn, nil)
			c := sdk(t, s.url, s.adminID, s.adminSecret)
			if _, err := c.CreateItem(ctx, client.ItemInput{ShortID: "BOLT"}); err != nil {
				t.Fatal(err)
			}
			receive := func(units int64) {
				t.Helper()
				if _, err := c.Receive(ctx, client.ReceiveRequest{ItemID: "BOLT", Units: stockroom.Whole(units), WID: 1, ReasonCode: 1}); err != nil {
					t.Fatal(err)
				}
			}
			receive(1)
			settleFeed(t, dsn) // on PostgreSQL, another test's transaction may hold the last back

			all := feedLines(t, mustAdmin(t, dsn, "events"))
			if got := eventTypes(all); strings.Join(got, " ") != "item.created stocklevel.changed inventory.received" {
				t.Fatalf("events: %v", got)
			}
			if rest := feedLines(t, mustAdmin(t, dsn, "events", "--cursor", all[0].ID)); len(rest) != 2 || rest[0].ID != all[1].ID || rest[1].ID != all[2].ID {
				t.Errorf("events --cursor (the first event's id): %v, want the two after it", eventTypes(rest))
			}
			for _, bad := range [][]string{{"--types", "inventory.bogus"}, {"--cursor", "not-a-cursor"}} {
				if code, _, errOut := admin(t, dsn, append([]string{"events"}, bad...)...); code != 2 || !strings.Contains(errOut, strings.TrimPrefix(bad[0], "--")) {
					t.Errorf("events %v: exit %d %s, want 2 naming the flag", bad, code, errOut)
				}
			}

			follower := exec.Command(os.Args[0], "events", "--follow", "--types", "inventory.received", "--db", dsn)
			follower.Env = append(os.Environ(), "STOCKROOM_TEST_MAIN=1")
			stderr := &syncBuffer{}
			follower.Stderr = stderr
			out, err := follower.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := follower.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = follower.Process.Kill() })
			lines := make(chan stockroom.Event)
			go func() {
				defer close(lines)
				sc := bufio.NewScanner(out)
				for sc.Scan() {
					var ev stockroom.Event
					if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
						t.Errorf("follower printed %q: %v", sc.Text(), err)
					}
					lines <- ev
				}
			}()
			next := func() stockroom.Event {
				t.Helper()
				select {
				case ev, ok := <-lines:
					if !ok {
						t.Fatalf("the follower ended: %s", stderr)
					}
					return ev
				case <-time.After(15 * time.Second):
					t.Fatalf("the follower printed nothing in 15 s: %s", stderr)
				}
				return stockroom.Event{}
			}
			if ev := next(); ev.ID != all[2].ID {
				t.Fatalf("the follower's first event %s %s, want the receipt already made %s", ev.Type, ev.ID, all[2].ID)
			}
			for units := int64(2); units <= 4; units++ {
				receive(units)
				ev := next()
				var receipt struct{ Lot stockroom.Lot }
				if err := json.Unmarshal(ev.Data, &receipt); ev.Type != stockroom.EventReceived || err != nil || receipt.Lot.Units.Cmp(stockroom.Whole(units)) != 0 {
					t.Fatalf("after a receipt of %d: the follower printed %s %s (%v)", units, ev.Type, ev.Data, err)
				}
			}
			if err := follower.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			if _, more := <-lines; more {
				t.Errorf("the follower printed more after the receipts")
			}
			if err := follower.Wait(); err != nil {
				t.Errorf("the follower ended on SIGINT with %v: %s", err, stderr)
			}
		})
	}
}

// feedLines reads the command's output, one event a line.
func feedLines(t *testing.T, out string) []stockroom.Event {
	t.Helper()
	var evs []stockroom.Event
	for l := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		var ev stockroom.Event
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("events printed %q: %v", l, err)
		}
		evs = append(evs, ev)
	}
	return evs
}

func eventTypes(evs []stockroom.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = string(ev.Type)
	}
	return out
}
