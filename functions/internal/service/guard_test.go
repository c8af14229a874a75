package service_test

import (
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/testenv"
)

// guardWorld is a service on its own store with a clock the test moves.
func guardWorld(t *testing.T, limits service.Limits) (*service.Service, *time.Time) {
	t.Helper()
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Now: func() time.Time { return now }, Log: slog.New(slog.DiscardHandler), Limits: limits, Rand: testenv.Rand(t.Name())})
	return svc, &now
}

func guardCreate(t *testing.T, svc *service.Service, org, client string) (service.Created, error) {
	t.Helper()
	return svc.Create(t.Context(), service.CreateRequest{Kind: "western", Client: client, Organiser: service.Person{Email: org},
		Seats: []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}})
}

func tooMany(t *testing.T, err error) time.Duration {
	t.Helper()
	var e *service.Error
	if !errors.As(err, &e) || e.Code != service.CodeTooMany {
		t.Fatalf("got %v, want too_many", err)
	}
	return e.RetryAfter
}

// TestLimitsPerHourAndDay: the configured limits hold per hour and per
// day, each counter starts again when its hour or day is over, and the
// refusal says how long until then.
func TestLimitsPerHourAndDay(t *testing.T) {
	svc, now := guardWorld(t, service.Limits{OrganiserPerHour: 2, OrganiserPerDay: 3, ClientPerHour: 100, ClientPerDay: 100})
	*now = now.Add(20 * time.Minute) // 09:20
	for range 2 {
		if _, err := guardCreate(t, svc, "o@pbm.test", "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
	}
	_, err := guardCreate(t, svc, "o@pbm.test", "192.0.2.1")
	if wait := tooMany(t, err); wait != 40*time.Minute {
		t.Errorf("over the hour's limit at 09:20: retry after %v, want 40m", wait)
	}
	*now = now.Add(40 * time.Minute) // 10:00: a new hour
	if _, err := guardCreate(t, svc, "o@pbm.test", "192.0.2.1"); err != nil {
		t.Fatalf("in the next hour: %v", err)
	}
	*now = now.Add(time.Hour) // 11:00: the day's 3 are used
	_, err = guardCreate(t, svc, "o@pbm.test", "192.0.2.1")
	if wait := tooMany(t, err); wait != 13*time.Hour {
		t.Errorf("over the day's limit at 11:00: retry after %v, want 13h", wait)
	}
	if _, err := guardCreate(t, svc, "other@pbm.test", "192.0.2.1"); err != nil {
		t.Errorf("another organiser: %v", err)
	}
	*now = now.Add(13 * time.Hour) // the next day
	if _, err := guardCreate(t, svc, "o@pbm.test", "192.0.2.1"); err != nil {
		t.Fatalf("the next day: %v", err)
	}
}

// TestClientLimitSparesTheOrganiser: a client over its limit is refused
// before the organiser's address is counted, so a flood from one client
// does not use up its victim's allowance.
func TestClientLimitSparesTheOrganiser(t *testing.T) {
	svc, _ := guardWorld(t, service.Limits{OrganiserPerHour: 3, ClientPerHour: 1})
	if _, err := guardCreate(t, svc, "victim@pbm.test", "198.51.100.1"); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		_, err := guardCreate(t, svc, "victim@pbm.test", "198.51.100.1")
		tooMany(t, err)
	}
	for i := range 2 {
		if _, err := guardCreate(t, svc, "victim@pbm.test", fmt.Sprintf("203.0.113.%d", i)); err != nil {
			t.Errorf("the organiser's own game %d from another client: %v", i+1, err)
		}
	}
}

// TestConfirmedAddressExpires: a confirmed address invites at once for
// ConfirmedFor, and must confirm again after.
func TestConfirmedAddressExpires(t *testing.T) {
	svc, now := guardWorld(t, service.Limits{ConfirmedFor: 30 * 24 * time.Hour})
	c, err := guardCreate(t, svc, "o@pbm.test", "")
	if err != nil || !c.Unconfirmed {
		t.Fatalf("first game: %+v, %v; want unconfirmed", c, err)
	}
	if err := svc.Confirm(t.Context(), c.ID); err != nil {
		t.Fatal(err)
	}
	*now = now.Add(29 * 24 * time.Hour)
	if c, err := guardCreate(t, svc, "O@pbm.test", ""); err != nil || c.Unconfirmed {
		t.Errorf("29 days later: %+v, %v; want confirmed", c, err)
	}
	*now = now.Add(2 * 24 * time.Hour)
	if c, err := guardCreate(t, svc, "o@pbm.test", ""); err != nil || !c.Unconfirmed {
		t.Errorf("31 days later: %+v, %v; want unconfirmed", c, err)
	}
}
