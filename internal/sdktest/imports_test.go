package sdktest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/stockroom/stockroom"

// goList runs `go list` in the repository's root and decodes the packages it
// prints as JSON.
func goList(t *testing.T, args ...string) []listedPackage {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json=ImportPath,Standard,Module,TestImports,XTestImports"}, args...)...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderrOf(err))
	}
	var pkgs []listedPackage
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			return pkgs
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
}

type listedPackage struct {
	ImportPath                string
	Standard                  bool
	Module                    *struct{ Path string }
	TestImports, XTestImports []string
}

// modulePath is the package's module, "" for the standard library.
func (p listedPackage) modulePath() string {
	if p.Module == nil {
		return ""
	}
	return p.Module.Path
}

func stderrOf(err error) []byte {
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		return ee.Stderr
	}
	return nil
}

// clientModules are the modules a program that uses the SDK needs anyway:
// those of client and its dependencies, the tests left out.
func clientModules(t *testing.T) []string {
	var mods []string
	for _, p := range goList(t, "-deps", "./client") {
		if m := p.modulePath(); m != "" && m != module && !slices.Contains(mods, m) {
			mods = append(mods, m)
		}
	}
	return mods
}

// TestClientImports keeps the tests of client (and of the root package,
// which client imports) from importing the server. `go mod tidy` in a
// module that imports client records checksums for the test dependencies
// of client and of the root package: a server package reached from those
// tests puts the server's modules (pgx, SQLite, Redis, kin-openapi...) into
// every consumer's go.sum. Such a test belongs in internal/sdktest.
func TestClientImports(t *testing.T) {
	allowed := clientModules(t)
	var wrong []string
	for _, p := range goList(t, "-deps", "-test", "./client", ".") {
		// Test variants are listed as "path [path.test]", "path_test [...]"
		// and "path.test".
		path, _, _ := strings.Cut(p.ImportPath, " ")
		path = strings.TrimSuffix(strings.TrimSuffix(path, ".test"), "_test")
		switch m := p.modulePath(); {
		case p.Standard:
		case m == module && (path == module || path == module+"/client"):
		case m != module && slices.Contains(allowed, m):
		default:
			wrong = append(wrong, p.ImportPath)
		}
	}
	if len(wrong) > 0 {
		var direct []string
		for _, p := range goList(t, "./client", ".") {
			for _, imp := range slices.Concat(p.TestImports, p.XTestImports) {
				if first, _, _ := strings.Cut(imp, "/"); imp != module+"/client" && (strings.HasPrefix(imp, module+"/") || !strings.HasPrefix(imp, module) && strings.Contains(first, ".")) {
					direct = append(direct, p.ImportPath+"'s tests import "+imp)
				}
			}
		}
		t.Fatalf("the tests of client or of the root package reach packages a consumer of the SDK does not need, "+
			"and their modules would go into its go.sum (move such tests to internal/sdktest):\n%s\ndirectly: %s",
			strings.Join(wrong, "\n"), strings.Join(direct, "; "))
	}
}

// TestConsumerGoSum runs `go mod tidy` in a module of an integrator's that
// calls client.New, with this repository as its stockroom module, and fails
// if its go.sum names a module the SDK does not itself need. It works
// offline, from the module cache; when the cache lacks a module the SDK
// needs, it skips (TestClientImports still holds the line).
func TestConsumerGoSum(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ourMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(ourMod)
	if goVersion == nil {
		t.Fatal("no go directive in go.mod")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/consumer\n\ngo " + string(goVersion[1]) + "\n\n" +
			"require " + module + " v0.0.0\n\nreplace " + module + " => " + root + "\n",
		"main.go": "package main\n\nimport \"" + module + "/client\"\n\n" +
			"func main() {\n\tif _, err := client.New(\"http://127.0.0.1:8080\", \"id\", \"secret\"); err != nil {\n\t\tpanic(err)\n\t}\n}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tidy := exec.Command("go", "mod", "tidy")
	tidy.Dir = dir
	// Nothing is downloaded (GOPROXY=off) and so nothing is verified against
	// the checksum database either: this counts modules, it trusts none.
	tidy.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := tidy.CombinedOutput(); err != nil {
		if bytes.Contains(out, []byte("GOPROXY=off")) {
			t.Skipf("go mod tidy needs a module the cache does not hold (no network here):\n%s", out)
		}
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	allowed := clientModules(t)
	var extra []string
	for line := range strings.Lines(string(sum)) {
		if m, _, _ := strings.Cut(line, " "); !slices.Contains(allowed, m) && !slices.Contains(extra, m) {
			extra = append(extra, m)
		}
	}
	if len(extra) > 0 {
		t.Fatalf("a consumer's go.sum names %d modules the SDK does not need (the SDK needs %v): %v\n%s",
			len(extra), allowed, extra, sum)
	}
	t.Logf("a consumer's go.sum: %d lines, modules %v", strings.Count(string(sum), "\n"), allowed)
}
