package api

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fairFor is a fairSlots of n slots and the given share, with a wait long
// enough never to end in a test, and its own idle tracker.
func fairFor(n, share int) *fairSlots {
	return newFairSlots(Config{MaxConcurrent: n, ClientShare: share, QueueWait: time.Hour}, newMetrics(), &idleRelease{after: time.Hour, free: func() {}})
}

// waiting returns how many requests of key wait for a slot.
func (f *fairSlots) waiting(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c := f.clients[key]; c != nil {
		return len(c.waiters)
	}
	return 0
}

// TestFairSlotsTakeTurns: a freed slot goes to the next waiting client in
// turn that is under its share, never to a client that holds its share,
// however many requests that client has queued and however long before the
// others it queued them.
func TestFairSlotsTakeTurns(t *testing.T) {
	f := fairFor(4, 2)
	hold := func(key string) func() {
		t.Helper()
		tk, err := f.enter(key)
		if err != nil {
			t.Fatal(err)
		}
		release, err := tk.acquire(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		return release
	}
	a1, a2 := hold("a"), hold("a")
	b1, b2 := hold("b"), hold("b")
	// Every slot is taken. a queues two more, then c and d one each.
	got := make(chan string, 8)
	// done counts the queued requests that have ended, their slot given
	// back: each says its key before it releases, so the final state is
	// read only once every release has run.
	var done sync.WaitGroup
	queue := func(key string) {
		tk, err := f.enter(key)
		if err != nil {
			t.Fatal(err)
		}
		n := f.waiting(key)
		done.Add(1)
		go func() {
			defer done.Done()
			release, err := tk.acquire(context.Background(), 0)
			if err != nil {
				got <- key + ": " + err.Error()
				return
			}
			got <- key
			release()
		}()
		for f.waiting(key) == n {
			time.Sleep(time.Millisecond) // until it is queued, so that the order is known
		}
	}
	queue("a")
	queue("a")
	queue("c")
	queue("d")
	// b's slots go to c and d, in the order they came: a holds its share.
	b1()
	if g := <-got; g != "c" {
		t.Fatalf("b's first slot went to %q, want c", g)
	}
	b2()
	// c's slot came back as it ended; the two free slots went to d and
	// none to a.
	if g := <-got; g != "d" {
		t.Fatalf("b's second slot went to %q, want d", g)
	}
	if n := f.waiting("a"); n != 2 {
		t.Fatalf("a: %d waiting, want 2 (it holds its share)", n)
	}
	a1()
	a2()
	for range 2 {
		if g := <-got; g != "a" {
			t.Fatalf("a's own slots went to %q", g)
		}
	}
	done.Wait()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.free != 4 || len(f.clients) != 0 || len(f.ring) != 0 {
		t.Errorf("after every request: %d free, %d clients, %d in turn", f.free, len(f.clients), len(f.ring))
	}
}

// TestFairSlotsTickets: a client has at most twice its share of requests in
// progress; past that it is refused at once with 429, and other clients are
// not.
func TestFairSlotsTickets(t *testing.T) {
	f := fairFor(4, 1)
	var tickets []*ticket
	for range 2 {
		tk, err := f.enter("a")
		if err != nil {
			t.Fatal(err)
		}
		tickets = append(tickets, tk)
	}
	_, err := f.enter("a")
	var e *Error
	if !errors.As(err, &e) || e.Status != 429 {
		t.Fatalf("a's third ticket: %v, want 429", err)
	}
	if tk, err := f.enter("b"); err != nil {
		t.Fatalf("b: %v", err)
	} else {
		tk.leave()
	}
	tickets[0].leave()
	tickets[0].leave() // a second leave gives nothing back twice
	if _, err := f.enter("a"); err != nil {
		t.Fatalf("a after giving one back: %v", err)
	}
	if _, err := f.enter("a"); err == nil {
		t.Fatal("a double leave gave a ticket back twice")
	}
}

// TestFairSlotsWaitEnds: a wait that times out is a 429 for a client that
// holds its share and a 503 for one that does not; a cancelled wait gives
// its ticket back.
func TestFairSlotsWaitEnds(t *testing.T) {
	f := newFairSlots(Config{MaxConcurrent: 2, ClientShare: 1, QueueWait: 10 * time.Millisecond}, newMetrics(), &idleRelease{after: time.Hour, free: func() {}})
	take := func(key string) (func(), error) {
		tk, err := f.enter(key)
		if err != nil {
			return nil, err
		}
		return tk.acquire(context.Background(), 0)
	}
	ra, _ := take("a")
	rb, _ := take("b")
	var e *Error
	if _, err := take("a"); !errors.As(err, &e) || e.Status != 429 {
		t.Errorf("a, holding its share: %v, want 429", err)
	}
	if _, err := take("c"); !errors.As(err, &e) || e.Status != 503 {
		t.Errorf("c, holding nothing: %v, want 503", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tk, _ := f.enter("c")
	if _, err := tk.acquire(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	ra()
	rb()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.free != 2 || len(f.clients) != 0 || len(f.ring) != 0 {
		t.Errorf("after every request: %d free, %d clients, %d in turn", f.free, len(f.clients), len(f.ring))
	}
}

// TestFairUnderFlood (issue 22, N13): one client sends 32 requests at once
// that hold their slots until released; it gets its share of the slots,
// twice that in progress, and 429 for the rest, and four other clients,
// with two requests each at once, are all served (200, never 503 nor 429)
// while the flood holds its slots. Statuses are counted; nothing is timed.
func TestFairUnderFlood(t *testing.T) {
	hold := make(chan struct{})
	held := make(chan struct{}, 64)
	v := ValidatorFuncs{ValidateFunc: func(ctx context.Context, req ValidateRequest) ([]byte, error) {
		if bytes.Contains(req.Body, []byte("flood")) {
			held <- struct{}{}
			<-hold
		}
		return (&fakeValidator{}).Validate(ctx, req)
	}}
	// A wait of a minute: a 503 could only come from a slot that is never
	// offered, not from a slow machine.
	ts := newTestServerWith(t, Deps{Validator: v}, Config{MaxConcurrent: 4, ClientShare: 2, QueueWait: time.Minute, RequestTimeout: 5 * time.Minute})
	flooder := ts.from("127.0.0.2")
	var mu sync.Mutex
	floodStatus := map[int]int{}
	var flood sync.WaitGroup
	for range 32 {
		flood.Add(1)
		go func() {
			defer flood.Done()
			resp, _ := flooder.do("POST", "/v1/validate", "application/yaml", []byte("name: flood\n"))
			mu.Lock()
			floodStatus[resp.StatusCode]++
			mu.Unlock()
		}()
	}
	<-held
	<-held
	// Two run; two more wait behind them; the other 28 are refused.
	for {
		mu.Lock()
		n := floodStatus[429]
		mu.Unlock()
		if n == 28 {
			break
		}
		if n > 28 {
			t.Fatalf("%d of the flood refused, want 28", n)
		}
		time.Sleep(time.Millisecond)
	}
	var honest sync.WaitGroup
	honestStatus := map[int]int{}
	for c := range 4 {
		client := ts.from(fmt.Sprintf("127.0.1.%d", c+1))
		for range 2 {
			honest.Add(1)
			go func() {
				defer honest.Done()
				for i := range 10 {
					resp, b := client.do("POST", "/v1/validate", "application/yaml", []byte(fmt.Sprintf("name: honest-%d\n", i)))
					mu.Lock()
					honestStatus[resp.StatusCode]++
					mu.Unlock()
					if resp.StatusCode != 200 {
						t.Errorf("honest client %d: %d %s", c, resp.StatusCode, b)
					}
				}
			}()
		}
	}
	honest.Wait()
	if len(held) != 0 {
		t.Errorf("%d more of the flood ran while its share was held", len(held))
	}
	close(hold)
	flood.Wait()
	if honestStatus[200] != 80 || floodStatus[200] != 4 || floodStatus[429] != 28 {
		t.Errorf("honest %v, flood %v; want 80 × 200, and 4 × 200 + 28 × 429", honestStatus, floodStatus)
	}
	_, m := ts.do("GET", "/metrics", "", nil)
	for _, want := range []string{"envguard_http_throttled_total 28", "envguard_http_rejected_total 0", "envguard_validations_in_flight 0"} {
		if !strings.Contains(string(m), want) {
			t.Errorf("metrics lack %q:\n%s", want, grepLines(m, "envguard_"))
		}
	}
}

// A client out of tickets is refused before its body is read: this one
// never sends the body it announces, and gets 429, not 408.
func TestFairRefusesBeforeBody(t *testing.T) {
	hold := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(hold)
	entered := make(chan struct{}, 4)
	v := ValidatorFuncs{ValidateFunc: func(ctx context.Context, req ValidateRequest) ([]byte, error) {
		entered <- struct{}{}
		<-hold
		return (&fakeValidator{}).Validate(ctx, req)
	}}
	ts := newTestServerWith(t, Deps{Validator: v}, Config{MaxConcurrent: 2, ClientShare: 1, QueueWait: time.Minute, BodyTimeout: time.Minute, RequestTimeout: 5 * time.Minute})
	client := ts.from("127.0.0.2")
	for range 2 { // its share, and one waiting
		wg.Add(1)
		go func() {
			defer wg.Done()
			client.do("POST", "/v1/validate", "application/yaml", []byte("name: x\n"))
		}()
	}
	<-entered
	// Its two tickets are out once the second waits.
	for ts.metricLine("envguard_validations_waiting") != "envguard_validations_waiting 1" {
		time.Sleep(time.Millisecond)
	}
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	c, err := d.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/yaml\r\nContent-Length: 1000\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("a client out of tickets: %d, Retry-After %q; want 429 before its body", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}

func TestClientKey(t *testing.T) {
	for _, tt := range []struct {
		remote, xff, want string
	}{
		{"192.0.2.7:1234", "", "192.0.2.7"},
		{"192.0.2.7:1234", "198.51.100.1", "192.0.2.7"}, // X-Forwarded-For is anyone's to send
		{"[::ffff:192.0.2.7]:1234", "", "192.0.2.7"},
		{"[2001:db8:1:2:3:4:5:6]:1234", "", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff::1]:99", "", "2001:db8:1:2::/64"},
		{"[fe80::1%eth0]:80", "", "fe80::/64"},
		{"not an address", "", "not an address"},
	} {
		r, _ := http.NewRequest("GET", "/", nil)
		r.RemoteAddr = tt.remote
		if tt.xff != "" {
			r.Header.Set("X-Forwarded-For", tt.xff)
		}
		r.Header.Set("Authorization", "Bearer made-up-per-request")
		if got := clientKey(r); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.remote, got, tt.want)
		}
	}
}

// TestClientShareDefault: a quarter of the slots, at least one, at most all.
func TestClientShareDefault(t *testing.T) {
	for _, tt := range []struct{ slots, share, want int }{
		{1, 0, 1}, {4, 0, 1}, {5, 0, 2}, {8, 0, 2}, {32, 0, 8}, {4, 4, 4}, {4, 9, 4},
	} {
		if got := (Config{MaxConcurrent: tt.slots, ClientShare: tt.share}).withDefaults().ClientShare; got != tt.want {
			t.Errorf("%d slots, share %d: %d, want %d", tt.slots, tt.share, got, tt.want)
		}
	}
}

// TestFairSlotsHoldBackHeavy: a client whose large-bodied request held its
// slot past a scheduler slice waits coolFactor times as long before its
// next slot while another client is about, and is not held back when it is
// alone or when its bodies are small. The clock is the test's.
func TestFairSlotsHoldBackHeavy(t *testing.T) {
	var clock atomic.Int64 // the wake-up timers read it from their own goroutines
	clock.Store(time.Unix(1_000_000, 0).UnixNano())
	advance := func(d time.Duration) { clock.Add(int64(d)) }
	setup := func() *fairSlots {
		f := fairFor(4, 2)
		f.clock = func() time.Time { return time.Unix(0, clock.Load()) }
		return f
	}
	run := func(f *fairSlots, key string, size int, hold time.Duration) {
		t.Helper()
		tk, err := f.enter(key)
		if err != nil {
			t.Fatal(err)
		}
		release, err := tk.acquire(context.Background(), size)
		if err != nil {
			t.Fatal(err)
		}
		advance(hold)
		release()
	}
	granted := func(f *fairSlots, key string) (bool, func()) {
		t.Helper()
		tk, err := f.enter(key)
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan func(), 1)
		go func() {
			release, err := tk.acquire(context.Background(), 0)
			if err != nil {
				t.Error(err)
				release = func() {}
			}
			got <- release
		}()
		for f.waiting(key) == 0 {
			select {
			case r := <-got:
				return true, r
			default:
				time.Sleep(time.Millisecond)
			}
		}
		// Queued: let the test's clock pass the cooldown and offer again.
		advance(time.Hour)
		f.mu.Lock()
		f.grantLocked()
		f.mu.Unlock()
		return false, <-got
	}

	// Heavy, with another client about: held back.
	f := setup()
	run(f, "a", coolBody, 20*time.Millisecond)
	if ok, r := granted(f, "b"); !ok {
		t.Fatal("b, which did nothing heavy, waited")
	} else {
		defer r()
	}
	if ok, r := granted(f, "a"); ok {
		t.Error("a was given a slot within its cooldown while b was about")
	} else {
		r()
	}

	// Heavy, but alone: not held back.
	f = setup()
	run(f, "a", coolBody, 20*time.Millisecond)
	if ok, r := granted(f, "a"); !ok {
		t.Error("a, alone, was held back")
	} else {
		r()
	}

	// Slow but small (a busy machine), or large but quick: not held back.
	for _, tt := range []struct {
		size int
		hold time.Duration
	}{{coolBody - 1, time.Second}, {1 << 20, longHold / 2}} {
		f = setup()
		run(f, "a", tt.size, tt.hold)
		_, rb := granted(f, "b")
		if ok, r := granted(f, "a"); !ok {
			t.Errorf("a body of %d bytes that held its slot %v held its client back", tt.size, tt.hold)
		} else {
			r()
		}
		rb()
	}
}

// TestHeavyAmongOthers: a request's pipeline call sleeps at its yields
// from its start only when its body is large and another client is about;
// a small body, or a large one from a client alone, never does. The clock
// is the test's.
func TestHeavyAmongOthers(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	for _, tt := range []struct {
		name   string
		size   int
		others []string      // other clients that sent a request
		ago    time.Duration // how long before this one they sent it
		want   bool
	}{
		{"large, another client just now", coolBody, []string{"b"}, 0, true},
		{"large, another client within the window", 1 << 20, []string{"b"}, activeWindow / 2, true},
		{"large, alone", 1 << 20, nil, 0, false},
		{"large, another client long ago", 1 << 20, []string{"b"}, 2 * activeWindow, false},
		{"small, another client just now", coolBody - 1, []string{"b"}, 0, false},
	} {
		f := fairFor(4, 2)
		clock := now.Add(-tt.ago)
		f.clock = func() time.Time { return clock }
		for _, k := range tt.others {
			tk, err := f.enter(k)
			if err != nil {
				t.Fatal(err)
			}
			tk.leave()
		}
		clock = now
		tk, err := f.enter("a")
		if err != nil {
			t.Fatal(err)
		}
		release, err := tk.acquire(context.Background(), tt.size)
		if err != nil {
			t.Fatal(err)
		}
		if got := tk.heavyAmongOthers(); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
		release()
	}
}
