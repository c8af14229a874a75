package linkkeys_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	ssmtypes "github.com/aws/aws-sdk-go-v2/service/ssm/types"

	"github.com/pbmgames/pbm/infra/config"
	"github.com/pbmgames/pbm/infra/linkkeys"
	"github.com/pbmgames/pbm/infra/testenv"
)

// The keyring JSON below holds a key that must never appear in an error.
const (
	secretKey   = "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldC0xMjM0NQ"
	goodKeyring = `{"current":"k1","keys":{"k1":"` + secretKey + `"}}`
	region      = "eu-west-1"
)

var creds = aws.Credentials{AccessKeyID: "ASIALINKKEYSTEST0001", SecretAccessKey: "linkkeys/test/secret", SessionToken: "linkkeys-session"}

// lambdaAWS is the AWS configuration a function makes in Lambda
// (config.LoadDefaultConfig: the role's credentials and region from the
// environment, the endpoint from AWS_ENDPOINT_URL_SSM), here pointed at
// the stand-in and
// kept from any shared configuration file of the machine's.
func lambdaAWS(t *testing.T, s *testenv.Secrets) aws.Config {
	t.Helper()
	none := filepath.Join(t.TempDir(), "none")
	for k, v := range map[string]string{
		"AWS_REGION": region, "AWS_ACCESS_KEY_ID": creds.AccessKeyID, "AWS_SECRET_ACCESS_KEY": creds.SecretAccessKey,
		"AWS_SESSION_TOKEN": creds.SessionToken, "AWS_CONFIG_FILE": none, "AWS_SHARED_CREDENTIALS_FILE": none, "AWS_PROFILE": "",
		"AWS_ENDPOINT_URL": "", "AWS_ENDPOINT_URL_SSM": s.URL,
	} {
		t.Setenv(k, v)
	}
	cfg, err := awsconfig.LoadDefaultConfig(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func read(t *testing.T, s *testenv.Secrets, c config.Config) error {
	t.Helper()
	r, err := linkkeys.New(lambdaAWS(t, s), c)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := r.Read(context.Background())
	if err == nil && keys == nil {
		t.Fatal("no keys and no error")
	}
	if err != nil && strings.Contains(err.Error(), secretKey) {
		t.Errorf("the error shows the key: %v", err)
	}
	return err
}

func TestFromSSM(t *testing.T) {
	s := testenv.NewSecrets(t, creds, region, map[string]string{"/pbm/link-keys": goodKeyring})
	if err := read(t, s, config.Config{LinkKeysParameter: "/pbm/link-keys"}); err != nil {
		t.Fatal(err)
	}
	arn := "arn:aws:ssm:eu-west-1:123456789012:parameter/pbm/link-keys"
	if err := read(t, s, config.Config{LinkKeysParameter: arn}); err != nil {
		t.Fatalf("by ARN: %v", err)
	}
	if s.Reads.Load() != 2 {
		t.Errorf("%d decrypted reads, want 2", s.Reads.Load())
	}

	err := read(t, s, config.Config{LinkKeysParameter: "/pbm/missing"})
	var notFound *ssmtypes.ParameterNotFound
	if !errors.As(err, &notFound) || !strings.Contains(err.Error(), "/pbm/missing") {
		t.Errorf("a missing parameter: %v; want SSM's ParameterNotFound, the parameter named", err)
	}

	s.PutPlain("/pbm/plain", goodKeyring)
	if err := read(t, s, config.Config{LinkKeysParameter: "/pbm/plain"}); err == nil || !strings.Contains(err.Error(), "SecureString") {
		t.Errorf("a String parameter: %v; want it refused, asking for a SecureString", err)
	}
}

// TestNoParameter: a reader of no parameter is refused when made, not
// at its first read.
func TestNoParameter(t *testing.T) {
	if _, err := linkkeys.New(aws.Config{}, config.Config{Table: "pbm-table"}); err == nil || !strings.Contains(err.Error(), config.EnvLinkKeysParam) {
		t.Errorf("no parameter: %v; want it refused, naming %s", err, config.EnvLinkKeysParam)
	}
}

// TestKeyringNeverShown: a read keyring, printed or logged, shows key ids
// only; a malformed one fails without quoting it, naming where it is.
func TestKeyringNeverShown(t *testing.T) {
	s := testenv.NewSecrets(t, creds, region, map[string]string{"/pbm/link-keys": goodKeyring})
	c := config.Config{Table: "pbm-table", LinkKeysParameter: "/pbm/link-keys"}
	r, err := linkkeys.New(lambdaAWS(t, s), c)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := r.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("loaded", "keys", keys, "config", c, "reader", r)
	for _, shown := range []string{fmt.Sprint(keys), fmt.Sprintf("%#v", keys), fmt.Sprintf("%+v", c), fmt.Sprintf("%+v", r), logged.String()} {
		if strings.Contains(shown, secretKey) {
			t.Errorf("key material shown: %s", shown)
		}
	}

	s.Put("/pbm/link-keys", `{"current":"k1","keys":{"k1":"`+secretKey+`"},"extra":"`+secretKey+`"}`)
	if err := read(t, s, c); err == nil {
		t.Fatal("malformed keyring accepted")
	} else if !strings.Contains(err.Error(), "ssm:/pbm/link-keys") {
		t.Errorf("error %q: want the source named", err)
	}
}
