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

// Begun is Handler made on a goroutine of its own, begun at once, that
// its first request waits for: the api's main begins it before
// lambda.Start, so that registering 66 routes in a ServeMux
// (0.35–0.5 ms, its conflict checks growing faster than the routes)
// goes on beside the runtime's first request for an event, rather than
// after it, in the first answer's time. A panic making it is the first
// request's, as it was when the first request made it.
func Begun(a *wiring.App) http.Handler {
	type made struct {
		h      http.Handler
		panicV any
	}
	done := make(chan made, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- made{panicV: p}
			}
		}()
		done <- made{h: Handler(a)}
	}()
	h := sync.OnceValue(func() made { return <-done })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := h()
		if m.h == nil {
			panic(m.panicV)
		}
		m.h.ServeHTTP(w, r)
	})
}
