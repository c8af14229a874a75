// Package lambdatest runs the built Lambda function binaries as Lambda
// runs them (SPEC §5). It holds tests only.
//
// Each test builds a function's package as `make lambdas` does (go build
// -tags lambda.norpc -trimpath -ldflags "-s -w", CGO_ENABLED=0), for the
// host's GOOS and GOARCH, and starts the binary under the AWS Lambda
// Runtime Interface Emulator (aws-lambda-rie, built from its Go module at
// a pinned version), which runs it as its bootstrap and offers Lambda's
// invoke API. The tests invoke it with the events its sources deliver:
// API Gateway HTTP API payload 2.0 events (testdata/api), a batch of the
// table's DynamoDB stream records, an SNS notification carrying an SES
// bounce and a scheduled event. The functions talk to real servers on
// loopback, dynalite for DynamoDB and aws-ses-v2-local for SES v2
// (package testenv), found by the SDK's clients through the standard
// AWS_ENDPOINT_URL_DYNAMODB and AWS_ENDPOINT_URL_SESV2 variables. Their
// keyring comes through AWS_ENDPOINT_URL_SSM from testenv.Secrets, a
// small stand-in of SSM's GetParameter that checks each request's
// signature: no local SSM server exists, and it is the one stand-in. Each
// function's endpoints are proxies of its own in front of those servers
// (package iamwire) that hold every request to the function's role in the
// transformed template: what IAM would refuse fails the test and is
// answered AccessDeniedException.
//
// TestParity plays every route of the route table, with valid and invalid
// tokens, on the api function under the emulator and on the local run's
// handler (the same wiring on bbolt and the mailbox), and compares the
// answers' statuses and shapes.
//
// Cold starts are measured under a Lambda Runtime API harness written in
// the tests, since the emulator starts the process lazily, inside its
// first invoke, and reports no usable init time: from the process's start
// to the response of the invocation waiting for it (as an on-demand cold
// start has one), for every function, each beside a hello-world function
// built the same way that loads the SDK's configuration, makes the same
// SDK clients and answers the same kind of event (testdata/hello, one
// build tag a function). Beside the wall clock it reports the CPU time
// each process had run by its answer, which the other work of a busy
// machine sways less.
//
// The emulator is built with `go install` from the Go module proxy (or the
// module cache); LAMBDA_RIE names a prebuilt aws-lambda-rie to use instead.
// The tests run on Linux, the one system the emulator supports.
package lambdatest
