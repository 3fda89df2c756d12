package reports

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestHTMLSelfContained(t *testing.T) {
	r, _ := load(t, "zen4.txt", "spr.txt", "sweep.txt")
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, class := range []string{`<svg class="bars"`, `<svg class="lines"`, `<svg class="effects"`} {
		if !strings.Contains(html, class) {
			t.Errorf("HTML lacks a chart %s", class)
		}
	}
	// No network: the only URLs allowed are SVG namespace declarations.
	urls := regexp.MustCompile(`(?:src|href)=|https?://[^"]*`).FindAllString(html, -1)
	for _, u := range urls {
		if u != "http://www.w3.org/2000/svg" {
			t.Errorf("HTML references %q; it must be self-contained", u)
		}
	}
}

// TestHTMLRendersInChromium opens the report in headless chromium (Debian
// package "chromium"), checks the DOM holds the SVG charts and that a
// screenshot is not blank. It is skipped when chromium is not installed.
func TestHTMLRendersInChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (apt-get install chromium)")
	}
	r, _ := load(t, "zen4.txt", "spr.txt", "sweep.txt")
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var b bytes.Buffer
	r.WriteHTML(&b)
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := runChromium(t, chromium, dir, "--dump-dom", "file://"+page)
	if n := strings.Count(dom, "<svg"); n < 3 {
		t.Errorf("rendered DOM has %d <svg> elements, want the charts", n)
	}
	shot := filepath.Join(dir, "shot.png")
	if os.Getenv("TUNELAB_SCREENSHOT") != "" {
		shot = os.Getenv("TUNELAB_SCREENSHOT")
	}
	runChromium(t, chromium, dir, "--screenshot="+shot, "--window-size=1200,2400", "file://"+page)
	checkNotBlank(t, shot)
}

func runChromium(t *testing.T, chromium, dir string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + filepath.Join(dir, "profile")}
	cmd := exec.CommandContext(ctx, chromium, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
	}
	return out.String()
}

// checkNotBlank requires that at least 2% of the screenshot's pixels are
// not white.
func checkNotBlank(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decoding screenshot: %v", err)
	}
	bounds, ink := img.Bounds(), 0
	for y := bounds.Min.Y; y < bounds.Max.Y; y += 2 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 2 {
			if r, g, b, _ := img.At(x, y).RGBA(); r < 0xf000 || g < 0xf000 || b < 0xf000 {
				ink++
			}
		}
	}
	total := bounds.Dx() * bounds.Dy() / 4
	if ink*50 < total {
		t.Errorf("screenshot %s is nearly blank: %d of %d sampled pixels not white", path, ink, total)
	}
}
