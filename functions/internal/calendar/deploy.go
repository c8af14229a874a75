package calendar

import (
	"context"
	"io"
	"time"

	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// Deployment is what a simulation plays its game on. By default
// (Config.Deploy nil) it is the bbolt store with the notifier run in
// process after each commit, as in the local run; a test can give AWS's
// path instead (the table's stream feeding the notify function, the sweep
// handing the games due out to it) on DynamoDB, and measure what each
// thing a person or the clock does costs there (Do).
type Deployment struct {
	// Service makes every change: a person's decision, an offer
	// prepared, the organiser's confirmation, an acceptance.
	Service *service.Service
	// Look reads what the people and the simulator look at: the pages a
	// person opens, the link a mail carries, the game's log at its end.
	// What it reads is not what a deployment is measured on. Service
	// when nil.
	Look *service.Service
	// Sweep is a run of the scheduled sweep at now.
	Sweep func(ctx context.Context, now time.Time) error
	// Do runs one thing done (call, made through Service) and whatever
	// it sets off before the next (the mail it decides); nil: call alone.
	Do func(ctx context.Context, what Doing, call func(ctx context.Context) error) error
	// Wake tells the times (seconds since the epoch) at which the game id
	// next needs the sweep: when it next needs the clock (its key in the
	// store's wake index; due at once if past), and where the sweep looks
	// after the mail a commit left, when it will. The simulation runs the
	// sweep on its schedule at the first run not before each (AWS runs it
	// every SweepEvery whatever the games: the runs left out would find
	// nothing of the game's to do).
	Wake func(ctx context.Context, id string) ([]int64, error)
	// Close releases what the deployment holds.
	Close func()
}

// Doing is what a person, the organiser or the clock does: what
// Deployment.Do is told.
type Doing string

// What is done.
const (
	DoCreate  Doing = "create"  // the organiser creates the game
	DoConfirm Doing = "confirm" // the organiser confirms their address
	DoAccept  Doing = "accept"  // a person accepts (and sets their orders, as their habit says)
	DoDecide  Doing = "decide"  // a person posts a decision on their page
	DoAnswer  Doing = "answer"  // a person answers a deal mailed to them
	DoPrepare Doing = "prepare" // a person prepares an offer for their next turn
	DoSweep   Doing = "sweep"   // a run of the scheduled sweep
)

// DeployEnv is what a simulation gives the deployment it plays on.
type DeployEnv struct {
	Games *present.Games   // the games played (Config.Games)
	Now   func() time.Time // the simulated clock
	Mail  notify.Sender    // the simulated people's mailboxes
	Keys  *linksign.Keyring
	// Rand draws the game's seed and ids: the same seed, the same game.
	Rand io.Reader
}

// hands is how the simulated people reach the service: look reads what
// their pages show, act makes what they decide, each inside do.
type hands struct {
	look, act *service.Service
	do        func(ctx context.Context, what Doing, call func(ctx context.Context) error) error
}

// direct is hands that read and act through svc, doing each thing alone.
func direct(svc *service.Service) hands {
	return hands{look: svc, act: svc, do: justDo}
}

func justDo(ctx context.Context, _ Doing, call func(ctx context.Context) error) error {
	return call(ctx)
}
