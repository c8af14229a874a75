// Package deploy holds template.yaml to what AWS does with it at deploy
// time, without an account: the SAM transform run locally (Transform,
// with the translator CloudFormation runs, samtranslator), the quotas of
// CloudFormation, Lambda and IAM that refuse a stack (Limits), and each
// function's role policy resolved for a stack (Stack.FunctionPolicy),
// evaluated as IAM evaluates it (Policy.Allows) for the requests the tests
// record at the wire (package iamwire).
//
// Only tests use it; nothing in a Lambda function links it.
package deploy
