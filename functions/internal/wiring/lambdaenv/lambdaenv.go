// Package lambdaenv reads what a Lambda function's environment gives it:
// the configuration, the AWS clients' settings, the link keys (fetched
// from SSM or Secrets Manager) and the DynamoDB table as the store, with
// the function's logger. Package wiring builds the application on it; the
// bounces function, which needs the table alone, uses it directly, so
// that its binary neither links nor initialises the service, the pages
// and their templates (package wiring imports them all), which measurably
// lengthen every cold start.
package lambdaenv

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
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

// Load reads the environment (template.yaml sets it) for a function that
// needs what need says besides its table, and logs what it found on log
// (never a key). Done once, at init: an error (a missing or malformed
// variable) ends the init (Must), before any invocation.
//
// The link keys, if need asks for them, are one round trip to SSM or
// Secrets Manager (TLS on top in AWS), the longest step of every init but
// bounces'. Their read is on its way before main (StartKeys, from package
// earlykeys' init), or Load starts it on a goroutine of its own, first.
// The init does not wait for it: the first use of the keys does (Keys),
// while the function has asked for its first invocation and started on
// it (the api's page templates, the game's read). A read that fails
// fails that use, with SSM's error and the parameter, and is tried again
// at the next use.
func Load(ctx context.Context, log *slog.Logger, need config.Need) (*Env, error) {
	cfg, err := config.FromEnvFor(ctx, need)
	if err != nil {
		return nil, err
	}
	awsCfg, err := config.LambdaAWS(ctx) // not LoadDefaultConfig: 2.4 MB lighter, see its doc
	if err != nil {
		return nil, fmt.Errorf("aws config: %w", err)
	}
	e := &Env{Config: cfg, AWS: awsCfg, log: log}
	e.read = func() (*linksign.Keyring, error) { return config.LoadKeyring(ctx, awsCfg, cfg) }
	switch {
	case need&config.NeedLinkKeys != 0 && early.keys != nil && early.from == cfg.KeySource():
		e.started = early.keys // on their way since the package init (StartKeys)
	case need&config.NeedLinkKeys != 0:
		e.started = fetchKeys(ctx, awsCfg, cfg)
	default:
		e.read = func() (*linksign.Keyring, error) { return nil, nil }
	}
	e.logInit()
	e.Store = dynamostore.New(dynamodb.NewFromConfig(awsCfg), cfg.Table)
	return e, nil
}

// early is the read of the link keys StartKeys started, if it did.
var early struct {
	from string // where from: config.Config.KeySource
	keys func() (*linksign.Keyring, error)
}

// StartKeys starts reading the link keys the environment names, before
// main, for Load to take up: package earlykeys calls it from its init.
// The read is the longest step of the init (see Load); started here,
// among the last package inits, it is under way before main's own work
// (the logger, the configuration, the clients): under the Runtime API
// harness its goroutine runs some 0.3 ms sooner after main starts. Their
// first use waits for them (Keys).
//
// It reads the configuration as Load does (config.FromEnvFor), the keys'
// location only. It does nothing outside Lambda (no
// AWS_LAMBDA_RUNTIME_API) or if the configuration does not read: Load
// then reports the error, or reads the keys itself.
func StartKeys() {
	if os.Getenv("AWS_LAMBDA_RUNTIME_API") == "" {
		return
	}
	ctx := context.Background()
	cfg, err := config.FromEnvFor(ctx, config.NeedLinkKeys)
	if err != nil {
		return
	}
	awsCfg, err := config.LambdaAWS(ctx)
	if err != nil {
		return
	}
	early.from, early.keys = cfg.KeySource(), fetchKeys(ctx, awsCfg, cfg)
}

// fetchKeys starts fetching the keyring cfg names, and returns what waits
// for it.
func fetchKeys(ctx context.Context, awsCfg aws.Config, cfg config.Config) func() (*linksign.Keyring, error) {
	type fetched struct {
		keys *linksign.Keyring
		err  error
	}
	done := make(chan fetched, 1)
	go func() {
		keys, err := config.LoadKeyring(ctx, awsCfg, cfg)
		done <- fetched{keys, err}
	}()
	return sync.OnceValues(func() (*linksign.Keyring, error) {
		f := <-done
		return f.keys, f.err
	})
}

// Keys returns the link keys: the first call waits for the read Load
// started; a read that failed returns its error, and the next call
// reads again (SSM throttled at a burst of cold starts should not break
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
	// SSM's answer and the parameter, reaches its log as the cause of
	// the request's failure.
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
