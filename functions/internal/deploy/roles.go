package deploy

import (
	"fmt"
	"strings"
)

// managedPolicies are the AWS managed policies the SAM transform attaches
// to a function's role, as AWS publishes them. A role with another
// managed policy fails FunctionPolicies: its document is unknown here,
// and the IAM check would not know what it grants.
var managedPolicies = map[string]string{
	// Every function: its logs.
	"service-role/AWSLambdaBasicExecutionRole": `{"Version":"2012-10-17","Statement":[{"Effect":"Allow",
		"Action":["logs:CreateLogGroup","logs:CreateLogStream","logs:PutLogEvents"],"Resource":"*"}]}`,
	// A DynamoDB stream event source: reading the stream.
	"service-role/AWSLambdaDynamoDBExecutionRole": `{"Version":"2012-10-17","Statement":[{"Effect":"Allow",
		"Action":["dynamodb:DescribeStream","dynamodb:GetRecords","dynamodb:GetShardIterator","dynamodb:ListStreams",
		"logs:CreateLogGroup","logs:CreateLogStream","logs:PutLogEvents"],"Resource":"*"}]}`,
	// Tracing: Active.
	"AWSXrayWriteOnlyAccess": `{"Version":"2012-10-17","Statement":[{"Effect":"Allow",
		"Action":["xray:PutTraceSegments","xray:PutTelemetryRecords","xray:GetSamplingRules","xray:GetSamplingTargets",
		"xray:GetSamplingStatisticSummaries"],"Resource":["*"]}]}`,
}

// FunctionPolicies are the identity-based policies of the role of the
// template's AWS::Lambda::Function id: its inline policies and its
// managed ones, resolved for the stack.
func (s *Stack) FunctionPolicies(id string) (Policies, error) {
	fn, ok := s.tpl.Resources[id]
	if !ok || fn.Type != "AWS::Lambda::Function" {
		return nil, fmt.Errorf("%s is not an AWS::Lambda::Function of the template", id)
	}
	p, err := Props[struct{ Role any }](fn)
	if err != nil {
		return nil, err
	}
	role := ""
	if m, ok := p.Role.(map[string]any); ok {
		switch ga := m["Fn::GetAtt"].(type) {
		case []any:
			role, _ = ga[0].(string)
		case string:
			role, _, _ = strings.Cut(ga, ".")
		}
	}
	r, ok := s.tpl.Resources[role]
	if !ok || r.Type != "AWS::IAM::Role" {
		return nil, fmt.Errorf("%s: Role %v is not a Fn::GetAtt of a role of the template", id, p.Role)
	}
	rp, err := Props[struct {
		ManagedPolicyArns []any
		Policies          []struct {
			PolicyName     string
			PolicyDocument any
		}
	}](r)
	if err != nil {
		return nil, err
	}
	var out Policies
	for _, pol := range rp.Policies {
		doc, err := s.Resolve(pol.PolicyDocument)
		if err != nil {
			return nil, fmt.Errorf("%s: policy %s: %w", role, pol.PolicyName, err)
		}
		parsed, err := ParsePolicy(role+"/"+pol.PolicyName, doc)
		if err != nil {
			return nil, err
		}
		out = append(out, parsed)
	}
	for _, v := range rp.ManagedPolicyArns {
		arn, err := s.ResolveString(v)
		if err != nil {
			return nil, fmt.Errorf("%s: ManagedPolicyArns: %w", role, err)
		}
		_, name, _ := strings.Cut(arn, ":policy/")
		doc, ok := managedPolicies[name]
		if !ok || !strings.HasPrefix(arn, "arn:"+s.Partition+":iam::aws:policy/") {
			return nil, fmt.Errorf("%s: the managed policy %s is not one package deploy knows the document of", role, arn)
		}
		parsed, err := ParsePolicy(arn, jsonValue(doc))
		if err != nil {
			return nil, err
		}
		out = append(out, parsed)
	}
	return out, nil
}
