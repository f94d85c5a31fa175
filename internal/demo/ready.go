package demo

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// WaitServed waits until the runtime at base serves both demo services
// with their current backends: an activation or a backend change reaches
// the route table within a reload, and the printed commands must work
// the moment they are printed.
func WaitServed(ctx context.Context, base string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := &http.Client{Timeout: 5 * time.Second}
	checks := []struct {
		name, url, contentType, action, body string
	}{
		{"publish/" + Environment + "/" + CalculatorKey, PublishURL(base, "add"), "application/json", "", `{"a":2,"b":3}`},
		{"consume/" + Environment + "/" + QuotesKey, ConsumeURL(base), "text/xml; charset=utf-8", `"` + quoteAction + `"`, QuoteEnvelope("ACME")},
	}
	for _, c := range checks {
		var last string
		for {
			status, answer, err := post(ctx, client, c.url, c.contentType, c.action, c.body)
			if err == nil && status == http.StatusOK {
				break
			}
			last = fmt.Sprintf("%d %.300s", status, answer)
			if err != nil {
				last = err.Error()
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("%s is not served within %v; last answer: %s", c.name, timeout, last)
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	return nil
}

func post(ctx context.Context, client *http.Client, url, contentType, action, body string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", contentType)
	if action != "" {
		req.Header.Set("SOAPAction", action)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, string(b), err
}
