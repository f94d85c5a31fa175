package convert

// checkDateTime reports why s is not a valid lexical value of the XSD
// date/time built-in, or "" (also for built-ins it does not check).
// Checked: date, dateTime, dateTimeStamp, time.
func checkDateTime(builtin string, s []byte) string {
	var ok bool
	switch builtin {
	case "date":
		rest, dok := lexDate(s)
		ok = dok && lexTZ(rest, false)
	case "dateTime", "dateTimeStamp":
		rest, dok := lexDate(s)
		if dok && len(rest) > 0 && rest[0] == 'T' {
			rest, dok = lexTime(rest[1:])
			ok = dok && lexTZ(rest, builtin == "dateTimeStamp")
		}
	case "time":
		rest, tok := lexTime(s)
		ok = tok && lexTZ(rest, false)
	default:
		return ""
	}
	if !ok {
		return "invalid xs:" + builtin + " value " + quote(string(s))
	}
	return ""
}

func isDateTime(builtin string) bool {
	switch builtin {
	case "date", "dateTime", "dateTimeStamp", "time":
		return true
	}
	return false
}

// digits reads exactly n digits and their value.
func digits(s []byte, n int) (int, []byte, bool) {
	if len(s) < n {
		return 0, s, false
	}
	v := 0
	for i := 0; i < n; i++ {
		if !isDigit(s[i]) {
			return 0, s, false
		}
		v = v*10 + int(s[i]-'0')
	}
	return v, s[n:], true
}

// lexDate reads -?YYYY+-MM-DD.
func lexDate(s []byte) ([]byte, bool) {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n < 4 || (n > 4 && s[0] == '0') {
		return s, false
	}
	s = s[n:]
	if len(s) == 0 || s[0] != '-' {
		return s, false
	}
	month, s, ok := digits(s[1:], 2)
	if !ok || month < 1 || month > 12 || len(s) == 0 || s[0] != '-' {
		return s, false
	}
	day, s, ok := digits(s[1:], 2)
	return s, ok && day >= 1 && day <= 31
}

// lexTime reads hh:mm:ss(.s+)?.
func lexTime(s []byte) ([]byte, bool) {
	h, s, ok := digits(s, 2)
	if !ok || h > 24 || len(s) == 0 || s[0] != ':' {
		return s, false
	}
	m, s, ok := digits(s[1:], 2)
	if !ok || m > 59 || len(s) == 0 || s[0] != ':' {
		return s, false
	}
	sec, s, ok := digits(s[1:], 2)
	if !ok || sec > 60 {
		return s, false
	}
	if len(s) > 0 && s[0] == '.' {
		n := 1
		for n < len(s) && isDigit(s[n]) {
			n++
		}
		if n == 1 {
			return s, false
		}
		s = s[n:]
	}
	return s, true
}

// lexTZ checks an optional (or, with required, mandatory) time zone and
// the end of the value.
func lexTZ(s []byte, required bool) bool {
	switch {
	case len(s) == 0:
		return !required
	case len(s) == 1 && s[0] == 'Z':
		return true
	case len(s) == 6 && (s[0] == '+' || s[0] == '-') && s[3] == ':':
		h, _, ok1 := digits(s[1:3], 2)
		m, _, ok2 := digits(s[4:6], 2)
		return ok1 && ok2 && h <= 14 && m <= 59
	}
	return false
}
