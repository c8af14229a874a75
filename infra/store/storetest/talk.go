package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
)

func talkKey(i int) string { return fmt.Sprintf("%016d-%04x", 1_700_000_000_000+int64(i)*1000, i) }

func postTalk(t *testing.T, s store.TalkStore, game string, n int) []store.TalkMessage {
	t.Helper()
	var out []store.TalkMessage
	for i := range n {
		m := store.TalkMessage{Game: game, Key: talkKey(i), At: 1_700_000_000 + int64(i), From: i % 3, To: store.TalkPublic,
			Text: fmt.Sprintf("message %d: <b>«привет»</b>\n\u202eend", i)}
		if i%4 == 1 {
			m.To = 2
		}
		mustOK(t, s.PostTalk(context.Background(), m), "PostTalk %d", i)
		out = append(out, m)
	}
	return out
}

func keysOf(ms []store.TalkMessage) []string {
	var ks []string
	for _, m := range ms {
		ks = append(ks, m.Key)
	}
	return ks
}

func testTalkPostOnce(t *testing.T, s store.TalkStore) {
	ctx := context.Background()
	game := newID(t)
	want := postTalk(t, s, game, 1)[0]
	again := want
	again.Text = "another"
	if err := s.PostTalk(ctx, again); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("PostTalk of a taken key: %v, want ErrConflict", err)
	}
	got, err := s.TalkAfter(ctx, game, "", 10)
	mustOK(t, err, "TalkAfter")
	if len(got) != 1 || got[0] != want {
		t.Fatalf("talk = %+v, want just %+v", got, want)
	}
	if gs, ok := s.(store.Store); ok {
		if _, err := gs.GetGame(ctx, game); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a message made a game item: %v", err)
		}
	}
}

// testTalkPages: pages of newest first and of oldest first cover every
// message once, in order, whatever the page size.
func testTalkPages(t *testing.T, s store.TalkStore) {
	ctx := context.Background()
	game := newID(t)
	all := postTalk(t, s, game, 7)
	for _, size := range []int{1, 3, 7, 10} {
		var back []string
		for before := ""; ; {
			page, err := s.TalkBefore(ctx, game, before, size)
			mustOK(t, err, "TalkBefore(%q, %d)", before, size)
			if len(page) > size {
				t.Fatalf("TalkBefore(%q, %d) gave %d", before, size, len(page))
			}
			if len(page) == 0 {
				break
			}
			back = append(back, keysOf(page)...)
			before = page[len(page)-1].Key
		}
		want := keysOf(all)
		slices.Reverse(want)
		if !slices.Equal(back, want) {
			t.Fatalf("newest first by %d = %v, want %v", size, back, want)
		}
		var fwd []store.TalkMessage
		for after := ""; ; {
			page, err := s.TalkAfter(ctx, game, after, size)
			mustOK(t, err, "TalkAfter(%q, %d)", after, size)
			if len(page) == 0 {
				break
			}
			fwd = append(fwd, page...)
			after = page[len(page)-1].Key
		}
		if !slices.Equal(fwd, all) {
			t.Fatalf("oldest first by %d = %+v, want %+v", size, fwd, all)
		}
	}
	if page, err := s.TalkBefore(ctx, game, talkKey(3), 2); err != nil || !slices.Equal(keysOf(page), []string{talkKey(2), talkKey(1)}) {
		t.Fatalf("TalkBefore(key 3, 2) = %v, %v", keysOf(page), err)
	}
	if page, err := s.TalkAfter(ctx, game, talkKey(5), 9); err != nil || !slices.Equal(keysOf(page), []string{talkKey(6)}) {
		t.Fatalf("TalkAfter(key 5) = %v, %v", keysOf(page), err)
	}
}

// testTalkGamesApart: a game's talk is its own, whatever the ids, and the
// game item and marks beside it are no messages.
func testTalkGamesApart(t *testing.T, s store.TalkStore) {
	ctx := context.Background()
	game := newID(t)
	postTalk(t, s, game+"x", 2)
	postTalk(t, s, game, 2)
	if gs, ok := s.(store.Store); ok {
		if _, err := gs.PutGame(ctx, store.Game{ID: game, Body: []byte("game")}, 0); err != nil {
			t.Fatal(err)
		}
		mustOK(t, gs.PutChunk(ctx, store.Chunk{GameID: game, Seq: 0, Body: []byte("log")}), "PutChunk")
	}
	mustOK(t, s.SetTalkSeen(ctx, game, 0, talkKey(0)), "SetTalkSeen")
	for _, g := range []string{game, game + "x"} {
		back, err := s.TalkBefore(ctx, g, "", 10)
		mustOK(t, err, "TalkBefore")
		fwd, err := s.TalkAfter(ctx, g, "", 10)
		mustOK(t, err, "TalkAfter")
		if len(back) != 2 || len(fwd) != 2 || back[0].Game != g || fwd[0].Game != g {
			t.Fatalf("talk of %s: %+v and %+v, want its own two", g, back, fwd)
		}
	}
	if empty, err := s.TalkBefore(ctx, newID(t), "", 10); err != nil || len(empty) != 0 {
		t.Fatalf("talk of no game = %v, %v", empty, err)
	}
}

func testTalkHide(t *testing.T, s store.TalkStore) {
	ctx := context.Background()
	game := newID(t)
	all := postTalk(t, s, game, 3)
	hidden := all[1]
	hidden.Hidden = true
	mustOK(t, s.SetTalkHidden(ctx, hidden), "SetTalkHidden")
	got, err := s.TalkAfter(ctx, game, "", 10)
	mustOK(t, err, "TalkAfter")
	if !got[1].Hidden || got[0].Hidden || got[2].Hidden || got[1].Text != all[1].Text {
		t.Fatalf("after hiding the second: %+v", got)
	}
	mustOK(t, s.SetTalkHidden(ctx, all[1]), "SetTalkHidden(not hidden)")
	got, _ = s.TalkAfter(ctx, game, "", 10)
	if got[1].Hidden {
		t.Fatalf("still hidden after showing: %+v", got[1])
	}
	if err := s.SetTalkHidden(ctx, store.TalkMessage{Game: game, Key: talkKey(99), Hidden: true}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetTalkHidden of no message: %v, want ErrNotFound", err)
	}
	if got, _ := s.TalkAfter(ctx, game, "", 10); len(got) != 3 {
		t.Fatalf("hiding nothing made a message: %+v", got)
	}
}

func testTalkSeen(t *testing.T, s store.TalkStore) {
	ctx := context.Background()
	game := newID(t)
	// Each step moves seat 0's mark to set (none for -1), then reads
	// seat's: a mark only moves forward, and each seat has its own.
	for i, step := range []struct{ set, seat, want int }{
		{-1, 0, -1}, {2, 0, 2}, {-1, 1, -1}, {1, 0, 2}, {5, 0, 5},
	} {
		if step.set >= 0 {
			mustOK(t, s.SetTalkSeen(ctx, game, 0, talkKey(step.set)), "step %d: SetTalkSeen(%d)", i, step.set)
		}
		got, err := s.TalkSeen(ctx, game, step.seat)
		mustOK(t, err, "step %d: TalkSeen", i)
		if want := seenKey(step.want); got != want {
			t.Fatalf("step %d: seen of seat %d = %q, want %q", i, step.seat, got, want)
		}
	}
}

// seenKey is the mark of message i, "" for none (-1).
func seenKey(i int) string {
	if i < 0 {
		return ""
	}
	return talkKey(i)
}

// testTalkMail: a seat's choice to be mailed each message is off until
// set, the seat's own, turned off again, and apart from its mark.
func testTalkMail(t *testing.T, s store.TalkStore) {
	ctx := context.Background()
	game := newID(t)
	steps := []struct {
		seat    int
		set     string // "on", "off", "seen" (the mark moves) or "" (read only)
		on, off bool   // what seats 0 and 1 then read
	}{
		{0, "", false, false},
		{1, "on", false, true},
		{1, "seen", false, true},
		{1, "off", false, false},
		{0, "on", true, false},
	}
	for i, st := range steps {
		var err error
		switch st.set {
		case "on", "off":
			err = s.SetTalkMail(ctx, game, st.seat, st.set == "on")
		case "seen":
			err = s.SetTalkSeen(ctx, game, st.seat, talkKey(i))
		}
		mustOK(t, err, "step %d", i)
		got0, err0 := s.TalkMail(ctx, game, 0)
		got1, err1 := s.TalkMail(ctx, game, 1)
		if err0 != nil || err1 != nil || got0 != st.on || got1 != st.off {
			t.Fatalf("after step %d (%s seat %d): seats read %v %v (%v %v), want %v %v", i, st.set, st.seat, got0, got1, err0, err1, st.on, st.off)
		}
	}
}
