package browser

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

// TestEmptyPlatformLeadsToOnboarding opens the console of a server of its
// own on a fresh data directory (the shared one has services): a platform
// without a service opens on "Onboard your first service", whose button
// leads to onboarding, and on the demo, instead of a dashboard of zeros.
func TestEmptyPlatformLeadsToOnboarding(t *testing.T) {
	f := setup(t)
	fresh := serveproc.Start(t, f.bin, serveproc.Env(filepath.Join(t.TempDir(), "data"), devAdmin, "S2R_DEV_IDENTITY="+devAdmin))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("log of the empty platform's server:\n%s", serveproc.Tail(fresh.Log(), 4000))
		}
	})
	ctx := f.tab(t, "")
	run(t, ctx, "open the console of the empty platform",
		chromedp.Navigate(fresh.Base+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#first-service`)))
	if got := textOf(t, ctx, "#first-service"); got != "Onboard your first service" {
		t.Errorf("lead heading = %q", got)
	}
	wantText(t, ctx, "main", "Welcome to s2r", "No service is onboarded yet.",
		"Or try the demo first", "make demo", "s2r demo", "docs/quickstart.md")
	if got := textOf(t, ctx, "main"); strings.Contains(got, "Traffic of every source") {
		t.Errorf("the empty platform shows the dashboard of figures:\n%s", got)
	}
	run(t, ctx, "follow the lead to onboarding",
		chromedp.Click(chromedp.Search(`//main//a[contains(@class, "button") and normalize-space()="Onboard your first service"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[type=file]`)))
	if got := value(t, ctx, "location", chromedp.Evaluate[string]("location.pathname")); got != "/console/onboard" {
		t.Errorf("the lead opened %s, want /console/onboard", got)
	}
}
