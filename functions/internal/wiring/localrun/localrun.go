// Package localrun plugs the local run's parts into the wiring: an
// embedded store (bbolt), a link-signing key kept in a file, and a mailbox
// instead of SES. It is apart from package wiring so that the Lambda
// functions do not link the mailbox (its pages are parsed at start).
package localrun

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/wiring"
	"github.com/pbmgames/pbm/functions/internal/wiring/web"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/mailer/mailbox"
	"github.com/pbmgames/pbm/infra/store/boltstore"
)

// Config is what the local run is configured with.
type Config struct {
	// Games are the games served: the catalog's when nil.
	Games *present.Games
	// Dir holds the games (games.db), the link-signing key
	// (link-keys.json) and the mailbox (mailbox.db); made if missing.
	Dir string
	// BaseURL is where the service is reached: the links in mail.
	BaseURL string
	Log     *slog.Logger
	// MailOut gets a line for each mail and its links (nil: nowhere).
	MailOut io.Writer
	// Now and Rand as in wiring.Parts.
	Now  func() time.Time
	Rand io.Reader
	// Limits bound what one person or client can make the service do
	// (zero fields: service.DefaultLimits).
	Limits service.Limits
}

// MailboxPath is where the local run serves its mailbox.
const MailboxPath = "/mailbox"

// New wires the local run: the same service and notifier as in AWS, on
// an embedded store kept in c.Dir, with a mailbox instead of SES that
// gets each mail right after the commit that decided it and shows it at
// MailboxPath. Close the App to close the files.
func New(c Config) (*App, error) {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("data folder: %w", err)
	}
	keys, err := linksign.EnsureKeyFile(filepath.Join(c.Dir, "link-keys.json"))
	if err != nil {
		return nil, fmt.Errorf("link keys: %w", err)
	}
	st, err := boltstore.Open(filepath.Join(c.Dir, "games.db"))
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	mbox, err := mailbox.Open(filepath.Join(c.Dir, "mailbox.db"), c.MailOut)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("open mailbox: %w", err), st.Close())
	}
	return &App{App: wiring.New(wiring.Parts{
		Games:   c.Games,
		Log:     c.Log,
		Store:   st,
		Keys:    keys,
		BaseURL: c.BaseURL,
		Mail:    wiring.NewMail(mbox, nil, true),
		Extra: func(mux *http.ServeMux) {
			h := mbox.Handler()
			mux.Handle(MailboxPath, h)
			mux.Handle(MailboxPath+"/", h)
		},
		MailboxURL: MailboxPath,
		Now:        c.Now,
		Rand:       c.Rand,
		Limits:     c.Limits,
		Closers:    []io.Closer{st, mbox},
	}), Mailbox: mbox}, nil
}

// App is the local run's deployment: the wired service and notifier,
// served over HTTP with the mailbox.
type App struct {
	*wiring.App
	// Mailbox is where the mail goes: what a test reads of it.
	Mailbox *mailbox.Mailbox
}

// Handler is the HTTP API, the pages and the mailbox.
func (a *App) Handler() http.Handler { return web.Handler(a.App) }
