package golden

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// Check compares got with testdata/<name>.golden, reporting the first line
// that differs. With -update it writes got to the file instead.
func Check(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if want := string(data); got != want {
		t.Errorf("%s differs from the output (run with -update to accept it):\n%s", path, firstDiff(want, got))
	}
}

// CheckOutput calls fn with a writer and compares what fn wrote with
// testdata/<name>.golden, as [Check] does. An error from fn fails the test.
func CheckOutput(t testing.TB, name string, fn func(w io.Writer) error) {
	t.Helper()
	var out strings.Builder
	if err := fn(&out); err != nil {
		t.Fatal(err)
	}
	Check(t, name, out.String())
}

// firstDiff describes the first line at which want and got differ.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g || i >= len(wl) || i >= len(gl) {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + quoteLine(w, i < len(wl)) + "\n  got:  " + quoteLine(g, i < len(gl))
		}
	}
	return "(no line differs)"
}

func quoteLine(s string, present bool) string {
	if !present {
		return "(end of text)"
	}
	return `"` + s + `"`
}
