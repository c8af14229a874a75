package config

import (
	"context"
	"errors"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// LambdaAWS returns the AWS SDK configuration of a Lambda function: the
// region and the function role's credentials from the environment Lambda
// sets (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN), and AWS_ENDPOINT_URL if set. In Lambda this is what
// aws-sdk-go-v2's config.LoadDefaultConfig finds, less the SDK's defaults
// that service clients fill in anyway.
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
	cfg := aws.Config{
		Region:      region,
		Credentials: aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(id, secret, get("AWS_SESSION_TOKEN"))),
	}
	if ep := get("AWS_ENDPOINT_URL"); ep != "" {
		cfg.BaseEndpoint = aws.String(ep)
	}
	return cfg, nil
}
