package transform

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

var (
	monthNames = []string{"January", "February", "March", "April", "May", "June",
		"July", "August", "September", "October", "November", "December"}
	dayNames = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
)

// format renders t with the pattern.
func (p *datePattern) format(t time.Time) string {
	b := make([]byte, 0, 40)
	for _, tok := range p.tokens {
		b = appendField(b, tok, t)
	}
	return string(b)
}

func appendField(b []byte, tok token, t time.Time) []byte {
	switch tok.letter {
	case 0:
		return append(b, tok.lit...)
	case 'y':
		if tok.count == 2 {
			return appendPadded(b, t.Year()%100, 2)
		}
		return appendPadded(b, t.Year(), 4)
	case 'M':
		return appendNameOrNumber(b, tok.count, int(t.Month()), monthNames[t.Month()-1])
	case 'd':
		return appendPadded(b, t.Day(), tok.count)
	case 'H':
		return appendPadded(b, t.Hour(), tok.count)
	case 'h':
		return appendPadded(b, (t.Hour()+11)%12+1, tok.count)
	case 'm':
		return appendPadded(b, t.Minute(), tok.count)
	case 's':
		return appendPadded(b, t.Second(), tok.count)
	case 'S':
		return appendPadded(b, t.Nanosecond()/pow10(9-tok.count), tok.count)
	case 'a':
		if t.Hour() < 12 {
			return append(b, "AM"...)
		}
		return append(b, "PM"...)
	case 'E':
		return appendNameOrNumber(b, tok.count, 0, dayNames[t.Weekday()])
	}
	return appendOffset(b, tok, t)
}

func appendNameOrNumber(b []byte, count, n int, name string) []byte {
	switch count {
	case 3:
		return append(b, name[:3]...)
	case 4:
		return append(b, name...)
	}
	return appendPadded(b, n, count)
}

// appendOffset renders X, XX, XXX and Z.
func appendOffset(b []byte, tok token, t time.Time) []byte {
	_, off := t.Zone()
	if off == 0 && tok.letter == 'X' {
		return append(b, 'Z')
	}
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	b = append(b, sign)
	b = appendPadded(b, off/3600, 2)
	mins := off % 3600 / 60
	switch {
	case tok.letter == 'X' && tok.count == 1 && mins == 0:
		return b
	case tok.letter == 'X' && tok.count == 3:
		b = append(b, ':')
	}
	return appendPadded(b, mins, 2)
}

func appendPadded(b []byte, n, width int) []byte {
	digits := 1
	for v := n; v >= 10; v /= 10 {
		digits++
	}
	for i := digits; i < width; i++ {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(n), 10)
}

func pow10(n int) int {
	p := 1
	for range n {
		p *= 10
	}
	return p
}

// fields collects what parsing found.
type fields struct {
	year, month, day, hour, min, sec, nsec int
	pm, hasPM                              bool
	weekday                                int // -1 when absent
	offset                                 int
	hasOffset                              bool
}

// parse reads s, which must match the pattern completely.
func (p *datePattern) parse(s string) (time.Time, error) {
	f := fields{year: 1970, month: 1, day: 1, weekday: -1}
	rest := s
	for _, tok := range p.tokens {
		var err error
		if rest, err = parseField(rest, tok, &f); err != nil {
			return time.Time{}, err
		}
	}
	if rest != "" {
		return time.Time{}, fmt.Errorf("unexpected text %q at the end", truncate(rest, 20))
	}
	return f.time()
}

func parseField(s string, tok token, f *fields) (string, error) {
	var err error
	switch tok.letter {
	case 0:
		if !strings.HasPrefix(s, tok.lit) {
			return s, fmt.Errorf("expected %q", tok.lit)
		}
		return s[len(tok.lit):], nil
	case 'y':
		s, f.year, err = digits(s, tok.count, tok.count, "year")
		if tok.count == 2 {
			f.year += 1900
			if f.year < 1969 {
				f.year += 100
			}
		}
	case 'M':
		if tok.count >= 3 {
			s, f.month, err = name(s, monthNames, tok.count, "month")
			f.month++
		} else {
			s, f.month, err = number(s, tok.count, "month")
		}
	case 'd':
		s, f.day, err = number(s, tok.count, "day")
	case 'H', 'h':
		s, f.hour, err = number(s, tok.count, "hour")
	case 'm':
		s, f.min, err = number(s, tok.count, "minute")
	case 's':
		s, f.sec, err = number(s, tok.count, "second")
	case 'S':
		s, f.nsec, err = digits(s, tok.count, tok.count, "fraction of a second")
		f.nsec *= pow10(9 - tok.count)
	case 'a':
		s, err = f.parseAMPM(s)
	case 'E':
		s, f.weekday, err = name(s, dayNames, tok.count, "day of the week")
	default:
		s, err = f.parseOffset(s, tok)
	}
	return s, err
}

// number reads a field of count 1 (one or two digits) or 2 (two digits).
func number(s string, count int, what string) (string, int, error) {
	if count == 1 {
		return digits(s, 1, 2, what)
	}
	return digits(s, 2, 2, what)
}

// digits reads between lo and hi ASCII digits, as many as there are.
func digits(s string, lo, hi int, what string) (string, int, error) {
	n, v := 0, 0
	for n < hi && n < len(s) && s[n] >= '0' && s[n] <= '9' {
		v = v*10 + int(s[n]-'0')
		n++
	}
	if n < lo {
		if lo == hi {
			return s, 0, fmt.Errorf("expected %d digits for the %s", lo, what)
		}
		return s, 0, fmt.Errorf("expected digits for the %s", what)
	}
	return s[n:], v, nil
}

// name reads a full (count 4) or three-letter (count 3) English name.
func name(s string, names []string, count int, what string) (string, int, error) {
	for i, full := range names {
		want := full
		if count == 3 {
			want = full[:3]
		}
		if len(s) >= len(want) && strings.EqualFold(s[:len(want)], want) {
			return s[len(want):], i, nil
		}
	}
	return s, 0, fmt.Errorf("expected the name of a %s", what)
}

func (f *fields) parseAMPM(s string) (string, error) {
	if len(s) < 2 {
		return s, errors.New("expected AM or PM")
	}
	switch strings.ToUpper(s[:2]) {
	case "AM":
		f.hasPM, f.pm = true, false
	case "PM":
		f.hasPM, f.pm = true, true
	default:
		return s, errors.New("expected AM or PM")
	}
	return s[2:], nil
}

// parseOffset reads "Z" (X forms only) or a signed hour offset with the
// minutes the form requires.
func (f *fields) parseOffset(s string, tok token) (string, error) {
	f.hasOffset = true
	if tok.letter == 'X' && strings.HasPrefix(s, "Z") {
		return s[1:], nil
	}
	if s == "" || (s[0] != '+' && s[0] != '-') {
		return s, errors.New("expected a UTC offset such as +02:00")
	}
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	rest, hours, err := digits(s[1:], 2, 2, "offset hours")
	if err != nil {
		return s, err
	}
	mins := 0
	needMinutes := tok.letter == 'Z' || tok.count >= 2
	optionalMinutes := tok.letter == 'X' && tok.count == 1 && len(rest) >= 2 && rest[0] >= '0' && rest[0] <= '9'
	if tok.letter == 'X' && tok.count == 3 {
		if !strings.HasPrefix(rest, ":") {
			return s, errors.New("expected a UTC offset such as +02:00")
		}
		rest = rest[1:]
	}
	if needMinutes || optionalMinutes {
		if rest, mins, err = digits(rest, 2, 2, "offset minutes"); err != nil {
			return s, err
		}
	}
	if hours > 23 || mins > 59 {
		return s, errors.New("UTC offset out of range")
	}
	f.offset = sign * (hours*3600 + mins*60)
	return rest, nil
}

// time checks ranges and builds the time.
func (f *fields) time() (time.Time, error) {
	if f.hasPM {
		if f.hour < 1 || f.hour > 12 {
			return time.Time{}, fmt.Errorf("hour %d out of range 1-12", f.hour)
		}
		f.hour %= 12
		if f.pm {
			f.hour += 12
		}
	}
	switch {
	case f.month < 1 || f.month > 12:
		return time.Time{}, fmt.Errorf("month %d out of range", f.month)
	case f.day < 1 || f.day > daysIn(f.year, f.month):
		return time.Time{}, fmt.Errorf("day %d out of range for %04d-%02d", f.day, f.year, f.month)
	case f.hour > 23:
		return time.Time{}, fmt.Errorf("hour %d out of range", f.hour)
	case f.min > 59:
		return time.Time{}, fmt.Errorf("minute %d out of range", f.min)
	case f.sec > 59:
		return time.Time{}, fmt.Errorf("second %d out of range", f.sec)
	}
	loc := time.UTC
	if f.hasOffset && f.offset != 0 {
		loc = time.FixedZone("", f.offset)
	}
	t := time.Date(f.year, time.Month(f.month), f.day, f.hour, f.min, f.sec, f.nsec, loc)
	if f.weekday >= 0 && int(t.Weekday()) != f.weekday {
		return time.Time{}, fmt.Errorf("%s does not match the date (a %s)", dayNames[f.weekday], t.Weekday())
	}
	return t, nil
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
