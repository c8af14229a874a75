package config

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
	ssmtypes "github.com/aws/aws-sdk-go-v2/service/ssm/types"
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

type fakeSSM struct {
	param *ssmtypes.Parameter
	err   error
	got   *ssm.GetParameterInput
}

func (f *fakeSSM) GetParameter(_ context.Context, in *ssm.GetParameterInput, _ ...func(*ssm.Options)) (*ssm.GetParameterOutput, error) {
	f.got = in
	if f.err != nil {
		return nil, f.err
	}
	return &ssm.GetParameterOutput{Parameter: f.param}, nil
}

type fakeSecrets struct {
	out *secretsmanager.GetSecretValueOutput
	err error
}

func (f *fakeSecrets) GetSecretValue(_ context.Context, in *secretsmanager.GetSecretValueInput, _ ...func(*secretsmanager.Options)) (*secretsmanager.GetSecretValueOutput, error) {
	if f.err != nil {
		return nil, f.err
	}
	return f.out, nil
}

func TestFetchParameter(t *testing.T) {
	secure := func(v string) *ssmtypes.Parameter {
		return &ssmtypes.Parameter{Type: ssmtypes.ParameterTypeSecureString, Value: aws.String(v)}
	}
	tests := []struct {
		name    string
		client  *fakeSSM
		want    string
		wantErr string
	}{
		{name: "secure string", client: &fakeSSM{param: secure(goodKeyring)}, want: goodKeyring},
		{name: "plain string refused", client: &fakeSSM{param: &ssmtypes.Parameter{Type: ssmtypes.ParameterTypeString, Value: aws.String(goodKeyring)}}, wantErr: "SecureString"},
		{name: "no value", client: &fakeSSM{param: &ssmtypes.Parameter{Type: ssmtypes.ParameterTypeSecureString}}, wantErr: "no value"},
		{name: "AWS error wrapped", client: &fakeSSM{err: errors.New("ParameterNotFound")}, wantErr: "ParameterNotFound"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fetchParameter(context.Background(), tt.client.GetParameter, "/pbm/link-keys")
			if tt.client.got == nil || aws.ToString(tt.client.got.Name) != "/pbm/link-keys" || !aws.ToBool(tt.client.got.WithDecryption) {
				t.Errorf("GetParameter input %+v: want the name, WithDecryption", tt.client.got)
			}
			checkFetch(t, got, err, tt.want, tt.wantErr)
		})
	}
}

func TestFetchSecret(t *testing.T) {
	tests := []struct {
		name    string
		client  *fakeSecrets
		want    string
		wantErr string
	}{
		{name: "string", client: &fakeSecrets{out: &secretsmanager.GetSecretValueOutput{SecretString: aws.String(goodKeyring)}}, want: goodKeyring},
		{name: "binary", client: &fakeSecrets{out: &secretsmanager.GetSecretValueOutput{SecretBinary: []byte(goodKeyring)}}, want: goodKeyring},
		{name: "empty", client: &fakeSecrets{out: &secretsmanager.GetSecretValueOutput{}}, wantErr: "no value"},
		{name: "AWS error wrapped", client: &fakeSecrets{err: errors.New("AccessDeniedException")}, wantErr: "AccessDeniedException"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fetchSecret(context.Background(), tt.client.GetSecretValue, "pbm/link-keys")
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
	fake := &fakeSSM{param: &ssmtypes.Parameter{Type: ssmtypes.ParameterTypeSecureString, Value: aws.String(goodKeyring)}}
	data, err := fetchParameter(context.Background(), fake.GetParameter, c.LinkKeysParameter)
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
