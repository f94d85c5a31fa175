package browser

import (
	"bytes"
	"context"
	"flag"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// screenshots is where TestScreenshots writes the console's screenshots
// for docs/console.md (scripts/console-screenshots.sh sets it).
var screenshots = flag.String("screenshots", "", "directory to write the console screenshots to (docs/console)")

// TestScreenshots takes the screenshots of docs/console.md from a running
// s2r with a demo service and some traffic. It runs only with -screenshots.
func TestScreenshots(t *testing.T) {
	if *screenshots == "" {
		t.Skip("run with -screenshots=DIR (scripts/console-screenshots.sh) to take the console's screenshots")
	}
	f := setup(t)
	backend := echoBackend(t)
	id := onboardByAPI(t, f, "echo")
	var profiles []struct{ ProfileID string }
	f.admin(t, devAdmin, "GET", "/services/"+id+"/backend-profiles", nil, 200, &profiles)
	f.admin(t, devAdmin, "PATCH", "/backend-profiles/"+profiles[0].ProfileID, map[string]any{"endpointUrl": backend.URL + "/echo"}, 200, nil)
	f.admin(t, devAdmin, "PATCH", "/services/"+id, map[string]any{"debugEnabled": true}, 200, nil)
	summary := hasEndpoint(t, f, "/dashboard/summary")
	if summary { // aggregate often, so the 24-hour dashboard shows the traffic below
		f.admin(t, devAdmin, "PATCH", "/settings", map[string]any{"aggregation_interval_seconds": 5}, 200, nil)
	}
	trafficFor(t, f)

	ctx := f.tab(t, "")
	shoot := func(name, path, ready string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		all := append([]chromedp.Action[chromedp.Void]{chromedp.Navigate(f.base + path), chromedp.WaitVisible(chromedp.CSS(ready))}, steps...)
		all = append(all, chromedp.Sleep(300*time.Millisecond))
		run(t, ctx, "open "+path, all...)
		save(t, name, value(t, ctx, "screenshot "+name, chromedp.CaptureScreenshot()))
	}
	run(t, ctx, "viewport", chromedp.EmulateViewport(1280, 800))
	if !summary {
		shoot("dashboard", "/console/dashboard", ".kpis")
	}
	shoot("onboard", "/console/onboard", "input[type=file]")
	shoot("onboard-result", "/console/onboard", "input[type=file]",
		chromedp.SetUploadFiles(chromedp.CSS(`input[type=file]`), []string{repoFile(echoWSDL)}),
		chromedp.SendKeys(chromedp.CSS(`input[name=serviceKey]`), "echo-demo"),
		chromedp.SendKeys(chromedp.CSS(`input[name=backendUrl]`), backend.URL+"/echo"),
		chromedp.Click(chromedp.Search(byText("button", "Import and draft the service"))),
		chromedp.WaitVisible(chromedp.CSS(`#drafted`)))
	run(t, ctx, "try", chromedp.Click(chromedp.Search(byText("button", "Run with a generated sample"))),
		chromedp.WaitVisible(chromedp.CSS(`.preview`)), chromedp.ScrollIntoView(chromedp.CSS(`.preview`)), chromedp.Sleep(300*time.Millisecond))
	save(t, "onboard-try", value(t, ctx, "screenshot try", chromedp.CaptureScreenshot()))
	shoot("services", "/console/services", "table")
	shoot("service", "/console/services/"+id, ".kv")
	shoot("service-operations", "/console/services/"+id+"?tab=operations", "table",
		chromedp.Click(chromedp.Search(byText("button", "echo"))), chromedp.WaitVisible(chromedp.CSS(`textarea`)))
	shoot("service-backends", "/console/services/"+id+"?tab=backends", "table")
	shoot("service-backend-wss", "/console/services/"+id+"?tab=backends", "table",
		chromedp.Click(chromedp.Search(`//tr//button[normalize-space()="Edit"]`)), chromedp.WaitVisible(chromedp.CSS(`#profile-form`)),
		check("Add a WS-Security header to every call"), chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="Username token"]`)),
		check("Username token"), check("Timestamp"), fillLabel("Max concurrent requests", "8"),
		chromedp.ScrollIntoView(chromedp.Search(`//legend[normalize-space()="WS-Security"]`)))
	shoot("service-security", "/console/services/"+id+"?tab=security", `form[aria-label="Rate limits"]`,
		check("Limit each client"), chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="Requests per minute"]`)))
	shoot("service-openapi", "/console/services/"+id+"?tab=openapi", "table")
	shoot("traffic", "/console/traffic", "table")
	shoot("traffic-trace", "/console/traffic?tab=trace&correlationId=demo-trace-1", ".side-by-side")
	shoot("settings-access", "/console/settings?tab=access", "table")
	shoot("audit", "/console/audit", "table")
	shootLater(t, f, ctx, shoot, backend.URL)
	ctx = f.tab(t, "")
	run(t, ctx, "narrow", chromedp.EmulateViewport(420, 800))
	shoot("narrow", "/console/services", ".menu-toggle", chromedp.Click(chromedp.CSS(`.menu-toggle`)), chromedp.WaitVisible(chromedp.CSS(`#nav`)))
}

// shootLater takes the screenshots of the screens whose admin API this
// build has: async executions, discovery, traffic logs of every source
// with the detail drawer, the observability dashboard.
func shootLater(t *testing.T, f *fixture, ctx context.Context, shoot func(name, path, ready string, steps ...chromedp.Action[chromedp.Void]), backendURL string) {
	t.Helper()
	if hasEndpoint(t, f, "/async-executions") {
		asyncExecution(t, f, backendURL+"/echo", "async-demo", "demo-async-1")
		shoot("async", "/console/async?id=demo-async-1", "#execution")
	}
	if hasEndpoint(t, f, "/master-discovery/rows") {
		var inst struct{ Token string }
		f.admin(t, devAdmin, "POST", "/ingest-instances", map[string]any{"vendor": "f5", "name": "edge-1"}, 201, &inst)
		sendLBTransaction(t, f, inst.Token)
		shoot("discovery", "/console/discovery", "table",
			chromedp.Click(chromedp.Search(`//button[contains(., "/legacy/customerservice")]`)), chromedp.WaitVisible(chromedp.CSS(`#drill`)))
	}
	var edge trafficData
	if hasEndpoint(t, f, "/traffic-logs") {
		edge = sendTraffic(t, f)
		shoot("traffic-logs", "/console/traffic?source=all", "table")
		shoot("traffic-drawer", "/console/traffic?source=lb&open="+url.QueryEscape("lb:"+edge.lbTx), `dialog[open] section table`)
		shoot("traffic-search", "/console/traffic?tab=search", "table")
	}
	if hasEndpoint(t, f, "/dashboard/summary") {
		// The aggregator reads the new interval after its current sleep
		// (at most the default minute).
		deadline := time.Now().Add(75 * time.Second)
		for {
			var d struct{ KPIs struct{ RequestCount24h int } }
			f.admin(t, devAdmin, "GET", "/dashboard/summary", nil, 200, &d)
			if d.KPIs.RequestCount24h > 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(500 * time.Millisecond)
		}
		shoot("dashboard", "/console/dashboard", ".kpis")
		if edge.lbTx != "" {
			shoot("dashboard-issues", "/console/dashboard", `section[aria-labelledby="vs-failures"] table`,
				chromedp.ScrollIntoView(chromedp.CSS(`section[aria-labelledby="urgent"]`)))
		}
		shoot("dashboard-slo", "/console/dashboard?tab=slo&window=1h", "table")
		shoot("service-traffic", "/console/services?q=echo", "table",
			chromedp.Click(chromedp.Search(byText("a", "echo"))), chromedp.WaitVisible(chromedp.CSS(`#tab-traffic`)),
			chromedp.Click(chromedp.CSS(`#tab-traffic`)), chromedp.WaitVisible(chromedp.CSS(`.uplot`)))
	}
}

// trafficFor sends a few publish calls, one of them bad, so the traffic and
// audit screens have something to show.
func trafficFor(t *testing.T, f *fixture) {
	t.Helper()
	body := `{"values":{"text":"hello","amount":12.5,"count":3,"flag":true,"items":["a","b"],"note":null}}`
	deadline := time.Now().Add(5 * time.Second)
	for ok := 0; ok < 5; {
		resp, err := httpPost(f.base+"/publish/dev/echo/echo", body)
		if err != nil {
			t.Fatal(err)
		}
		if resp == 200 {
			ok++
		} else if time.Now().After(deadline) {
			t.Fatalf("publish = %d", resp)
		}
	}
	req, _ := http.NewRequest("POST", f.base+"/publish/dev/echo/echo", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Correlation-Id", "demo-trace-1")
	req.Header.Set("X-Debug-Enabled", "true")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
	httpPost(f.base+"/publish/dev/echo/echo", `{"values":{"text":1}}`)
	httpPost(f.base+"/publish/dev/nope/echo", `{}`)
	httpPost(f.base+"/soap/old/path", `{}`)
	time.Sleep(1500 * time.Millisecond) // the recorder writes in batches
}

// save writes a screenshot as a small PNG: at most 256 colours (the
// console's flat colours and anti-aliased text survive it), best
// compression.
func save(t *testing.T, name string, shot []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, quantize(img)); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(*screenshots, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(*screenshots, name+".png")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d KB", p, buf.Len()/1024)
}

// quantize maps img to a palette of its 256 most frequent colours (by
// 5-bit buckets), each pixel to the nearest palette colour.
func quantize(img image.Image) *image.Paletted {
	b := img.Bounds()
	type bucket struct {
		n        int
		r, g, bl int
		key      int
	}
	buckets := map[int]*bucket{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			k := int(r>>11)<<10 | int(g>>11)<<5 | int(bl>>11)
			bk := buckets[k]
			if bk == nil {
				bk = &bucket{key: k}
				buckets[k] = bk
			}
			bk.n++
			bk.r += int(r >> 8)
			bk.g += int(g >> 8)
			bk.bl += int(bl >> 8)
		}
	}
	list := make([]*bucket, 0, len(buckets))
	for _, bk := range buckets {
		list = append(list, bk)
	}
	sort.Slice(list, func(i, j int) bool {
		return list[i].n > list[j].n || (list[i].n == list[j].n && list[i].key < list[j].key)
	})
	if len(list) > 256 {
		list = list[:256]
	}
	pal := make(color.Palette, len(list))
	for i, bk := range list {
		pal[i] = color.RGBA{uint8(bk.r / bk.n), uint8(bk.g / bk.n), uint8(bk.bl / bk.n), 255}
	}
	out := image.NewPaletted(b, pal)
	cache := map[int]uint8{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.At(x, y)
			r, g, bl, _ := c.RGBA()
			k := int(r>>8)<<16 | int(g>>8)<<8 | int(bl>>8)
			i, ok := cache[k]
			if !ok {
				i = uint8(pal.Index(c))
				cache[k] = i
			}
			out.SetColorIndex(x, y, i)
		}
	}
	return out
}
