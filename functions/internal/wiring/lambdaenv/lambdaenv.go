// Package lambdaenv reads what a Lambda function's environment gives it:
// the configuration, the AWS SDK's configuration (config.LoadDefaultConfig:
// the region, the role's credentials and the endpoints the environment
// names), the link keys (read by a KeyReader) and the DynamoDB table as
// the store, with the function's logger. Package wiring builds the
// application on it; the bounces function, which needs the table alone,
// uses it directly, so that its binary neither links nor initialises the
// service, the pages and their templates (package wiring imports them
// all), nor the SSM client, which measurably lengthen every cold start.
package lambdaenv

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/pbmgames/pbm/infra/config"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
)

// Env is what a Lambda function's environment gives it.
type Env struct {
	Config config.Config
	// AWS is the SDK configuration the function's clients are made from.
	AWS   aws.Config
	Store *dynamostore.Store

	log  *slog.Logger
	mu   sync.Mutex
	read func() (*linksign.Keyring, error) // reads the link keys (Keys)
	keys atomic.Pointer[linksign.Keyring]  // the keys, once read
}

// KeyReader makes the reader of the link keys cfg names, with clients
// made from awsCfg: package linkkeys (SSM), which the
// functions that sign links plug in, so that bounces does not link it.
type KeyReader func(awsCfg aws.Config, cfg config.Config) (func(context.Context) (*linksign.Keyring, error), error)

// Load reads the environment (template.yaml sets it) for a function that
// needs what need says besides its table, and logs what it found on log
// (never a key). Done once, at init: an error (a missing or malformed
// variable, an AWS configuration that does not load) ends the init
// (Must), before any invocation. keys reads the link keys if need asks
// for them.
//
// The link keys are one round trip to SSM (with a TLS handshake in
// AWS), read at their first use (Keys), not at init: a read begun at
// package init (as api and notify did until issue 24's last round)
// could only overlap what is left of the init after the SDK's own
// package inits, a fraction of a millisecond, and its CPU lengthened
// every cold start that needs no key (the home page: 1.17–1.21× its
// hello world with it, 1.04–1.16× without, 61 alternated starts; a
// keyed first request: the same with and without). A read that fails
// fails that use, with the service's error and the parameter, and is
// tried again at the next use.
func Load(ctx context.Context, log *slog.Logger, need config.Need, keys KeyReader) (*Env, error) {
	cfg, err := config.FromEnvFor(ctx, need)
	if err != nil {
		return nil, err
	}
	awsCfg, err := loadAWS(ctx)
	if err != nil {
		return nil, fmt.Errorf("aws config: %w", err)
	}
	e := &Env{Config: cfg, AWS: awsCfg, log: log}
	e.read = func() (*linksign.Keyring, error) { return nil, nil }
	if need&config.NeedLinkKeys != 0 {
		if keys == nil {
			return nil, fmt.Errorf("lambdaenv: the function needs link keys and has no reader of them")
		}
		read, err := keys(e.AWS, cfg)
		if err != nil {
			return nil, err
		}
		e.read = func() (*linksign.Keyring, error) { return read(ctx) }
	}
	e.logInit()
	e.Store = dynamostore.New(dynamodb.NewFromConfig(e.AWS), cfg.Table)
	return e, nil
}

// loadAWS is the SDK's default configuration (its credential chain: in
// Lambda the role's credentials in the environment; its region and
// endpoints from the environment), with an HTTP client that keeps 32 idle
// connections a host rather than the SDK's 10: the sweep works on 16
// games at once (service.SweepWorkers), each with a request or two in
// flight, and a connection dropped is a TLS handshake more.
func loadAWS(ctx context.Context) (aws.Config, error) {
	client := awshttp.NewBuildableClient().WithTransportOptions(func(tr *http.Transport) {
		tr.MaxIdleConnsPerHost = 32
	})
	return awsconfig.LoadDefaultConfig(ctx, awsconfig.WithHTTPClient(client))
}

// Keys returns the link keys: the first call reads them; a read that
// failed returns its error, and the next call reads again (SSM throttled
// at a burst of cold starts should not break the function for its
// lifetime). Calls wait for each other. Nil keys unless
// config.NeedLinkKeys was asked.
func (e *Env) Keys() (*linksign.Keyring, error) {
	if keys := e.keys.Load(); keys != nil {
		return keys, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if keys := e.keys.Load(); keys != nil { // read while this call waited
		return keys, nil
	}
	// Nothing is logged here: the first use is an invocation's, whose
	// own log lines carry its request ids, and the error, which names
	// the service's answer and the parameter, reaches its log as the
	// cause of the request's failure.
	keys, err := e.read()
	if err != nil {
		return nil, fmt.Errorf("link keys unavailable (read again at their next use): %w", err)
	}
	e.keys.Store(keys)
	return keys, nil
}

// KeysPending reports whether the keys are still to be read: the next
// Keys waits for a round trip to SSM. It never waits itself.
func (e *Env) KeysPending() bool { return e.keys.Load() == nil }

// logInit logs what the environment gave.
func (e *Env) logInit() {
	cfg := e.Config
	e.log.Info("init", "table", cfg.Table, "key_source", cfg.KeySource(),
		"from", cfg.MailFrom, "configuration_set", cfg.SESConfigurationSet, "base_url", cfg.BaseURL)
}

// Must ends the init, so that Lambda reports it failed, if err is set.
func Must(log *slog.Logger, step string, err error) {
	if err != nil {
		log.Error("init failed", "step", step, "err", err)
		os.Exit(1)
	}
}
