package config

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/pbmgames/pbm/infra/awsapi"
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
			name: "secrets manager instead",
			env:  with(EnvLinkKeysParam, "<unset>", EnvLinkKeysSecret, "arn:aws:secretsmanager:eu-west-1:123456789012:secret:pbm/link-keys-AbCdEf"),
			want: Config{Table: "pbm-Table-1ABC", LinkKeysSecret: "arn:aws:secretsmanager:eu-west-1:123456789012:secret:pbm/link-keys-AbCdEf"},
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
		{name: "no keys", env: with(EnvLinkKeysParam, "<unset>"), wantErr: []string{"set one of LINK_KEYS_PARAMETER", "LINK_KEYS_SECRET"}},
		{name: "both keys", env: with(EnvLinkKeysSecret, "pbm/link-keys"), wantErr: []string{"only one of LINK_KEYS_PARAMETER and LINK_KEYS_SECRET"}},
		{name: "parameter with space", env: with(EnvLinkKeysParam, "/pbm/link keys"), wantErr: []string{"LINK_KEYS_PARAMETER is not"}},
		{name: "secret with control char", env: with(EnvLinkKeysParam, "<unset>", EnvLinkKeysSecret, "pbm/\x01keys"), wantErr: []string{"LINK_KEYS_SECRET is not"}},
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
			env:     map[string]string{EnvTable: "pbm-Table-1ABC", EnvLinkKeysParam: "/a", EnvLinkKeysSecret: "b", EnvMailFrom: "nope"},
			wantErr: []string{"set only one of", "MAIL_FROM"},
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
	t.Setenv(EnvLinkKeysParam, "")
	t.Setenv(EnvLinkKeysSecret, "pbm/link-keys")
	t.Setenv(EnvBaseURL, "")
	t.Setenv(EnvMailFrom, "")
	t.Setenv(EnvSESConfiguration, "")
	c, err := FromEnv(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := (Config{Table: "pbm-table", LinkKeysSecret: "pbm/link-keys"}); c != want {
		t.Errorf("FromEnv = %+v, want %+v", c, want)
	}
	if got := c.KeySource(); got != "secretsmanager:pbm/link-keys" {
		t.Errorf("KeySource = %q", got)
	}
}

// The keyring JSON below holds a key that must never appear in an error.
const (
	secretKey   = "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldC0xMjM0NQ"
	goodKeyring = `{"current":"k1","keys":{"k1":"` + secretKey + `"}}`
)

// fakeAPI answers a call with a JSON answer, or fails; it keeps the
// operation and input it was called with.
type fakeAPI struct {
	answer string
	err    error
	op     string
	in     any
}

func (f *fakeAPI) call(_ context.Context, op string, in, out any) error {
	f.op, f.in = op, in
	if f.err != nil {
		return f.err
	}
	return json.Unmarshal([]byte(f.answer), out)
}

func TestFetchParameter(t *testing.T) {
	secure := func(v string) string {
		js, _ := json.Marshal(map[string]any{"Parameter": map[string]any{"Name": "/pbm/link-keys", "Type": "SecureString", "Value": v, "Version": 3}})
		return string(js)
	}
	tests := []struct {
		name    string
		api     *fakeAPI
		want    string
		wantErr string
	}{
		{name: "secure string", api: &fakeAPI{answer: secure(goodKeyring)}, want: goodKeyring},
		{name: "plain string refused", api: &fakeAPI{answer: `{"Parameter":{"Type":"String","Value":"x"}}`}, wantErr: "SecureString"},
		{name: "no value", api: &fakeAPI{answer: `{"Parameter":{"Type":"SecureString"}}`}, wantErr: "no value"},
		{name: "no parameter", api: &fakeAPI{answer: `{}`}, wantErr: "no value"},
		{name: "AWS error wrapped", api: &fakeAPI{err: &awsapi.APIError{Op: "GetParameter", Code: "ParameterNotFound", Status: 400}}, wantErr: "ParameterNotFound"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fetchParameter(context.Background(), tt.api.call, "/pbm/link-keys")
			if want := (getParameterInput{Name: "/pbm/link-keys", WithDecryption: true}); tt.api.op != "GetParameter" || tt.api.in != want {
				t.Errorf("called %s with %+v, want GetParameter with %+v", tt.api.op, tt.api.in, want)
			}
			checkFetch(t, got, err, tt.want, tt.wantErr)
		})
	}
}

func TestFetchSecret(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte(goodKeyring))
	tests := []struct {
		name    string
		api     *fakeAPI
		want    string
		wantErr string
	}{
		{name: "string", api: &fakeAPI{answer: `{"Name":"pbm/link-keys","SecretString":` + strconv.Quote(goodKeyring) + `}`}, want: goodKeyring},
		{name: "binary", api: &fakeAPI{answer: `{"Name":"pbm/link-keys","SecretBinary":"` + b64 + `"}`}, want: goodKeyring},
		{name: "empty", api: &fakeAPI{answer: `{"Name":"pbm/link-keys"}`}, wantErr: "no value"},
		{name: "AWS error wrapped", api: &fakeAPI{err: errors.New("AccessDeniedException")}, wantErr: "AccessDeniedException"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fetchSecret(context.Background(), tt.api.call, "pbm/link-keys")
			if want := (getSecretValueInput{SecretId: "pbm/link-keys"}); tt.api.op != "GetSecretValue" || tt.api.in != want {
				t.Errorf("called %s with %+v, want GetSecretValue with %+v", tt.api.op, tt.api.in, want)
			}
			checkFetch(t, got, err, tt.want, tt.wantErr)
		})
	}
}

func checkFetch(t *testing.T, got []byte, err error, want, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("err = %v, want one mentioning %q", err, wantErr)
		}
		if strings.Contains(err.Error(), secretKey) {
			t.Fatalf("error shows the key: %v", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestKeyringNeverShown: a fetched keyring, printed or logged, shows key
// ids only; a malformed one fails without quoting it.
func TestKeyringNeverShown(t *testing.T) {
	c := Config{Table: "pbm-table", LinkKeysParameter: "/pbm/link-keys"}
	fake := &fakeAPI{answer: `{"Parameter":{"Type":"SecureString","Value":` + strconv.Quote(goodKeyring) + `}}`}
	data, err := fetchParameter(context.Background(), fake.call, c.LinkKeysParameter)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := parseKeys(c, data)
	if err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("loaded", "keys", keys, "config", c)
	for _, s := range []string{fmt.Sprint(keys), fmt.Sprintf("%#v", keys), fmt.Sprintf("%+v", c), logged.String()} {
		if strings.Contains(s, secretKey) {
			t.Errorf("key material shown: %s", s)
		}
	}

	broken := `{"current":"k1","keys":{"k1":"` + secretKey + `"},"extra":"` + secretKey + `"}`
	if _, err := parseKeys(c, []byte(broken)); err == nil {
		t.Fatal("malformed keyring accepted")
	} else if strings.Contains(err.Error(), secretKey) || !strings.Contains(err.Error(), "ssm:/pbm/link-keys") {
		t.Errorf("error %q: want the source named and the key not shown", err)
	}
}

func TestLambdaAWS(t *testing.T) {
	lambdaEnv := map[string]string{
		"AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "ASIAEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "token",
	}
	cfg, err := lambdaAWS(lookupIn(lambdaEnv))
	if err != nil {
		t.Fatal(err)
	}
	creds, err := cfg.Credentials.Retrieve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Region != "eu-west-1" || creds.AccessKeyID != "ASIAEXAMPLE" || creds.SecretAccessKey != "secret" ||
		creds.SessionToken != "token" || cfg.BaseEndpoint != nil {
		t.Errorf("got region %q, credentials %+v, endpoint %v", cfg.Region, creds, cfg.BaseEndpoint)
	}

	cfg, err = lambdaAWS(lookupIn(map[string]string{
		"AWS_DEFAULT_REGION": "us-east-1", "AWS_ACCESS_KEY": "id", "AWS_SECRET_KEY": "s", "AWS_ENDPOINT_URL": "http://127.0.0.1:4566",
	}))
	if err != nil || cfg.Region != "us-east-1" || aws.ToString(cfg.BaseEndpoint) != "http://127.0.0.1:4566" {
		t.Errorf("fallback names: %+v, %v", cfg, err)
	}

	for name, env := range map[string]map[string]string{
		"no region":      {"AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "s"},
		"no credentials": {"AWS_REGION": "eu-west-1"},
		"no secret":      {"AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "id"},
	} {
		if _, err := lambdaAWS(lookupIn(env)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
