package transform

import (
	"testing"
	"time"
)

func TestDateConversions(t *testing.T) {
	tests := []struct {
		from, to, in, want string
	}{
		{"yyyy-MM-dd", "dd.MM.yyyy", "2024-02-29", "29.02.2024"},
		{"d.M.yyyy", "yyyy-MM-dd", "1.2.2025", "2025-02-01"},
		{"d.M.yyyy", "yyyy-MM-dd", "31.12.2025", "2025-12-31"},
		{"dd/MM/yy", "yyyy-MM-dd", "05/06/68", "2068-06-05"},
		{"dd/MM/yy", "yyyy-MM-dd", "05/06/69", "1969-06-05"},
		{"yyyy-MM-dd", "yy", "2007-01-01", "07"},
		{"yyyyMMddHHmmss", "yyyy-MM-dd'T'HH:mm:ss", "20240102030405", "2024-01-02T03:04:05"},
		{"yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "dd.MM.yyyy HH:mm:ss.SSS Z", "2024-03-04T05:06:07.089+05:30", "04.03.2024 05:06:07.089 +0530"},
		{"yyyy-MM-dd'T'HH:mm:ssXXX", "yyyy-MM-dd'T'HH:mm:ssX", "2024-03-04T05:06:07Z", "2024-03-04T05:06:07Z"},
		{"yyyy-MM-dd'T'HH:mm:ssXX", "HH:mm XXX", "2024-03-04T05:06:07-0800", "05:06 -08:00"},
		{"yyyy-MM-dd'T'HH:mm:ssX", "HH:mm XX", "2024-03-04T05:06:07+01", "05:06 +0100"},
		{"yyyy-MM-dd'T'HH:mm:ssX", "HH:mm X", "2024-03-04T05:06:07+0130", "05:06 +0130"},
		{"yyyy-MM-dd HH:mm:ssZ", "yyyy-MM-dd'T'HH:mm:ssXXX", "2024-03-04 05:06:07+0000", "2024-03-04T05:06:07Z"},
		{"yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm:ssZ", "2024-03-04", "2024-03-04T00:00:00+0000"},
		{"yyyy-MM-dd HH:mm:ss.SSSSSSSSS", "ss.SSS", "2024-03-04 05:06:07.123456789", "07.123"},
		{"yyyy-MM-dd HH:mm:ss.S", "ss.SSSSSS", "2024-03-04 05:06:07.5", "07.500000"},
		{"dd MMM yyyy", "yyyy-MM-dd", "07 sep 2024", "2024-09-07"},
		{"dd MMMM yyyy", "EEE, d MMM yyyy", "07 September 2024", "Sat, 7 Sep 2024"},
		{"EEEE, dd.MM.yyyy", "EEEE yyyy-MM-dd", "Saturday, 07.09.2024", "Saturday 2024-09-07"},
		{"MM/dd/yyyy hh:mm a", "yyyy-MM-dd HH:mm", "12/31/2024 12:15 AM", "2024-12-31 00:15"},
		{"MM/dd/yyyy hh:mm a", "yyyy-MM-dd HH:mm", "12/31/2024 12:15 pm", "2024-12-31 12:15"},
		{"yyyy-MM-dd HH:mm", "dd.MM.yyyy h:mm a", "2024-12-31 23:05", "31.12.2024 11:05 PM"},
		{"H:m:s", "HH:mm:ss", "7:5:9", "07:05:09"},
		{"HH:mm", "yyyy-MM-dd HH:mm", "23:59", "1970-01-01 23:59"},
		{"yyyy-MM-dd'T'HH:mm'Z'", "dd.MM.yyyy 'at' HH:mm '''UTC'''", "2024-01-02T03:04Z", "02.01.2024 at 03:04 'UTC'"},
	}
	for _, tt := range tests {
		t.Run(tt.from+" "+tt.in, func(t *testing.T) {
			from, err := compileDatePattern(tt.from)
			if err != nil {
				t.Fatal(err)
			}
			to, err := compileDatePattern(tt.to)
			if err != nil {
				t.Fatal(err)
			}
			tm, err := from.parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := to.format(tm); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDateParseErrors(t *testing.T) {
	tests := []struct{ pattern, in, want string }{
		{"yyyy-MM-dd", "2023-02-29", "day 29 out of range for 2023-02"},
		{"yyyy-MM-dd", "2024-04-31", "day 31 out of range for 2024-04"},
		{"yyyy-MM-dd", "2024-00-10", "month 0 out of range"},
		{"yyyy-MM-dd", "2024-01-1", "expected 2 digits for the day"},
		{"yyyy-MM-dd", "2024-01-01 ", `unexpected text " " at the end`},
		{"yyyy-MM-dd", "", "expected 4 digits for the year"},
		{"d.M.yyyy", "x.1.2024", "expected digits for the day"},
		{"HH:mm", "24:00", "hour 24 out of range"},
		{"HH:mm", "23:60", "minute 60 out of range"},
		{"HH:mm:ss", "23:59:60", "second 60 out of range"},
		{"hh:mm a", "13:00 PM", "hour 13 out of range 1-12"},
		{"hh:mm a", "00:00 AM", "hour 0 out of range 1-12"},
		{"hh:mm a", "11:00 XM", "expected AM or PM"},
		{"dd MMM yyyy", "01 Foo 2024", "expected the name of a month"},
		{"EEE dd.MM.yyyy", "Mon 07.09.2024", "Monday does not match the date (a Saturday)"},
		{"HH:mmXXX", "10:00+0100", "expected a UTC offset such as +02:00"},
		{"HH:mmXXX", "10:00+24:00", "UTC offset out of range"},
		{"HH:mmZ", "10:00Z", "expected a UTC offset such as +02:00"},
		{"HH:mmXX", "10:00+01", "expected 2 digits for the offset minutes"},
		{"ss.SSS", "01.12", "expected 3 digits for the fraction of a second"},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" "+tt.in, func(t *testing.T) {
			p, err := compileDatePattern(tt.pattern)
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.parse(tt.in)
			if err == nil || err.Error() != tt.want {
				t.Errorf("parse error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestDatePatternErrors(t *testing.T) {
	tests := []struct{ pattern, want string }{
		{"", "empty date pattern"},
		{"'abc", "unterminated quote in date pattern"},
		{"yyyy-MM-ddTHH", "unknown pattern letter 'T' (quote literal text, e.g. 'T')"},
		{"yyy", `"yyy" is not a valid pattern field; use yy or yyyy`},
		{"d.M.y", `"y" is not a valid pattern field; use yy or yyyy`},
		{"MMMMM", `"MMMMM" is not a valid pattern field; use M or MM or MMM or MMMM`},
		{"SSSSSSSSSS", `"SSSSSSSSSS" is not a valid pattern field; use S to SSSSSSSSS`},
		{"EE", `"EE" is not a valid pattern field; use EEE or EEEE`},
		{"HH:mm aa", `"aa" is not a valid pattern field; use a`},
		{"yyyy-MM-dd yyyy", `pattern letter 'y' appears twice`},
		{"Md", `"M" is directly followed by another number field; use the two-letter form or a separator`},
		{"yyyyMdd", `"M" is directly followed by another number field; use the two-letter form or a separator`},
		{"hh:mm", "12-hour field h/hh and AM/PM field a must be used together"},
		{"HH:mm a", "12-hour field h/hh and AM/PM field a must be used together"},
		{"HH hh a", "pattern mixes 12-hour (h) and 24-hour (H) fields"},
		{"HH:mmXZ", "pattern has two offset fields (X and Z)"},
		{"'only text'", "date pattern has no date or time field"},
		{"--", "date pattern has no date or time field"},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			_, err := compileDatePattern(tt.pattern)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestDateRoundTrip formats times with a full pattern and parses them back.
func TestDateRoundTrip(t *testing.T) {
	p, err := compileDatePattern("EEEE dd MMMM yyyy HH:mm:ss.SSSSSSSSSXXX")
	if err != nil {
		t.Fatal(err)
	}
	zones := []*time.Location{time.UTC, time.FixedZone("", 5*3600+45*60), time.FixedZone("", -9*3600-30*60)}
	for i := range 500 {
		tm := time.Date(1900+i%200, time.Month(1+i%12), 1+i%28, i%24, i%60, (i*7)%60, i*1234567%1e9, zones[i%3])
		s := p.format(tm)
		back, err := p.parse(s)
		if err != nil {
			t.Fatalf("parse(%q): %v", s, err)
		}
		if !back.Equal(tm) {
			t.Fatalf("round trip of %v gave %v via %q", tm, back, s)
		}
	}
}
