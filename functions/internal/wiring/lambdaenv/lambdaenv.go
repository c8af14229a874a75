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

	log *slog.Logger
	// read reads the link keys (Keys); started, the first read is
	// already under way (Load).
	mu      sync.Mutex
	started func() (*linksign.Keyring, error) // the read begun at init, until waited for
	read    func() (*linksign.Keyring, error) // a read anew
	keys    *linksign.Keyring                 // the keys, once read
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
// The link keys are one round trip to SSM (with a TLS
// handshake in AWS), the longest step of every init but bounces'. In a
// function whose first invocation most often needs them (api, notify:
// a link opened, mail to send), their read is on its way before main
// (StartKeys, from package earlykeys' init, which those functions'
// mains import), and the init does not wait for it: the first use of
// the keys does (Keys). A function that does not start it so (the
// sweep, most of whose runs mail nothing: issue 24) reads them at their
// first use. A read that fails fails that use, with the service's error
// and the parameter, and is tried again at the next use.
func Load(ctx context.Context, log *slog.Logger, need config.Need, keys KeyReader) (*Env, error) {
	cfg, err := config.FromEnvFor(ctx, need)
	if err != nil {
		return nil, err
	}
	awsCfg := early.aws // loaded by StartKeys, if it ran
	if awsCfg == nil {
		c, err := loadAWS(ctx)
		if err != nil {
			return nil, fmt.Errorf("aws config: %w", err)
		}
		awsCfg = &c
	}
	e := &Env{Config: cfg, AWS: *awsCfg, log: log}
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
		if early.keys != nil && early.from == cfg.KeySource() {
			e.started = early.keys // on their way since the package init (StartKeys)
		}
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

// early is what StartKeys began, if it did.
var early struct {
	from string // where the keys are: config.Config.KeySource
	aws  *aws.Config
	keys func() (*linksign.Keyring, error)
}

// StartKeys starts reading the link keys the environment names with
// keys, before main, for Load to take up: package earlykeys calls it
// from its init. The read is the longest step of the init (see Load);
// started here, among the last package inits, it is under way before
// main's own work (the logger, the configuration, the clients). Their
// first use waits for them (Keys).
//
// It reads the configuration as Load does (config.FromEnvFor), the keys'
// location only, and the AWS configuration, which Load then reuses. It
// does nothing outside Lambda (no AWS_LAMBDA_RUNTIME_API) or if either
// configuration does not read: Load then reports the error, or reads the
// keys itself.
func StartKeys(keys KeyReader) {
	if os.Getenv("AWS_LAMBDA_RUNTIME_API") == "" {
		return
	}
	ctx := context.Background()
	cfg, err := config.FromEnvFor(ctx, config.NeedLinkKeys)
	if err != nil {
		return
	}
	awsCfg, err := loadAWS(ctx)
	if err != nil {
		return
	}
	read, err := keys(awsCfg, cfg)
	if err != nil {
		return
	}
	early.from, early.aws = cfg.KeySource(), &awsCfg
	early.keys = fetchKeys(func() (*linksign.Keyring, error) { return read(ctx) })
}

// fetchKeys starts read on a goroutine of its own, and returns what
// waits for it.
func fetchKeys(read func() (*linksign.Keyring, error)) func() (*linksign.Keyring, error) {
	type fetched struct {
		keys *linksign.Keyring
		err  error
	}
	done := make(chan fetched, 1)
	go func() {
		keys, err := read()
		done <- fetched{keys, err}
	}()
	return sync.OnceValues(func() (*linksign.Keyring, error) {
		f := <-done
		return f.keys, f.err
	})
}

// Keys returns the link keys: the first call waits for the read begun at
// package init (StartKeys), or reads them; a read that failed returns
// its error, and the next call reads again (SSM throttled at a burst of cold starts should not break
// the function for its lifetime). Calls wait for each other. Nil keys
// unless config.NeedLinkKeys was asked.
func (e *Env) Keys() (*linksign.Keyring, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.keys != nil {
		return e.keys, nil
	}
	read := e.read
	if e.started != nil {
		read, e.started = e.started, nil
	}
	// Nothing is logged here: the first use is an invocation's, whose
	// own log lines carry its request ids, and the error, which names
	// the service's answer and the parameter, reaches its log as the
	// cause of the request's failure.
	keys, err := read()
	if err != nil {
		return nil, fmt.Errorf("link keys unavailable (read again at their next use): %w", err)
	}
	e.keys = keys
	return keys, nil
}

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
