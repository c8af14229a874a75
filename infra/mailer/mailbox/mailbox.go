// Package mailbox is the local run's mailbox (SPEC §2): instead of sending
// mail it keeps every message in a bbolt file, prints its links to the
// console and shows the mails, links working, on a few small pages under
// /mailbox.
package mailbox

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/pbmgames/pbm/infra/mailer"
)

var bucketMails = []byte("mails")

// ErrNotFound is returned by Get for a number no mail has.
var ErrNotFound = errors.New("mailbox: no such mail")

// Mail is a stored message with its number and the time it was sent.
type Mail struct {
	N  uint64    // 1, 2, …; never reused, not even after Clear
	At time.Time // when Send stored it
	mailer.Message
}

// Mailbox keeps sent mail in one bbolt file. It is safe for concurrent use.
type Mailbox struct {
	db  *bolt.DB
	mu  sync.Mutex // serialises writes to out
	out io.Writer
	now func() time.Time
}

var _ mailer.Sender = (*Mailbox)(nil)

// Open opens (creating it if need be) the mailbox in the file at path.
// Send prints the links of each mail to out (nil: nowhere). Only one
// process may have the file open; another waits a few seconds and fails.
func Open(path string, out io.Writer) (*Mailbox, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("mailbox: open %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bucketMails)
		return err
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("mailbox: open %s: %w", path, err)
	}
	if out == nil {
		out = io.Discard
	}
	return &Mailbox{db: db, out: out, now: time.Now}, nil
}

// Close closes the file.
func (b *Mailbox) Close() error { return b.db.Close() }

// Send stores m under the next number and prints a line for it and one for
// each link in its text part.
func (b *Mailbox) Send(_ context.Context, m mailer.Message) error {
	mail := Mail{At: b.now().UTC(), Message: m}
	err := b.db.Update(func(tx *bolt.Tx) error {
		bk := tx.Bucket(bucketMails)
		n, err := bk.NextSequence()
		if err != nil {
			return err
		}
		mail.N = n
		v, err := json.Marshal(mail)
		if err != nil {
			return err
		}
		return bk.Put(key(n), v)
	})
	if err != nil {
		return fmt.Errorf("mailbox: store mail %s: %w", m.ID, err)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "mail to %s: %s\n", oneLine(m.To), oneLine(m.Subject))
	for _, l := range Links(m.Text) {
		fmt.Fprintf(&sb, "  %s\n", l)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	_, err = io.WriteString(b.out, sb.String())
	return err
}

// Get returns mail number n, or ErrNotFound.
func (b *Mailbox) Get(n uint64) (Mail, error) {
	var mail Mail
	err := b.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketMails).Get(key(n))
		if v == nil {
			return ErrNotFound
		}
		return json.Unmarshal(v, &mail)
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		err = fmt.Errorf("mailbox: read mail %d: %w", n, err)
	}
	return mail, err
}

// List returns the mails, newest first: all of them, or those to the
// address to (compared without regard to case) if it is not empty; at most
// limit of them if limit > 0.
func (b *Mailbox) List(to string, limit int) ([]Mail, error) {
	to = strings.TrimSpace(to)
	var out []Mail
	err := b.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketMails).Cursor()
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			var m Mail
			if err := json.Unmarshal(v, &m); err != nil {
				return fmt.Errorf("mail %d: %w", binary.BigEndian.Uint64(k), err)
			}
			if to != "" && !strings.EqualFold(strings.TrimSpace(m.To), to) {
				continue
			}
			out = append(out, m)
			if limit > 0 && len(out) == limit {
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("mailbox: list: %w", err)
	}
	return out, nil
}

// Clear deletes every mail. Numbers go on from where they were, so an old
// page's address never shows a different mail.
func (b *Mailbox) Clear() error {
	err := b.db.Update(func(tx *bolt.Tx) error {
		seq := tx.Bucket(bucketMails).Sequence()
		if err := tx.DeleteBucket(bucketMails); err != nil {
			return err
		}
		bk, err := tx.CreateBucket(bucketMails)
		if err != nil {
			return err
		}
		return bk.SetSequence(seq)
	})
	if err != nil {
		return fmt.Errorf("mailbox: clear: %w", err)
	}
	return nil
}

func key(n uint64) []byte {
	return binary.BigEndian.AppendUint64(nil, n)
}

// linkRE finds web links in plain text.
var linkRE = regexp.MustCompile(`https?://[^\s<>"]+`)

// Links returns the web links in a mail's text part, in order, without the
// punctuation that ends a sentence after them.
func Links(text string) []string {
	var out []string
	for _, l := range linkRE.FindAllString(text, -1) {
		if l = trimLink(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func trimLink(l string) string {
	return strings.TrimRight(l, ".,;:!?)]}»'")
}

// oneLine keeps a header on one console line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}
