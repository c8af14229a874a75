package config

import (
	"os"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"github.com/pbmgames/pbm/infra/awsapi"
)

// unsetEnv removes key from the process environment for the test (the
// SDK's clients look at AWS_ENDPOINT_URL there too).
func unsetEnv(t *testing.T, key string) {
	t.Setenv(key, "")
	os.Unsetenv(key)
}

// TestLambdaAWSServiceEndpoints: AWS_ENDPOINT_URL_<SERVICE> reaches the
// SDK's clients and package awsapi's, and wins over AWS_ENDPOINT_URL, as
// with config.LoadDefaultConfig; where the SDK's client leaves the
// endpoint to its resolver (""), awsapi's is the regional one.
func TestLambdaAWSServiceEndpoints(t *testing.T) {
	for _, k := range []string{"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_SESV2", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"} {
		unsetEnv(t, k)
	}
	base := map[string]string{"AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "s"}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	type want struct{ dynamo, ses, ssm, secrets, leanDynamo, leanSES string }
	for name, tt := range map[string]struct {
		env  map[string]string
		want want
	}{
		"none": {with(), want{"", "", "https://ssm.eu-west-1.amazonaws.com/", "https://secretsmanager.eu-west-1.amazonaws.com/",
			"https://dynamodb.eu-west-1.amazonaws.com/", "https://email.eu-west-1.amazonaws.com/"}},
		"per service": {
			with("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:1001", "AWS_ENDPOINT_URL_SESV2", "http://127.0.0.1:1002",
				"AWS_ENDPOINT_URL_SSM", "http://127.0.0.1:1003", "AWS_ENDPOINT_URL_SECRETS_MANAGER", "http://127.0.0.1:1004/"),
			want{"http://127.0.0.1:1001", "http://127.0.0.1:1002", "http://127.0.0.1:1003/", "http://127.0.0.1:1004/",
				"http://127.0.0.1:1001/", "http://127.0.0.1:1002/"},
		},
		"global and one service": {
			with("AWS_ENDPOINT_URL", "http://127.0.0.1:2000", "AWS_ENDPOINT_URL_SSM", "http://127.0.0.1:2001"),
			want{"http://127.0.0.1:2000", "http://127.0.0.1:2000", "http://127.0.0.1:2001/", "http://127.0.0.1:2000/",
				"http://127.0.0.1:2000/", "http://127.0.0.1:2000/"},
		},
		"ignored": {
			with("AWS_ENDPOINT_URL", "http://127.0.0.1:3000", "AWS_ENDPOINT_URL_SSM", "http://127.0.0.1:3001",
				"AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:3002", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true"),
			want{"", "", "https://ssm.eu-west-1.amazonaws.com/", "https://secretsmanager.eu-west-1.amazonaws.com/",
				"https://dynamodb.eu-west-1.amazonaws.com/", "https://email.eu-west-1.amazonaws.com/"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			// The SDK's clients also read the process environment to see
			// whether a global endpoint without a service's own is set.
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			cfg, err := lambdaAWS(lookupIn(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			got := want{
				dynamo: aws.ToString(dynamodb.NewFromConfig(cfg).Options().BaseEndpoint),
				ses:    aws.ToString(sesv2.NewFromConfig(cfg).Options().BaseEndpoint),
			}
			got.ssm, _ = awsapi.New(cfg, awsapi.SSM).Endpoint()
			got.secrets, _ = awsapi.New(cfg, awsapi.SecretsManager).Endpoint()
			got.leanDynamo, _ = awsapi.New(cfg, awsapi.DynamoDB).Endpoint()
			got.leanSES, _ = awsapi.New(cfg, awsapi.SESv2).Endpoint()
			if got != tt.want {
				t.Errorf("endpoints %+v, want %+v", got, tt.want)
			}
		})
	}
}
