package lambdaenv

import (
	"bytes"
	"context"
	"encoding/base64"
	"log/slog"
	"strconv"
	"testing"

	"github.com/pbmgames/pbm/infra/awsapi/awsapitest"
	"github.com/pbmgames/pbm/infra/config"
)

// TestStartKeys: in Lambda, the keys' read StartKeys starts is the one
// Load takes up (SSM is asked once); outside Lambda StartKeys reads
// nothing, and Load reads the keys itself.
func TestStartKeys(t *testing.T) {
	keyring := `{"current":"k1","keys":{"k1":"` + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32)) + `"}}`
	srv, n := awsapitest.JSONServer(t, "1.1", "ssm", "AmazonSSM", func(_ int, in map[string]any) (int, string) {
		if in["Name"] != "/pbm/link-keys" || in["WithDecryption"] != true {
			t.Errorf("input %v", in)
		}
		return 200, `{"Parameter":{"Name":"/pbm/link-keys","Type":"SecureString","Value":` + strconv.Quote(keyring) + `}}`
	})
	for k, v := range map[string]string{
		config.EnvTable: "pbm", config.EnvLinkKeysParam: "/pbm/link-keys", "AWS_ENDPOINT_URL_SSM": srv.URL,
		"AWS_REGION": awsapitest.Region, "AWS_ACCESS_KEY_ID": awsapitest.KeyID, "AWS_SECRET_ACCESS_KEY": awsapitest.Secret,
		"AWS_SESSION_TOKEN": awsapitest.Token,
	} {
		t.Setenv(k, v)
	}
	t.Cleanup(func() { early.from, early.keys = "", nil })
	load := func() {
		t.Helper()
		env, err := Load(context.Background(), slog.New(slog.DiscardHandler), config.NeedLinkKeys)
		if err != nil {
			t.Fatal(err)
		}
		if keys, err := env.Keys(); err != nil || keys == nil {
			t.Fatalf("Keys: %v, %v", keys, err)
		}
	}

	t.Setenv("AWS_LAMBDA_RUNTIME_API", "")
	StartKeys()
	if early.keys != nil {
		t.Fatal("StartKeys started a read outside Lambda")
	}
	load()
	if n.Load() != 1 {
		t.Fatalf("%d reads of the keys by Load alone, want 1", n.Load())
	}

	t.Setenv("AWS_LAMBDA_RUNTIME_API", "127.0.0.1:9001")
	StartKeys()
	if early.keys == nil {
		t.Fatal("StartKeys started no read in Lambda")
	}
	load()
	if n.Load() != 2 {
		t.Errorf("%d reads of the keys after StartKeys and Load, want 2 (one each before)", n.Load())
	}
}
