package httplang

import (
	"net/http/httptest"
	"testing"
)

func TestOf(t *testing.T) {
	for _, c := range []struct{ url, accept, want string }{
		{"/", "", "ru"},
		{"/?lang=en", "ru", "en"},
		{"/?lang=de", "en-GB,en;q=0.8", "en"},
		{"/", "de, en;q=0.5, ru;q=0.9", "en"},
		{"/", "ru-RU, en", "ru"},
		{"/", "de", "ru"},
	} {
		r := httptest.NewRequest("GET", c.url, nil)
		r.Header.Set("Accept-Language", c.accept)
		if got := Of(r); got != c.want {
			t.Errorf("%s with Accept-Language %q: %s, want %s", c.url, c.accept, got, c.want)
		}
	}
}
