// Command local runs the service on this machine with no AWS account and
// no Docker (`make run`): the same HTTP handlers as the Lambda function,
// wired the same way (package wiring), on an embedded store that keeps
// games across restarts.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/wiring/localrun"
	"github.com/pbmgames/pbm/infra/store/boltstore"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "local:", err)
		os.Exit(1)
	}
}

// options are the runner's settings, from its flags and environment.
type options struct {
	port, listen, dataDir string
	limits                service.Limits
}

// parseOptions reads the flags over the environment. The runner listens
// on the loopback interface unless told otherwise: its mailbox shows
// every signed link, so it must not be reachable from the network by
// default.
func parseOptions(args []string, getenv func(string) string) (options, error) {
	or := func(k, def string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return def
	}
	o := options{port: or("PORT", "8080")}
	fs := flag.NewFlagSet("local", flag.ContinueOnError)
	fs.StringVar(&o.dataDir, "data", or("PBM_DATA", ".local"), "folder for the game database and the link-signing key")
	fs.StringVar(&o.listen, "listen", or("PBM_LISTEN", "127.0.0.1"),
		"address to listen on; 0.0.0.0 opens the service and its mailbox (every signed link) to the network")
	limits := fs.String("limits", or("PBM_LIMITS", ""),
		"limits over the defaults, as name=count,…: <games|leagues|joins|seasons>-<org|client>-<hour|day>, confirmed-days (README: Security)")
	countLoopback := fs.Bool("count-loopback", or("PBM_COUNT_LOOPBACK", "") != "",
		"count clients on 127.0.0.1 against the per-client limits too, as AWS counts every client (by default they are not: everyone at a local run is 127.0.0.1)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	l, err := service.ParseLimits(*limits, service.Limits{})
	if err != nil {
		return o, fmt.Errorf("-limits: %w", err)
	}
	// Friends at one local run all come from 127.0.0.1 (or from the
	// machines of one network, each its own client): the per-client
	// limits, there for the Internet's anonymous callers, would soon
	// lock them all out together (issue 25). The per-organiser limits
	// still hold.
	l.LoopbackFree = !*countLoopback
	o.limits = l
	return o, nil
}

func run() error {
	opts, err := parseOptions(os.Args[1:], os.Getenv)
	if err != nil {
		return err
	}
	port, dataDir := opts.port, &opts.dataDir
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))

	// The same wiring as the Lambda functions, on an embedded store; mail
	// goes to the local mailbox: kept across restarts, its links printed
	// here, readable at /mailbox.
	base := "http://localhost:" + port
	app, err := localrun.New(localrun.Config{Dir: *dataDir, BaseURL: base, Log: log, MailOut: os.Stdout, Limits: opts.limits})
	if errors.Is(err, boltstore.ErrInUse) {
		return fmt.Errorf("another instance of the local runner holds the data folder %s: stop it (or give another folder with -data): %w", *dataDir, err)
	}
	if err != nil {
		return err
	}
	defer app.Close()
	srv := &http.Server{
		Addr:              net.JoinHostPort(opts.listen, port),
		Handler:           app.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	go tick(ctx, app)
	log.Info("serving", "url", base, "listen", srv.Addr, "data", *dataDir)
	fmt.Printf("\n  Open %s/ to create a game.\n  Mail sent by the service: %s/mailbox\n\n", base, base)
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}

// tick is the local run's clock, as the scheduled sweep is in AWS
// (wiring.App.Sweep): it plays the defaults of missed deadlines, mails
// reminders (P-4), sends any mail still pending, and the daily digests
// that are due.
func tick(ctx context.Context, app *localrun.App) {
	t := time.NewTicker(30 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if err := app.Sweep(ctx, now); err != nil {
				app.Log.ErrorContext(ctx, "sweep", "err", err)
			}
		}
	}
}
