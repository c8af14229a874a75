package httpapi_test

import (
	"net/http"
	"testing"
)

// TestTokenPagesNotIndexed (issue 16): every answer to a request that
// bears a link's token — a page opened from a mail, an API call with its
// bearer — tells search engines not to index it or follow its links;
// the public pages (home, rules) may be indexed.
func TestTokenPagesNotIndexed(t *testing.T) {
	f := newPageFixture(t)
	for _, tc := range []struct {
		path, bearer string
		noindex      bool
	}{
		{"/", "", false},
		{"/rules/" + testGames.Engines().List()[0].Kind, "", false},
		{"/me?t=v1.k1.not-a-token", "", true},
		{"/g/some-game?t=v1.k1.not-a-token", "", true},
		{"/api/games/some-game", "v1.k1.not-a-token", true},
	} {
		req, err := http.NewRequest(http.MethodGet, f.srv.URL+tc.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tc.bearer != "" {
			req.Header.Set("Authorization", "Bearer "+tc.bearer)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("X-Robots-Tag") == "noindex, nofollow"; got != tc.noindex {
			t.Errorf("%s (bearer %q): X-Robots-Tag %q, want noindex %v", tc.path, tc.bearer, resp.Header.Get("X-Robots-Tag"), tc.noindex)
		}
	}
}
