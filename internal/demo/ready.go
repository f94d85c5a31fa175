package demo

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// CheckServed calls both demo services once at the runtime at base and
// fails unless each answers 200: the printed commands must work the
// moment they are printed. It does not wait: the admin API answers an
// activation or a backend change only once this instance's route table
// serves it (docs/architecture.md, "The life of an admin write").
func CheckServed(ctx context.Context, base string) error {
	client := &http.Client{Timeout: 10 * time.Second}
	checks := []struct {
		name, url, contentType, action, body string
	}{
		{"publish/" + Environment + "/" + CalculatorKey, PublishURL(base, "add"), "application/json", "", `{"a":2,"b":3}`},
		{"consume/" + Environment + "/" + QuotesKey, ConsumeURL(base), "text/xml; charset=utf-8", `"` + quoteAction + `"`, QuoteEnvelope("ACME")},
	}
	for _, c := range checks {
		status, answer, err := post(ctx, client, c.url, c.contentType, c.action, c.body)
		if err != nil {
			return fmt.Errorf("%s is not served: %w", c.name, err)
		}
		if status != http.StatusOK {
			return fmt.Errorf("%s is not served: %d %.300s", c.name, status, answer)
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
