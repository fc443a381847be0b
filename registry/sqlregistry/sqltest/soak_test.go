package sqltest

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/registry/registryhttp"
	"github.com/agentio/agentio/registry/sqlregistry"
)

var soakIncrements = flag.Int("soak.increments", 5, "increments each of TestSoakRegistryHTTP's 64 workers makes")

// TestSoakRegistryHTTP runs the registry over HTTP (registryhttp on
// SQLite) under 64 concurrent workers that read an entry and write it back
// changed, each write conditional on the version read (If-Match), retried
// on 412: every increment made must be in the entries at the end (no lost
// update), and the conflicts, the writes and the latencies are logged.
// Eight entries share the workers, so writes both conflict and proceed.
// -soak.increments sets each worker's count (5 by default, seconds).
func TestSoakRegistryHTTP(t *testing.T) {
	const workers, keys = 64, 8
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "soak.db")+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	reg, err := sqlregistry.New(db, nil)
	require.NoError(t, err)
	require.NoError(t, reg.Migrate(context.Background()))
	srv := httptest.NewServer(registryhttp.New(reg, nil))
	t.Cleanup(srv.Close)
	client := srv.Client()

	type entry struct {
		Description string          `json:"description"`
		Schema      json.RawMessage `json:"schema"`
	}
	put := func(name string, e entry, ifMatch string) (*http.Response, error) {
		body, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequest(http.MethodPut, srv.URL+"/schemas/"+name, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		if ifMatch != "" {
			req.Header.Set("If-Match", ifMatch)
		}
		return client.Do(req)
	}
	get := func(name string) (entry, string, error) {
		resp, err := client.Get(srv.URL + "/schemas/" + name)
		if err != nil {
			return entry{}, "", err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return entry{}, "", fmt.Errorf("GET %s: %s", name, resp.Status)
		}
		var e entry
		err = json.NewDecoder(resp.Body).Decode(&e)
		return e, resp.Header.Get("ETag"), err
	}
	for k := range keys {
		resp, err := put(fmt.Sprintf("counter-%d", k), entry{Description: "0", Schema: json.RawMessage(`{"type":"object"}`)}, "")
		require.NoError(t, err)
		resp.Body.Close()
		require.Less(t, resp.StatusCode, 300)
	}

	var (
		mu                    sync.Mutex
		reads, writes         []time.Duration
		conflicts, successful atomic.Int64
		errs                  = make(chan error, workers)
	)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			name := fmt.Sprintf("counter-%d", w%keys)
			for done := 0; done < *soakIncrements; {
				t0 := time.Now()
				e, tag, err := get(name)
				t1 := time.Now()
				if err != nil {
					errs <- err
					return
				}
				n, err := strconv.Atoi(e.Description)
				if err != nil {
					errs <- err
					return
				}
				e.Description = strconv.Itoa(n + 1)
				resp, err := put(name, e, tag)
				t2 := time.Now()
				if err != nil {
					errs <- err
					return
				}
				resp.Body.Close()
				mu.Lock()
				reads, writes = append(reads, t1.Sub(t0)), append(writes, t2.Sub(t1))
				mu.Unlock()
				switch resp.StatusCode {
				case http.StatusOK, http.StatusCreated:
					successful.Add(1)
					done++
				case http.StatusPreconditionFailed:
					conflicts.Add(1) // another worker wrote first: read again
				default:
					errs <- fmt.Errorf("PUT %s: %s", name, resp.Status)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}

	total := 0
	for k := range keys {
		e, _, err := get(fmt.Sprintf("counter-%d", k))
		require.NoError(t, err)
		n, err := strconv.Atoi(e.Description)
		require.NoError(t, err)
		total += n
	}
	want := workers * *soakIncrements
	assert.Equal(t, int64(want), successful.Load())
	assert.Equal(t, want, total, "every increment written is in the entries: no lost update")
	t.Logf("registry over HTTP on SQLite, %d workers on %d entries, %s: %d writes, %d conflicts (412, read again), lost updates %d",
		workers, keys, elapsed.Round(time.Millisecond), successful.Load(), conflicts.Load(), want-total)
	t.Logf("GET p50 %v p99 %v; conditional PUT p50 %v p99 %v; %.0f requests/s",
		percentile(reads, 50), percentile(reads, 99), percentile(writes, 50), percentile(writes, 99),
		float64(len(reads)+len(writes))/elapsed.Seconds())
}

// percentile returns the p-th percentile of ds (nearest rank).
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (p*len(s)+99)/100 - 1
	return s[max(0, min(i, len(s)-1))].Round(time.Microsecond)
}
