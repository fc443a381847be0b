package eval_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHTMLInBrowser loads the page in headless Chromium and reads its DOM
// back: the figures must survive parsing, and the console must stay
// silent. Without Chromium on PATH it skips, unless AGENTIO_BROWSER is
// "required". With AGENTIO_EVAL_SCREENSHOT set to a PNG path it also
// takes a screenshot of this test's sample there. The README's picture,
// docs/eval-report.png, is the page of examples/eval instead
// (go run ./examples/eval -html report.html, then headless Chromium's
// --screenshot at 1200x1600).
func TestHTMLInBrowser(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		if os.Getenv("AGENTIO_BROWSER") == "required" {
			t.Fatal("AGENTIO_BROWSER=required, but no chromium, chromium-browser or google-chrome is on PATH")
		}
		t.Skip("no chromium on PATH: the page is not checked in a browser (set AGENTIO_BROWSER=required to fail instead)")
	}

	rep := sampleReport()
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var b bytes.Buffer
	require.NoError(t, rep.HTML(&b))
	require.NoError(t, os.WriteFile(page, b.Bytes(), 0o644))

	run := func(args ...string) (stdout, stderr string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		args = append([]string{"--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-dev-shm-usage",
			"--user-data-dir=" + filepath.Join(dir, "profile"), "--enable-logging=stderr", "--v=0"}, args...)
		cmd := exec.CommandContext(ctx, browser, append(args, "file://"+page)...)
		var out, errs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errs
		err := cmd.Run()
		require.NoError(t, err, "%s: %s", browser, errs.String())
		return out.String(), errs.String()
	}

	dom, errs := run("--dump-dom")
	require.Contains(t, dom, "agentio eval report")
	got := pageMetrics(t, dom)
	for k, v := range reportMetrics(t, rep) {
		require.NotEmpty(t, got[k], "the browser's DOM lacks %q", k)
		for _, g := range got[k] {
			assert.Equal(t, v, g, k)
		}
	}
	assert.Contains(t, dom, "&lt;script&gt;alert(1)&lt;/script&gt;", "the markup case ID stays text")
	for _, line := range strings.Split(errs, "\n") {
		assert.NotContains(t, line, "Uncaught")
		assert.NotContains(t, line, ":CONSOLE", "the page logged to the console")
	}

	if shot := os.Getenv("AGENTIO_EVAL_SCREENSHOT"); shot != "" {
		abs, err := filepath.Abs(shot)
		require.NoError(t, err)
		run("--screenshot="+abs, "--window-size=1200,1600", "--hide-scrollbars")
		info, err := os.Stat(abs)
		require.NoError(t, err)
		t.Logf("screenshot %s: %d bytes", abs, info.Size())
	}
}
