// Package linkkeys reads the link-signing keyring from where a function's
// configuration names it, with the AWS SDK's own client: an SSM
// Parameter Store SecureString, read decrypted with service/ssm's
// GetParameter. The keyring is never logged and no error quotes it;
// errors name the parameter and carry the service's typed error.
//
// The keys were once read from a Secrets Manager secret as another
// choice. That client's package inits alone were some 0.3 ms of every
// cold start of the functions that sign links (issue 24), for a choice
// the template never made and its IAM check never saw: one place is
// kept, the one the stack creates and grants.
package linkkeys

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
	ssmtypes "github.com/aws/aws-sdk-go-v2/service/ssm/types"

	"github.com/pbmgames/pbm/infra/config"
	"github.com/pbmgames/pbm/infra/linksign"
)

// Reader reads the keyring from one place. It is safe for concurrent use.
type Reader struct {
	// fetch asks the service for the keyring's JSON. It is a function,
	// not the client: a struct field of the client's type would keep
	// every one of its operations in a binary that calls methods by
	// reflection (text/template does), some megabytes for SSM's.
	fetch func(context.Context) ([]byte, error)
	from  string
}

// New returns a Reader of the keyring cfg names (LinkKeysParameter),
// through a client made from awsCfg (the function's AWS configuration:
// its region, credentials and the endpoints the environment names,
// AWS_ENDPOINT_URL_SSM among them).
func New(awsCfg aws.Config, cfg config.Config) (*Reader, error) {
	if cfg.LinkKeysParameter == "" {
		return nil, fmt.Errorf("linkkeys: %s names no parameter", config.EnvLinkKeysParam)
	}
	client, name := ssm.NewFromConfig(awsCfg), cfg.LinkKeysParameter
	return &Reader{
		from:  cfg.KeySource(),
		fetch: func(ctx context.Context) ([]byte, error) { return getParameter(ctx, client, name) },
	}, nil
}

// ReadFunc returns the Read method of a new Reader (New), the form in
// which the Lambda wiring takes a reader of the keys
// (lambdaenv.KeyReader).
func ReadFunc(awsCfg aws.Config, cfg config.Config) (func(context.Context) (*linksign.Keyring, error), error) {
	r, err := New(awsCfg, cfg)
	if err != nil {
		return nil, err
	}
	return r.Read, nil
}

// Read fetches the keyring and parses it.
func (r *Reader) Read(ctx context.Context) (*linksign.Keyring, error) {
	data, err := r.fetch(ctx)
	if err != nil {
		return nil, err
	}
	keys, err := linksign.ParseKeyring(data)
	if err != nil {
		return nil, fmt.Errorf("linkkeys: the keys in %s: %w", r.from, err)
	}
	return keys, nil
}

// getParameter reads a SecureString parameter, decrypted. A parameter of
// another type is refused: the keys must be stored encrypted.
func getParameter(ctx context.Context, client *ssm.Client, name string) ([]byte, error) {
	out, err := client.GetParameter(ctx, &ssm.GetParameterInput{Name: &name, WithDecryption: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("linkkeys: read SSM parameter %s: %w", name, err)
	}
	p := out.Parameter
	if p == nil || p.Value == nil {
		return nil, fmt.Errorf("linkkeys: SSM parameter %s has no value", name)
	}
	if p.Type != ssmtypes.ParameterTypeSecureString {
		return nil, fmt.Errorf("linkkeys: SSM parameter %s is a %s; store the link keys as a SecureString", name, p.Type)
	}
	return []byte(*p.Value), nil
}
