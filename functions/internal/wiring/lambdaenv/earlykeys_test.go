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

// TestStartKeys: in Lambda, the keys' read StartKeys starts is the one
// Load takes up (SSM is asked once), with the AWS configuration
// StartKeys loaded; outside Lambda StartKeys reads nothing, and Load
// reads the keys itself.
func TestStartKeys(t *testing.T) {
	keyring := `{"current":"k1","keys":{"k1":"` + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32)) + `"}}`
	creds := aws.Credentials{AccessKeyID: "ASIAEARLYKEYSTEST001", SecretAccessKey: "early/keys/secret", SessionToken: "early-session"}
	ssm := testenv.NewSecrets(t, creds, "eu-west-1", map[string]string{"/pbm/link-keys": keyring})
	none := filepath.Join(t.TempDir(), "none")
	for k, v := range map[string]string{
		config.EnvTable: "pbm", config.EnvLinkKeysParam: "/pbm/link-keys", "AWS_ENDPOINT_URL_SSM": ssm.URL,
		"AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": creds.AccessKeyID, "AWS_SECRET_ACCESS_KEY": creds.SecretAccessKey,
		"AWS_SESSION_TOKEN": creds.SessionToken, "AWS_CONFIG_FILE": none, "AWS_SHARED_CREDENTIALS_FILE": none, "AWS_PROFILE": "",
	} {
		t.Setenv(k, v)
	}
	t.Cleanup(func() { early.from, early.aws, early.keys = "", nil, nil })
	load := func() {
		t.Helper()
		env, err := Load(context.Background(), slog.New(slog.DiscardHandler), config.NeedLinkKeys, linkkeys.ReadFunc)
		if err != nil {
			t.Fatal(err)
		}
		if keys, err := env.Keys(); err != nil || keys == nil {
			t.Fatalf("Keys: %v, %v", keys, err)
		}
		if env.AWS.Region != "eu-west-1" {
			t.Errorf("the AWS configuration's region is %q, want the environment's", env.AWS.Region)
		}
	}

	t.Setenv("AWS_LAMBDA_RUNTIME_API", "")
	StartKeys(linkkeys.ReadFunc)
	if early.keys != nil || early.aws != nil {
		t.Fatal("StartKeys started a read outside Lambda")
	}
	load()
	if n := ssm.Reads.Load(); n != 1 {
		t.Fatalf("%d reads of the keys by Load alone, want 1", n)
	}

	t.Setenv("AWS_LAMBDA_RUNTIME_API", "127.0.0.1:9001")
	StartKeys(linkkeys.ReadFunc)
	if early.keys == nil || early.aws == nil {
		t.Fatal("StartKeys started no read in Lambda")
	}
	load()
	if n := ssm.Reads.Load(); n != 2 {
		t.Errorf("%d reads of the keys after StartKeys and Load, want 2 (one each before)", n)
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
