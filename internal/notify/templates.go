package notify

import (
	htmltemplate "html/template"
	texttemplate "text/template"
)

// The mail bodies, one template per mail kind, as text and as HTML.
var (
	textTemplate = texttemplate.Must(texttemplate.New("mail").Parse(textTemplates))
	htmlTemplate = htmltemplate.Must(htmltemplate.New("mail").Parse(htmlTemplates))
)

const textTemplates = `
{{- define "figures" -}}
Service URI:    {{.ServiceURI}}
Discovery row:  {{.RowID}}
{{- if .TenantID}}
Tenant:         {{.TenantID}}{{end}}
State:          {{.State}} since {{.Since}}
Window:         last hour, {{.WindowFrom}} to {{.WindowTo}}
Calls:          {{.Calls}}
Failures:       {{.Failures}}
Failure rate:   {{.FailurePct}} %
Rule:           at least {{.MinCalls}} calls, and failure rate >= {{.PctThreshold}} % or failures >= {{.CountThreshold}}
{{- if .Reasons}}
Triggered by:   {{range $i, $r := .Reasons}}{{if $i}}; {{end}}{{$r}}{{end}}{{end}}

Open in the console: {{.ConsoleURL}}
{{- if not .Absolute}} (a path of your s2r console; set S2R_PUBLIC_BASE_URL for a full link){{end}}

s2r sends one mail when an alert rule starts triggering and one when it
recovers, at most one per rule every {{.Cooldown}} minutes
(alert_cooldown_minutes). Recipients come from the alert_recipients setting.
{{end -}}

{{- define "trigger" -}}
An alert rule of a discovered service is TRIGGERING.

{{template "figures" .}}
{{- end -}}

{{- define "recovery" -}}
An alert rule of a discovered service has RECOVERED: it no longer triggers.

{{template "figures" .}}
{{- end -}}

{{- define "test" -}}
This is a test mail from s2r, sent by {{.Actor}} to check the SMTP
settings (relay {{.Relay}}, TLS mode {{.TLSMode}}).

If you read this, s2r's alert mails reach you.

Settings: {{.ConsoleURL}}
{{end -}}
`

const htmlTemplates = `
{{- define "figures" -}}
<table cellpadding="4" style="border-collapse:collapse">
<tr><th align="left">Service URI</th><td><code>{{.ServiceURI}}</code></td></tr>
<tr><th align="left">Discovery row</th><td>{{.RowID}}</td></tr>
{{- if .TenantID}}
<tr><th align="left">Tenant</th><td>{{.TenantID}}</td></tr>{{end}}
<tr><th align="left">State</th><td><strong>{{.State}}</strong> since {{.Since}}</td></tr>
<tr><th align="left">Window</th><td>last hour, {{.WindowFrom}} to {{.WindowTo}}</td></tr>
<tr><th align="left">Calls</th><td>{{.Calls}}</td></tr>
<tr><th align="left">Failures</th><td>{{.Failures}}</td></tr>
<tr><th align="left">Failure rate</th><td>{{.FailurePct}} %</td></tr>
<tr><th align="left">Rule</th><td>at least {{.MinCalls}} calls, and failure rate &ge; {{.PctThreshold}} % or failures &ge; {{.CountThreshold}}</td></tr>
{{- if .Reasons}}
<tr><th align="left">Triggered by</th><td>{{range $i, $r := .Reasons}}{{if $i}}; {{end}}{{$r}}{{end}}</td></tr>{{end}}
</table>
<p>{{if .Absolute}}<a href="{{.ConsoleURL}}">Open in the console</a>{{else}}Console path: <code>{{.ConsoleURL}}</code>{{end}}</p>
<p style="color:#666">s2r sends one mail when an alert rule starts triggering and one when it recovers,
at most one per rule every {{.Cooldown}} minutes (alert_cooldown_minutes).</p>
{{end -}}

{{- define "trigger" -}}
<html><body>
<p>An alert rule of a discovered service is <strong>TRIGGERING</strong>.</p>
{{template "figures" .}}
</body></html>
{{end -}}

{{- define "recovery" -}}
<html><body>
<p>An alert rule of a discovered service has <strong>RECOVERED</strong>: it no longer triggers.</p>
{{template "figures" .}}
</body></html>
{{end -}}

{{- define "test" -}}
<html><body>
<p>This is a test mail from s2r, sent by {{.Actor}} to check the SMTP settings
(relay <code>{{.Relay}}</code>, TLS mode {{.TLSMode}}).</p>
<p>If you read this, s2r's alert mails reach you.</p>
<p>{{if .Absolute}}<a href="{{.ConsoleURL}}">Settings</a>{{else}}Settings: <code>{{.ConsoleURL}}</code>{{end}}</p>
</body></html>
{{end -}}
`
