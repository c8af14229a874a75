package config

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// LambdaAWS returns the AWS SDK configuration of a Lambda function: the
// region and the function role's credentials from the environment Lambda
// sets (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN), and the endpoint overrides the SDK reads from the
// environment: AWS_ENDPOINT_URL for every service, AWS_ENDPOINT_URL_<SERVICE>
// for one (AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL_SESV2,
// AWS_ENDPOINT_URL_SSM, AWS_ENDPOINT_URL_SECRETS_MANAGER), which wins, and
// AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true to ignore them all. In Lambda
// this is what aws-sdk-go-v2's config.LoadDefaultConfig finds, less the
// SDK's defaults that service clients fill in anyway.
//
// Why not LoadDefaultConfig: it links the shared-config, SSO, STS, IMDS
// and process credential providers, and because the pages' templates make
// the linker keep every exported method of every client they hold, that is
// 2.4 MB of a function's binary (15.9 MB against our 15 MB limit). Outside
// Lambda (no credentials in the environment) it fails; use
// LoadDefaultConfig there.
func LambdaAWS(ctx context.Context) (aws.Config, error) {
	return lambdaAWS(os.LookupEnv)
}

// LocalAWS returns the AWS configuration of a client of a local server
// that speaks an AWS API at endpoint ("http://127.0.0.1:P": dynalite,
// aws-ses-v2-local): region us-east-1 and static dummy credentials, so
// that nothing is read from the environment. The local clients
// (dynamostore.NewLocalClient, sesmailer.NewLocalClient) are built from
// it.
func LocalAWS(endpoint string) aws.Config {
	return aws.Config{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
	}
}

func lambdaAWS(lookup func(string) (string, bool)) (aws.Config, error) {
	get := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := lookup(k); ok && v != "" {
				return v
			}
		}
		return ""
	}
	region := get("AWS_REGION", "AWS_DEFAULT_REGION")
	id := get("AWS_ACCESS_KEY_ID", "AWS_ACCESS_KEY")
	secret := get("AWS_SECRET_ACCESS_KEY", "AWS_SECRET_KEY")
	var errs []error
	if region == "" {
		errs = append(errs, errors.New("config: AWS_REGION is not set (not in Lambda?)"))
	}
	if id == "" || secret == "" {
		errs = append(errs, errors.New("config: no AWS credentials in the environment (not in Lambda?)"))
	}
	if len(errs) > 0 {
		return aws.Config{}, errors.Join(errs...)
	}
	// The role's credentials in the environment last as long as the
	// execution environment: nothing to refresh, so no aws.CredentialsCache,
	// whose first Retrieve runs the provider on a goroutine of its own
	// (on the init's path to the keyring, issue 16).
	cfg := aws.Config{
		Region:      region,
		Credentials: credentials.NewStaticCredentialsProvider(id, secret, get("AWS_SESSION_TOKEN")),
	}
	endpoints := envEndpoints(lookup)
	if ep := get("AWS_ENDPOINT_URL"); ep != "" && !endpoints.ignored() {
		cfg.BaseEndpoint = aws.String(ep)
	}
	// The SDK's clients look for a service's own endpoint in the config's
	// sources (config.LoadDefaultConfig puts its EnvConfig there).
	cfg.ConfigSources = append(cfg.ConfigSources, endpoints)
	return cfg, nil
}

// envEndpoints is a source of the service-specific endpoints
// AWS_ENDPOINT_URL_<SERVICE> in the environment, for the SDK's clients and
// package awsapi's: the SDK resolves a client's endpoint from any of
// aws.Config's ConfigSources with these two methods.
type envEndpoints func(string) (string, bool)

// GetServiceBaseEndpoint returns AWS_ENDPOINT_URL_<SDK ID> (upper case,
// spaces as underscores: "Secrets Manager" reads
// AWS_ENDPOINT_URL_SECRETS_MANAGER), if set and endpoints are not ignored.
func (e envEndpoints) GetServiceBaseEndpoint(_ context.Context, sdkID string) (string, bool, error) {
	if e.ignored() {
		return "", false, nil
	}
	v, ok := e("AWS_ENDPOINT_URL_" + strings.ToUpper(strings.ReplaceAll(sdkID, " ", "_")))
	if !ok || v == "" {
		return "", false, nil
	}
	return v, true, nil
}

// GetIgnoreConfiguredEndpoints reports AWS_IGNORE_CONFIGURED_ENDPOINT_URLS.
func (e envEndpoints) GetIgnoreConfiguredEndpoints(context.Context) (bool, bool, error) {
	v, ok := e("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")
	if !ok || v == "" {
		return false, false, nil
	}
	return strings.EqualFold(v, "true"), true, nil
}

func (e envEndpoints) ignored() bool {
	ignore, _, _ := e.GetIgnoreConfiguredEndpoints(context.Background())
	return ignore
}
