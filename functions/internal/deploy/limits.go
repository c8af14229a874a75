package deploy

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// The quotas that refuse a stack at deploy time, as the services document
// them (the CloudFormation, Lambda, IAM, API Gateway and CloudWatch quota
// pages). Most cannot be raised; those that can say so.
const (
	// CloudFormation.
	MaxTemplateBodyInline = 51_200    // bytes, a template passed inline (--template-body)
	MaxTemplateBodyS3     = 1_048_576 // bytes, a template in S3 (what `sam deploy` passes)
	MaxResources          = 500
	MaxOutputs            = 200
	MaxParameters         = 200
	MaxMappings           = 200
	MaxLogicalIDLength    = 255
	MaxDescription        = 1024 // the template's Description, bytes
	MaxStackNameLength    = 128

	// Lambda.
	MaxFunctionPolicy     = 20_480 // bytes, a function's resource-based policy
	MaxFunctionName       = 64
	MaxFunctionEnv        = 4096 // bytes, all environment variables' names and values
	MaxFunctionDesc       = 256
	MaxFunctionTimeout    = 900
	MaxStatementID        = 100
	MaxEventSourceFilters = 5    // filters an event source mapping (default quota)
	MaxFilterPattern      = 4096 // characters of one filter pattern

	// IAM.
	MaxRoleInlinePolicies = 10_240 // characters, a role's inline policies together, whitespace not counted
	MaxRoleManagedPolices = 10     // managed policies attached to a role (default quota)
	MaxRoleName           = 64
	MaxTrustPolicy        = 2048 // characters of a role's trust policy (default quota)

	// Others.
	MaxHTTPAPIRoutes    = 300 // routes of an API Gateway HTTP API (default quota)
	MaxAlarmName        = 255
	MaxAlarmDescription = 1024
	MaxLogGroupName     = 512
	MaxQueueName        = 80
	MaxTopicName        = 256
	MaxScheduleName     = 64
	MaxTableName        = 255
)

// Figures are the measures the limits are held against.
type Figures struct {
	SourceBytes      int            // template.yaml as written (what `sam deploy` uploads, less comments)
	TransformedBytes int            // the transformed template as compact JSON
	Resources        int            // after the transform
	Outputs          int            // after the transform
	Parameters       int            // after the transform
	FunctionPolicy   map[string]int // function logical id → bytes of its resource-based policy
	Permissions      map[string]int // function logical id → its AWS::Lambda::Permission statements
	RoleInline       map[string]int // role logical id → characters of its inline policies
}

// Limits measures the transformed template tr, deployed as stack, and
// lists every quota it breaks, each as a sentence naming the resource,
// the figure and the quota.
func Limits(tr *Transformed, stack Stack) (Figures, []string) {
	var broken []string
	fail := func(format string, args ...any) { broken = append(broken, fmt.Sprintf(format, args...)) }
	s := stack.For(&tr.Template)
	// Names are measured with the longest stack name CloudFormation takes.
	long := stack
	long.Name = strings.Repeat("s", MaxStackNameLength)
	ls := long.For(&tr.Template)

	compact, err := json.Marshal(tr.Template)
	if err != nil {
		fail("the transformed template does not encode: %v", err)
	}
	f := Figures{
		SourceBytes: len(tr.SourceYAML), TransformedBytes: len(compact),
		Resources: len(tr.Resources), Outputs: len(tr.Outputs), Parameters: len(tr.Parameters),
		FunctionPolicy: map[string]int{}, Permissions: map[string]int{}, RoleInline: map[string]int{},
	}
	if f.SourceBytes > MaxTemplateBodyS3 {
		fail("template.yaml is %d bytes, over CloudFormation's %d for a template in S3", f.SourceBytes, MaxTemplateBodyS3)
	}
	for what, n := range map[string][2]int{
		"resources": {f.Resources, MaxResources}, "outputs": {f.Outputs, MaxOutputs},
		"parameters": {f.Parameters, MaxParameters}, "mappings": {len(tr.Mappings), MaxMappings},
	} {
		if n[0] > n[1] {
			fail("the transformed template has %d %s, over CloudFormation's %d", n[0], what, n[1])
		}
	}
	if len(tr.Description) > MaxDescription {
		fail("the template's Description is %d bytes, over %d", len(tr.Description), MaxDescription)
	}
	for _, section := range []map[string]any{anyKeys(tr.Resources), tr.Outputs, anyKeys(tr.Parameters), tr.Conditions, tr.Mappings} {
		for id := range section {
			if len(id) > MaxLogicalIDLength || !alnum(id) {
				fail("logical id %q: at most %d letters and digits", id, MaxLogicalIDLength)
			}
		}
	}

	policies := map[string][]any{} // function → statements as Lambda stores them
	for _, id := range tr.OfType("AWS::Lambda::Permission") {
		fn, stmt, err := permissionStatement(s, tr.Resources[id], id)
		if err != nil {
			fail("%s: %v", id, err)
			continue
		}
		policies[fn] = append(policies[fn], stmt)
	}
	for fn, stmts := range policies {
		doc, _ := json.Marshal(map[string]any{"Version": "2012-10-17", "Id": "default", "Statement": stmts})
		f.FunctionPolicy[fn] = len(doc)
		f.Permissions[fn] = len(stmts)
		if len(doc) > MaxFunctionPolicy {
			fail("%s: its resource-based policy is %d bytes (%d AWS::Lambda::Permission statements), over Lambda's %d: "+
				"the stack fails with PolicyLengthExceededException", fn, len(doc), len(stmts), MaxFunctionPolicy)
		}
	}

	for _, id := range tr.OfType("AWS::Lambda::Function") {
		p, err := Props[struct {
			FunctionName any
			Description  string
			Timeout      int
			Environment  struct{ Variables map[string]any }
		}](tr.Resources[id])
		if err != nil {
			fail("%s: %v", id, err)
			continue
		}
		if len(p.Description) > MaxFunctionDesc {
			fail("%s: Description of %d characters, over %d", id, len(p.Description), MaxFunctionDesc)
		}
		if p.Timeout > MaxFunctionTimeout {
			fail("%s: Timeout %d s, over %d", id, p.Timeout, MaxFunctionTimeout)
		}
		env, err := s.Resolve(anyMap(p.Environment.Variables))
		if err != nil {
			fail("%s: Environment: %v", id, err)
			continue
		}
		size := 0
		for k, v := range env.(map[string]any) {
			size += len(k) + len(fmt.Sprint(v))
		}
		if size > MaxFunctionEnv {
			fail("%s: environment variables of %d bytes, over Lambda's %d", id, size, MaxFunctionEnv)
		}
		checkName(ls, &broken, id, "FunctionName", p.FunctionName, MaxFunctionName)
	}

	for _, id := range tr.OfType("AWS::IAM::Role") {
		p, err := Props[struct {
			RoleName                 any
			AssumeRolePolicyDocument any
			ManagedPolicyArns        []any
			Policies                 []struct{ PolicyDocument any }
		}](tr.Resources[id])
		if err != nil {
			fail("%s: %v", id, err)
			continue
		}
		n := 0
		for _, pol := range p.Policies {
			doc, err := s.Resolve(pol.PolicyDocument)
			if err != nil {
				fail("%s: %v", id, err)
				continue
			}
			n += policyChars(doc)
		}
		f.RoleInline[id] = n
		if n > MaxRoleInlinePolicies {
			fail("%s: inline policies of %d characters together, over IAM's %d", id, n, MaxRoleInlinePolicies)
		}
		if len(p.ManagedPolicyArns) > MaxRoleManagedPolices {
			fail("%s: %d managed policies, over IAM's %d", id, len(p.ManagedPolicyArns), MaxRoleManagedPolices)
		}
		if trust, err := s.Resolve(p.AssumeRolePolicyDocument); err != nil {
			fail("%s: %v", id, err)
		} else if n := policyChars(trust); n > MaxTrustPolicy {
			fail("%s: trust policy of %d characters, over IAM's %d", id, n, MaxTrustPolicy)
		}
		checkName(ls, &broken, id, "RoleName", p.RoleName, MaxRoleName)
	}

	for _, id := range tr.OfType("AWS::Lambda::EventSourceMapping") {
		p, err := Props[struct {
			FilterCriteria struct{ Filters []struct{ Pattern string } }
		}](tr.Resources[id])
		if err != nil {
			fail("%s: %v", id, err)
			continue
		}
		if n := len(p.FilterCriteria.Filters); n > MaxEventSourceFilters {
			fail("%s: %d filters, over Lambda's %d", id, n, MaxEventSourceFilters)
		}
		for i, fl := range p.FilterCriteria.Filters {
			if len(fl.Pattern) > MaxFilterPattern {
				fail("%s: filter %d of %d characters, over %d", id, i, len(fl.Pattern), MaxFilterPattern)
			}
		}
	}

	for _, id := range tr.OfType("AWS::ApiGatewayV2::Api") {
		p, err := Props[struct {
			Body struct{ Paths map[string]map[string]any }
		}](tr.Resources[id])
		if err != nil {
			fail("%s: %v", id, err)
			continue
		}
		routes := 0
		for _, ops := range p.Body.Paths {
			routes += len(ops)
		}
		routes += len(tr.OfType("AWS::ApiGatewayV2::Route"))
		if routes > MaxHTTPAPIRoutes {
			fail("%s: %d routes, over API Gateway's %d", id, routes, MaxHTTPAPIRoutes)
		}
	}

	for _, id := range tr.OfType("AWS::CloudWatch::Alarm") {
		p, err := Props[struct {
			AlarmName        any
			AlarmDescription string
		}](tr.Resources[id])
		if err != nil {
			fail("%s: %v", id, err)
			continue
		}
		if len(p.AlarmDescription) > MaxAlarmDescription {
			fail("%s: AlarmDescription of %d characters, over %d", id, len(p.AlarmDescription), MaxAlarmDescription)
		}
		checkName(ls, &broken, id, "AlarmName", p.AlarmName, MaxAlarmName)
	}
	for typ, name := range map[string]struct {
		prop string
		max  int
	}{
		"AWS::Logs::LogGroup":      {"LogGroupName", MaxLogGroupName},
		"AWS::SQS::Queue":          {"QueueName", MaxQueueName},
		"AWS::SNS::Topic":          {"TopicName", MaxTopicName},
		"AWS::Scheduler::Schedule": {"Name", MaxScheduleName},
		"AWS::DynamoDB::Table":     {"TableName", MaxTableName},
	} {
		for _, id := range tr.OfType(typ) {
			var p map[string]any
			if err := json.Unmarshal(tr.Resources[id].Properties, &p); err != nil {
				fail("%s: %v", id, err)
				continue
			}
			checkName(ls, &broken, id, name.prop, p[name.prop], name.max)
		}
	}
	sort.Strings(broken)
	return f, broken
}

// checkName checks a name given in the template (nil: CloudFormation
// generates one that fits), resolved with the longest stack name.
func checkName(s *Stack, broken *[]string, id, prop string, v any, max int) {
	if v == nil {
		return
	}
	name, err := s.ResolveString(v)
	if err != nil {
		*broken = append(*broken, fmt.Sprintf("%s: %s: %v", id, prop, err))
		return
	}
	if len(name) > max {
		*broken = append(*broken, fmt.Sprintf("%s: %s is %d characters with a stack name of %d, over %d: %s",
			id, prop, len(name), MaxStackNameLength, max, name))
	}
}

// permissionStatement is the statement Lambda adds to a function's
// resource-based policy for an AWS::Lambda::Permission (AddPermission
// with the resource's physical id as its StatementId), and the logical id
// of the function it is on.
func permissionStatement(s *Stack, r Resource, id string) (string, map[string]any, error) {
	p, err := Props[struct {
		Action, FunctionName, Principal, SourceArn, SourceAccount, PrincipalOrgID, EventSourceToken, FunctionUrlAuthType any
	}](r)
	if err != nil {
		return "", nil, err
	}
	fn := ""
	switch v := p.FunctionName.(type) {
	case map[string]any:
		if ref, ok := v["Ref"].(string); ok {
			fn = ref
		} else if ga, ok := v["Fn::GetAtt"]; ok {
			switch ga := ga.(type) {
			case string:
				fn, _, _ = strings.Cut(ga, ".")
			case []any:
				fn, _ = ga[0].(string)
			}
		}
	}
	if fn == "" {
		return "", nil, fmt.Errorf("FunctionName %v is not a function of the template", p.FunctionName)
	}
	arn, err := s.getAtt(fn, "Arn")
	if err != nil {
		return "", nil, err
	}
	resolved := map[string]string{}
	for k, v := range map[string]any{"Action": p.Action, "Principal": p.Principal, "SourceArn": p.SourceArn,
		"SourceAccount": p.SourceAccount, "PrincipalOrgID": p.PrincipalOrgID, "EventSourceToken": p.EventSourceToken,
		"FunctionUrlAuthType": p.FunctionUrlAuthType} {
		if v == nil {
			continue
		}
		str, err := s.ResolveString(v)
		if err != nil {
			return "", nil, fmt.Errorf("%s: %w", k, err)
		}
		resolved[k] = str
	}
	var principal any = resolved["Principal"]
	switch pr := resolved["Principal"]; {
	case pr == "*":
	case strings.HasSuffix(pr, ".amazonaws.com") || strings.HasSuffix(pr, ".amazonaws.com.cn"):
		principal = map[string]any{"Service": pr}
	default:
		principal = map[string]any{"AWS": fmt.Sprintf("arn:%s:iam::%s:root", s.Partition, pr)}
	}
	stmt := map[string]any{"Sid": generatedName(s.Name, id, MaxStatementID), "Effect": "Allow",
		"Principal": principal, "Action": resolved["Action"], "Resource": arn}
	cond := map[string]map[string]string{}
	add := func(op, key, v string) {
		if v == "" {
			return
		}
		if cond[op] == nil {
			cond[op] = map[string]string{}
		}
		cond[op][key] = v
	}
	add("ArnLike", "AWS:SourceArn", resolved["SourceArn"])
	add("StringEquals", "AWS:SourceAccount", resolved["SourceAccount"])
	add("StringEquals", "aws:PrincipalOrgID", resolved["PrincipalOrgID"])
	add("StringEquals", "lambda:EventSourceToken", resolved["EventSourceToken"])
	add("StringEquals", "lambda:FunctionUrlAuthType", resolved["FunctionUrlAuthType"])
	if len(cond) > 0 {
		stmt["Condition"] = cond
	}
	return fn, stmt, nil
}

// policyChars is the size IAM counts of a policy document: its JSON
// without whitespace.
func policyChars(doc any) int {
	b, _ := json.Marshal(doc)
	n := 0
	for _, r := range string(b) {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

var alnumRE = regexp.MustCompile(`^[A-Za-z0-9]+$`)

func alnum(s string) bool { return alnumRE.MatchString(s) }

func anyKeys[V any](m map[string]V) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func anyMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
