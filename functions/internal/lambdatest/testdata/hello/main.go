// Command hello is the yardstick every function's cold start is measured
// against (TestColdStart): a Go function, built with the same flags as
// the project's functions, that does at start what they do of the AWS
// SDK — loads the SDK's default configuration (with the same HTTP
// client) and constructs the same service clients — and answers the same
// kind of event as the function it stands beside at once, with nothing
// of the function's own work. Which function it stands beside is chosen
// by a build tag (api.go, notify.go, sweep.go, bounces.go; apireads.go
// and sweepreads.go stand beside the api's seat page and the sweep too,
// making the requests they make; sweepread.go makes one read); without
// one it is the bare hello world, which links no SDK (bare.go).
package main

import "github.com/aws/aws-lambda-go/lambda"

func main() {
	lambda.Start(handler())
}
