package testenv

import (
	"fmt"
	"os"
	"testing"
)

// DefaultChromium is where Debian's chromium package puts the browser.
const DefaultChromium = "/usr/bin/chromium"

// Chromium returns the path of the Chromium binary the page tests drive
// (SPEC section 5): $CHROMIUM if set, else Debian's /usr/bin/chromium. A
// missing browser fails the test with what to run; it never skips it.
func Chromium(t testing.TB) string {
	t.Helper()
	path, err := chromiumPath()
	if err != nil {
		t.Fatalf("testenv: %v", err)
	}
	return path
}

func chromiumPath() (string, error) {
	path, from := DefaultChromium, ""
	if p := os.Getenv("CHROMIUM"); p != "" {
		path, from = p, " (from $CHROMIUM)"
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("no Chromium at %s%s: install Debian's chromium: make deps-browser", path, from)
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return "", fmt.Errorf("%s%s is not an executable file: install Debian's chromium: make deps-browser", path, from)
	}
	return path, nil
}
