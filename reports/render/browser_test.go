package render

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tunelab/tunelab/reports"
)

// recordedZen3 is a real sweep's result file (keccak.x4, poly1305 and
// aes128.dec on a Zen 3), kept with the CLI's golden files.
const recordedZen3 = "../../cmd/tunelab/testdata/recorded-zen3.txt"

// domCheck is injected into a copy of the report: after the page is laid
// out it measures every SVG text against its chart's viewBox, counts each
// chart's data marks, checks that the summary table precedes the first
// kernel section, and writes its findings as JSON into <pre id="check">.
const domCheck = `<script>
(function () {
  var out = {texts: 0, overflow: [], overlap: [], charts: [], summaryFirst: false};
  var sum = document.querySelector("table.sum"), first = document.querySelector("h3[id^=g]");
  out.summaryFirst = !!(sum && first && (sum.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING));
  document.querySelectorAll("svg.chart").forEach(function (svg) {
    var vb = svg.viewBox.baseVal, name = svg.getAttribute("aria-label");
    var boxes = [];
    svg.querySelectorAll("text").forEach(function (t) {
      out.texts++;
      var b = t.getBBox(), s = JSON.stringify(t.firstChild ? t.firstChild.nodeValue : "");
      var at = " at " + [b.x, b.y, b.width, b.height].map(Math.round).join(",");
      if (b.x < vb.x - 0.5 || b.y < vb.y - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 || b.y + b.height > vb.y + vb.height + 0.5) {
        out.overflow.push(name + ": text " + s + at + " outside 0,0," + vb.width + "," + vb.height);
      }
      boxes.forEach(function (o) {
        if (b.width > 0 && o.b.width > 0 && b.x < o.b.x + o.b.width - 0.5 && o.b.x < b.x + b.width - 0.5 &&
            b.y < o.b.y + o.b.height - 0.5 && o.b.y < b.y + b.height - 0.5) {
          out.overlap.push(name + ": text " + s + at + " overlaps " + o.s + o.at);
        }
      });
      boxes.push({b: b, s: s, at: at});
    });
    out.charts.push({name: name, kind: svg.getAttribute("class"),
      marks: svg.querySelectorAll(".w,.c,.x,.b,.n,.ef,.es,.en,.hc,circle").length,
      declared: +svg.getAttribute("data-marks")});
  });
  var pre = document.createElement("pre");
  pre.id = "check";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>`

// A domReport is what domCheck found.
type domReport struct {
	Texts        int      `json:"texts"`
	Overflow     []string `json:"overflow"`
	Overlap      []string `json:"overlap"`
	SummaryFirst bool     `json:"summaryFirst"`
	Charts       []struct {
		Name     string `json:"name"`
		Kind     string `json:"kind"`
		Marks    int    `json:"marks"`
		Declared int    `json:"declared"`
	} `json:"charts"`
}

// findChromium returns the path of a headless-capable Chromium, or skips.
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium not installed (Debian: apt-get install chromium): the report is not checked in a browser")
	return ""
}

// TestHTMLInChromium renders reports of a real one-host sweep, of the
// multi-host fixtures and of a plain Go benchmark file (no host
// identity, foreign names) in headless Chromium and checks the laid-out DOM
// in each common monospace font (monoFonts) that is installed: the summary
// table comes before the first kernel section, no chart text extends past
// its chart's viewBox or overlaps another text, every chart has data marks
// (and as many as the writer counted), and a screenshot is not blank. Set
// TUNELAB_SCREENSHOT_DIR to keep the screenshots.
func TestHTMLInChromium(t *testing.T) {
	chromium := findChromium(t)
	fonts := monoFontConfigs(t)
	cases := []struct {
		name  string
		paths []string
		kinds []string // chart kinds the page must have
	}{
		{"recorded-zen3", []string{recordedZen3}, []string{"bars", "lines", "effects"}},
		{"multi-host", []string{fixture("zen4.txt"), fixture("spr.txt"), fixture("sweep.txt")}, []string{"bars", "lines", "effects", "heat"}},
		{"fleet", []string{fixture("fleet/zen4-metal-0.txt"), fixture("fleet/zen4-vm-1.txt"), fixture("fleet/spr-a-2.txt"), fixture("fleet/spr-b-3.txt")},
			[]string{"bars", "lines", "effects", "heat"}},
		{"foreign", []string{fixture("benchstat/crc-old.txt")}, []string{"bars"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			page := writeReportPage(t, dir, c.paths)
			for _, f := range fonts {
				t.Run(strings.ReplaceAll(f.family, " ", "_"), func(t *testing.T) {
					checkCharts(t, checkDOM(t, chromium, dir, page, f.env), c.kinds)
				})
			}
			shot := filepath.Join(dir, "report.png")
			if d := os.Getenv("TUNELAB_SCREENSHOT_DIR"); d != "" {
				shot = filepath.Join(d, c.name+".png")
			}
			runChromium(t, chromium, dir, nil, "--screenshot="+shot, "--window-size=1400,3000", "file://"+page)
			checkNotBlank(t, shot)
		})
	}
}

// monoFonts are the common monospace fonts a report must lay out in
// (Debian: fonts-dejavu-core, fonts-noto-mono, fonts-liberation,
// fonts-urw-base35).
var monoFonts = []string{"DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono", "Nimbus Mono PS"}

// A fontSetting is a font the browser test lays reports out in: the
// environment that makes family Chromium's monospace font.
type fontSetting struct {
	family string
	env    []string
}

// monoFontConfigs returns a fontconfig file's setting for each of
// monoFonts that is installed, after checking that fontconfig resolves
// monospace to it; a font that is not installed is logged. Without
// fontconfig's tools it returns only the host's own monospace font.
func monoFontConfigs(t *testing.T) []fontSetting {
	t.Helper()
	if _, err := exec.LookPath("fc-match"); err != nil {
		t.Log("fc-match not found (Debian: fontconfig): reports are laid out only in the host's monospace font")
		return []fontSetting{{family: "host-monospace"}}
	}
	dir := t.TempDir()
	var out []fontSetting
	for i, family := range monoFonts {
		conf := filepath.Join(dir, fmt.Sprintf("fonts-%d.conf", i))
		if err := os.WriteFile(conf, []byte(monospaceConf(family)), 0o644); err != nil {
			t.Fatal(err)
		}
		env := []string{"FONTCONFIG_FILE=" + conf}
		cmd := exec.Command("fc-match", "-f", "%{family}", "monospace")
		cmd.Env = append(os.Environ(), env...)
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("fc-match monospace with %s: %v", conf, err)
		}
		if !strings.Contains(string(got), family) {
			t.Logf("font %q is not installed (fontconfig gives %q for monospace): reports are not laid out in it", family, got)
			continue
		}
		out = append(out, fontSetting{family, env})
	}
	if len(out) == 0 {
		t.Skipf("none of the monospace fonts %v is installed", monoFonts)
	}
	return out
}

// monospaceConf returns a fontconfig file that reads the system's
// configuration and then makes family the monospace font.
func monospaceConf(family string) string {
	return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <match target="pattern">
    <test qual="any" name="family"><string>monospace</string></test>
    <edit name="family" mode="prepend" binding="strong"><string>` + html.EscapeString(family) + `</string></edit>
  </match>
</fontconfig>
`
}

// writeReportPage writes the HTML report of the result files at paths
// into dir and returns the page's path.
func writeReportPage(t *testing.T, dir string, paths []string) string {
	t.Helper()
	set, _, err := reports.Read(paths)
	if err != nil {
		t.Fatalf("Read(%v): %v", paths, err)
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, reports.Analyze(set, reports.DefaultOptions())); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return page
}

// checkDOM loads a copy of page with domCheck injected and returns what
// it found.
func checkDOM(t *testing.T, chromium, dir, page string, env []string) domReport {
	t.Helper()
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	checked := filepath.Join(dir, "checked.html")
	withScript := strings.Replace(string(src), "</body>", domCheck+"</body>", 1)
	if err := os.WriteFile(checked, []byte(withScript), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runChromium(t, chromium, dir, env, "--dump-dom", "file://"+checked)
	_, rest, ok := strings.Cut(out, `<pre id="check">`)
	js, _, ok2 := strings.Cut(rest, "</pre>")
	if !ok || !ok2 {
		t.Fatalf("the dumped DOM has no <pre id=\"check\"> (script did not run?):\n%.2000s", out)
	}
	var dom domReport
	if err := json.Unmarshal([]byte(html.UnescapeString(js)), &dom); err != nil {
		t.Fatalf("parsing the check's findings %q: %v", js, err)
	}
	return dom
}

// checkCharts applies the layout checks to what domCheck found.
func checkCharts(t *testing.T, dom domReport, kinds []string) {
	t.Helper()
	if !dom.SummaryFirst {
		t.Error("the summary table (table.sum) does not precede the first kernel section")
	}
	if dom.Texts == 0 {
		t.Error("no SVG text in the report")
	}
	for _, o := range dom.Overflow {
		t.Errorf("text extends past its chart: %s", o)
	}
	for _, o := range dom.Overlap {
		t.Errorf("texts overlap: %s", o)
	}
	seen := map[string]bool{}
	for _, c := range dom.Charts {
		seen[strings.TrimPrefix(c.Kind, "chart ")] = true
		if c.Marks == 0 {
			t.Errorf("chart %q (%s) is empty: no data marks", c.Name, c.Kind)
		}
		if c.Marks != c.Declared {
			t.Errorf("chart %q: %d data marks in the DOM, the writer counted %d", c.Name, c.Marks, c.Declared)
		}
	}
	for _, k := range kinds {
		if !seen[k] {
			t.Errorf("the report has no %q chart", k)
		}
	}
}

// runChromium runs headless Chromium with args, and env added to the
// environment, and returns its stdout.
func runChromium(t *testing.T, chromium, dir string, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + filepath.Join(dir, "profile")}
	cmd := exec.CommandContext(ctx, chromium, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Env = append(os.Environ(), env...)
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
