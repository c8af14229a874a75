//go:build hello_api || hello_api_reads || hello_notify || hello_sweep || hello_bounces || hello_sweep_reads || hello_sweep_read

package main

import (
	"context"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
)

// loadAWS loads the SDK's configuration as the functions do
// (lambdaenv.loadAWS).
func loadAWS() aws.Config {
	client := awshttp.NewBuildableClient().WithTransportOptions(func(tr *http.Transport) {
		tr.MaxIdleConnsPerHost = 32
	})
	cfg, err := awsconfig.LoadDefaultConfig(context.Background(), awsconfig.WithHTTPClient(client))
	if err != nil {
		panic(err)
	}
	return cfg
}
