package main

import (
	"context"
	"encoding/json"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// feedReader is who reads the change feed from the command line: the
// operator (whoever can reach the database), with the feed's permission
// only, and no write.
var feedReader = &stockroom.Principal{ClientID: "operator", Name: "operator", Permissions: []stockroom.Permission{stockroom.PermItemRead},
	Scope: stockroom.Scope{All: true}, Owners: stockroom.Scope{All: true}, ReadOnly: true}

// followWait is how long one read of a follower waits at the end of the
// feed before it reads again.
const followWait = 30 * time.Second

// runEvents runs `stockroom events [--cursor C] [--types LIST] [--follow]`:
// the change feed after the cursor (from its start without one), one event
// a line of JSON as GET /Events shows it, to the end of the feed; with
// --follow it then waits for the next events and prints them as they
// commit, until interrupted (SIGINT or SIGTERM), which ends it with status
// 0. The last line's id is the cursor to resume from.
//
// Like every other command it reads the database named by --db, not a
// server: an operator needs no client credential, and the feed is in the
// database, whichever instance wrote it.
func runEvents(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("events")
	cursor := fs.String("cursor", "", "print the events after this cursor (an event's id); from the start of the feed without it")
	types := fs.String("types", "", "only events of these types, comma-separated")
	follow := fs.Bool("follow", false, "wait for new events and print them as they commit, until interrupted")
	var req service.Request[service.EventQuery]
	check := func() error {
		req.In = service.EventQuery{Limit: stockroom.MaxEventLimit}
		req.In.After = stockroom.ParseEventCursor(*cursor, "cursor", &req.Problems)
		if *types != "" {
			req.In.Types = stockroom.ParseEventTypes(*types, "types", &req.Problems)
		}
		if err := req.Problems.Err(); err != nil {
			return usageFor(fs, "%s", describe(err))
		}
		return nil
	}
	return withService(ctx, e, args, serviceFlags{fs: fs, dsn: dsn, check: check}, func(svc *service.Service) error {
		err := printFeed(ctx, svc, req.In, *follow, json.NewEncoder(e.stdout))
		if ctx.Err() != nil {
			return nil // interrupted: how a follower ends
		}
		return err
	})
}

// printFeed prints the feed from q.After, page after page, to its end; when
// follow, it then long-polls for the next events until ctx ends.
func printFeed(ctx context.Context, svc *service.Service, q service.EventQuery, follow bool, out *json.Encoder) error {
	for {
		page, err := svc.ListEvents(ctx, feedReader, service.Request[service.EventQuery]{In: q})
		if err != nil {
			return err
		}
		for _, ev := range page.Value {
			if err := out.Encode(ev); err != nil {
				return err
			}
		}
		q.After = stockroom.ParseEventCursor(page.Cursor, "cursor", new(stockroom.Validation))
		switch {
		case page.HasMore:
			q.Wait = 0
		case !follow:
			return nil
		default:
			q.Wait = followWait
		}
	}
}
