// Package web builds the HTTP API and the pages of a wired deployment.
// It is apart from package wiring so that only the programs that serve
// HTTP (the api function, the local run) link package httpapi and run its
// initialisation: the notify and sweep functions are 0.13 MB lighter
// without it.
package web

import (
	"net/http"
	"sync"

	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/wiring"
)

// Handler is the HTTP API and the pages of a.
func Handler(a *wiring.App) http.Handler { return On(httpapi.NewRouter(), a) }

// On is the HTTP API and the pages of a, on routes made beforehand
// (httpapi.NewRouter).
func On(routes *httpapi.Router, a *wiring.App) http.Handler {
	w := a.Web()
	return routes.Serve(httpapi.Deps{Games: a.Games, Service: a.Service, Leagues: a.Leagues, Log: a.Log, BaseURL: w.BaseURL, Extra: w.Extra, MailboxURL: w.MailboxURL})
}

// Lazy is Handler made at its first request rather than at once: the api
// function's init so leaves out registering some 75 routes in a
// ServeMux (0.35–0.5 ms, its conflict checks growing faster than the
// routes), as the pages leave their templates to their first use; the
// first request, which parses its page's templates anyway, pays it.
func Lazy(a *wiring.App) http.Handler {
	h := sync.OnceValue(func() http.Handler { return Handler(a) })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h().ServeHTTP(w, r) })
}
