// Package httpapi serves the game service over HTTP: the JSON API and the
// plain server-rendered pages. The same handler runs on Lambda (behind API
// Gateway, through an adapter) and in the local run.
package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/httpgzip"
	"github.com/pbmgames/pbm/infra/httplang"
	"github.com/pbmgames/pbm/templates"
)

// MaxBody is the largest request body accepted.
const MaxBody = 64 << 10

// Route is one method and path pattern the handler serves.
type Route struct {
	Method  string
	Pattern string // net/http pattern, {name} for a path segment
}

// Deps are what the handler needs.
type Deps struct {
	// Games are the games the service offers and shows (the wiring's
	// catalog): required.
	Games   *present.Games
	Service *service.Service
	// Leagues runs the leagues; nil: their routes answer "not found".
	Leagues *leagues.Service
	Log     *slog.Logger
	// BaseURL is the public origin links point to, e.g. https://pbm.example.
	BaseURL string
	// Extra registers routes only some deployments have (the local
	// mailbox). May be nil.
	Extra func(mux *http.ServeMux)
	// Now is the clock the pages tell deadlines by; time.Now when nil.
	Now func() time.Time
	// MailboxURL, in the local run, is where the mail the service "sent"
	// can be read: every page says so, so a newcomer finds the links.
	MailboxURL string
}

type api struct {
	games   *present.Games
	svc     *service.Service
	leagues *leagues.Service
	log     *slog.Logger
	base    string
	now     func() time.Time
	mailbox string
	// forms refuses the pages' forms sent from other sites (sameSite).
	forms *http.CrossOriginProtection
	// openapiDoc is the JSON API's document of games, made once.
	openapiDoc func() ([]byte, error)
	// prerendered: the pre-rendered home pages show these games.
	prerendered bool
}

// sameSite refuses a page's form that a browser sends from another
// site's page (Sec-Fetch-Site, or the Origin against the Host where the
// browser sends no Fetch Metadata; net/http's CrossOriginProtection), and
// changes nothing. A hostile page could otherwise post a form with its
// author's own token — a sign-in link, an invitation — and sign the
// visitor's browser into someone else's "my games" or seat (login CSRF,
// issue 25). The pages' own forms are same-origin; clients that are no
// browser send neither header and pass.
func (a *api) sameSite(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := a.forms.Check(r); err != nil {
			a.pageError(w, r, &service.Error{Code: service.CodeForbidden,
				RU:    "Эта форма отправлена со страницы другого сайта, поэтому ничего не сделано. Откройте страницу здесь и отправьте форму с неё.",
				EN:    "This form was sent from another site's page, so nothing was done. Open the page here and send the form from it.",
				Cause: err})
			return
		}
		h(w, r)
	}
}

// handledRoute is a route with its handler.
type handledRoute struct {
	Route
	h http.HandlerFunc
}

// routes lists every route with its handler; Routes and New both read it,
// so the SAM template test checks exactly what is served.
func (a *api) routes() []handledRoute {
	routes := []handledRoute{
		{Route{"GET", "/healthz"}, a.health},
		{Route{"GET", "/api/openapi.json"}, a.openapi},
		{Route{"GET", "/api/lengths"}, a.lengths},
		{Route{"POST", "/api/games"}, a.createGame},
		{Route{"POST", "/api/games/{id}/confirm"}, a.confirm},
		{Route{"POST", "/api/games/{id}/accept"}, a.accept},
		{Route{"POST", "/api/games/{id}/start"}, a.start},
		{Route{"GET", "/api/games/{id}"}, a.view},
		{Route{"GET", "/api/games/{id}/legal"}, a.legal},
		{Route{"POST", "/api/games/{id}/actions"}, a.act},
		{Route{"GET", "/api/games/{id}/log"}, a.gameLog},
		{Route{"GET", "/api/games/{id}/result"}, a.result},
		{Route{"GET", "/api/games/{id}/record"}, a.gameRecord},
		{Route{"POST", "/api/records"}, a.importRecord},
		{Route{"GET", "/api/games/{id}/orders"}, a.getOrders},
		{Route{"PUT", "/api/games/{id}/orders"}, a.putOrders},
		// Deals that do not stall a turn (issue 23).
		{Route{"GET", "/api/games/{id}/deals"}, a.getDeals},
		{Route{"POST", "/api/games/{id}/deals"}, a.prepareOffer},
		{Route{"POST", "/api/games/{id}/deals/withdraw"}, a.withdrawOffer},
		{Route{"POST", "/api/games/{id}/deals/counter"}, a.counterOffer},
		{Route{"GET", "/g/{id}/deals"}, a.dealsPage},
		{Route{"POST", "/g/{id}/deals"}, a.postDeals},
		{Route{"GET", "/"}, a.homePage},
		{Route{"POST", "/games"}, a.createPage},
		{Route{"POST", "/records"}, a.importPage},
		{Route{"GET", "/g/{id}"}, a.seatPage},
		{Route{"POST", "/g/{id}/act"}, a.actPage},
		{Route{"GET", "/g/{id}/log"}, a.logPage},
		{Route{"GET", "/g/{id}/record"}, a.recordPage},
		{Route{"GET", "/g/{id}/board.svg"}, a.boardImage},
		{Route{"GET", "/g/{id}/orders"}, a.ordersPage},
		{Route{"POST", "/g/{id}/orders"}, a.saveOrders},
		{Route{"GET", "/g/{id}/invite"}, a.invitePage},
		{Route{"POST", "/g/{id}/accept"}, a.acceptPage},
		{Route{"GET", "/g/{id}/confirm"}, a.confirmPage},
		{Route{"POST", "/g/{id}/confirm"}, a.confirmPost},
		{Route{"GET", "/g/{id}/org"}, a.orgPage},
		{Route{"POST", "/g/{id}/start"}, a.startPage},
		{Route{"GET", "/me"}, a.mePage},
		{Route{"POST", "/me"}, a.savePrefs},
		{Route{"GET", "/unsubscribe"}, a.unsubscribePage},
		{Route{"POST", "/unsubscribe"}, a.unsubscribe},
		{Route{"GET", "/rules/{kind}"}, a.rulesPage},
		// Sign in by mail and the player's links (issue 17).
		{Route{"GET", "/signin"}, a.signinPage},
		{Route{"POST", "/signin"}, a.signin},
		{Route{"GET", "/signin/open"}, a.signinOpenPage},
		{Route{"POST", "/signin/open"}, a.signinOpen},
		{Route{"GET", "/me/links"}, a.linksPage},
		{Route{"POST", "/me/links/revoke"}, a.revokeLink},
		{Route{"POST", "/me/signout"}, a.signOut},
		// The organiser's controls, absences, back from the bot (issue 17).
		{Route{"POST", "/api/games/{id}/controls"}, a.control},
		{Route{"POST", "/api/games/{id}/away"}, a.away},
		{Route{"POST", "/api/games/{id}/back"}, a.back},
		{Route{"GET", "/g/{id}/controls"}, a.controlsPage},
		{Route{"POST", "/g/{id}/control"}, a.controlPage},
		{Route{"GET", "/g/{id}/away"}, a.awayGet},
		{Route{"POST", "/g/{id}/away"}, a.awayPage},
		{Route{"GET", "/g/{id}/back"}, a.backPage},
		{Route{"POST", "/g/{id}/back"}, a.backPost},
		// Table talk (issue 17).
		{Route{"GET", "/api/games/{id}/talk"}, a.getTalk},
		{Route{"POST", "/api/games/{id}/talk"}, a.postTalk},
		{Route{"POST", "/api/games/{id}/talk/hide"}, a.hideTalk},
		{Route{"GET", "/g/{id}/talk"}, a.talkPage},
		{Route{"POST", "/g/{id}/talk"}, a.postTalkPage},
		{Route{"POST", "/g/{id}/talk/hide"}, a.hideTalkPage},
		// The operator's kit (issue 16).
		{Route{"GET", "/favicon.ico"}, a.favicon},
	}
	return append(routes, a.leagueRoutes()...)
}

// Routes lists what New serves (without Deps.Extra).
func Routes() []Route {
	var out []Route
	for _, r := range (&api{}).routes() {
		out = append(out, r.Route)
	}
	return out
}

// New builds the handler.
func New(d Deps) http.Handler { return NewRouter().Serve(d) }

// Router is the routes (NewRouter), served with the deployment's parts
// (Serve). Making it registers some 75 routes in a ServeMux, 0.35–0.5 ms
// (its conflict checks grow faster than the routes): the api function
// makes it on the side, beside the runtime's first request for an event
// (web.Begun), and its first request waits for it.
type Router struct {
	a   *api // its fields are set by Serve; the routes' handlers are bound to it
	mux *http.ServeMux
}

// NewRouter makes the routes.
func NewRouter() *Router {
	a := &api{}
	mux := http.NewServeMux()
	for _, r := range a.routes() {
		pattern := r.Method + " " + r.Pattern
		if r.Pattern == "/" {
			pattern = r.Method + " /{$}"
		}
		h := r.h
		if r.Method == http.MethodPost && !strings.HasPrefix(r.Pattern, "/api/") {
			h = a.sameSite(h)
		}
		mux.HandleFunc(pattern, h)
	}
	return &Router{a: a, mux: mux}
}

// Serve builds the handler on the routes, with d. Call it once, before
// the handler serves anything.
func (rt *Router) Serve(d Deps) http.Handler {
	a, mux := rt.a, rt.mux
	if d.Games == nil {
		panic("httpapi: Deps.Games is nil")
	}
	*a = api{games: d.Games, svc: d.Service, leagues: d.Leagues, log: d.Log, base: strings.TrimRight(d.BaseURL, "/"), now: d.Now, mailbox: d.MailboxURL,
		forms: http.NewCrossOriginProtection()}
	a.prerendered = prerenderedFor(a.games.Kinds())
	a.openapiDoc = sync.OnceValues(func() ([]byte, error) { return OpenAPI(a.games) })
	if a.base != "" {
		// The public origin may front the API under another host
		// (a CDN): its pages' forms are the service's own.
		if err := a.forms.AddTrustedOrigin(a.base); err != nil && d.Log != nil {
			d.Log.Warn("base URL not trusted as the pages' origin", "err", err)
		}
	}
	if a.log == nil {
		a.log = slog.Default()
	}
	if a.now == nil {
		a.now = time.Now
	}
	if d.Extra != nil {
		d.Extra(mux)
	}
	// Answers are compressed (for the clients that accept gzip: API
	// Gateway's HTTP API compresses nothing) inside the middleware, which
	// sets the headers of every answer and logs its final status; what a
	// handler that panics had written is kept there, never sent, and the
	// middleware's error page goes out instead.
	return a.middleware(httpgzip.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A path no route has for any method gets the service's own 404
		// page rather than Go's bare text; a known path with the wrong
		// method still gets the mux's 405.
		if _, p := mux.Handler(r); p == "" {
			get := r.Clone(r.Context())
			get.Method = http.MethodGet
			if _, p := mux.Handler(get); p == "" {
				a.notFound(w, r)
				return
			}
		}
		mux.ServeHTTP(w, r)
	})))
}

type ctxKey int

const (
	reqIDKey ctxKey = iota
	mailboxKey
)

// middleware limits bodies, sets the safety headers, tags the request with
// an id and logs it — path only: queries carry tokens, which are never
// logged.
func (a *api) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if id == "" || len(id) > 64 {
			var b [8]byte
			_, _ = rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		ctx := context.WithValue(r.Context(), reqIDKey, id)
		if a.mailbox != "" {
			ctx = context.WithValue(ctx, mailboxKey, a.mailbox)
		}
		h := w.Header()
		h.Set("X-Request-Id", id)
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Security-Policy", csp)
		if carriesToken(r) {
			// A page opened by a signed link is a player's own: search
			// engines that reach one (a forwarded mail, a scanner) must
			// not index it or follow its links.
			h.Set("X-Robots-Tag", "noindex, nofollow")
		}
		limit := int64(MaxBody)
		if r.URL.Path == "/api/records" || r.URL.Path == "/records" {
			limit = MaxRecordBody // a whole game
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		sw := &statusWriter{ResponseWriter: w, status: 200}
		defer func() {
			if p := recover(); p != nil {
				a.log.ErrorContext(ctx, "panic", "request_id", id, "path", r.URL.Path, "panic", fmt.Sprint(p))
				if !sw.wrote {
					a.fail(sw, r.WithContext(ctx), service.Fail(service.CodeInternal, fmt.Errorf("panic: %v", p)))
				}
			}
			a.log.InfoContext(ctx, "request", "request_id", id, "method", r.Method, "path", r.URL.Path,
				"status", sw.status, "ms", time.Since(start).Milliseconds())
		}()
		next.ServeHTTP(sw, r.WithContext(ctx))
	})
}

// carriesToken tells whether a request bears a signed link's token: in
// its query (pages opened from mail) or as a bearer (the API).
func carriesToken(r *http.Request) bool {
	return r.URL.Query().Get("t") != "" || r.Header.Get("Authorization") != ""
}

// csp lets a page use its inline styles and the one inline script of
// the templates (by its hash), and nothing from anywhere else.
var csp = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; script-src '" + templates.ScriptHash +
	"'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// statusOf is the one table from error code to HTTP status.
var statusOf = map[service.Code]int{
	service.CodeInvalid:      http.StatusBadRequest,
	service.CodeUnauthorized: http.StatusUnauthorized,
	service.CodeForbidden:    http.StatusForbidden,
	service.CodeNotFound:     http.StatusNotFound,
	service.CodeConflict:     http.StatusConflict,
	service.CodeNotYourTurn:  http.StatusConflict,
	service.CodeIllegal:      http.StatusUnprocessableEntity,
	service.CodeGameOver:     http.StatusGone,
	service.CodeWrongStatus:  http.StatusConflict,
	service.CodeTooLarge:     http.StatusRequestEntityTooLarge,
	service.CodeMediaType:    http.StatusUnsupportedMediaType,
	service.CodeKeyReused:    http.StatusUnprocessableEntity,
	service.CodeTooMany:      http.StatusTooManyRequests,
	// The request was fine; the game cannot be stored any larger. 507
	// (Insufficient Storage), a server's condition, is logged as an error
	// for the operator, with the player told what happened.
	service.CodeItemTooLarge: http.StatusInsufficientStorage,
	service.CodeInternal:     http.StatusInternalServerError,
}

// lang picks the reader's language (httplang.Of).
func lang(r *http.Request) string { return httplang.Of(r) }

// errorBody is the JSON of every failure.
type errorBody struct {
	Error struct {
		Code    service.Code `json:"code"`
		Message string       `json:"message"`
	} `json:"error"`
	RequestID string `json:"request_id"`
	// Version and View come with a conflict: the current state to retry on.
	Version int64 `json:"version,omitempty"`
	View    any   `json:"view,omitempty"`
}

// classify turns any error into a service error, logging internal causes.
func (a *api) classify(r *http.Request, err error) (*service.Error, int) {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		err = service.Fail(service.CodeTooLarge, err)
	}
	e := service.AsError(err)
	status, ok := statusOf[e.Code]
	if !ok {
		status = http.StatusInternalServerError
	}
	attrs := []any{"request_id", r.Context().Value(reqIDKey), "path", r.URL.Path, "code", e.Code, "err", err.Error()}
	if id := r.PathValue("id"); id != "" {
		attrs = append(attrs, "game", id)
	}
	if status >= 500 {
		a.log.ErrorContext(r.Context(), "request failed", attrs...)
	} else {
		a.log.InfoContext(r.Context(), "request refused", attrs...)
	}
	return e, status
}

// retryAfter says when a refusal over a limit can be retried.
func retryAfter(w http.ResponseWriter, e *service.Error) {
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((e.RetryAfter+time.Second-1)/time.Second)))
	}
}

// clientAddr is the address of the client a request came from, which the
// limits count: RemoteAddr, which on Lambda is API Gateway's
// requestContext.http.sourceIp (infra/lambdahttp). X-Forwarded-For is not
// read: a client writes what it likes there.
func clientAddr(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// fail answers a JSON error.
func (a *api) fail(w http.ResponseWriter, r *http.Request, err error) {
	a.failWith(w, r, err, 0, nil)
}

func (a *api) failWith(w http.ResponseWriter, r *http.Request, err error, version int64, view any) {
	e, status := a.classify(r, err)
	retryAfter(w, e)
	var body errorBody
	body.Error.Code = e.Code
	body.Error.Message = e.Message(lang(r))
	body.RequestID, _ = r.Context().Value(reqIDKey).(string)
	body.Version, body.View = version, view
	writeJSON(w, status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	_ = enc.Encode(v) // the client went away: nothing to do
}

// decodeJSON reads exactly one JSON object with no unknown fields, from a
// body that says it is JSON in UTF-8 (RFC 8259 §8.1) and is: text that is
// not UTF-8, or a string with a lone surrogate escape (which
// encoding/json would turn into U+FFFD), is refused as a form's would be
// (service.NotUTF8), and so is an object that gives a name twice.
func decodeJSON(r *http.Request, v any) error {
	if err := jsonContentType(r); err != nil {
		return err
	}
	body, err := readBody(r)
	if err != nil {
		return err
	}
	return decodeJSONBody(body, v)
}

// jsonContentType refuses a request that does not say it is JSON in UTF-8.
func jsonContentType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return service.Fail(service.CodeMediaType, fmt.Errorf("content type %q", ct))
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return service.Fail(service.CodeMediaType, fmt.Errorf("charset %q", cs))
	}
	return nil
}

// readBody reads a JSON request's body: one over MaxBody is too large.
func readBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, service.Fail(service.CodeTooLarge, err)
		}
		return nil, badJSON(err)
	}
	return body, nil
}

// decodeJSONBody is decodeJSON once the body is read.
func decodeJSONBody(body []byte, v any) error {
	if !utf8.Valid(body) {
		return service.NotUTF8(errors.New("the JSON body is not UTF-8"))
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badJSON(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return badJSON(errors.New("trailing data after the JSON object"))
	}
	return jsonText(body)
}

// jsonText refuses, in a body that encoding/json has read, what it lets
// through: bytes that are not UTF-8 and lone surrogate escapes, which it
// turns into U+FFFD, and names given twice in an object, of which it
// keeps the last. jsontext (encoding/json/v2's reader) holds strings to
// RFC 8259's UTF-8 and names to once each.
func jsonText(body []byte) error {
	if !utf8.Valid(body) {
		return service.NotUTF8(errors.New("the JSON body is not UTF-8"))
	}
	_, err := jsontext.NewDecoder(bytes.NewReader(body)).ReadValue()
	switch {
	case errors.Is(err, jsontext.ErrDuplicateName):
		return &service.Error{Code: service.CodeInvalid, RU: "Неверный JSON: одно имя в объекте дважды.", EN: "Invalid JSON: an object gives a name twice.", Cause: err}
	case err != nil:
		return service.NotUTF8(err)
	}
	return nil
}

// decodeOptionalJSON is decodeJSON for a body that may be left out: an
// empty body (whatever its Content-Type says) leaves v as it is.
func decodeOptionalJSON(r *http.Request, v any) error {
	body, err := readBody(r)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if err := jsonContentType(r); err != nil {
		return err
	}
	return decodeJSONBody(body, v)
}

func badJSON(err error) error {
	msg := err.Error()
	if len(msg) > 200 {
		msg = msg[:200]
	}
	return &service.Error{Code: service.CodeInvalid, RU: "Неверный JSON: " + msg, EN: "Invalid JSON: " + msg, Cause: err}
}

// bearer reads the token of an API request.
func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if t, ok := strings.CutPrefix(h, "Bearer "); ok {
		return strings.TrimSpace(t)
	}
	return ""
}

func (a *api) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}
