package lambdaenv

import (
	"bytes"
	"context"
	"encoding/base64"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/pbmgames/pbm/infra/config"
	"github.com/pbmgames/pbm/infra/linkkeys"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestKeysAtFirstUse: Load reads no key; the first Keys reads them from
// SSM, once, and later calls keep them; a read that fails is tried again
// at the next call, which succeeds once the parameter exists; KeysPending
// says whether they are still to be read.
func TestKeysAtFirstUse(t *testing.T) {
	keyring := `{"current":"k1","keys":{"k1":"` + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32)) + `"}}`
	creds := aws.Credentials{AccessKeyID: "ASIAFIRSTUSETEST0001", SecretAccessKey: "first/use/secret", SessionToken: "first-use-session"}
	ssm := testenv.NewSecrets(t, creds, "eu-west-1", nil)
	none := filepath.Join(t.TempDir(), "none")
	for k, v := range map[string]string{
		config.EnvTable: "pbm", config.EnvLinkKeysParam: "/pbm/link-keys", "AWS_ENDPOINT_URL_SSM": ssm.URL,
		"AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": creds.AccessKeyID, "AWS_SECRET_ACCESS_KEY": creds.SecretAccessKey,
		"AWS_SESSION_TOKEN": creds.SessionToken, "AWS_CONFIG_FILE": none, "AWS_SHARED_CREDENTIALS_FILE": none, "AWS_PROFILE": "",
	} {
		t.Setenv(k, v)
	}
	env, err := Load(context.Background(), slog.New(slog.DiscardHandler), config.NeedLinkKeys, linkkeys.ReadFunc)
	if err != nil {
		t.Fatal(err)
	}
	if env.AWS.Region != "eu-west-1" {
		t.Errorf("the AWS configuration's region is %q, want the environment's", env.AWS.Region)
	}
	if n := ssm.Reads.Load(); n != 0 {
		t.Fatalf("%d reads of the keys by Load, want none before their first use", n)
	}
	if !env.KeysPending() {
		t.Error("KeysPending before any read: false")
	}
	if keys, err := env.Keys(); err == nil || keys != nil {
		t.Fatalf("Keys before the parameter exists: %v, %v; want an error", keys, err)
	}
	if !env.KeysPending() {
		t.Error("KeysPending after a failed read: false")
	}
	ssm.Put("/pbm/link-keys", keyring)
	for range 3 {
		if keys, err := env.Keys(); err != nil || keys == nil {
			t.Fatalf("Keys: %v, %v", keys, err)
		}
	}
	if env.KeysPending() {
		t.Error("KeysPending once the keys are read: true")
	}
	if n := ssm.Reads.Load(); n != 1 {
		t.Errorf("%d reads of the keys in three uses after a failed one, want 1", n)
	}
}

// TestNoReader: a function that needs link keys and is given no reader
// of them fails its init rather than serving without keys.
func TestNoReader(t *testing.T) {
	t.Setenv(config.EnvTable, "pbm")
	t.Setenv(config.EnvLinkKeysParam, "/pbm/link-keys")
	t.Setenv("AWS_REGION", "eu-west-1")
	if _, err := Load(context.Background(), slog.New(slog.DiscardHandler), config.NeedLinkKeys, nil); err == nil {
		t.Fatal("loaded without a reader of the keys")
	}
}
