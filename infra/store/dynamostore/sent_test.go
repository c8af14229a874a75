package dynamostore_test

import (
	"testing"

	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/store/storetest"
	"github.com/pbmgames/pbm/infra/testenv"
)

func TestSentConformance(t *testing.T) {
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	s := dynamostore.New(client, newTable(t, client))
	storetest.RunSent(t, func(*testing.T) storetest.SentGames { return s })
}
