// Package earlykeys starts reading a Lambda function's link keys from SSM
// at package initialisation, before main, so that
// their round trip overlaps the rest of the init (lambdaenv.StartKeys).
// The api and notify functions' mains import it for that effect (most of
// their first invocations need the keys; the sweep's do not);
// lambdaenv.Load takes the read up.
//
// Go initialises a package once all it imports are, in import path order
// among the ready ones: this one, which needs the SDK's clients and the
// HTTP client, comes after them and before main.
package earlykeys

import (
	"github.com/pbmgames/pbm/functions/internal/wiring/lambdaenv"
	"github.com/pbmgames/pbm/infra/linkkeys"
)

func init() { lambdaenv.StartKeys(linkkeys.ReadFunc) }
