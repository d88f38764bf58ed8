package sqliteconn

import (
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// A commit's log frames in one write.
//
// At a commit SQLite appends each page it changed to the write-ahead log as
// a frame, a 24-byte header and the page, with two pwrite calls per page,
// then syncs the log. A batch's commit writes 40 to 80 pages, so 80 to 160
// system calls on the one writer, each costing more than copying its bytes
// (here about 2.5 µs a frame, against 0.8 µs when one call writes forty).
// The frames of a commit follow one another in the log, so walVFS, a VFS
// that is SQLite's own "unix" VFS in every respect but one, gathers a log
// file's writes in memory while each follows the last, and writes them with
// one call when SQLite syncs the log.
//
// It relies on synchronous=FULL, the only setting it is used with
// (openSQLite): under FULL, SQLite syncs the log at the end of every
// commit, before it publishes the commit's frames to other connections in
// the log's index, so no other connection ever looks for a frame that is
// still gathered. What SQLite has not synced is not durable either way:
// gathering changes nothing of what a crash keeps, and a write is answered
// only once its COMMIT has returned, after the sync, after the write.
//
// The same connection may look at what it gathered before the sync (a
// commit larger than the page cache writes pages early and may read them
// back or write them again): a read that reaches gathered bytes, a write
// that does not follow on, the file's size, a truncation, a file control
// and the close each write what is gathered first. A failed write is
// SQLite's to report, as unix's own would be: the commit fails and nothing
// of it is published.
//
// Only the log files are wrapped (SQLITE_OPEN_WAL); the database file and
// every other method are the unix VFS's own.
const walVFSName = "stockroom-wal"

// walGatherMax bounds what one log file gathers before it writes.
const walGatherMax = 4 << 20

var (
	walVFSOnce sync.Once
	walVFSErr  error

	// walVFS is the registered VFS: a copy of unix's with xOpen replaced.
	// SQLite keeps pointers to it and to walMethods, Go globals, which
	// never move.
	walVFS sqlite3.Tsqlite3_vfs
	// unixVFS is the address of SQLite's unix VFS, whose xOpen walOpen
	// calls.
	unixVFS uintptr
	// walMethods is a copy of the methods table unix's xOpen gives a log
	// file, walBase, at walBaseAt, with the gathering methods in place of
	// the ones they wrap. A file given another table (none is, on Linux)
	// is left as unix opened it.
	walMethods, walBase sqlite3.Tsqlite3_io_methods
	walBaseAt           uintptr

	// walFiles is what each open log file has gathered, by its handle.
	// A handle is used by one connection, and SQLite serializes the calls
	// of a connection.
	walFilesMu sync.Mutex
	walFiles   = map[uintptr]*walFile{}

	// walGathered counts the frames' writes gathered, walWrites the writes
	// made of them: what the gathering saved.
	walGathered, walWrites atomic.Int64
)

// walFile is what one open log file has gathered: buf, to be written at
// off.
type walFile struct {
	off int64
	buf []byte
}

// registerWALVFS registers walVFS with SQLite, once per process.
func registerWALVFS() error {
	walVFSOnce.Do(func() {
		tls := libc.NewTLS()
		defer tls.Close()
		unixVFS = sqlite3.Xsqlite3_vfs_find(tls, 0)
		if unixVFS == 0 {
			walVFSErr = fmt.Errorf("sqlite: no default VFS")
			return
		}
		walVFS = *(*sqlite3.Tsqlite3_vfs)(cptr(unixVFS))
		name, err := libc.CString(walVFSName) // kept for the life of the process
		if err != nil {
			walVFSErr = err
			return
		}
		walVFS.FzName, walVFS.FpNext = name, 0
		setFunc(&walVFS.FxOpen, walOpen)
		if rc := sqlite3.Xsqlite3_vfs_register(tls, uintptr(unsafe.Pointer(&walVFS)), 0); rc != sqlite3.SQLITE_OK {
			walVFSErr = fmt.Errorf("sqlite: register VFS %s: code %d", walVFSName, rc)
		}
	})
	return walVFSErr
}

// The transpiled SQLite holds a C function pointer as a uintptr that is a
// Go func value's bits; setFunc stores f in such a field, and fn reads one
// back as a func of type F.
func setFunc[F any](field *uintptr, f F) { *(*F)(unsafe.Pointer(field)) = f }

func fn[F any](field uintptr) F { return *(*F)(unsafe.Pointer(&field)) }

// cptr turns an address of SQLite's memory, which the transpiled library
// passes as a uintptr, into a pointer. SQLite's memory is not Go's heap:
// nothing moves or frees it behind the pointer.
func cptr(p uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&p)) }

// fileMethods is the methods table field of an open SQLite file.
func fileMethods(pFile uintptr) *uintptr {
	return &(*sqlite3.Tsqlite3_file)(cptr(pFile)).FpMethods
}

// walOpen is walVFS's xOpen: unix's, then a log file's methods wrapped.
func walOpen(tls *libc.TLS, _ uintptr, zName uintptr, pFile uintptr, flags int32, pOutFlags uintptr) int32 {
	open := fn[func(*libc.TLS, uintptr, uintptr, uintptr, int32, uintptr) int32]((*sqlite3.Tsqlite3_vfs)(cptr(unixVFS)).FxOpen)
	rc := open(tls, unixVFS, zName, pFile, flags, pOutFlags)
	methods := fileMethods(pFile)
	if rc != sqlite3.SQLITE_OK || flags&sqlite3.SQLITE_OPEN_WAL == 0 || *methods == 0 {
		return rc
	}
	walFilesMu.Lock()
	defer walFilesMu.Unlock()
	if walBaseAt == 0 {
		walBaseAt, walBase = *methods, *(*sqlite3.Tsqlite3_io_methods)(cptr(*methods))
		walMethods = walBase
		setFunc(&walMethods.FxClose, walClose)
		setFunc(&walMethods.FxRead, walRead)
		setFunc(&walMethods.FxWrite, walWrite)
		setFunc(&walMethods.FxTruncate, walTruncate)
		setFunc(&walMethods.FxSync, walSync)
		setFunc(&walMethods.FxFileSize, walFileSize)
		setFunc(&walMethods.FxFileControl, walFileControl)
	}
	if *methods == walBaseAt {
		walFiles[pFile] = &walFile{}
		*methods = uintptr(unsafe.Pointer(&walMethods))
	}
	return rc
}

func walState(pFile uintptr) *walFile {
	walFilesMu.Lock()
	defer walFilesMu.Unlock()
	return walFiles[pFile]
}

// flush writes what the log file pFile gathered, with pwrite on its
// descriptor, and forgets it whether or not the write succeeded: SQLite
// treats a failed write as a failed transaction and writes its frames
// again. (Not with unix's xWrite, which writes at most 128 KB a call, the
// low 17 bits of the length, and calls a shorter write a full disk.)
func (w *walFile) flush(pFile uintptr) int32 {
	buf, off := w.buf, w.off
	w.buf = w.buf[:0]
	fd := int((*sqlite3.TunixFile)(cptr(pFile)).Fh)
	for len(buf) > 0 {
		n, err := syscall.Pwrite(fd, buf, off)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.ENOSPC || err == nil && n == 0:
			return sqlite3.SQLITE_FULL
		case err != nil:
			return sqlite3.SQLITE_IOERR_WRITE
		}
		walWrites.Add(1)
		buf, off = buf[n:], off+int64(n)
	}
	return sqlite3.SQLITE_OK
}

// flushFile writes what the log file pFile gathered.
func flushFile(pFile uintptr) int32 {
	if w := walState(pFile); w != nil {
		return w.flush(pFile)
	}
	return sqlite3.SQLITE_OK
}

func walWrite(_ *libc.TLS, pFile uintptr, zBuf uintptr, iAmt int32, iOfst int64) int32 {
	w := walState(pFile)
	if len(w.buf) > 0 && iOfst != w.off+int64(len(w.buf)) {
		if rc := w.flush(pFile); rc != sqlite3.SQLITE_OK {
			return rc
		}
	}
	if len(w.buf) == 0 {
		w.off = iOfst
	}
	w.buf = append(w.buf, unsafe.Slice((*byte)(cptr(zBuf)), iAmt)...)
	walGathered.Add(1)
	if len(w.buf) >= walGatherMax {
		return w.flush(pFile)
	}
	return sqlite3.SQLITE_OK
}

func walRead(tls *libc.TLS, pFile uintptr, zBuf uintptr, iAmt int32, iOfst int64) int32 {
	if w := walState(pFile); len(w.buf) > 0 && iOfst < w.off+int64(len(w.buf)) && iOfst+int64(iAmt) > w.off {
		if rc := w.flush(pFile); rc != sqlite3.SQLITE_OK {
			return rc
		}
	}
	return fn[func(*libc.TLS, uintptr, uintptr, int32, int64) int32](walBase.FxRead)(tls, pFile, zBuf, iAmt, iOfst)
}

func walSync(tls *libc.TLS, pFile uintptr, flags int32) int32 {
	if rc := flushFile(pFile); rc != sqlite3.SQLITE_OK {
		return rc
	}
	return fn[func(*libc.TLS, uintptr, int32) int32](walBase.FxSync)(tls, pFile, flags)
}

func walTruncate(tls *libc.TLS, pFile uintptr, size int64) int32 {
	if rc := flushFile(pFile); rc != sqlite3.SQLITE_OK {
		return rc
	}
	return fn[func(*libc.TLS, uintptr, int64) int32](walBase.FxTruncate)(tls, pFile, size)
}

func walFileSize(tls *libc.TLS, pFile uintptr, pSize uintptr) int32 {
	if rc := flushFile(pFile); rc != sqlite3.SQLITE_OK {
		return rc
	}
	return fn[func(*libc.TLS, uintptr, uintptr) int32](walBase.FxFileSize)(tls, pFile, pSize)
}

func walFileControl(tls *libc.TLS, pFile uintptr, op int32, pArg uintptr) int32 {
	if rc := flushFile(pFile); rc != sqlite3.SQLITE_OK {
		return rc
	}
	return fn[func(*libc.TLS, uintptr, int32, uintptr) int32](walBase.FxFileControl)(tls, pFile, op, pArg)
}

func walClose(tls *libc.TLS, pFile uintptr) int32 {
	rc := flushFile(pFile)
	walFilesMu.Lock()
	delete(walFiles, pFile)
	walFilesMu.Unlock()
	if crc := fn[func(*libc.TLS, uintptr) int32](walBase.FxClose)(tls, pFile); rc == sqlite3.SQLITE_OK {
		rc = crc
	}
	return rc
}
