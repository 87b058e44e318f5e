package api

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"sync"
	"time"
)

// fairSlots hands out the validation slots (Config.MaxConcurrent) so that
// one client cannot take them all (issue 22, N13: a client flooding heavy
// bodies got every slot, and 13.7% of other clients' requests were shed).
//
//   - A client holds at most share slots at once, however many requests it
//     sends: the other slots stay for everyone else.
//   - A client has at most tickets requests in the slot path at once
//     (reading the body, waiting, running). Past that it is answered 429 at
//     once, before its body is read, so that a flood costs neither memory
//     nor the CPU to read it.
//   - Clients that wait are served in turn, one slot each, round robin, so
//     that a client with many requests queued waits behind its own requests
//     and not in front of other clients'.
//   - A request with a large body (coolBody) that held its slot longer
//     than a scheduler time slice (longHold) makes its client wait
//     coolFactor times as long before its next slot, while other clients
//     are about: its heavy work then runs at most a ninth of the time. Such a request keeps a CPU in 10 ms slices (the YAML
//     parser has no place to yield), and every short request that lands
//     behind one waits out a slice: with one client's heavy bodies always
//     running, the other clients' p99 was twice that of a quiet run even
//     with one slot to the heavy client. A client alone is never held
//     back, nor is one with small bodies, however slow a busy machine
//     makes them: the body's size, not the time alone, says a request is
//     heavy.
//   - A request waits at most QueueWait (a client held back: its cooldown,
//     and then QueueWait). Past it, a client that holds its share is
//     answered 429 (its own requests are the queue it is in); any other
//     gets 503: every slot is busy with other clients' work.
//
// A client is its remote address (clientKey), never something it sends: a
// header or a bearer token could be made up per request to pose as many
// clients, and the one token a server accepts is shared by all of them.
type fairSlots struct {
	mu      sync.Mutex
	free    int
	share   int
	tickets int
	wait    time.Duration
	clients map[string]*fairClient
	ring    []*fairClient // clients with requests waiting, in turn
	next    int           // where in ring the next slot is offered first
	m       *metrics
	idle    *idleRelease
	clock   func() time.Time // time.Now; a test's own clock

	// cool holds, per client, when it may next be given a slot while
	// others are about; entries outlive the client's requests.
	cool      map[string]time.Time
	coolSwept int         // len(cool) after the last sweep of old entries
	wake      *time.Timer // offers slots again when a cooldown ends
	// The last two clients that asked for a ticket, and when: whether
	// others are about, without a table of every client seen.
	lastKey, prevKey string
	lastAt, prevAt   time.Time
}

// Held-back clients: see fairSlots.
const (
	longHold     = 10 * time.Millisecond
	coolBody     = 64 << 10 // real environment files are a few KiB
	coolFactor   = 8
	activeWindow = time.Second
)

type fairClient struct {
	key     string
	held    int // slots
	tickets int // requests in the slot path, held included
	waiters []*fairWaiter
}

type fairWaiter struct {
	ready   chan struct{} // closed when granted
	t       *ticket
	granted bool
}

func newFairSlots(cfg Config, m *metrics, idle *idleRelease) *fairSlots {
	return &fairSlots{
		free:    cfg.MaxConcurrent,
		share:   cfg.ClientShare,
		tickets: 2 * cfg.ClientShare,
		wait:    cfg.QueueWait,
		clients: map[string]*fairClient{},
		cool:    map[string]time.Time{},
		clock:   time.Now,
		m:       m,
		idle:    idle,
	}
}

// errOverloaded is answered when every validation slot stays busy with
// other clients' work.
var errOverloaded = newError(http.StatusServiceUnavailable, "overloaded", "too many validations in progress; retry shortly")

// clientBusy is answered to a client that already uses its share.
func (f *fairSlots) clientBusy() *Error {
	return newError(http.StatusTooManyRequests, "too_many_requests",
		"this client already has "+strconv.Itoa(f.share)+" validations running (its share of the server); retry shortly")
}

// A ticket is one request's place in the slot path, from before its body is
// read until its validation ends.
type ticket struct {
	f     *fairSlots
	c     *fairClient
	state ticketState
	since time.Time // when it got its slot
	size  int       // of the request's body
}

type ticketState int

const (
	ticketOut  ticketState = iota // reading its body or waiting
	ticketSlot                    // holding a slot
	ticketDone
)

// enter gives the request of client key a ticket, or a 429 when the client
// already has its tickets out.
func (f *fairSlots) enter(key string) (*ticket, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if now := f.clock(); key == f.lastKey {
		f.lastAt = now
	} else {
		f.prevKey, f.prevAt = f.lastKey, f.lastAt
		f.lastKey, f.lastAt = key, now
	}
	c := f.clients[key]
	if c == nil {
		c = &fairClient{key: key}
		f.clients[key] = c
	}
	if c.tickets >= f.tickets {
		f.m.throttled.Inc()
		return nil, f.clientBusy()
	}
	c.tickets++
	f.idle.begin()
	return &ticket{f: f, c: c}, nil
}

// leave gives the ticket back where it got no slot (the body could not be
// read, the request was refused). Once the ticket holds a slot only release
// gives it back, so that leave may be deferred for every way out.
func (t *ticket) leave() {
	f := t.f
	f.mu.Lock()
	if t.state != ticketOut {
		f.mu.Unlock()
		return
	}
	t.state = ticketDone
	f.dropLocked(t.c)
	f.mu.Unlock()
	f.idle.end()
}

// dropLocked takes one ticket from c and forgets c when it has none left.
func (f *fairSlots) dropLocked(c *fairClient) {
	c.tickets--
	if c.tickets == 0 {
		delete(f.clients, c.key)
	}
}

// acquire waits for a slot for t's request, whose body is size bytes. The
// returned release gives the slot and the ticket back; on an error the
// ticket is already given back.
func (t *ticket) acquire(ctx context.Context, size int) (release func(), err error) {
	f, c := t.f, t.c
	t.size = size
	release = func() { t.release() }
	f.mu.Lock()
	if f.free > 0 && c.held < f.share && f.heldBackLocked(c, f.clock()).IsZero() {
		// No other client is waiting for this slot: waiters are served the
		// moment a slot is free and their client may have it.
		f.takeLocked(t)
		f.mu.Unlock()
		return release, nil
	}
	w := &fairWaiter{ready: make(chan struct{}), t: t}
	c.waiters = append(c.waiters, w)
	if len(c.waiters) == 1 {
		f.ring = append(f.ring, c)
	}
	f.m.waiting.Inc()
	f.grantLocked() // arms the wake-up if c is held back
	f.mu.Unlock()

	timer := time.NewTimer(f.wait)
	defer timer.Stop()
	var waitErr error
	for {
		select {
		case <-w.ready:
			return release, nil
		case <-timer.C:
		case <-ctx.Done():
			waitErr = ctx.Err()
		}
		f.mu.Lock()
		if w.granted {
			// The slot came as the wait ended.
			f.mu.Unlock()
			if waitErr != nil {
				t.release()
				return nil, waitErr
			}
			return release, nil
		}
		now := f.clock()
		if until := f.heldBackLocked(c, now); waitErr == nil && !until.IsZero() && c.held < f.share {
			// A client held back waits its cooldown out (within its
			// deadline), then as long as any other request, rather than
			// be refused for work it did before.
			f.mu.Unlock()
			timer.Reset(until.Sub(now) + f.wait)
			continue
		}
		break
	}
	f.unqueueLocked(c, w)
	if waitErr == nil {
		if c.held >= f.share {
			waitErr = f.clientBusy()
			f.m.throttled.Inc()
		} else {
			waitErr = errOverloaded
			f.m.rejected.Inc()
		}
	}
	f.mu.Unlock()
	t.leave()
	return nil, waitErr
}

// release gives back the slot and the ticket; later calls do nothing.
func (t *ticket) release() {
	f := t.f
	f.mu.Lock()
	if t.state != ticketSlot {
		f.mu.Unlock()
		return
	}
	t.state = ticketDone
	t.c.held--
	f.free++
	f.m.inFlight.Dec()
	if now := f.clock(); t.size >= coolBody && now.Sub(t.since) > longHold {
		until := now.Add(coolFactor * now.Sub(t.since))
		if until.After(f.cool[t.c.key]) {
			f.cool[t.c.key] = until
		}
		if n := len(f.cool); n > 64 && n > 2*f.coolSwept {
			for k, u := range f.cool {
				if !u.After(now) {
					delete(f.cool, k)
				}
			}
			f.coolSwept = len(f.cool)
		}
	}
	f.dropLocked(t.c)
	f.grantLocked()
	f.mu.Unlock()
	f.idle.end()
}

func (f *fairSlots) takeLocked(t *ticket) {
	t.c.held++
	t.state = ticketSlot
	t.since = t.f.clock()
	f.free--
	f.m.inFlight.Inc()
}

// heldBackLocked returns until when c is held back (zero when it is not):
// a cooldown of its own that has not ended, while another client is about.
func (f *fairSlots) heldBackLocked(c *fairClient, now time.Time) time.Time {
	until, ok := f.cool[c.key]
	if !ok || !until.After(now) {
		return time.Time{}
	}
	if !f.othersAboutLocked(c.key, now) {
		return time.Time{}
	}
	return until
}

// othersAboutLocked says whether a client other than key has a request in
// the slot path or sent one within activeWindow.
func (f *fairSlots) othersAboutLocked(key string, now time.Time) bool {
	return len(f.clients) > 1 ||
		f.lastKey != key && now.Sub(f.lastAt) < activeWindow ||
		f.prevKey != key && f.prevKey != "" && now.Sub(f.prevAt) < activeWindow
}

// heavyAmongOthers says whether t's request has a large body (coolBody)
// while other clients are about: its pipeline call then sleeps at each
// yield from its start (yieldingContext), not only once it has run long.
func (t *ticket) heavyAmongOthers() bool {
	if t.size < coolBody {
		return false
	}
	f := t.f
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.othersAboutLocked(t.c.key, f.clock())
}

// grantLocked gives free slots to waiting clients in turn, one slot each,
// skipping clients that hold their share or are held back; when one of
// those could take a free slot once its cooldown ends, it arms the wake-up.
func (f *fairSlots) grantLocked() {
	now := f.clock()
	var wakeAt time.Time
	for f.free > 0 && len(f.ring) > 0 {
		granted := false
		for i := range len(f.ring) {
			at := (f.next + i) % len(f.ring)
			c := f.ring[at]
			if c.held >= f.share {
				continue
			}
			if until := f.heldBackLocked(c, now); !until.IsZero() {
				if wakeAt.IsZero() || until.Before(wakeAt) {
					wakeAt = until
				}
				continue
			}
			w := c.waiters[0]
			c.waiters = c.waiters[1:]
			w.granted = true
			close(w.ready)
			f.m.waiting.Dec()
			f.takeLocked(w.t)
			if len(c.waiters) == 0 {
				f.ring = slices.Delete(f.ring, at, at+1)
				f.next = at // the client after it moved into its place
			} else {
				f.next = at + 1
			}
			granted = true
			break
		}
		if !granted {
			break
		}
	}
	if !wakeAt.IsZero() && f.free > 0 {
		d := wakeAt.Sub(now)
		if f.wake == nil {
			f.wake = time.AfterFunc(d, func() {
				f.mu.Lock()
				f.grantLocked()
				f.mu.Unlock()
			})
		} else {
			f.wake.Reset(d)
		}
	}
}

// unqueueLocked removes w, which timed out or was cancelled, from c's queue.
func (f *fairSlots) unqueueLocked(c *fairClient, w *fairWaiter) {
	if i := slices.Index(c.waiters, w); i >= 0 {
		c.waiters = slices.Delete(c.waiters, i, i+1)
		f.m.waiting.Dec()
	}
	if len(c.waiters) > 0 {
		return
	}
	if i := slices.Index(f.ring, c); i >= 0 {
		f.ring = slices.Delete(f.ring, i, i+1)
		if f.next > i {
			f.next--
		}
	}
}

// clientKey names the client of r for the slots: its remote IP address,
// or for IPv6 its /64, which one host commonly holds whole and could
// otherwise spread its requests over. X-Forwarded-For and the like are not
// read: any client can send them.
func clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	a = a.Unmap().WithZone("")
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}
