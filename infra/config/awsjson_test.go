package config

import (
	"context"
	"strconv"
	"testing"

	"github.com/pbmgames/pbm/infra/awsapi/awsapitest"
)

func TestLoadKeyringFromSSM(t *testing.T) {
	srv, n := awsapitest.JSONServer(t, "1.1", "ssm", "AmazonSSM", func(_ int, in map[string]any) (int, string) {
		if in["op"] != "GetParameter" || in["Name"] != "/pbm/link-keys" || in["WithDecryption"] != true {
			t.Errorf("input %v", in)
		}
		return 200, `{"Parameter":{"ARN":"arn:aws:ssm:eu-west-1:123456789012:parameter/pbm/link-keys","DataType":"text",` +
			`"LastModifiedDate":1.717243200E9,"Name":"/pbm/link-keys","Type":"SecureString","Value":` + strconv.Quote(goodKeyring) + `,"Version":1}}`
	})
	keys, err := LoadKeyring(context.Background(), awsapitest.Config(srv.URL), Config{Table: "t", LinkKeysParameter: "/pbm/link-keys"})
	if err != nil || keys == nil {
		t.Fatalf("LoadKeyring: %v, %v", keys, err)
	}
	if n.Load() != 1 {
		t.Errorf("%d requests, want 1", n.Load())
	}
}

func TestLoadKeyringFromSecretsManager(t *testing.T) {
	srv, _ := awsapitest.JSONServer(t, "1.1", "secretsmanager", "secretsmanager", func(_ int, in map[string]any) (int, string) {
		if in["op"] != "GetSecretValue" || in["SecretId"] != "pbm/link-keys" {
			t.Errorf("input %v", in)
		}
		return 200, `{"ARN":"arn:aws:secretsmanager:eu-west-1:123456789012:secret:pbm/link-keys-AbCdEf","CreatedDate":1.717243200E9,` +
			`"Name":"pbm/link-keys","SecretString":` + strconv.Quote(goodKeyring) + `,"VersionId":"v1","VersionStages":["AWSCURRENT"]}`
	})
	if _, err := LoadKeyring(context.Background(), awsapitest.Config(srv.URL), Config{Table: "t", LinkKeysSecret: "pbm/link-keys"}); err != nil {
		t.Fatal(err)
	}
}
