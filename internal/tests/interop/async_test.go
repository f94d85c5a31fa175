package interop

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/tests/poll"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

// asyncAnswer is the 202 answer of an async publish and a poll answer.
type asyncAnswer struct {
	CorrelationID string          `json:"correlationId"`
	Status        string          `json:"status"`
	PollPath      string          `json:"pollPath"`
	PollToken     string          `json:"pollToken"`
	Result        json.RawMessage `json:"result"`
	Fault         json.RawMessage `json:"fault"`
}

// TestAsyncNodeSOAPBackend: the npm soap package as an asynchronous SOAP
// backend (test/interop/node/async_backend.js), in SOAP 1.1 and 1.2. It
// acknowledges each request at once and later POSTs the envelope the soap
// package produced to the WS-Addressing ReplyTo s2r sent, with RelatesTo
// and the shared callback secret. The REST client gets 202 and polls,
// with a fresh token each time, until the execution is completed with
// exactly its values, or failed with the backend's SOAP Fault.
func TestAsyncNodeSOAPBackend(t *testing.T) {
	dir := nodeDir(t)
	base := startS2R(t)
	const secret = "interop-callback-secret"
	for _, tc := range []struct{ version, file, key, fault string }{
		{"1.1", "echo11.wsdl", "async11", `{"faultCode":"Sender"}`},
		{"1.2", "echo12.wsdl", "async12", `{"faultCode":"Sender","faultSubcodes":["InvalidReason"]}`},
	} {
		t.Run("SOAP "+tc.version, func(t *testing.T) {
			wsdlPath := filepath.Join(serveproc.RepoRoot(), "test", "interop", "wsdl", tc.file)
			wsdlText, err := os.ReadFile(wsdlPath)
			if err != nil {
				t.Fatal(err)
			}
			endpoint := "http://127.0.0.1:" + startListener(t, dir, "node", "async_backend.js", wsdlPath, tc.version, secret) + "/echo"
			var auto autopilotResult
			admin(t, base, "POST", "/wsdl/import-xml:autopilot", map[string]any{"xml": string(wsdlText),
				"environment": "dev", "serviceKey": tc.key, "backendUrl": endpoint}, http.StatusCreated, &auto)
			for _, op := range []string{"Echo", "Fail"} {
				admin(t, base, "PATCH", "/operations/"+auto.operationID(t, op), map[string]any{"executionMode": "async_callback"},
					http.StatusOK, nil)
			}
			admin(t, base, "PATCH", "/services/"+auto.Service.ServiceID, map[string]any{"callbackAuthMode": "shared_secret",
				"callbackSecret": secret}, http.StatusOK, nil)
			auto.activate(t, base)

			echo := startAsync(t, base+"/publish/dev/"+tc.key+"/echo", echoValues)
			done := pollUntilDone(t, base, echo)
			if done.Status != "completed" || string(done.Result) != echoValues {
				t.Errorf("echo execution %s: result\n got %s\nwant %s", done.Status, done.Result, echoValues)
			}

			fail := startAsync(t, base+"/publish/dev/"+tc.key+"/fail", `{"reason":"bad <input>"}`)
			done = pollUntilDone(t, base, fail)
			if done.Status != "failed" || string(done.Fault) != tc.fault || done.Result != nil {
				t.Errorf("fail execution: %+v (fault %s)", done, done.Fault)
			}
		})
	}
}

// startAsync posts body to an async publish URL (waiting for the route to
// be served) and returns the 202 answer.
func startAsync(t *testing.T, url, body string) asyncAnswer {
	t.Helper()
	var status int
	var got string
	poll.Until(t, 5*time.Second, "async route served", func() bool {
		status, got = postJSON(t, url, body)
		return status != http.StatusNotFound
	})
	var a asyncAnswer
	if status != http.StatusAccepted || json.Unmarshal([]byte(got), &a) != nil || a.PollToken == "" || a.Status != "waiting_callback" {
		t.Fatalf("async publish = %d %s", status, got)
	}
	return a
}

// pollUntilDone polls an execution, with the token of each answer, until
// it is no longer waiting_callback.
func pollUntilDone(t *testing.T, base string, a asyncAnswer) asyncAnswer {
	t.Helper()
	token := a.PollToken
	deadline := time.Now().Add(20 * time.Second)
	for {
		req, err := http.NewRequest("GET", base+a.PollPath, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-S2R-Poll-Token", token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var p asyncAnswer
		if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &p) != nil || resp.Header.Get("X-S2R-Poll-Token") != p.PollToken {
			t.Fatalf("poll = %d %s", resp.StatusCode, b)
		}
		if p.Status != "waiting_callback" {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("execution %s still waiting after 20s", a.CorrelationID)
		}
		token = p.PollToken
		time.Sleep(50 * time.Millisecond)
	}
}
