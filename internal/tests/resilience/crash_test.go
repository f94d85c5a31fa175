package resilience

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/loadgen"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// crashRounds is how many times the crash test kills s2r per database;
// S2R_SOAK=<duration> replaces it by a duration.
const crashRounds = 3

// soakDuration reads S2R_SOAK (0 when unset).
func soakDuration(t *testing.T) time.Duration {
	v := os.Getenv("S2R_SOAK")
	if v == "" {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		t.Fatalf("S2R_SOAK=%q: %v", v, err)
	}
	return d
}

// TestCrashSafety runs every write kind (writeKinds) and publish calls to
// a real SOAP backend against `s2r serve`, kills it with SIGKILL at a
// random moment, checks the database's integrity with the process gone,
// restarts it on the same data, and checks that every change answered
// 2xx, in any round so far, is there with its audit event; then publish
// serves again. On SQLite and on PostgreSQL.
func TestCrashSafety(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			t.Parallel()
			var env []string
			var cfg store.Config
			if db == "postgres" {
				cfg = storetest.PostgresConfig(t)
				env = append(env, "S2R_DATABASE_URL="+cfg.URL)
			}
			calc := startCalc(t)
			in := startInstance(t, "s2r-"+db, env...)
			if db == "sqlite" {
				cfg = store.Config{DataDir: in.dataDir}
			}
			w := &workload{t: t, acks: map[string][]ack{}}
			w.calc = onboardCalc(t, in.base, "calc", calc.url(), nil)
			w.async = onboardAsyncCalc(t, in.base, "calcasync", calc.url())
			w.token, w.gen = ingestToken(t, in.base), loadgen.New(loadgen.Config{Services: 1, PayloadBytes: 200})
			var scratch struct{ ProfileID string }
			mustAdmin(t, in.base, "POST", "/services/"+w.calc.ServiceID+"/backend-profiles", map[string]any{
				"name": "scratch", "endpointUrl": "http://127.0.0.1:9/scratch", "routingPriority": 50}, http.StatusCreated).decode(t, &scratch)
			w.scratch = scratch.ProfileID
			crashLoop(t, db, in, w, cfg)
		})
	}
}

func crashLoop(t *testing.T, db string, in *instance, w *workload, cfg store.Config) {
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("random seed %d", seed)
	soak, start := soakDuration(t), time.Now()
	next := map[string]*atomic.Int64{}
	for _, k := range writeKinds {
		next[k.name] = new(atomic.Int64)
	}
	var published atomic.Int64
	for round := 0; ; round++ {
		if (soak == 0 && round >= crashRounds) || (soak > 0 && time.Since(start) > soak) {
			break
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for _, k := range writeKinds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					n := int(next[k.name].Add(1))
					cid := fmt.Sprintf("%s-%s-%d", db, k.name, n)
					key, r := k.write(w, in.base, n, cid)
					switch {
					case r.ok():
						w.record(k.name, ack{key, cid})
					case r.err == nil && ctx.Err() == nil:
						t.Errorf("%s %d answered %s", k.name, n, r)
					default:
						time.Sleep(5 * time.Millisecond) // s2r is gone
					}
				}
			}()
		}
		pub := publishLoad(ctx, 2, w.calc, func() string { return in.base }, func(r reply, a, b int) {
			if r.ok() && !addOK(r, a, b) {
				t.Errorf("publish %d+%d answered %s", a, b, r)
			}
			if r.ok() {
				published.Add(1)
			}
		})
		time.Sleep(300*time.Millisecond + time.Duration(rng.IntN(1200))*time.Millisecond)
		in.kill()
		cancel()
		wg.Wait()
		pub.Wait()

		checkIntegrity(t, cfg, fmt.Sprintf("after kill %d", round+1))
		in.restart()
		for _, k := range writeKinds {
			acks := w.acked(k.name)
			keys := make([]string, len(acks))
			for i, a := range acks {
				keys[i] = a.key
			}
			if msg := k.verify(w, in.base, keys); msg != "" {
				t.Errorf("after kill %d: %s: %s", round+1, k.name, msg)
			}
			if k.audited {
				if msg := verifyAudit(in.base, acks); msg != "" {
					t.Errorf("after kill %d: %s: %s", round+1, k.name, msg)
				}
			}
		}
		poll.UntilOK(t, 5*time.Second, "publish after restart", func() string {
			if r := w.calc.add(in.base, 40, 2); !addOK(r, 40, 2) {
				return r.String()
			}
			return ""
		})
		if t.Failed() {
			return
		}
	}
	for _, k := range writeKinds {
		n := len(w.acked(k.name))
		t.Logf("%s: %d acknowledged, %d sent", k.name, n, next[k.name].Load())
		if n == 0 {
			t.Errorf("%s: no write acknowledged in any round", k.name)
		}
	}
	t.Logf("publish: %d answered 200", published.Load())
	in.kill()
	checkIntegrity(t, cfg, "at the end")
}

// checkIntegrity opens the database while no s2r runs on it and checks
// it (store.CheckIntegrity).
func checkIntegrity(t *testing.T, cfg store.Config, when string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("%s: open: %v", when, err)
	}
	defer st.Close()
	rep, err := st.CheckIntegrity(ctx, store.IntegrityOptions{InstallAmcheck: true})
	if err != nil {
		t.Fatalf("%s: integrity: %v", when, err)
	}
	if len(rep.Problems) > 0 {
		t.Errorf("%s: integrity problems: %v", when, rep.Problems)
	}
	for _, n := range rep.Notes {
		t.Logf("%s: %s", when, n)
	}
}
