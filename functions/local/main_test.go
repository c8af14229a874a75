package main

import "testing"

// TestListensOnLoopback (issue 10, 16): the local runner listens on the
// loopback interface by default — its mailbox shows every signed link —
// and only a flag or PBM_LISTEN widens it.
func TestListensOnLoopback(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{nil, nil, "127.0.0.1"},
		{[]string{"-listen", "0.0.0.0"}, nil, "0.0.0.0"},
		{nil, map[string]string{"PBM_LISTEN": "::"}, "::"},
	} {
		o, err := parseOptions(tc.args, env(tc.env))
		if err != nil {
			t.Fatal(err)
		}
		if o.listen != tc.want || o.port != "8080" || o.dataDir != ".local" {
			t.Errorf("%v %v: %+v, want listen %s", tc.args, tc.env, o, tc.want)
		}
	}
}
