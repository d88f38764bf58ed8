package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/internal/openapitest"
	"github.com/stockroom/stockroom/internal/testdb"
)

// The README's curl examples are executed by TestREADME, so that they cannot
// drift from the server. The rules, which the README's own comment points to:
//
//   - Every code block (indented or fenced) that contains "curl" runs, in the
//     README's order, in one bash session, against a fresh server started as
//     the README starts it. A block preceded by the line
//     <!-- readme-test: skip --> does not run. Its `stockroom` commands
//     (warehouse add, client add, ...) work on the server's database.
//   - http://127.0.0.1:8080 is replaced by the test server's address, and the
//     client id and secret the README shows (its first client_id= and
//     client_secret=) by the real administrator's.
//   - A command is a line and its continuation lines (ending in "\", or
//     inside a multi-line single-quoted string). The "# ..." lines right
//     after it state what it answers:
//     "# 409 ..." the status of its last curl call (else any 2xx will do);
//     "# {...}" or "# 201 {...}" JSON the body must contain: every field shown
//     must be there with that value (other fields may be left out, and
//     "..." may say so); "..." before a "]" means the array may have more
//     elements;
//     "# 201, Location: /api/v1/Item/1" a header after the status.
//     Other comment text is prose for the reader.
//   - Every other curl call of a command must answer 2xx, every command must
//     exit 0, and every answer must match api/openapi.yaml.

// readmeBlock is a code block of the README that runs.
type readmeBlock struct {
	line     int // of its first line, 1-based
	commands []readmeCommand
}

// readmeCommand is one shell command of a block and what it should answer.
type readmeCommand struct {
	line    int
	text    string
	status  int               // 0: any 2xx
	body    []string          // JSON the answer must contain
	headers map[string]string // headers the answer must have
	// lines are the other comment lines: of a CSV answer, its first
	// lines, "..." standing for any text (csvLinesMatch).
	lines []string
}

var (
	skipMarker   = "<!-- readme-test: skip -->"
	statusPrefix = regexp.MustCompile(`^([1-5]\d\d)\b[,:;]?\s*(.*)$`)
	headerInLine = regexp.MustCompile(`(?:^|,\s*)([A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*): ([^\s,]+)`)
)

// readmeBlocks returns the README's code blocks that contain curl.
func readmeBlocks(readme string) []readmeBlock {
	lines := strings.Split(readme, "\n")
	var blocks []readmeBlock
	prevText := "" // the last non-blank line before a block
	for i := 0; i < len(lines); i++ {
		var body []string
		first := i + 1 // the README's line number of body[0]
		switch {
		case strings.HasPrefix(lines[i], "```"):
			first++
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
				body = append(body, lines[i])
			}
		case strings.HasPrefix(lines[i], "    ") && (i == 0 || strings.TrimSpace(lines[i-1]) == ""):
			// An indented block runs on over blank lines while the next
			// non-blank line is indented too.
			for ; i < len(lines); i++ {
				if strings.HasPrefix(lines[i], "    ") {
					body = append(body, strings.TrimPrefix(lines[i], "    "))
				} else if strings.TrimSpace(lines[i]) == "" && i+1 < len(lines) && (strings.HasPrefix(lines[i+1], "    ") || strings.TrimSpace(lines[i+1]) == "") {
					body = append(body, "")
				} else {
					break
				}
			}
			i--
		default:
			if strings.TrimSpace(lines[i]) != "" {
				prevText = lines[i]
			}
			continue
		}
		skip := strings.TrimSpace(prevText) == skipMarker
		prevText = "```" // a block ends any marker before it
		if !skip && strings.Contains(strings.Join(body, "\n"), "curl") {
			blocks = append(blocks, readmeBlock{line: first, commands: splitCommands(body, first)})
		}
	}
	return blocks
}

// splitCommands splits a block's lines, the first of which is line first of
// the README, into commands with their expectations.
func splitCommands(body []string, first int) []readmeCommand {
	var cmds []readmeCommand
	for i := 0; i < len(body); i++ {
		line := strings.TrimSpace(body[i])
		switch {
		case line == "":
		case strings.HasPrefix(line, "#"):
			if len(cmds) > 0 {
				cmds[len(cmds)-1].expect(strings.TrimSpace(strings.TrimPrefix(line, "#")))
			}
		default:
			c := readmeCommand{line: first + i, headers: map[string]string{}}
			text := body[i]
			for (strings.HasSuffix(strings.TrimRight(text, " "), `\`) || strings.Count(text, "'")%2 == 1) && i+1 < len(body) {
				i++
				text += "\n" + body[i]
			}
			c.text = text
			cmds = append(cmds, c)
		}
	}
	return cmds
}

// expect records what one comment line after a command says it answers.
func (c *readmeCommand) expect(comment string) {
	if m := statusPrefix.FindStringSubmatch(comment); m != nil {
		c.status, _ = strconv.Atoi(m[1])
		comment = m[2]
		if !strings.HasPrefix(comment, "{") && !strings.HasPrefix(comment, "[") {
			for _, h := range headerInLine.FindAllStringSubmatch(comment, -1) {
				c.headers[h[1]] = h[2]
			}
			return
		}
	}
	if strings.HasPrefix(comment, "{") || strings.HasPrefix(comment, "[") {
		c.body = append(c.body, comment)
		return
	}
	c.lines = append(c.lines, comment)
}

// csvLinesMatch checks that a CSV answer begins with the lines the README
// shows, each "..." in them standing for any text.
func csvLinesMatch(want []string, body []byte) error {
	got := strings.Split(string(body), "\n")
	for i, w := range want {
		parts := strings.Split(w, "...")
		for j := range parts {
			parts[j] = regexp.QuoteMeta(parts[j])
		}
		if i >= len(got) || !regexp.MustCompile("^"+strings.Join(parts, ".*")+"$").MatchString(strings.TrimSuffix(got[i], "\r")) {
			return fmt.Errorf("line %d is not %q", i+1, w)
		}
	}
	return nil
}

// readmeCall is one curl call the script made.
type readmeCall struct {
	exit   int
	method string
	url    string
	status int
	header http.Header
	body   []byte
}

func TestREADME(t *testing.T) {
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: %v", tool, err)
		}
	}
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	blocks := readmeBlocks(readme)
	if len(blocks) < 3 {
		t.Fatalf("found %d code blocks with curl in README.md; the parser is broken or the README lost its examples", len(blocks))
	}
	checker, err := openapitest.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := testdb.DSN(t, engine)
			s := startServe(t, dsn, nil)
			script := strings.ReplaceAll(readme, "http://127.0.0.1:8080", s.url)
			replaceCredential(t, &script, readme, `client_id=(cl-[a-z0-9]+)`, s.adminID)
			replaceCredential(t, &script, readme, `client_secret=([A-Za-z0-9._~-]{16,72})`, s.adminSecret)
			// The placeholders are replaced in the README's text, then the
			// blocks read from it: line numbers stay the README's.
			runREADME(t, readmeBlocks(script), checker, stockroomCommand(dsn))
		})
	}
}

// replaceCredential replaces the README's example credential, the first match
// of pattern's group in it, by real everywhere in script.
func replaceCredential(t *testing.T, script *string, readme, pattern, real string) {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(readme)
	if m == nil || real == "" {
		t.Fatalf("README.md shows nothing like %s to substitute (or the server printed no credential)", pattern)
	}
	*script = strings.ReplaceAll(*script, m[1], real)
}

// curlWrapper records every curl call of the script: its exit status, method,
// URL, response headers and body, in a directory of its own, and still writes
// the body to standard output for the README's pipes.
const curlWrapper = `
curl() {
  local d rc
  d=$(mktemp -d "$README_CALLS/call.XXXXXX") || return 99
  command curl "$@" -D "$d/headers" -o "$d/body" -w '%{method} %{url_effective}' >"$d/meta"
  rc=$?
  printf '%s %s %s\n' "$README_STEP" "$rc" "$d" >>"$README_CALLS/calls"
  if [ -f "$d/body" ]; then cat "$d/body"; fi
  return $rc
}
`

// stockroomCommand defines the README's `stockroom` command (warehouse
// add, client add, ...) in the script: this test binary run as the command
// (see TestMain) on the server's database.
func stockroomCommand(dsn string) string {
	return fmt.Sprintf("stockroom() { STOCKROOM_TEST_MAIN=1 STOCKROOM_DB=%q %q \"$@\"; }\n", dsn, os.Args[0])
}

// runREADME runs the blocks' commands as one bash script, after prelude,
// and checks each against what the README says it answers.
func runREADME(t *testing.T, blocks []readmeBlock, checker *openapitest.Checker, prelude string) {
	dir := t.TempDir()
	var script strings.Builder
	fmt.Fprintf(&script, "README_CALLS=%q\n%s%s", dir, curlWrapper, prelude)
	var cmds []readmeCommand
	for _, b := range blocks {
		for _, c := range b.commands {
			fmt.Fprintf(&script, "README_STEP=%d\n%s\nprintf '%%s %%s\\n' \"$README_STEP\" \"$?\" >>\"$README_CALLS/steps\"\n", len(cmds), c.text)
			cmds = append(cmds, c)
		}
	}
	sh := exec.Command("bash", "-c", script.String())
	sh.Dir = dir
	var stdout, stderr bytes.Buffer
	sh.Stdout, sh.Stderr = &stdout, &stderr
	if err := sh.Run(); err != nil {
		t.Fatalf("bash: %v\nstderr: %s", err, stderr.String())
	}
	exits := readStepFile(t, filepath.Join(dir, "steps"))
	calls := readCalls(t, filepath.Join(dir, "calls"))
	for i, c := range cmds {
		where := fmt.Sprintf("README.md line %d: %s", c.line, firstLine(c.text))
		if e, ok := exits[i]; !ok || e != 0 {
			t.Fatalf("%s\nexited %d (missing: %t); bash stderr:\n%s", where, e, !ok, stderr.String())
		}
		cc := calls[i]
		if strings.Contains(c.text, "curl") && len(cc) == 0 {
			t.Fatalf("%s\nmade no curl call", where)
		}
		if len(cc) == 0 {
			if c.status != 0 || len(c.body) > 0 {
				t.Fatalf("%s\nstates an answer but made no curl call", where)
			}
			continue
		}
		for j, call := range cc {
			req, _ := http.NewRequest(call.method, call.url, nil)
			if err := checker.Check(req, call.status, call.header, call.body); err != nil {
				t.Errorf("%s\n%s %s -> %d does not match api/openapi.yaml: %v", where, call.method, call.url, call.status, err)
			}
			want := c.status
			if j < len(cc)-1 {
				want = 0
			}
			if want == 0 && (call.status < 200 || call.status > 299) || want != 0 && call.status != want {
				t.Fatalf("%s\nanswered %d %s; the README says %s", where, call.status, call.body, describeStatus(want))
			}
		}
		last := cc[len(cc)-1]
		for name, value := range c.headers {
			if got := last.header.Get(name); got != value {
				t.Errorf("%s\nheader %s is %q; the README says %q", where, name, got, value)
			}
		}
		if strings.HasPrefix(last.header.Get("Content-Type"), "text/csv") {
			if err := csvLinesMatch(c.lines, last.body); err != nil {
				t.Errorf("%s\nthe CSV answer %.300s\ndoes not begin as the README shows: %v", where, last.body, err)
			}
		}
		for _, want := range c.body {
			if err := jsonContains(want, last.body); err != nil {
				t.Errorf("%s\nthe answer %s\ndoes not hold what the README shows, %s: %v", where, last.body, want, err)
			}
		}
	}
	if t.Failed() {
		t.Logf("bash stderr:\n%s", stderr.String())
	}
	n := 0
	for _, cc := range calls {
		n += len(cc)
	}
	t.Logf("ran %d commands of %d blocks of README.md, %d curl calls", len(cmds), len(blocks), n)
}

func describeStatus(want int) string {
	if want == 0 {
		return "2xx (a # NNN comment after the command states another)"
	}
	return strconv.Itoa(want)
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return first
}

// readStepFile reads "STEP EXIT" lines.
func readStepFile(t *testing.T, path string) map[int]int {
	t.Helper()
	out := map[int]int{}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var step, exit int
		if _, err := fmt.Sscan(line, &step, &exit); err != nil {
			t.Fatalf("steps file: %q: %v", line, err)
		}
		out[step] = exit
	}
	return out
}

// readCalls reads the calls file ("STEP CURL-EXIT DIR" lines) and what each
// call left in its directory, by step.
func readCalls(t *testing.T, path string) map[int][]readmeCall {
	t.Helper()
	out := map[int][]readmeCall{}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var step int
		var c readmeCall
		var dir string
		if _, err := fmt.Sscan(line, &step, &c.exit, &dir); err != nil {
			t.Fatalf("calls file: %q: %v", line, err)
		}
		if c.exit != 0 {
			t.Fatalf("curl exited %d in README step %d", c.exit, step)
		}
		meta, _ := os.ReadFile(filepath.Join(dir, "meta"))
		c.method, c.url, _ = strings.Cut(string(meta), " ")
		c.body, _ = os.ReadFile(filepath.Join(dir, "body"))
		headers, _ := os.ReadFile(filepath.Join(dir, "headers"))
		// The last response in the dump is the answer (after any 100
		// Continue).
		blocks := strings.Split(strings.TrimSpace(string(headers)), "\r\n\r\n")
		res, err := http.ReadResponse(bufio.NewReader(strings.NewReader(blocks[len(blocks)-1]+"\r\n\r\n")), nil)
		if err != nil {
			t.Fatalf("README step %d: curl's header dump: %v", step, err)
		}
		c.status, c.header = res.StatusCode, res.Header
		out[step] = append(out[step], c)
	}
	return out
}

// TestReadmeParser: which blocks run, how commands split, and what the
// comments after them expect.
func TestReadmeParser(t *testing.T) {
	md := strings.Join([]string{
		"Text.",
		"",
		"    curl -s http://x/a \\",
		"      -d '{\"a\":",
		"      1}'",
		"    # 201, Location: /a/1, body: prose",
		"    # {\"a\":1, ...}",
		"",
		"    X=1",
		"    # prose that is not an answer",
		"",
		"Not run, no curl:",
		"",
		"    stockroom serve",
		"",
		"<!-- readme-test: skip -->",
		"",
		"    curl -s http://elsewhere/",
		"",
		"```sh",
		"curl -s http://x/b",
		"# 409: refused",
		"```",
	}, "\n")
	blocks := readmeBlocks(md)
	if len(blocks) != 2 {
		t.Fatalf("%d blocks, want 2: %+v", len(blocks), blocks)
	}
	a := blocks[0].commands
	if len(a) != 2 || a[0].line != 3 || !strings.HasSuffix(a[0].text, "1}'") || a[0].status != 201 ||
		a[0].headers["Location"] != "/a/1" || len(a[0].headers) != 1 || len(a[0].body) != 1 || a[1].text != "X=1" || a[1].status != 0 {
		t.Fatalf("first block: %+v", a)
	}
	if b := blocks[1].commands; len(b) != 1 || b[0].line != 21 || b[0].status != 409 || len(b[0].body) != 0 {
		t.Fatalf("fenced block: %+v", b)
	}
}
