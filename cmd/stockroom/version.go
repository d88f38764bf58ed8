package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
)

// buildInfo says which build of Stockroom this is, from what the Go toolchain
// recorded in the binary. A field the toolchain did not record (a binary
// built outside a VCS checkout, or by `go run`) reads "unknown"; the version
// is "(devel)" unless the module was built at a tagged or stamped version.
type buildInfo struct {
	Version  string // module version, e.g. v1.4.0 or v0.0.0-20260101120000-abcdef123456+dirty
	Revision string // VCS commit
	Time     string // VCS commit time
	Modified string // "true" when the working tree had uncommitted changes
	Go       string // Go version, operating system and architecture
}

func readBuildInfo() buildInfo {
	bi, _ := debug.ReadBuildInfo()
	return buildInfoFrom(bi)
}

// buildInfoFrom reads what the toolchain recorded; bi may be nil.
func buildInfoFrom(bi *debug.BuildInfo) buildInfo {
	b := buildInfo{Version: "(devel)", Revision: "unknown", Time: "unknown", Modified: "unknown",
		Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	if bi == nil {
		return b
	}
	if bi.Main.Version != "" {
		b.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value
		}
	}
	return b
}

// logAttrs are the build's fields for the server's first log line.
func (b buildInfo) logAttrs() []any {
	return []any{"version", b.Version, "revision", b.Revision, "vcs_time", b.Time, "modified", b.Modified, "go", b.Go}
}

func runVersion(_ context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if err := parseFlags(fs, e, args); err != nil {
		return err
	}
	b := readBuildInfo()
	fmt.Fprintf(e.stdout, "stockroom %s\nrevision: %s\ntime:     %s\nmodified: %s\ngo:       %s\n",
		b.Version, b.Revision, b.Time, b.Modified, b.Go)
	return nil
}
