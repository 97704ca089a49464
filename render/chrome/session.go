package chrome

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// A Session is a DevTools session on one more target of the browser: a frame of another site
// (Chromium runs it in a process and a target of its own), a window a page opened. It
// satisfies cdp.Session, so cdp.Call and cdp.Events run on it. It keeps nothing of the
// target: its messages travel inside the messages of the tab the caller already has
// (Target.attachToTarget without flatten, Target.sendMessageToTarget, and the tab's
// Target.receivedMessageFromTarget events), so the tab's one goroutine reads them.
//
// chromedp.NewContext(tab, chromedp.WithTargetID(id)) is not the way to such a target:
// chromedp (v0.23.0) then starts the goroutine that applies the target's DOM events to its
// model of the DOM, and writes that model itself, from the goroutine that attaches
// (Context.newTarget's documentUpdated against Target.run's domEvent): a data race, which
// can also stop the program (a map read and written at once).
type Session struct {
	via  cdp.Session
	id   target.SessionID
	next atomic.Int64
	// done closes when the session ends: detached, by Close or by the target.
	done      chan struct{}
	closeOnce sync.Once
	stop      func()

	mu      sync.Mutex
	replies map[int64]chan *cdproto.Message
	subs    map[string][]*subscription
}

// Attach attaches a session to the target id through the tab of ctx, a chromedp context
// whose tab runs (the browser itself when it has none). The session ends with Close, or
// when the target closes, or the tab does.
func Attach(ctx context.Context, id target.ID) (*Session, error) {
	c := chromedp.FromContext(ctx)
	if c == nil || c.Browser == nil {
		return nil, chromedp.ErrInvalidContext
	}
	var via cdp.Session = c.Browser
	if c.Target != nil {
		via = c.Target
	}
	s := &Session{via: via, done: make(chan struct{}), replies: map[int64]chan *cdproto.Message{}, subs: map[string][]*subscription{}}
	// Listen before attaching: the target can speak at once.
	msgs, stopMsgs := via.Subscribe(target.ReceivedMessageFromTarget.Method)
	detached, stopDetached := via.Subscribe(target.DetachedFromTarget.Method)
	s.stop = func() { stopMsgs(); stopDetached() }
	res, err := cdp.Call(ctx, via, target.AttachToTarget, target.AttachToTargetParams{TargetID: id, Flatten: new(bool)})
	if err != nil {
		s.stop()
		return nil, fmt.Errorf("attach to target %s: %w", id, err)
	}
	s.id = res.SessionID
	go s.read(msgs, detached)
	return s, nil
}

// read hands the session's messages to the calls and subscriptions waiting for them, until
// the session ends.
func (s *Session) read(msgs, detached <-chan jsonv2.Value) {
	defer s.end()
	for {
		select {
		case <-s.done:
			return
		case v, ok := <-detached:
			if !ok {
				return
			}
			var ev target.EventDetachedFromTarget
			if jsonv2.Unmarshal(v, &ev, chromedp.DefaultUnmarshalOptions) == nil && ev.SessionID == s.id {
				return
			}
		case v, ok := <-msgs:
			if !ok {
				return
			}
			var ev target.EventReceivedMessageFromTarget
			if jsonv2.Unmarshal(v, &ev, chromedp.DefaultUnmarshalOptions) != nil || ev.SessionID != s.id {
				continue
			}
			msg := new(cdproto.Message)
			if jsonv2.Unmarshal([]byte(ev.Message), msg, chromedp.DefaultUnmarshalOptions) != nil {
				continue
			}
			s.mu.Lock()
			if msg.ID != 0 {
				if ch := s.replies[msg.ID]; ch != nil {
					ch <- msg // buffered, and sent once
					delete(s.replies, msg.ID)
				}
			} else {
				for _, sub := range s.subs[string(msg.Method)] {
					sub.push(msg.Params)
				}
			}
			s.mu.Unlock()
		}
	}
}

// end ends the session: calls waiting for a reply return, subscriptions close after the
// events they hold.
func (s *Session) end() {
	s.closeOnce.Do(func() {
		s.stop()
		s.mu.Lock()
		close(s.done)
		for _, subs := range s.subs {
			for _, sub := range subs {
				sub.finish()
			}
		}
		s.subs = nil
		s.mu.Unlock()
	})
}

// Close detaches the session (the target stays open) and ends it.
func (s *Session) Close(ctx context.Context) error {
	select {
	case <-s.done:
		return nil
	default:
	}
	_, err := cdp.Call(ctx, s.via, target.DetachFromTarget, target.DetachFromTargetParams{SessionID: s.id})
	s.end()
	return err
}

// Call sends the command to the target and decodes its result into res. It satisfies
// cdp.Session.
func (s *Session) Call(ctx context.Context, method string, params, res any) error {
	id := s.next.Add(1)
	ch := make(chan *cdproto.Message, 1)
	s.mu.Lock()
	select {
	case <-s.done:
		s.mu.Unlock()
		return s.detachedError()
	default:
	}
	s.replies[id] = ch
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.replies, id)
		s.mu.Unlock()
	}()

	cmd := &cdproto.Message{ID: id, Method: cdproto.MethodType(method)}
	if params != nil {
		buf, err := jsonv2.Marshal(params, chromedp.DefaultMarshalOptions)
		if err != nil {
			return err
		}
		cmd.Params = buf
	}
	buf, err := jsonv2.Marshal(cmd, chromedp.DefaultMarshalOptions)
	if err != nil {
		return err
	}
	if err := s.via.Call(ctx, "Target.sendMessageToTarget", sendParams{Message: string(buf), SessionID: s.id}, nil); err != nil {
		return fmt.Errorf("%s on target session %s: %w", method, s.id, err)
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-s.done:
		return s.detachedError()
	case msg := <-ch:
		if msg.Error != nil {
			return msg.Error
		}
		if res != nil {
			return jsonv2.Unmarshal(msg.Result, res, chromedp.DefaultUnmarshalOptions)
		}
		return nil
	}
}

// sendParams are the parameters of Target.sendMessageToTarget, which cdproto no longer
// generates (the protocol calls it deprecated, as it calls the sessions it serves; Chromium
// serves both).
type sendParams struct {
	Message   string           `json:"message"`
	SessionID target.SessionID `json:"sessionId"`
}

func (s *Session) detachedError() error {
	return fmt.Errorf("target session %s: %w", s.id, chromedp.ErrTargetDetached)
}

// Subscribe starts to buffer the target's events with the method and returns the channel
// they arrive on, which closes when the session ends, after the events it holds. It
// satisfies cdp.Session.
func (s *Session) Subscribe(method string) (<-chan jsonv2.Value, func()) {
	sub := &subscription{out: make(chan jsonv2.Value), wake: make(chan struct{}, 1), stopped: make(chan struct{})}
	s.mu.Lock()
	if s.subs == nil {
		sub.finish()
	} else {
		s.subs[method] = append(s.subs[method], sub)
	}
	s.mu.Unlock()
	go sub.pump()
	return sub.out, func() {
		s.mu.Lock()
		if s.subs != nil {
			list := s.subs[method]
			for i, x := range list {
				if x == sub {
					s.subs[method] = append(list[:i:i], list[i+1:]...)
					break
				}
			}
		}
		s.mu.Unlock()
		sub.stopOnce.Do(func() { close(sub.stopped) })
	}
}

// subscription queues the events of one Subscribe without a bound, so that the session's
// reader never waits for a subscriber.
type subscription struct {
	out      chan jsonv2.Value
	wake     chan struct{}
	stopped  chan struct{}
	stopOnce sync.Once

	mu       sync.Mutex
	queue    []jsonv2.Value
	finished bool
}

func (s *subscription) push(v jsonv2.Value) {
	s.mu.Lock()
	s.queue = append(s.queue, v)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *subscription) finish() {
	s.mu.Lock()
	s.finished = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// pump sends the queued events on out until the subscription is stopped, or finished and
// empty.
func (s *subscription) pump() {
	defer close(s.out)
	for {
		s.mu.Lock()
		queue, finished := s.queue, s.finished
		s.queue = nil
		s.mu.Unlock()
		for _, v := range queue {
			select {
			case s.out <- v:
			case <-s.stopped:
				return
			}
		}
		if len(queue) > 0 {
			continue
		}
		if finished {
			return
		}
		select {
		case <-s.wake:
		case <-s.stopped:
			return
		}
	}
}
