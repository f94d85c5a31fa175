package security

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Budgets of one refused attack, measured on the server process.
const (
	maxAttackCPU    = 100 * time.Millisecond
	maxAttackMemory = 64 << 20
)

// clockTick is the unit of utime and stime in /proc/<pid>/stat (USER_HZ,
// 100 on every Linux architecture Go supports).
const clockTick = 10 * time.Millisecond

// cost is what one attack cost the server process.
type cost struct {
	cpu     time.Duration // user + system CPU
	memGrow int64         // peak RSS during the attack minus RSS before
}

func (c cost) String() string {
	return fmt.Sprintf("cpu %v, peak RSS growth %.1f MB", c.cpu, float64(c.memGrow)/(1<<20))
}

// measure runs attack and reports the server's CPU time and peak RSS
// growth over it. The peak is reset before (writing 5 to
// /proc/<pid>/clear_refs resets VmHWM to the current RSS) and read after.
func (s *server) measure(t *testing.T, attack func()) cost {
	t.Helper()
	pid := s.pid()
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
		t.Fatalf("reset peak RSS: %v", err)
	}
	rss0, _ := procStatus(t, pid)
	cpu0 := procCPU(t, pid)
	attack()
	cpu1 := procCPU(t, pid)
	_, hwm := procStatus(t, pid)
	return cost{cpu: cpu1 - cpu0, memGrow: hwm - rss0}
}

// measureTwice is measure, repeated once when the first run is over a
// budget: the process also does unrelated work (a garbage collection of
// earlier garbage, a periodic job) that one run may catch. A real
// problem is over budget both times; the cheaper run is reported.
func (s *server) measureTwice(t *testing.T, attack func()) cost {
	t.Helper()
	c := s.measure(t, attack)
	if c.cpu <= maxAttackCPU && c.memGrow <= maxAttackMemory {
		return c
	}
	d := s.measure(t, attack)
	return cost{cpu: min(c.cpu, d.cpu), memGrow: min(c.memGrow, d.memGrow)}
}

// within reports an error naming what when c is over the budgets.
func (c cost) within(t *testing.T, what string) {
	t.Helper()
	if c.cpu > maxAttackCPU {
		t.Errorf("%s: server CPU %v, budget %v", what, c.cpu, maxAttackCPU)
	}
	if c.memGrow > maxAttackMemory {
		t.Errorf("%s: peak RSS grew %.1f MB, budget %d MB", what, float64(c.memGrow)/(1<<20), maxAttackMemory>>20)
	}
}

// procCPU returns utime + stime of pid (all threads, dead ones included).
func procCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatalf("read stat: %v", err)
	}
	// The command name may hold spaces: fields start after the last ')'.
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("parse stat %q", b)
	}
	return time.Duration(ut+st) * clockTick
}

// procStatus returns VmRSS and VmHWM of pid in bytes.
func procStatus(t *testing.T, pid int) (rss, hwm int64) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("read status: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmRSS":
			rss = kb << 10
		case "VmHWM":
			hwm = kb << 10
		}
	}
	return rss, hwm
}
