package sqliteconn

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestSQLiteFilesAreOwnerOnly: a new database and its -wal and -shm files
// are 0600 whatever the umask (contract §14). The umask is the process's, so
// this test does not run in parallel with others.
func TestSQLiteFilesAreOwnerOnly(t *testing.T) {
	for _, umask := range []int{0o000, 0o022, 0o277} {
		old := syscall.Umask(umask)
		path := filepath.Join(t.TempDir(), "new.db")
		db, err := Open(context.Background(), path)
		if err == nil { // a write makes the -wal and -shm files
			_, err = db.Write.Exec(`CREATE TABLE t (k INTEGER PRIMARY KEY)`)
		}
		syscall.Umask(old)
		if err != nil {
			t.Fatalf("umask %03o: %v", umask, err)
		}
		for _, name := range []string{path, path + "-wal", path + "-shm"} {
			fi, err := os.Stat(name)
			if err != nil {
				t.Fatalf("umask %03o: %v", umask, err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("umask %03o: %s is %v, want -rw-------", umask, filepath.Base(name), fi.Mode().Perm())
			}
		}
		db.Close()
	}
}
