package export

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/websocket"
)

// browser is a minimal Chrome DevTools Protocol client: enough to open a
// page, evaluate script in it and wait for conditions, which is all the
// browser test needs. A full CDP library would be a large dependency for
// three commands.
type browser struct {
	cmd     *exec.Cmd
	ws      *websocket.Conn
	session string
	nextID  int
	// onEvent, when set, receives every event read while waiting for an
	// answer (events are only read then; any call flushes those sent
	// before it).
	onEvent func(method string, params json.RawMessage)
}

// chromiumArgs are the flags that keep a headless Chromium from reaching
// the network or the user's profile.
func chromiumArgs(profile string) []string {
	// Host names resolve to nothing but localhost (and 127.0.0.1, where the
	// playground test's reference server listens), so a test that goes
	// wrong still sends nothing off the machine; requests are still
	// attempted, and the network log of a test sees them.
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + profile,
		"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"}
}

var devtoolsURL = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

// startBrowser launches Chromium with remote debugging on a free port and
// attaches to a fresh page target.
// browserSession starts Chromium for one test and returns it with a
// context bounding the test's work in it and a check that ends the test
// on a failed step.
func browserSession(t testing.TB, bin string, limit time.Duration) (*browser, context.Context, func(error)) {
	b := startBrowser(t, bin)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	t.Cleanup(cancel)
	return b, ctx, func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}

func startBrowser(t testing.TB, bin string) *browser {
	t.Helper()
	args := append(chromiumArgs(t.TempDir()), "--remote-debugging-port=0", "--remote-allow-origins=*", "about:blank")
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	b := &browser{cmd: cmd}
	t.Cleanup(b.close)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := devtoolsURL.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		close(found)
	}()
	var wsURL string
	select {
	case u, ok := <-found:
		if !ok {
			t.Fatal("chromium exited without a DevTools endpoint")
		}
		wsURL = u
	case <-time.After(30 * time.Second):
		t.Fatal("chromium printed no DevTools endpoint within 30s")
	}
	if b.ws, err = websocket.Dial(wsURL, "", "http://localhost/"); err != nil {
		t.Fatalf("connect to DevTools: %v", err)
	}
	var target struct{ TargetID string }
	if err := b.call("Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		t.Fatal(err)
	}
	var attached struct{ SessionID string }
	if err := b.call("Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached); err != nil {
		t.Fatal(err)
	}
	b.session = attached.SessionID
	return b
}

// close asks Chromium to quit, which also ends its helper processes, and
// kills it only if it does not.
func (b *browser) close() {
	exited := make(chan struct{})
	go func() { _ = b.cmd.Wait(); close(exited) }()
	if b.ws != nil {
		b.session = ""
		_ = b.call("Browser.close", map[string]any{}, nil)
		b.ws.Close()
	}
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		_ = b.cmd.Process.Kill()
		<-exited
	}
}

// call sends one command and waits for its answer, skipping events.
func (b *browser) call(method string, params any, result any) error {
	b.nextID++
	msg := map[string]any{"id": b.nextID, "method": method, "params": params}
	if b.session != "" {
		msg["sessionId"] = b.session
	}
	if err := websocket.JSON.Send(b.ws, msg); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	_ = b.ws.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		var resp struct {
			ID     int             `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *struct{ Message string }
		}
		if err := websocket.JSON.Receive(b.ws, &resp); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		if resp.Method != "" && b.onEvent != nil {
			b.onEvent(resp.Method, resp.Params)
		}
		if resp.ID != b.nextID {
			continue
		}
		if resp.Error != nil {
			return fmt.Errorf("%s: %s", method, resp.Error.Message)
		}
		if result == nil {
			return nil
		}
		return json.Unmarshal(resp.Result, result)
	}
}

// eval runs a script expression in the page and decodes its value.
func (b *browser) eval(expr string, into any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct{ Text string } `json:"exceptionDetails"`
	}
	if err := b.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &r); err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return fmt.Errorf("script %q threw: %s", expr, r.ExceptionDetails.Text)
	}
	if into == nil || len(r.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(r.Result.Value, into)
}

// pause lets the page's own timers and event handlers run for d, in the
// page's clock, before the test reads what they did.
func (b *browser) pause(d time.Duration) error {
	return b.call("Runtime.evaluate", map[string]any{
		"expression": fmt.Sprintf("new Promise(r => setTimeout(r, %d))", d.Milliseconds()), "awaitPromise": true}, nil)
}

// waitFor polls a boolean expression until it holds or the deadline passes.
func (b *browser) waitFor(ctx context.Context, expr string) error {
	for {
		var ok bool
		// Errors while a page is replaced by the next are expected; the
		// deadline decides.
		if err := b.eval("Boolean("+expr+")", &ok); err == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return errors.New("timed out waiting for " + strings.TrimSpace(expr))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// traffic records what pages do on the network and what the browser
// refuses: every request's URL and every security message, such as a
// Content-Security-Policy violation.
type traffic struct {
	requests   []string
	violations []string
}

// watch starts recording b's requests and security messages.
func watch(b *browser) (*traffic, error) {
	tr := &traffic{}
	b.onEvent = func(method string, params json.RawMessage) {
		switch method {
		case "Network.requestWillBeSent":
			var p struct{ Request struct{ URL string } }
			if json.Unmarshal(params, &p) == nil {
				tr.requests = append(tr.requests, p.Request.URL)
			}
		case "Log.entryAdded":
			var p struct {
				Entry struct{ Source, Level, Text, URL string }
			}
			if json.Unmarshal(params, &p) == nil && (p.Entry.Source == "security" || strings.Contains(p.Entry.Text, "Content Security Policy")) {
				tr.violations = append(tr.violations, p.Entry.URL+": "+p.Entry.Text)
			}
		}
	}
	for _, domain := range []string{"Network.enable", "Log.enable"} {
		if err := b.call(domain, map[string]any{}, nil); err != nil {
			return nil, err
		}
	}
	return tr, nil
}

// leaving returns the recorded requests that are not for file:// URLs.
// data: URLs (the icons' masks in the stylesheet) are decoded in place
// and go nowhere.
func (tr *traffic) leaving() []string {
	var out []string
	for _, u := range tr.requests {
		if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
			out = append(out, u)
		}
	}
	return out
}
