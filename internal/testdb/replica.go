package testdb

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// pgBin is where Debian's PostgreSQL 15 keeps its programs.
const pgBin = "/usr/lib/postgresql/15/bin"

// Replica is a scratch PostgreSQL primary with a streaming replica of it,
// each a cluster of its own in a temporary directory on a free port, made
// for one test and removed when it ends, whatever its outcome. The
// machine's own cluster is left alone.
type Replica struct {
	// Primary and Standby are the URLs of the two servers' postgres
	// database.
	Primary, Standby string
	tb               testing.TB
	dir              string
}

// StartReplica makes and starts the pair. It skips the test unless
// PostgreSQL tests are configured (STOCKROOM_TEST_POSTGRES) and the
// PostgreSQL 15 programs are installed. Run as root, the clusters run as the
// postgres user, as PostgreSQL requires.
func StartReplica(tb testing.TB) *Replica {
	tb.Helper()
	RequirePostgres(tb)
	if _, err := os.Stat(filepath.Join(pgBin, "pg_basebackup")); err != nil {
		tb.Skipf("PostgreSQL's programs are not in %s: replica tests skipped", pgBin)
	}
	dir, err := os.MkdirTemp("", "stockroom-replica-")
	if err != nil {
		tb.Fatal(err)
	}
	r := &Replica{tb: tb, dir: dir}
	tb.Cleanup(r.remove) // registered first: a failure below still removes what was made
	if err := r.ownDir(dir); err != nil {
		tb.Fatal(err)
	}
	primary, standby := filepath.Join(dir, "primary"), filepath.Join(dir, "standby")
	pPort, sPort := freePort(tb), freePort(tb)
	r.run("initdb", "-D", primary, "-U", "postgres", "--auth=trust", "--no-sync")
	r.start(primary, pPort)
	r.run("pg_basebackup", "-h", "127.0.0.1", "-p", strconv.Itoa(pPort), "-U", "postgres", "-D", standby, "-R", "-X", "stream", "--no-sync")
	r.start(standby, sPort)
	r.Primary = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", pPort)
	r.Standby = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", sPort)
	return r
}

// start starts the cluster in dir on port, on loopback only, its socket in
// the pair's directory.
func (r *Replica) start(dir string, port int) {
	r.run("pg_ctl", "start", "-w", "-D", dir, "-l", dir+".log",
		"-o", fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -k %s -c fsync=off", port, r.dir))
}

// StopStandby stops the replica, as an outage would.
func (r *Replica) StopStandby() {
	r.tb.Helper()
	r.run("pg_ctl", "stop", "-w", "-m", "fast", "-D", filepath.Join(r.dir, "standby"))
}

// CaughtUp waits until the replica has replayed everything the primary had
// written when it was called.
func (r *Replica) CaughtUp(ctx context.Context) {
	r.tb.Helper()
	var lsn string
	r.query(r.Primary, "SELECT pg_current_wal_lsn()::text", &lsn)
	for {
		var done bool
		r.query(r.Standby, "SELECT COALESCE(pg_last_wal_replay_lsn() >= '"+lsn+"'::pg_lsn, false)", &done)
		if done {
			return
		}
		select {
		case <-ctx.Done():
			r.tb.Fatalf("the replica did not replay up to %s: %v", lsn, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Exec runs a statement on the server at url (Primary or Standby).
func (r *Replica) Exec(url, stmt string) {
	r.tb.Helper()
	var ignored any
	r.query(url, stmt, &ignored)
}

func (r *Replica) query(url, q string, dest any) {
	r.tb.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		r.tb.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow(q).Scan(dest); err != nil {
		r.tb.Fatalf("%s: %v", q, err)
	}
}

// remove stops both clusters, if running, and removes their directory.
func (r *Replica) remove() {
	for _, c := range []string{"standby", "primary"} {
		dir := filepath.Join(r.dir, c)
		if _, err := os.Stat(filepath.Join(dir, "postmaster.pid")); err == nil {
			_ = r.command("pg_ctl", "stop", "-w", "-m", "immediate", "-D", dir).Run()
		}
	}
	_ = os.RemoveAll(r.dir)
}

// run runs one of PostgreSQL's programs, failing the test when it fails.
func (r *Replica) run(prog string, args ...string) {
	r.tb.Helper()
	if out, err := r.command(prog, args...).CombinedOutput(); err != nil {
		r.tb.Fatalf("%s %v: %v\n%s", prog, args, err, out)
	}
}

// command is a PostgreSQL program to run as the postgres user when the
// test runs as root, else as the test's user.
func (r *Replica) command(prog string, args ...string) *exec.Cmd {
	path := filepath.Join(pgBin, prog)
	if os.Geteuid() == 0 {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

// ownDir gives dir to the postgres user when the test runs as root.
func (r *Replica) ownDir(dir string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return err
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(dir, uid, gid)
}

// freePort returns a loopback port free at the moment.
func freePort(tb testing.TB) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
