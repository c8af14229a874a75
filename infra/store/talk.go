package store

import "context"

// TalkPublic is the To of a message the whole table reads.
const TalkPublic = -1

// TalkMessage is one message of a game's table talk (issue 17): its own
// small item beside the game's, so that posting never rewrites the game
// item (its optimistic locking and its write units stay as they are).
type TalkMessage struct {
	Game string
	// Key orders a game's messages by time and tells them apart: the
	// caller makes it (the service: the time in milliseconds, zero-padded,
	// and a random suffix). It holds no '~', which bounds the range.
	Key  string
	At   int64  // seconds since the Unix epoch
	From int    // the author's invitation index
	To   int    // TalkPublic, or the invitation index of the one seat it is for
	Text string // as the author wrote it; escaping is the reader's business
	// Hidden by the organiser: kept, and shown as hidden.
	Hidden bool
}

// TalkStore keeps table talk. Every method is safe for concurrent use and
// costs one request in DynamoDB.
type TalkStore interface {
	// PostTalk writes a message once: ErrConflict if its key is taken.
	PostTalk(ctx context.Context, m TalkMessage) error
	// TalkBefore lists up to limit messages of game whose key is below
	// before ("" for the newest), newest first.
	TalkBefore(ctx context.Context, game, before string, limit int) ([]TalkMessage, error)
	// TalkAfter lists up to limit messages of game whose key is above
	// after ("" for the oldest), oldest first.
	TalkAfter(ctx context.Context, game, after string, limit int) ([]TalkMessage, error)
	// SetTalkHidden writes m — a message as read, its Hidden set anew —
	// over the stored one of its key; ErrNotFound if there is none. (One
	// PutItem in DynamoDB, the write every function may make on the
	// table: no UpdateItem on a game's partition.)
	SetTalkHidden(ctx context.Context, m TalkMessage) error
	// TalkSeen is the key of the newest message a seat has been mailed
	// ("" for none).
	TalkSeen(ctx context.Context, game string, seat int) (string, error)
	// SetTalkSeen moves a seat's mark forward to key; a mark already at or
	// beyond it stays. (One conditional PutItem in DynamoDB.)
	SetTalkSeen(ctx context.Context, game string, seat int, key string) error
	// TalkMail tells whether a seat asked to be mailed each message it
	// may read (off until asked); SetTalkMail sets it. (One PutItem in
	// DynamoDB, beside the seat's mark: never the game item.)
	TalkMail(ctx context.Context, game string, seat int) (bool, error)
	SetTalkMail(ctx context.Context, game string, seat int, on bool) error
}
