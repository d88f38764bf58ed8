package docs_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// findChromium returns Chromium's path, or skips the test when there is
// none, unless STOCKROOM_TEST_BROWSER=1 asks for the browser tests to run.
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("STOCKROOM_TEST_BROWSER") == "1" {
		t.Fatal("STOCKROOM_TEST_BROWSER=1 but Chromium is not installed (apt-get install chromium)")
	}
	t.Skip("Chromium is not installed; set STOCKROOM_TEST_BROWSER=1 to require it")
	return ""
}

// browserVisit is what a page did in the browser: the DOM it ended with,
// each request it made, and what it logged.
type browserVisit struct {
	DOM string
	// Requests are the URLs the page asked for, in order; Blocked holds
	// those the browser refused to send (by the page's own policy, say).
	Requests []string
	Blocked  map[string]string // URL → reason
	Log      []string
	// Refused holds what the page's Content-Security-Policy refused, as
	// the browser said it.
	Refused []string
}

// visit opens pageURL in headless Chromium, driven over the DevTools
// protocol on a pipe, and waits until rendered(DOM) is true or 60 s pass: limits, not
// expectations (a quiet machine renders in a few seconds; at load 14 on
// 2 cores, 2026-12-04, the browser had not answered within 30 s).
// proxyURL receives whatever the browser itself would send elsewhere (its
// own update and sign-in requests), so nothing leaves loopback.
func visit(t *testing.T, chromium, pageURL, proxyURL string, rendered func(dom string) bool) browserVisit {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	deadline, _ := ctx.Deadline()

	toBrowser, browserIn, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	browserOut, fromBrowser, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, chromium,
		"--headless",
		"--no-sandbox",
		"--disable-gpu",
		"--disable-quic",
		"--no-first-run",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-extensions",
		"--disable-default-apps",
		"--user-data-dir="+t.TempDir(),
		"--proxy-server="+proxyURL,
		"--window-size=1280,900",
		"--remote-debugging-pipe",
		"about:blank")
	// The browser reads commands from fd 3 and writes answers to fd 4.
	cmd.ExtraFiles = []*os.File{toBrowser, fromBrowser}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	toBrowser.Close()
	fromBrowser.Close()
	defer func() {
		browserIn.Close()
		browserOut.Close()
		if err := cmd.Wait(); err != nil && ctx.Err() != nil {
			t.Errorf("chromium did not finish in time: %v\n%s", err, stderr.String())
		}
	}()
	if err := browserOut.SetReadDeadline(deadline); err != nil {
		t.Fatal(err)
	}

	v := browserVisit{Blocked: map[string]string{}}
	urls := map[string]string{} // requestId → URL
	c := &devtools{w: browserIn, r: bufio.NewReader(browserOut), onEvent: func(method string, params json.RawMessage) {
		switch method {
		case "Network.requestWillBeSent":
			var p struct {
				RequestID string `json:"requestId"`
				Request   struct {
					URL string `json:"url"`
				} `json:"request"`
			}
			if json.Unmarshal(params, &p) == nil {
				urls[p.RequestID] = p.Request.URL
				v.Requests = append(v.Requests, p.Request.URL)
			}
		case "Network.loadingFailed":
			var p struct {
				RequestID     string `json:"requestId"`
				BlockedReason string `json:"blockedReason"`
			}
			if json.Unmarshal(params, &p) == nil && p.BlockedReason != "" {
				v.Blocked[urls[p.RequestID]] = p.BlockedReason
			}
		case "Log.entryAdded":
			var p struct {
				Entry struct {
					Level, Source, Text, URL string
				} `json:"entry"`
			}
			if json.Unmarshal(params, &p) == nil {
				if p.Entry.Source == "security" {
					v.Refused = append(v.Refused, p.Entry.Text)
				}
				v.Log = append(v.Log, fmt.Sprintf("%s %s: %s (%s)", p.Entry.Level, p.Entry.Source, p.Entry.Text, p.Entry.URL))
			}
		case "Runtime.exceptionThrown":
			v.Log = append(v.Log, "exception: "+string(params))
		}
	}}
	fail := func(err error) browserVisit {
		t.Errorf("%v\nChromium's output:\n%s", err, stderr.String())
		return v
	}

	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := c.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return fail(err)
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := c.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached); err != nil {
		return fail(err)
	}
	s := attached.SessionID
	for _, m := range []string{"Network.enable", "Log.enable", "Runtime.enable", "Page.enable"} {
		if err := c.call(s, m, nil, nil); err != nil {
			return fail(err)
		}
	}
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := c.call(s, "Page.navigate", map[string]any{"url": pageURL}, &nav); err != nil {
		return fail(err)
	}
	if nav.ErrorText != "" {
		return fail(fmt.Errorf("open %s: %s", pageURL, nav.ErrorText))
	}
	// Wait for the page to render: a browser has no moment when a
	// script-built page is done, so look until it shows what is wanted,
	// then once more when the browser is next idle, after the effects that
	// the render set off (such as loading images) have run.
	dom := func(expression string) error {
		var res struct {
			Result struct {
				Value string `json:"value"`
			} `json:"result"`
		}
		err := c.call(s, "Runtime.evaluate", map[string]any{
			"expression":    expression,
			"returnByValue": true,
			"awaitPromise":  true,
		}, &res)
		v.DOM = res.Result.Value
		return err
	}
	waitUntil := time.Now().Add(60 * time.Second)
	for {
		if err := dom("document.documentElement.outerHTML"); err != nil {
			return fail(err)
		}
		if rendered(v.DOM) || time.Now().After(waitUntil) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	err = dom(`new Promise(done => requestIdleCallback(() => done(document.documentElement.outerHTML), {timeout: 5000}))`)
	if err != nil {
		return fail(err)
	}
	_ = c.call("", "Browser.close", nil, nil)
	return v
}

// devtools speaks the DevTools protocol over Chromium's debugging pipe:
// JSON messages, each ended by a NUL byte.
type devtools struct {
	w       *os.File
	r       *bufio.Reader
	nextID  int
	onEvent func(method string, params json.RawMessage)
}

// call sends one command and waits for its answer, passing the events that
// arrive meanwhile to onEvent. sessionID is "" for the browser itself.
func (c *devtools) call(sessionID, method string, params any, result any) error {
	c.nextID++
	id := c.nextID
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if sessionID != "" {
		msg["sessionId"] = sessionID
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if _, err := c.w.Write(append(b, 0)); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	for {
		line, err := c.r.ReadBytes(0)
		if err != nil {
			return fmt.Errorf("%s: reading the answer: %w", method, err)
		}
		var m struct {
			ID     int             `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(line[:len(line)-1], &m); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		switch {
		case m.Method != "":
			c.onEvent(m.Method, m.Params)
		case m.ID != id:
			continue
		case m.Error != nil:
			return fmt.Errorf("%s: %s", method, m.Error.Message)
		case result != nil:
			return json.Unmarshal(m.Result, result)
		default:
			return nil
		}
	}
}
