package service

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/pbmgames/pbm/engine"
)

// RecordFormat is the version of the stored game body.
const RecordFormat = 1

// Game statuses.
const (
	// StatusUnconfirmed: waiting for the organiser to confirm their
	// address; nobody else is mailed, nobody can accept or start.
	StatusUnconfirmed = "unconfirmed"
	StatusInvited     = "invited" // waiting for the seats to accept
	StatusPlaying     = "playing"
	StatusOver        = "over"
)

// Person is someone mailed about a game.
type Person struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Lang  string `json:"lang"`
}

// SeatInfo is an invited player. Index in Record.Seats is the invitation
// number that tokens carry; Engine is the seat in the engine once the game
// has started (−1 before, or when they did not join).
type SeatInfo struct {
	Person
	Accepted bool `json:"accepted,omitempty"`
	Engine   int  `json:"engine"`
	// Out says why an invitation holds no seat any more: OutReplaced
	// (the organiser gave its seat to a substitute, a new invitation).
	Out string `json:"out,omitempty"`
}

// Entry is one accepted command with what it caused.
type Entry struct {
	N      int            `json:"n"` // 0-based position in the whole log
	Seat   int            `json:"seat"`
	Action engine.Action  `json:"action"`
	At     int64          `json:"at"`
	Key    string         `json:"key,omitempty"`
	Events []engine.Event `json:"events,omitempty"`
	// By says who played a command the seat's player did not make:
	// ByOrder, ByDeadline or ByBot ("" for the player). Only the seat
	// itself is shown ByOrder: its orders are private.
	By string `json:"by,omitempty"`
}

// Delegated tells whether the command was played without the seat's
// player: by its standing orders, from the offers it prepared, or at a
// missed deadline.
func (e Entry) Delegated() bool { return e.By == ByOrder || e.By == ByDeadline || e.By == ByPrepared }

// Record is the whole stored game: one item, one conditional write a move
// (SPEC §3). The engine state is a cache of replaying Seed and the log.
type Record struct {
	Format int    `json:"v"`
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	// Name is what the organiser called the game, if anything (Title).
	Name string `json:"name,omitempty"`
	// Rules is the rules version the game was made with (engine/games);
	// it plays, replays and charts under it to its end. Games stored
	// before versions were recorded have none: Service.Load settles it.
	Rules     int             `json:"rules,omitempty"`
	Options   json.RawMessage `json:"options,omitempty"`
	Seed      []byte          `json:"seed"` // secret: never shown to a client
	Status    string          `json:"status"`
	Organiser Person          `json:"organiser"`
	Seats     []SeatInfo      `json:"seats"`
	Created   int64           `json:"created"`
	// Request fingerprints the creation of a game made with an
	// idempotency key (the id comes from the key).
	Request string          `json:"req,omitempty"`
	Updated int64           `json:"updated"`
	State   json.RawMessage `json:"state,omitempty"`
	// Moves counts every command ever applied; Log holds the newest ones,
	// from Moves−len(Log); Chunks older chunk items hold the rest. Entries
	// stay encoded, one JSON line each: a move only appends one, so loading
	// and saving a game never decodes the log.
	Moves int `json:"moves"`
	// Acted[seat] counts the commands each engine seat has made.
	Acted []int `json:"acted,omitempty"`
	// Rounds[seat] counts the times each engine seat began to owe
	// decisions (SeatPosition).
	Rounds []int `json:"rounds,omitempty"`
	Chunks int   `json:"chunks"`
	// ChunkTag is the tag of the newest chunk (store.Chunk.Tag), whose
	// body names the one before it: "" for none, or one written before
	// chunks were tagged.
	ChunkTag string   `json:"chunk_tag,omitempty"`
	Log      logLines `json:"lines,omitempty"`
	// Keys remembers recent idempotency keys and where they led, one
	// "seat key n version" line each, searched without decoding.
	Keys keyLines `json:"idem,omitempty"`
	// OldLog and OldKeys are where records written before the log and
	// keys were kept as text had them (bytes, which JSON turns into
	// base64); Load moves them into Log and Keys.
	OldLog  []byte `json:"log,omitempty"`
	OldKeys []byte `json:"keys,omitempty"`
	// Outbox holds mail decided by a commit and not yet sent.
	Outbox []Mail `json:"outbox,omitempty"`
	// Parked holds mail that failed MaxMailFailures times and is no
	// longer retried: the organiser's page shows it.
	Parked []ParkedMail `json:"parked,omitempty"`
	// DeadlineHours is how long a seat has for each decision (P-4).
	DeadlineHours int `json:"deadline_hours,omitempty"`
	// Due[seat] is when the decision the engine seat owes falls due
	// (seconds since the epoch; 0 when it owes none).
	Due []int64 `json:"due,omitempty"`
	// Unreachable lists invitation indexes whose address bounced or
	// complained: the organiser is shown who cannot be mailed.
	Unreachable []int `json:"unreachable,omitempty"`
	// Per engine seat: whether the reminder for the current decision has
	// gone, deadlines missed in a row, and whether a bot plays the seat.
	Reminded []bool `json:"reminded,omitempty"`
	Misses   []int  `json:"misses,omitempty"`
	Bots     []bool `json:"bots,omitempty"`
	// MissesToBot is how many deadlines in a row hand a seat to a bot
	// (P-4); 0 means DefaultMissesToBot.
	MissesToBot int `json:"misses_to_bot,omitempty"`
	// OnMisses says what MissesToBot misses do: OnMissesBot or OnMissesDrop.
	OnMisses string `json:"on_misses,omitempty"`
	// Orders are the seats' standing orders, by invitation index. They
	// are private to their seat: no view, page, mail or log shows them to
	// anyone else.
	Orders map[int]engine.Orders `json:"orders,omitempty"`
	// DealDue holds each open deal's deadline (engine.Deal.ID → seconds
	// since the epoch): at it, the deal is declined (its default).
	DealDue map[int]int64 `json:"deal_due,omitempty"`
	// Prepared holds the offers each invitation's player prepared between
	// turns, to be made at the start of their next turn; Unmade, those that
	// could not be made (what they offered had changed hands), for the
	// player to read. Both private to the seat, as orders are.
	Prepared map[int][]engine.Action `json:"prepared,omitempty"`
	Unmade   map[int][]engine.Action `json:"unmade,omitempty"`
	// OrdersTold lists the invitations whose player a decision mail has
	// told what their standing orders play (said once, in the first).
	OrdersTold []int `json:"orders_told,omitempty"`
	// PlayOn says a commit stopped playing bots and orders at its bound
	// with more they cover: the game wakes at once to play on.
	PlayOn bool `json:"play_on,omitempty"`
	// WakeKey is the time the store's wake index was last given for the
	// game (wakeKey).
	WakeKey int64 `json:"wake_key,omitempty"`
	// OutboxKey is the key the store's outbox index lists the game under
	// (store.Game.OutboxKey), given by the newest commit that left mail
	// (mailKey); kept after, so that the next such commit's is later.
	OutboxKey string `json:"outbox_key,omitempty"`
	// Unasked[seat]: the decision the engine seat owes was not mailed,
	// its orders being to play it; its next one is mailed.
	Unasked []bool `json:"unasked,omitempty"`
	// Seated: the game was made with every seat taken and started at
	// once, for a league (CreateRequest.Seated); its organiser follows
	// it on the league's pages, not by mail.
	Seated bool `json:"seated,omitempty"`
	// ImportedFrom is the id a game imported from a record had on the
	// instance that exported it: a finished game kept to be viewed.
	ImportedFrom string `json:"imported_from,omitempty"`
	// SentVer is the version of the game's sent marker (Config.Sent) the
	// record was last loaded with: the notifier writes the marker
	// conditioned on it.
	SentVer int64 `json:"sent_ver,omitempty"`
	// Chart is the net worth of every seat through a game that is over,
	// kept by the commit that ended it (keepChart).
	Chart *Chart `json:"chart,omitempty"`

	// marker is the marker Load read (SentVer); folded, the mail Load
	// dropped from the outbox because the marker says it was sent, which
	// the stored game holds until its next write. Not stored.
	marker sentMarker
	folded []string

	// The organiser's controls and the players' absences (controls.go,
	// away.go). Paused is when the organiser paused the game (0: it is
	// not): its clocks stand still. Controls lists what the organiser
	// did, oldest first. Leaving[seat]: the organiser removed the engine
	// seat's player, who resigns at their next decision. Away holds each
	// invitation's absences; AwayDays is each seat's vacation allowance
	// (0: DefaultAwayDays, below 0: none).
	Paused   int64             `json:"paused,omitempty"`
	Controls []Control         `json:"controls,omitempty"`
	Leaving  []bool            `json:"leaving,omitempty"`
	Away     map[int][]Absence `json:"away,omitempty"`
	AwayDays int               `json:"away_days,omitempty"`

	// logBytes counts the log this record's commit adds (appendEntry):
	// it plays at most maxCommitLog (playOn).
	logBytes int
	// seen: the people's game summaries as loaded or last committed, so
	// that a commit rewrites only the memberships it changed.
	seen map[string]GameSummary
}

// grow sizes the per-seat slices for n engine seats.
func (r *Record) grow(n int) {
	for len(r.Due) < n {
		r.Due = append(r.Due, 0)
	}
	for len(r.Reminded) < n {
		r.Reminded = append(r.Reminded, false)
	}
	for len(r.Misses) < n {
		r.Misses = append(r.Misses, 0)
	}
	for len(r.Bots) < n {
		r.Bots = append(r.Bots, false)
	}
	for len(r.Rounds) < n {
		r.Rounds = append(r.Rounds, 0)
	}
}

// Idem is a remembered idempotency key: seat's command that became log
// entry N, committed as game version Version.
type Idem struct {
	Seat    int    `json:"seat"`
	Key     string `json:"key"`
	N       int    `json:"n"`
	Version int64  `json:"ver"`
}

// Mail is a notification a commit decided (sent after it, SPEC §3).
type Mail struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Seat  int    `json:"seat"` // invitation index; −1 for the organiser
	Moves int    `json:"moves"`
	Due   int64  `json:"due,omitempty"`   // the decision's deadline
	About int    `json:"about,omitempty"` // the seat a mail to the organiser is about
	// Control is the entry of Record.Controls a MailControl tells of.
	Control int `json:"control,omitempty"`
	// Failures counts the drains that could not compose this mail.
	Failures int `json:"failures,omitempty"`
	// Orders: the mail says what the seat's standing orders play for it
	// (the first decision mail of an invitation, Record.OrdersTold).
	Orders bool `json:"orders,omitempty"`
	// Deal is the engine deal a MailDeal asks the seat to answer.
	Deal int `json:"deal,omitempty"`
}

// ParkedMail is a mail taken out of the outbox for good: why, and when.
type ParkedMail struct {
	Mail
	Reason string `json:"reason"`
	At     int64  `json:"at"`
}

// engineSeat maps an invitation index to the engine's seat (−1 if none).
func (r *Record) engineSeat(invite int) int {
	if invite < 0 || invite >= len(r.Seats) {
		return -1
	}
	return r.Seats[invite].Engine
}

// inviteOf maps an engine seat back to its invitation index.
func (r *Record) inviteOf(seat int) int {
	for i, s := range r.Seats {
		if s.Engine == seat && s.Accepted {
			return i
		}
	}
	return -1
}

// keyLines holds remembered idempotency keys, newest last.
type keyLines []byte

// Log and keys are stored as JSON strings, not bytes: bytes would become
// base64, which gzip compresses far worse than the text itself (a game
// item of 4.2–5.8 KB shrinks to 3.2–4 KB, under the 4 KB read unit).

func (k keyLines) MarshalJSON() ([]byte, error) { return json.Marshal(string(k)) }

func (k *keyLines) UnmarshalJSON(b []byte) error { return unmarshalText(b, (*[]byte)(k)) }

func (l logLines) MarshalJSON() ([]byte, error) { return json.Marshal(string(l)) }

func (l *logLines) UnmarshalJSON(b []byte) error { return unmarshalText(b, (*[]byte)(l)) }

func unmarshalText(b []byte, dst *[]byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*dst = []byte(s)
	return nil
}

// upgrade moves what a record of the earlier layout kept as bytes into
// the text fields.
func (r *Record) upgrade() {
	if len(r.OldLog) > 0 && len(r.Log) == 0 {
		r.Log = logLines(r.OldLog)
	}
	if len(r.OldKeys) > 0 && len(r.Keys) == 0 {
		r.Keys = keyLines(r.OldKeys)
	}
	r.OldLog, r.OldKeys = nil, nil
}

// find looks up seat's key.
func (k keyLines) find(seat int, key string) (Idem, bool) {
	prefix := fmt.Sprintf("%d %s ", seat, key)
	for line := range bytes.Lines(k) {
		if !bytes.HasPrefix(line, []byte(prefix)) {
			continue
		}
		id := Idem{Seat: seat, Key: key}
		if _, err := fmt.Sscanf(string(line[len(prefix):]), "%d %d", &id.N, &id.Version); err == nil {
			return id, true
		}
	}
	return Idem{}, false
}

// add remembers a key, forgetting the oldest beyond keep.
func (k keyLines) add(id Idem, keep int) keyLines {
	k = fmt.Appendf(k, "%d %s %d %d\n", id.Seat, id.Key, id.N, id.Version)
	if n := bytes.Count(k, []byte{'\n'}); n > keep {
		_, rest := logLines(k).split(n - keep)
		k = append(keyLines(nil), rest...)
	}
	return k
}

// findKey looks up a remembered idempotency key.
func (r *Record) findKey(seat int, key string) (Idem, bool) { return r.Keys.find(seat, key) }

// logLines is a run of log entries, each one line of JSON. It is stored as
// one opaque byte string, which costs far less to load and save than a
// JSON array the decoder must walk.
type logLines []byte

// Len counts the entries.
func (l logLines) Len() int { return bytes.Count(l, []byte{'\n'}) }

// split returns the first n entries and the rest.
func (l logLines) split(n int) (logLines, logLines) {
	i := 0
	for ; n > 0; n-- {
		i += bytes.IndexByte(l[i:], '\n') + 1
	}
	return l[:i:i], l[i:]
}

// decode reads every entry.
func (l logLines) decode() ([]Entry, error) {
	var out []Entry
	for line := range bytes.Lines(l) {
		var e Entry
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("log entry %d: %w", len(out), err)
		}
		out = append(out, e)
	}
	return out, nil
}

// appendEntry adds an entry to the recent log.
func (r *Record) appendEntry(e Entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("log entry %d: %w", e.N, err)
	}
	r.Log = append(append(r.Log, b...), '\n')
	r.logBytes += len(b) + 1
	return nil
}

// Recent decodes the entries still in the game item, oldest first.
func (r *Record) Recent() ([]Entry, error) {
	out, err := r.Log.decode()
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", r.ID, err)
	}
	return out, nil
}

// SeedCommitment is the hex SHA-256 of the game's seed: shown to every
// player and spectator from the creation on, it binds the service to
// the dice and cards it will deal without telling anyone what they are.
func (r *Record) SeedCommitment() string {
	h := sha256.Sum256(r.Seed)
	return hex.EncodeToString(h[:])
}

// RevealedSeed is the seed in hex once the game is over, and "" before:
// revealing it earlier would tell every roll and card still to come.
func (r *Record) RevealedSeed() string {
	if r.Status != StatusOver {
		return ""
	}
	return hex.EncodeToString(r.Seed)
}

// Title names the game for subjects, pages and "my games": the name its
// organiser gave it, else its kind (kindName, in the reader's language)
// and its players — «<game>» (Анна, Bob, Вера) — past three counted.
func (r *Record) Title(lang, kindName string) string {
	if r.Name != "" {
		return r.Name
	}
	names := make([]string, 0, 4)
	for _, s := range r.Seats {
		if s.Out == "" { // not who gave their seat to a substitute
			names = append(names, s.Name)
		}
	}
	if n := len(names); n > 3 {
		names = append(names[:3], "+"+strconv.Itoa(n-3))
	}
	title := kindName
	if lang != "en" {
		title = "«" + kindName + "»"
	}
	return title + " (" + strings.Join(names, ", ") + ")"
}
