package functions_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/deploy"
)

// deployedStack is the stack the limits are measured for: samconfig.toml's
// name and region, the parameters a guided deploy asks for, and the other
// parameters' defaults.
var deployedStack = deploy.Stack{
	Name: "pbm", Region: deploy.Region, Account: "123456789012",
	Parameters: map[string]string{"MailFrom": "Play by mail <pbm@example.org>"},
}

func transformed(t *testing.T) *deploy.Transformed {
	t.Helper()
	tr, err := deploy.Transform(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestDeployLimits runs the SAM transform locally and holds its output to
// the quotas that stop a deploy (package deploy lists them): a function's
// resource-based policy, the template's size, its resources, outputs and
// parameters, the roles' inline policies, names given with the longest
// stack name. The figures are logged (go test -run TestDeployLimits -v).
func TestDeployLimits(t *testing.T) {
	tr := transformed(t)
	f, broken := deploy.Limits(tr, deployedStack)
	t.Logf("template.yaml %d bytes (inline limit %d, S3 %d); transformed %d bytes, %d resources, %d outputs, %d parameters",
		f.SourceBytes, deploy.MaxTemplateBodyInline, deploy.MaxTemplateBodyS3, f.TransformedBytes, f.Resources, f.Outputs, f.Parameters)
	for _, fn := range slices.Sorted(maps.Keys(f.FunctionPolicy)) {
		t.Logf("%s: resource-based policy %d bytes, %d permissions (limit %d)", fn, f.FunctionPolicy[fn], f.Permissions[fn], deploy.MaxFunctionPolicy)
	}
	for _, role := range slices.Sorted(maps.Keys(f.RoleInline)) {
		t.Logf("%s: inline policies %d characters (limit %d)", role, f.RoleInline[role], deploy.MaxRoleInlinePolicies)
	}
	for _, b := range broken {
		t.Error(b)
	}
	// Past the inline limit, `sam deploy` must upload the template to S3
	// (it does with an artefact bucket: resolve_s3 or s3_bucket).
	if f.SourceBytes > deploy.MaxTemplateBodyInline {
		sc, err := os.ReadFile(filepath.Join(repoRoot, "samconfig.toml"))
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`(?m)^\s*(resolve_s3\s*=\s*true|s3_bucket\s*=)`).Match(sc) {
			t.Errorf("template.yaml is %d bytes, over the %d CloudFormation takes inline, and samconfig.toml gives sam deploy no S3 bucket (resolve_s3 = true)",
				f.SourceBytes, deploy.MaxTemplateBodyInline)
		}
	}
}

// TestServerlessRules holds the transformed template to the rules of
// awslabs' Serverless Rules (cfn-lint-serverless) that apply to it. That
// module is on PyPI only, which CI cannot reach, so the rules are written
// here from their documentation (awslabs.github.io/serverless-rules), one
// check each, under the rule's id. A resource may leave a rule out only
// with the rule's id in its Metadata cfn-lint ignore_checks (as the module
// reads it) and a comment beside it in template.yaml saying why.
func TestServerlessRules(t *testing.T) {
	tr := transformed(t)
	tpl := &tr.Template
	ignored := func(id, rule string) bool {
		for _, r := range []deploy.Resource{tr.Source.Resources[id], tpl.Resources[id]} {
			cfg, _ := r.Metadata["cfn-lint"].(map[string]any)
			cfg, _ = cfg["config"].(map[string]any)
			list, _ := cfg["ignore_checks"].([]any)
			if slices.Contains(list, any(rule)) {
				return true
			}
		}
		return false
	}
	check := func(rule, id string, ok bool, format string, args ...any) {
		t.Helper()
		if !ok && !ignored(id, rule) {
			t.Errorf("%s %s: %s", rule, id, fmt.Sprintf(format, args...))
		}
	}
	props := func(id string, v any) {
		t.Helper()
		if err := json.Unmarshal(tpl.Resources[id].Properties, v); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
	}

	// The functions' log groups (WS1004), their async invokers (ES1007).
	logGroups := map[string]bool{}
	for _, id := range tpl.OfType("AWS::Logs::LogGroup") {
		var p struct{ RetentionInDays any }
		props(id, &p)
		logGroups[id] = p.RetentionInDays != nil
	}
	asyncFailure := map[string]bool{} // function → an on-failure destination or a DLQ
	for _, id := range tpl.OfType("AWS::Lambda::EventInvokeConfig") {
		var p struct {
			FunctionName      any
			DestinationConfig struct{ OnFailure *struct{ Destination any } }
		}
		props(id, &p)
		if p.DestinationConfig.OnFailure != nil {
			asyncFailure[refOf(p.FunctionName)] = true
		}
	}
	asyncInvoked := map[string]string{} // function → what invokes it asynchronously
	for _, id := range tpl.OfType("AWS::Lambda::Permission") {
		var p struct {
			FunctionName any
			Principal    string
		}
		props(id, &p)
		if p.Principal == "sns.amazonaws.com" || p.Principal == "s3.amazonaws.com" || p.Principal == "events.amazonaws.com" {
			asyncInvoked[refOf(p.FunctionName)] = p.Principal
		}
	}
	for _, id := range tpl.OfType("AWS::Scheduler::Schedule") {
		var p struct{ Target struct{ Arn any } }
		props(id, &p)
		if fn, attr := getAttOf(p.Target.Arn); attr == "Arn" {
			asyncInvoked[fn] = "scheduler.amazonaws.com"
		}
	}

	for _, id := range tpl.OfType("AWS::Lambda::Function") {
		var p struct {
			TracingConfig    struct{ Mode string }
			MemorySize       int
			Timeout          int
			LoggingConfig    struct{ LogGroup any }
			DeadLetterConfig struct{ TargetArn any }
			Role             any
		}
		props(id, &p)
		check("WS1000", id, p.TracingConfig.Mode == "Active", "Tracing is %q, want Active", p.TracingConfig.Mode)
		check("ES1005", id, p.MemorySize > 0, "no MemorySize: the default 128 MB")
		check("ES1006", id, p.Timeout > 0, "no Timeout: the default 3 s")
		check("WS1004", id, logGroups[refOf(p.LoggingConfig.LogGroup)], "its log group is not one of the template's with a retention")
		if by, ok := asyncInvoked[id]; ok {
			check("ES1007", id, asyncFailure[id] || p.DeadLetterConfig.TargetArn != nil,
				"invoked asynchronously by %s, with no on-failure destination or dead-letter queue", by)
		}
		// WS1003: no action "*" (or "service:*") in the function's role.
		role, _ := getAttOf(p.Role)
		var rp struct {
			Policies []struct {
				PolicyDocument struct{ Statement []map[string]any }
			}
		}
		props(role, &rp)
		for _, pol := range rp.Policies {
			for _, st := range pol.PolicyDocument.Statement {
				for _, a := range stringsOf(st["Action"]) {
					check("WS1003", id, a != "*" && !strings.HasSuffix(a, ":*"), "its role allows the action %s", a)
				}
			}
		}
	}
	for _, id := range tpl.OfType("AWS::Lambda::Permission") {
		var p struct{ Principal any }
		props(id, &p)
		_, one := p.Principal.(string)
		check("WS1002", id, one, "Principal %v is not one principal", p.Principal)
	}
	// ES1001: a stream or queue event source keeps what it gives up on.
	for _, id := range tpl.OfType("AWS::Lambda::EventSourceMapping") {
		var p struct {
			EventSourceArn    any
			DestinationConfig struct{ OnFailure struct{ Destination any } }
		}
		props(id, &p)
		src, _ := getAttOf(p.EventSourceArn)
		if typ := tpl.Resources[src].Type; typ == "AWS::DynamoDB::Table" || typ == "AWS::Kinesis::Stream" {
			check("ES1001", id, p.DestinationConfig.OnFailure.Destination != nil, "a stream event source with no on-failure destination")
		}
	}
	// ES2000, WS2002: the HTTP API's stage logs access and throttles by
	// default. (WS2001, tracing, is REST APIs': HTTP APIs have none.)
	for _, id := range tpl.OfType("AWS::ApiGatewayV2::Stage") {
		var p struct {
			AccessLogSettings    struct{ DestinationArn, Format any }
			DefaultRouteSettings struct{ ThrottlingBurstLimit, ThrottlingRateLimit float64 }
		}
		props(id, &p)
		check("ES2000", id, p.AccessLogSettings.DestinationArn != nil && p.AccessLogSettings.Format != nil, "no access log")
		check("WS2002", id, p.DefaultRouteSettings.ThrottlingBurstLimit > 0 && p.DefaultRouteSettings.ThrottlingRateLimit > 0, "no default throttling")
	}
	// ES7000: an SNS subscription keeps what it cannot deliver.
	redriveTargets := map[string]bool{}
	for _, id := range tpl.OfType("AWS::SNS::Subscription") {
		var p struct {
			Protocol      string
			RedrivePolicy struct {
				DeadLetterTargetArn any `json:"deadLetterTargetArn"`
			}
		}
		props(id, &p)
		if p.Protocol == "email" || p.Protocol == "email-json" {
			continue // to a person: SNS keeps nothing of mail either way
		}
		q, _ := getAttOf(p.RedrivePolicy.DeadLetterTargetArn)
		check("ES7000", id, q != "", "a %s subscription with no redrive policy", p.Protocol)
		redriveTargets[q] = true
	}
	// ES4000, for the scheduler as for EventBridge rules: the target keeps
	// the invocations it gives up on.
	for _, id := range tpl.OfType("AWS::Scheduler::Schedule") {
		var p struct {
			Target struct{ DeadLetterConfig struct{ Arn any } }
		}
		props(id, &p)
		q, _ := getAttOf(p.Target.DeadLetterConfig.Arn)
		check("ES4000", id, q != "", "a schedule whose target has no dead-letter queue")
		redriveTargets[q] = true
	}
	// ES6000: a queue has a redrive policy, unless it is itself where
	// failures are kept (a function's DLQ or destination, a redrive
	// target): then an alarm watches it.
	for _, id := range tpl.OfType("AWS::Lambda::Function") {
		var p struct{ DeadLetterConfig struct{ TargetArn any } }
		props(id, &p)
		q, _ := getAttOf(p.DeadLetterConfig.TargetArn)
		redriveTargets[q] = true
	}
	for _, id := range tpl.OfType("AWS::Lambda::EventSourceMapping") {
		var p struct {
			DestinationConfig struct{ OnFailure struct{ Destination any } }
		}
		props(id, &p)
		q, _ := getAttOf(p.DestinationConfig.OnFailure.Destination)
		redriveTargets[q] = true
	}
	watched := map[string]bool{}
	for _, id := range tpl.OfType("AWS::CloudWatch::Alarm") {
		var p struct {
			Namespace  any
			Dimensions []struct {
				Name  string
				Value any
			}
		}
		props(id, &p)
		for _, d := range p.Dimensions {
			if q, attr := getAttOf(d.Value); p.Namespace == "AWS/SQS" && attr == "QueueName" {
				watched[q] = true
			}
		}
	}
	for _, id := range tpl.OfType("AWS::SQS::Queue") {
		var p struct{ RedrivePolicy any }
		props(id, &p)
		switch {
		case redriveTargets[id]:
			check("ES6000", id, watched[id], "a queue of failures that no alarm watches")
		default:
			check("ES6000", id, p.RedrivePolicy != nil, "a queue with no redrive policy")
		}
	}
}

// TestOperatorAlarms: the stack makes its alarm topic (AlarmEmail is
// subscribed to it), every alarm notifies it, and there are alarms on
// what an operator must hear of on day one: SES's bounce and complaint
// rates below the rates SES reviews an account at, throttling of each
// function and of the table, the sweep's scheduling, and every queue of
// failures.
func TestOperatorAlarms(t *testing.T) {
	tr := transformed(t)
	tpl := &tr.Template
	topics := tpl.OfType("AWS::SNS::Topic")
	alarmTopic := ""
	for _, id := range tpl.OfType("AWS::SNS::Subscription") {
		p, err := deploy.Props[struct {
			Protocol string
			TopicArn any
			Endpoint any
		}](tpl.Resources[id])
		if err != nil {
			t.Fatal(err)
		}
		if p.Protocol == "email" && refOf(p.Endpoint) == "AlarmEmail" {
			alarmTopic = refOf(p.TopicArn)
		}
	}
	if !slices.Contains(topics, alarmTopic) {
		t.Fatalf("no topic of the stack has the AlarmEmail subscription (topics %v)", topics)
	}
	type metric struct {
		Namespace  any
		MetricName string
		Dimensions []struct {
			Name  string
			Value any
		}
	}
	var metrics []metric // every metric some alarm watches
	rates := map[string]float64{}
	for _, id := range tpl.OfType("AWS::CloudWatch::Alarm") {
		p, err := deploy.Props[struct {
			metric
			Threshold               float64
			AlarmActions, OKActions []any
			ComparisonOperator      string
			Metrics                 []struct{ MetricStat struct{ Metric metric } }
		}](tpl.Resources[id])
		if err != nil {
			t.Fatal(err)
		}
		if len(p.AlarmActions) != 1 || refOf(p.AlarmActions[0]) != alarmTopic {
			t.Errorf("%s: AlarmActions %v, want [%s]", id, p.AlarmActions, alarmTopic)
		}
		metrics = append(metrics, p.metric)
		for _, m := range p.Metrics {
			metrics = append(metrics, m.MetricStat.Metric)
		}
		if p.Namespace == "AWS/SES" && p.ComparisonOperator == "GreaterThanOrEqualToThreshold" {
			rates[p.MetricName] = p.Threshold
		}
	}
	// SES reviews an account at a 5 % bounce rate and 0.1 % complaint rate.
	for name, review := range map[string]float64{"Reputation.BounceRate": 0.05, "Reputation.ComplaintRate": 0.001} {
		if r, ok := rates[name]; !ok || r <= 0 || r >= review {
			t.Errorf("no alarm on SES's %s below %g, the rate SES reviews an account at (have %v)", name, review, rates)
		}
	}
	watches := func(ns, name, dim string, value func(any) bool) bool {
		return slices.ContainsFunc(metrics, func(m metric) bool {
			return m.Namespace == ns && m.MetricName == name && slices.ContainsFunc(m.Dimensions, func(d struct {
				Name  string
				Value any
			}) bool {
				return d.Name == dim && value(d.Value)
			})
		})
	}
	for _, fn := range tpl.OfType("AWS::Lambda::Function") {
		if !watches("AWS/Lambda", "Throttles", "FunctionName", func(v any) bool { return refOf(v) == fn }) {
			t.Errorf("no alarm on %s's Throttles", fn)
		}
	}
	for _, table := range tpl.OfType("AWS::DynamoDB::Table") {
		for _, m := range []string{"ReadThrottleEvents", "WriteThrottleEvents"} {
			if !watches("AWS/DynamoDB", m, "TableName", func(v any) bool { return refOf(v) == table }) {
				t.Errorf("no alarm on %s's %s", table, m)
			}
		}
	}
	for _, group := range tpl.OfType("AWS::Scheduler::ScheduleGroup") {
		for _, m := range []string{"TargetErrorCount", "InvocationDroppedCount"} {
			if !watches("AWS/Scheduler", m, "ScheduleGroup", func(v any) bool { return refOf(v) == group }) {
				t.Errorf("no alarm on the scheduler's %s in %s", m, group)
			}
		}
	}
	for _, q := range tpl.OfType("AWS::SQS::Queue") {
		if !watches("AWS/SQS", "ApproximateNumberOfMessagesVisible", "QueueName", func(v any) bool { r, a := getAttOf(v); return r == q && a == "QueueName" }) {
			t.Errorf("no alarm on the messages waiting in %s", q)
		}
	}
}
