package main

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestDetectListsEveryIssueEndToEnd: operations in detect mode answer
// backend responses that break the contract in several places. Every
// deviation is its own issue, at its path, in the runtime log and on
// /metrics; past 20 the issues are counted in a marker entry and on
// /metrics, not listed.
func TestDetectListsEveryIssueEndToEnd(t *testing.T) {
	backend := newCalcBackend(t)
	base, admin, stop := serveFresh(t)
	defer stop()
	onboardCalc(t, admin, backend.URL, func(ids map[string]string) {
		for _, op := range []string{"add", "echo"} {
			adminCall(t, "PATCH", admin+"/operations/"+ids[op], `{"responseValidation":"detect"}`, http.StatusOK, nil)
		}
	})
	type issue struct {
		Pointer, Reason string
		Omitted         int
	}

	// Three undeclared elements at three depths (after the wrapper, in
	// the wrapper, in a simple-typed element of an item) and a value that
	// is not an xs:int.
	backend.mu.Lock()
	backend.answer = `<EchoResponse xmlns="http://example.com/calc">` +
		`<items><sku>A</sku><qty>many</qty><price>2.5</price><note>hi<em>!</em></note></items>` +
		`<items><sku>B</sku><qty>2</qty><price>1</price></items>` +
		`<extra>1</extra></EchoResponse><Trailer xmlns="urn:other"/>`
	backend.mu.Unlock()
	status, body := callWithID(t, base+"/publish/dev/calc/echo", `{"items":[]}`, "detect-many")
	if want := `{"items":[{"sku":"A","qty":null,"price":2.5,"note":"hi"},{"sku":"B","qty":2,"price":1}]}`; status != 200 || body != want {
		t.Errorf("answer %d %s, want 200 %s", status, body, want)
	}
	want := []issue{
		{Pointer: "/Envelope/Body/EchoResponse/items[1]/qty", Reason: `invalid xs:int value "many"`},
		{Pointer: "/Envelope/Body/EchoResponse/items[1]/note/em", Reason: "unexpected element in simple content"},
		{Pointer: "/Envelope/Body/EchoResponse/extra", Reason: "unknown element {http://example.com/calc}extra"},
		{Pointer: "/Envelope/Body/Trailer", Reason: "unexpected element {urn:other}Trailer after EchoResponse"},
	}
	if diff := cmp.Diff(want, recordedIssues[issue](t, admin, "detect-many")); diff != "" {
		t.Errorf("validationIssues (-want +got):\n%s", diff)
	}
	_, metrics := get(t, base+"/metrics", nil)
	if !strings.Contains(metrics, `s2r_contract_violations_total{environment="dev",operation="echo",service="calc"} 4`) {
		t.Errorf("/metrics does not count the 4 issues:\n%s", grepLines(metrics, "s2r_contract"))
	}

	// 25 undeclared elements: 20 listed, 5 counted in the marker, 25 on
	// /metrics.
	var extra strings.Builder
	for i := range 25 {
		extra.WriteString("<bonus" + strconv.Itoa(i) + ">1</bonus" + strconv.Itoa(i) + ">")
	}
	backend.mu.Lock()
	backend.answer = `<AddResponse xmlns="http://example.com/calc"><result>3</result>` + extra.String() + `</AddResponse>`
	backend.mu.Unlock()
	if status, body := callWithID(t, base+"/publish/dev/calc/add", `{"a":1,"b":2}`, "detect-cap"); status != 200 || body != `{"result":3}` {
		t.Errorf("answer %d %s", status, body)
	}
	got := recordedIssues[issue](t, admin, "detect-cap")
	if len(got) != 21 || got[0].Pointer != "/Envelope/Body/AddResponse/bonus0" || got[19].Pointer != "/Envelope/Body/AddResponse/bonus19" ||
		got[20] != (issue{Reason: "further issues not listed", Omitted: 5}) {
		t.Errorf("validationIssues = %+v", got)
	}
	_, metrics = get(t, base+"/metrics", nil)
	if !strings.Contains(metrics, `s2r_contract_violations_total{environment="dev",operation="add",service="calc"} 25`) {
		t.Errorf("/metrics does not count the 25 issues:\n%s", grepLines(metrics, "s2r_contract"))
	}
}

// callWithID posts body as JSON to url with correlation id cid until the
// route is served (not 404) and returns the status and body.
func callWithID(t *testing.T, url, body, cid string) (int, string) {
	t.Helper()
	var status int
	var text string
	poll.Until(t, 2*time.Second, "route served", func() bool {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Correlation-Id", cid)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		status, text = resp.StatusCode, string(b)
		return status != http.StatusNotFound
	})
	return status, text
}

// recordedIssues waits for the runtime log of cid and returns its
// validationIssues.
func recordedIssues[T any](t *testing.T, admin, cid string) []T {
	t.Helper()
	var page struct {
		Items []struct {
			ValidationIssues []T `json:"validationIssues"`
		} `json:"items"`
	}
	poll.Until(t, 5*time.Second, "recorded", func() bool {
		adminCall(t, "GET", admin+"/runtime-logs?correlationId="+cid, "", http.StatusOK, &page)
		return len(page.Items) > 0
	})
	return page.Items[0].ValidationIssues
}
