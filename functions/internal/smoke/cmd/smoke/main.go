// Command smoke plays the smoke game (package smoke) against a deployed
// stack: `make smoke URL=https://…` after each deploy. It mails only SES's
// mailbox simulator (success+…@ and bounce@simulator.amazonses.com, which
// count in no reputation metric), reads the link-signing keyring from SSM
// and the table with the operator's own credentials (the AWS SDK's
// default chain: the environment, ~/.aws, SSO), and waits for the
// scheduled sweep to send a reminder, which takes about 50 minutes
// (-reminder-wait 0 skips that check).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/ssm"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/smoke"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
)

// The SES mailbox simulator: delivered, or bounced for good.
const simulator = "simulator.amazonses.com"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "smoke:", err)
		os.Exit(1)
	}
}

func run() error {
	url := flag.String("url", "", "the stack's ApiUrl output (required)")
	table := flag.String("table", "", "the stack's TableName output (required)")
	keysParam := flag.String("keys", "/pbm/link-keys", "the SSM parameter of the link-signing keyring (LinkKeysParameter)")
	region := flag.String("region", "", "the stack's region (default: the AWS SDK's, AWS_REGION or ~/.aws/config)")
	suppressWait := flag.Duration("suppress-wait", 5*time.Minute, "how long to wait for the bounce to be suppressed")
	reminderWait := flag.Duration("reminder-wait", 55*time.Minute, "how long to wait for the sweep's reminder (0: not checked)")
	flag.Parse()
	if *url == "" || *table == "" {
		flag.Usage()
		return errors.New("-url and -table are required (the stack's ApiUrl and TableName outputs)")
	}
	ctx := context.Background()
	var opts []func(*config.LoadOptions) error
	if *region != "" {
		opts = append(opts, config.WithRegion(*region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return fmt.Errorf("AWS credentials: %w", err)
	}
	out, err := ssm.NewFromConfig(cfg).GetParameter(ctx, &ssm.GetParameterInput{Name: keysParam, WithDecryption: aws.Bool(true)})
	if err != nil {
		return fmt.Errorf("the keyring %s: %w", *keysParam, err)
	}
	keys, err := linksign.ParseKeyring([]byte(aws.ToString(out.Parameter.Value)))
	if err != nil {
		return fmt.Errorf("the keyring %s: %w", *keysParam, err)
	}
	db := dynamodb.NewFromConfig(cfg)
	item := func(ctx context.Context, pk, sk string) (map[string]types.AttributeValue, error) {
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: table, ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{
				dynamostore.AttrPK: &types.AttributeValueMemberS{Value: pk},
				dynamostore.AttrSK: &types.AttributeValueMemberS{Value: sk},
			}})
		if err != nil {
			return nil, fmt.Errorf("GetItem %s: %w", pk, err)
		}
		return out.Item, nil
	}
	run := time.Now().UTC().Format("20060102t150405")
	return smoke.Run(ctx, smoke.Config{
		URL:     *url,
		Keys:    keys,
		Success: func(label string) string { return "success+" + label + "-" + run + "@" + simulator },
		Bounce:  "bounce@" + simulator,
		// The player item the bounces function marks (dynamostore's
		// players.go: pk "PLAYER#<address>", sk "PLAYER").
		Suppressed: func(ctx context.Context, addr string) (bool, error) {
			it, err := item(ctx, "PLAYER#"+strings.ToLower(addr), "PLAYER")
			if err != nil {
				return false, err
			}
			b, ok := it[dynamostore.AttrSupp].(*types.AttributeValueMemberBOOL)
			return ok && b.Value, nil
		},
		// The game's record: compressed JSON in the game item's body
		// (service.RecordJSON reads it),
		// whose "reminded" lists the seats reminded of their decision.
		Reminded: func(ctx context.Context, game string, seat int) (bool, error) {
			it, err := item(ctx, "GAME#"+game, "GAME")
			if err != nil {
				return false, err
			}
			body, ok := it[dynamostore.AttrBody].(*types.AttributeValueMemberB)
			if !ok {
				return false, fmt.Errorf("game %s has no body", game)
			}
			data, err := service.RecordJSON(body.Value)
			if err != nil {
				return false, fmt.Errorf("game %s: %w", game, err)
			}
			var rec struct {
				Reminded []bool `json:"reminded"`
			}
			if err := json.Unmarshal(data, &rec); err != nil {
				return false, fmt.Errorf("game %s: %w", game, err)
			}
			return seat < len(rec.Reminded) && rec.Reminded[seat], nil
		},
		SuppressWait: *suppressWait, ReminderWait: *reminderWait, Poll: 15 * time.Second,
		Log: os.Stdout,
	})
}
