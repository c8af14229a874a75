// Package httplang picks the language of a request's reader, the same
// way for the service's pages and the local mailbox.
package httplang

import (
	"net/http"
	"strings"
)

// Of picks the reader's language: ?lang=, then Accept-Language; Russian
// unless English is asked for first.
func Of(r *http.Request) string {
	if l := r.URL.Query().Get("lang"); l == "ru" || l == "en" {
		return l
	}
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag := strings.ToLower(strings.TrimSpace(strings.SplitN(part, ";", 2)[0]))
		switch {
		case strings.HasPrefix(tag, "ru"):
			return "ru"
		case strings.HasPrefix(tag, "en"):
			return "en"
		}
	}
	return "ru"
}
