// Package servicetest helps tests that make games: a game's invitations
// leave only once its organiser has confirmed their address (issue 9),
// which a test does here the way the confirmation link's button does,
// through Service.Confirm.
package servicetest

import (
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
)

// Roomy are limits no test that makes many games reaches.
var Roomy = service.Limits{OrganiserPerHour: 1 << 30, OrganiserPerDay: 1 << 30, ClientPerHour: 1 << 30, ClientPerDay: 1 << 30}

// Confirm confirms the organiser's address of game id, which sends its
// invitations.
func Confirm(t testing.TB, svc *service.Service, id string) {
	t.Helper()
	if err := svc.Confirm(t.Context(), id); err != nil {
		t.Fatalf("confirm game %s: %v", id, err)
	}
}

// Create makes a game and confirms it, as an organiser who follows the
// confirmation mail at once.
func Create(t testing.TB, svc *service.Service, req service.CreateRequest) service.Created {
	t.Helper()
	c, err := svc.Create(t.Context(), req)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if c.Unconfirmed {
		Confirm(t, svc, c.ID)
	}
	return c
}
