package config

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func lookupIn(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}
}

func TestParse(t *testing.T) {
	base := map[string]string{EnvTable: "pbm-Table-1ABC", EnvLinkKeysParam: "/pbm/link-keys"}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "<unset>" {
				delete(m, kv[i])
			} else {
				m[kv[i]] = kv[i+1]
			}
		}
		return m
	}
	tests := []struct {
		name    string
		env     map[string]string
		want    Config
		wantErr []string // substrings of the error, all required
	}{
		{
			name: "minimal with SSM parameter",
			env:  base,
			want: Config{Table: "pbm-Table-1ABC", LinkKeysParameter: "/pbm/link-keys"},
		},
		{
			// Secrets Manager is no longer read: a deployment that still
			// names a secret is told where the keys go, with or without a
			// parameter beside it.
			name:    "a Secrets Manager secret instead",
			env:     with(EnvLinkKeysParam, "<unset>", EnvLinkKeysSecret, "arn:aws:secretsmanager:eu-west-1:123456789012:secret:pbm/link-keys-AbCdEf"),
			wantErr: []string{"LINK_KEYS_SECRET is no longer read", "SSM SecureString", "LINK_KEYS_PARAMETER"},
		},
		{
			name:    "a Secrets Manager secret beside the parameter",
			env:     with(EnvLinkKeysSecret, "pbm/link-keys"),
			wantErr: []string{"LINK_KEYS_SECRET is no longer read"},
		},
		{
			name: "everything set, trimmed, base URL without trailing slash",
			env: with(EnvBaseURL, " https://pbm.example/ ", EnvMailFrom, "Play by mail <pbm@example.org>",
				EnvSESConfiguration, "pbm-mail", EnvTable, "arn:aws:dynamodb:eu-west-1:123456789012:table/pbm"),
			want: Config{Table: "arn:aws:dynamodb:eu-west-1:123456789012:table/pbm", LinkKeysParameter: "/pbm/link-keys",
				BaseURL: "https://pbm.example", MailFrom: "Play by mail <pbm@example.org>", SESConfigurationSet: "pbm-mail"},
		},
		{
			name: "empty optional values count as unset",
			env:  with(EnvBaseURL, "", EnvMailFrom, "  ", EnvSESConfiguration, ""),
			want: Config{Table: "pbm-Table-1ABC", LinkKeysParameter: "/pbm/link-keys"},
		},
		{
			name: "base URL with a path prefix",
			env:  with(EnvBaseURL, "http://localhost:8080/pbm/"),
			want: Config{Table: "pbm-Table-1ABC", LinkKeysParameter: "/pbm/link-keys", BaseURL: "http://localhost:8080/pbm"},
		},
		{
			name: "limits on the games made",
			env: with(EnvGamesPerOrganiserHour, "3", EnvGamesPerOrganiserDay, " 10 ", EnvGamesPerClientHour, "0",
				EnvGamesPerClientDay, "100", EnvConfirmedDays, "30"),
			want: Config{Table: "pbm-Table-1ABC", LinkKeysParameter: "/pbm/link-keys",
				GamesPerOrganiserHour: 3, GamesPerOrganiserDay: 10, GamesPerClientDay: 100, ConfirmedDays: 30},
		},
		{name: "negative limit", env: with(EnvGamesPerClientHour, "-1"), wantErr: []string{"GAMES_PER_CLIENT_HOUR", "whole number"}},
		{name: "limit not a number", env: with(EnvGamesPerOrganiserDay, "ten"), wantErr: []string{"GAMES_PER_ORGANISER_DAY"}},
		{name: "confirmed days over ten years", env: with(EnvConfirmedDays, "5000"), wantErr: []string{"CONFIRMED_DAYS"}},
		{name: "no table", env: with(EnvTable, "<unset>"), wantErr: []string{"TABLE_NAME is required"}},
		{name: "blank table", env: with(EnvTable, "   "), wantErr: []string{"TABLE_NAME is required"}},
		{name: "bad table", env: with(EnvTable, "a b"), wantErr: []string{"TABLE_NAME", "not a DynamoDB table name"}},
		{name: "short table", env: with(EnvTable, "ab"), wantErr: []string{"TABLE_NAME"}},
		{name: "no keys", env: with(EnvLinkKeysParam, "<unset>"), wantErr: []string{"LINK_KEYS_PARAMETER is required", "SSM SecureString"}},
		{name: "parameter with control char", env: with(EnvLinkKeysParam, "/pbm/\x01keys"), wantErr: []string{"LINK_KEYS_PARAMETER is not"}},
		{name: "parameter with space", env: with(EnvLinkKeysParam, "/pbm/link keys"), wantErr: []string{"LINK_KEYS_PARAMETER is not"}},
		{name: "base URL not http", env: with(EnvBaseURL, "ftp://pbm.example"), wantErr: []string{"BASE_URL", "https://"}},
		{name: "base URL relative", env: with(EnvBaseURL, "pbm.example"), wantErr: []string{"BASE_URL"}},
		{name: "base URL with query", env: with(EnvBaseURL, "https://pbm.example/?a=1"), wantErr: []string{"BASE_URL", "scheme, host and path only"}},
		{name: "base URL with fragment", env: with(EnvBaseURL, "https://pbm.example/#x"), wantErr: []string{"BASE_URL"}},
		{name: "base URL with user", env: with(EnvBaseURL, "https://u:p@pbm.example"), wantErr: []string{"BASE_URL"}},
		{name: "bad mail from", env: with(EnvMailFrom, "not an address"), wantErr: []string{"MAIL_FROM"}},
		{name: "bad configuration set", env: with(EnvSESConfiguration, "has space"), wantErr: []string{"SES_CONFIGURATION_SET"}},
		{
			name:    "every problem reported at once",
			env:     map[string]string{EnvBaseURL: "x", EnvMailFrom: "y"},
			wantErr: []string{"TABLE_NAME", "LINK_KEYS_PARAMETER", "BASE_URL", "MAIL_FROM"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(lookupIn(tt.env))
			if len(tt.wantErr) > 0 {
				if err == nil {
					t.Fatalf("Parse = %+v, want an error", got)
				}
				for _, s := range tt.wantErr {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q does not mention %q", err, s)
					}
				}
				if got != (Config{}) {
					t.Errorf("Parse returned %+v with its error, want the zero Config", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got != tt.want {
				t.Errorf("Parse =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
}

func TestParseFor(t *testing.T) {
	mailEnv := map[string]string{
		EnvTable: "pbm-Table-1ABC", EnvLinkKeysParam: "/pbm/link-keys", EnvBaseURL: "https://pbm.example/",
		EnvMailFrom: "Play by mail <pbm@pbm.example>", EnvSESConfiguration: "pbm-mail",
	}
	without := func(env map[string]string, keys ...string) map[string]string {
		m := map[string]string{}
		for k, v := range env {
			if !slices.Contains(keys, k) {
				m[k] = v
			}
		}
		return m
	}
	tests := []struct {
		name    string
		env     map[string]string
		need    Need
		want    Config
		wantErr []string
	}{
		{
			name: "mail sender, everything set",
			env:  mailEnv,
			need: NeedLinkKeys | NeedMail,
			want: Config{Table: "pbm-Table-1ABC", LinkKeysParameter: "/pbm/link-keys", BaseURL: "https://pbm.example",
				MailFrom: "Play by mail <pbm@pbm.example>", SESConfigurationSet: "pbm-mail"},
		},
		{
			name:    "mail sender without its mail settings",
			env:     without(mailEnv, EnvMailFrom, EnvSESConfiguration, EnvBaseURL),
			need:    NeedLinkKeys | NeedMail,
			wantErr: []string{"MAIL_FROM is required", "SES_CONFIGURATION_SET is required", "BASE_URL is required"},
		},
		{
			name:    "mail sender without keys",
			env:     without(mailEnv, EnvLinkKeysParam),
			need:    NeedLinkKeys | NeedMail,
			wantErr: []string{"LINK_KEYS_PARAMETER"},
		},
		{
			name: "table only: no keys, no mail settings",
			env:  map[string]string{EnvTable: "pbm-Table-1ABC"},
			want: Config{Table: "pbm-Table-1ABC"},
		},
		{
			name:    "table only: still needs the table",
			env:     map[string]string{EnvMailFrom: "pbm@pbm.example"},
			wantErr: []string{"TABLE_NAME is required"},
		},
		{
			name:    "table only: what is set is still checked",
			env:     map[string]string{EnvTable: "pbm-Table-1ABC", EnvLinkKeysParam: "/a b", EnvMailFrom: "nope"},
			wantErr: []string{"LINK_KEYS_PARAMETER is not", "MAIL_FROM"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFor(lookupIn(tt.env), tt.need)
			if len(tt.wantErr) > 0 {
				if err == nil {
					t.Fatalf("ParseFor = %+v, want an error", got)
				}
				for _, s := range tt.wantErr {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q does not mention %q", err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseFor: %v", err)
			}
			if got != tt.want {
				t.Errorf("ParseFor =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
	if got := (Config{Table: "t"}).KeySource(); got != "none" {
		t.Errorf("KeySource without keys = %q, want none", got)
	}
}

func TestFromEnvFor(t *testing.T) {
	t.Setenv(EnvTable, "pbm-table")
	t.Setenv(EnvLinkKeysParam, "")
	t.Setenv(EnvLinkKeysSecret, "")
	t.Setenv(EnvMailFrom, "pbm@pbm.example")
	c, err := FromEnvFor(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Config{Table: "pbm-table", MailFrom: "pbm@pbm.example"}); c != want {
		t.Errorf("FromEnvFor = %+v, want %+v", c, want)
	}
	if _, err := FromEnvFor(context.Background(), NeedMail); err == nil {
		t.Error("FromEnvFor(NeedMail) without BASE_URL and SES_CONFIGURATION_SET: no error")
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv(EnvTable, "pbm-table")
	t.Setenv(EnvLinkKeysParam, "/pbm/link-keys")
	t.Setenv(EnvLinkKeysSecret, "")
	t.Setenv(EnvBaseURL, "")
	t.Setenv(EnvMailFrom, "")
	t.Setenv(EnvSESConfiguration, "")
	c, err := FromEnv(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := (Config{Table: "pbm-table", LinkKeysParameter: "/pbm/link-keys"}); c != want {
		t.Errorf("FromEnv = %+v, want %+v", c, want)
	}
	if got := c.KeySource(); got != "ssm:/pbm/link-keys" {
		t.Errorf("KeySource = %q", got)
	}
}
