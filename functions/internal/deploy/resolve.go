package deploy

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Stack is one deployment of a template: where it is, its parameters'
// values, and the physical names of its resources. Resolve evaluates the
// template's intrinsic functions for it, as CloudFormation does when it
// creates the stack.
type Stack struct {
	Name      string // the stack's name
	Region    string
	Account   string
	Partition string // "aws" if empty
	// Parameters are the values given; the others take their defaults.
	Parameters map[string]string
	// Physical are resources' physical ids (what Ref gives): a table's
	// name, an API's id. The others get names as CloudFormation makes
	// them (stack-LogicalId-RANDOMSUFFIX).
	Physical map[string]string

	tpl *Template
}

// For is s bound to the template t (its parameters' defaults, its
// conditions, its resources' types).
func (s Stack) For(t *Template) *Stack {
	s.tpl = t
	if s.Partition == "" {
		s.Partition = "aws"
	}
	return &s
}

func (s *Stack) urlSuffix() string {
	if strings.HasPrefix(s.Partition, "aws-cn") {
		return "amazonaws.com.cn"
	}
	return "amazonaws.com"
}

// physical is the physical id of resource id: given, or made as
// CloudFormation makes one for a resource it names itself (the stack's
// name, the logical id and a 12-character suffix, cut to the type's
// length limit), or the id an API Gateway API gets.
func (s *Stack) physical(id string) (string, error) {
	if p, ok := s.Physical[id]; ok {
		return p, nil
	}
	r, ok := s.tpl.Resources[id]
	if !ok {
		return "", fmt.Errorf("no resource %s", id)
	}
	switch r.Type {
	case "AWS::ApiGatewayV2::Api", "AWS::ApiGateway::RestApi":
		return "a1b2c3d4e5", nil
	case "AWS::ApiGatewayV2::Stage":
		return "$default", nil
	case "AWS::SNS::Topic":
		return fmt.Sprintf("arn:%s:sns:%s:%s:%s", s.Partition, s.Region, s.Account, generatedName(s.Name, id, 256)), nil
	case "AWS::SQS::Queue":
		return fmt.Sprintf("https://sqs.%s.%s/%s/%s", s.Region, s.urlSuffix(), s.Account, generatedName(s.Name, id, 80)), nil
	case "AWS::Lambda::Function":
		return generatedName(s.Name, id, 64), nil
	case "AWS::IAM::Role":
		return generatedName(s.Name, id, 64), nil
	}
	return generatedName(s.Name, id, 255), nil
}

// generatedName is a name as CloudFormation generates one: stack name,
// logical id and a random suffix, the first two shortened to fit max.
func generatedName(stack, id string, max int) string {
	const suffix = "ABCDEFGHIJ12"
	room := max - len(suffix) - 2
	if len(stack)+len(id) > room {
		// CloudFormation shortens both; keep the proportions simple.
		half := room / 2
		if len(stack) > half {
			stack = stack[:half]
		}
		if len(id) > room-len(stack) {
			id = id[:room-len(stack)]
		}
	}
	return stack + "-" + id + "-" + suffix
}

// getAtt is the value of Fn::GetAtt of resource id's attribute attr.
func (s *Stack) getAtt(id, attr string) (string, error) {
	r, ok := s.tpl.Resources[id]
	if !ok {
		return "", fmt.Errorf("Fn::GetAtt of %s.%s: no such resource", id, attr)
	}
	p, err := s.physical(id)
	if err != nil {
		return "", err
	}
	arn := func(service, rest string) string {
		return fmt.Sprintf("arn:%s:%s:%s:%s:%s", s.Partition, service, s.Region, s.Account, rest)
	}
	switch r.Type + "." + attr {
	case "AWS::Lambda::Function.Arn":
		return arn("lambda", "function:"+p), nil
	case "AWS::IAM::Role.Arn":
		return fmt.Sprintf("arn:%s:iam::%s:role/%s", s.Partition, s.Account, p), nil
	case "AWS::DynamoDB::Table.Arn":
		return arn("dynamodb", "table/"+p), nil
	case "AWS::DynamoDB::Table.StreamArn":
		return arn("dynamodb", "table/"+p+"/stream/2026-12-01T00:00:00.000"), nil
	case "AWS::SQS::Queue.Arn":
		return arn("sqs", p[strings.LastIndexByte(p, '/')+1:]), nil
	case "AWS::SQS::Queue.QueueName":
		return p[strings.LastIndexByte(p, '/')+1:], nil
	case "AWS::SNS::Topic.TopicArn":
		return p, nil
	case "AWS::SNS::Topic.TopicName":
		return p[strings.LastIndexByte(p, ':')+1:], nil
	case "AWS::Logs::LogGroup.Arn":
		return arn("logs", "log-group:"+p+":*"), nil
	case "AWS::ApiGatewayV2::Api.ApiEndpoint":
		return fmt.Sprintf("https://%s.execute-api.%s.%s", p, s.Region, s.urlSuffix()), nil
	case "AWS::Scheduler::Schedule.Arn":
		return arn("scheduler", "schedule/default/"+p), nil
	case "AWS::SES::ConfigurationSet.Name", "AWS::CloudWatch::Alarm.Name":
		return p, nil
	}
	if strings.HasPrefix(attr, "DkimDNSToken") {
		return attr + "-" + p, nil
	}
	return "", fmt.Errorf("Fn::GetAtt %s.%s: attribute of %s unknown to package deploy", id, attr, r.Type)
}

// ref is the value of Ref name: a pseudo parameter, a parameter's value
// or a resource's physical id.
func (s *Stack) ref(name string) (any, error) {
	switch name {
	case "AWS::Region":
		return s.Region, nil
	case "AWS::AccountId":
		return s.Account, nil
	case "AWS::Partition":
		return s.Partition, nil
	case "AWS::URLSuffix":
		return s.urlSuffix(), nil
	case "AWS::StackName":
		return s.Name, nil
	case "AWS::StackId":
		return fmt.Sprintf("arn:%s:cloudformation:%s:%s:stack/%s/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d", s.Partition, s.Region, s.Account, s.Name), nil
	case "AWS::NoValue":
		return noValue{}, nil
	}
	if p, ok := s.tpl.Parameters[name]; ok {
		if v, ok := s.Parameters[name]; ok {
			return v, nil
		}
		if p.Default == nil {
			return nil, fmt.Errorf("parameter %s has no value and no default", name)
		}
		switch d := p.Default.(type) {
		case string:
			return d, nil
		case float64:
			return strconv.FormatFloat(d, 'f', -1, 64), nil
		default:
			return fmt.Sprint(d), nil
		}
	}
	if _, ok := s.tpl.Resources[name]; ok {
		return s.physical(name)
	}
	return nil, fmt.Errorf("Ref %s: no such parameter or resource", name)
}

// noValue is AWS::NoValue: the property it is given to is left out.
type noValue struct{}

var subVar = regexp.MustCompile(`\$\{([^}!][^}]*)\}`)

// Resolve evaluates the intrinsic functions in v (a template value as
// JSON decodes it) for the stack. A property whose value is
// AWS::NoValue is dropped.
func (s *Stack) Resolve(v any) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 1 {
			for k, arg := range v {
				if k == "Ref" || strings.HasPrefix(k, "Fn::") || k == "Condition" {
					return s.intrinsic(k, arg)
				}
			}
		}
		out := map[string]any{}
		for k, e := range v {
			r, err := s.Resolve(e)
			if err != nil {
				return nil, err
			}
			if _, drop := r.(noValue); !drop {
				out[k] = r
			}
		}
		return out, nil
	case []any:
		out := make([]any, 0, len(v))
		for _, e := range v {
			r, err := s.Resolve(e)
			if err != nil {
				return nil, err
			}
			if _, drop := r.(noValue); !drop {
				out = append(out, r)
			}
		}
		return out, nil
	}
	return v, nil
}

// ResolveString resolves v and requires a string.
func (s *Stack) ResolveString(v any) (string, error) {
	r, err := s.Resolve(v)
	if err != nil {
		return "", err
	}
	str, ok := r.(string)
	if !ok {
		return "", fmt.Errorf("%v resolves to %v, not a string", v, r)
	}
	return str, nil
}

func (s *Stack) intrinsic(fn string, arg any) (any, error) {
	switch fn {
	case "Ref":
		name, _ := arg.(string)
		return s.ref(name)
	case "Fn::GetAtt":
		var id, attr string
		switch a := arg.(type) {
		case string:
			id, attr, _ = strings.Cut(a, ".")
		case []any:
			if len(a) == 2 {
				id, _ = a[0].(string)
				attr, _ = a[1].(string)
			}
		}
		return s.getAtt(id, attr)
	case "Fn::Sub":
		var format string
		vars := map[string]any{}
		switch a := arg.(type) {
		case string:
			format = a
		case []any:
			if len(a) != 2 {
				return nil, fmt.Errorf("Fn::Sub %v", a)
			}
			format, _ = a[0].(string)
			m, _ := a[1].(map[string]any)
			for k, e := range m {
				r, err := s.Resolve(e)
				if err != nil {
					return nil, err
				}
				vars[k] = r
			}
		}
		var firstErr error
		out := subVar.ReplaceAllStringFunc(format, func(m string) string {
			name := m[2 : len(m)-1]
			var r any
			var err error
			if v, ok := vars[name]; ok {
				r = v
			} else if id, attr, dot := strings.Cut(name, "."); dot && !strings.HasPrefix(name, "AWS::") {
				r, err = s.getAtt(id, attr)
			} else {
				r, err = s.ref(name)
			}
			if err != nil && firstErr == nil {
				firstErr = err
			}
			str, _ := r.(string)
			return str
		})
		return strings.ReplaceAll(out, "${!", "${"), firstErr
	case "Fn::Join":
		a, _ := arg.([]any)
		if len(a) != 2 {
			return nil, fmt.Errorf("Fn::Join %v", arg)
		}
		sep, _ := a[0].(string)
		list, err := s.Resolve(a[1])
		if err != nil {
			return nil, err
		}
		items, _ := list.([]any)
		strs := make([]string, len(items))
		for i, it := range items {
			strs[i] = fmt.Sprint(it)
		}
		return strings.Join(strs, sep), nil
	case "Fn::Split":
		a, _ := arg.([]any)
		if len(a) != 2 {
			return nil, fmt.Errorf("Fn::Split %v", arg)
		}
		sep, _ := a[0].(string)
		str, err := s.ResolveString(a[1])
		if err != nil {
			return nil, err
		}
		var out []any
		for _, p := range strings.Split(str, sep) {
			out = append(out, p)
		}
		return out, nil
	case "Fn::Select":
		a, _ := arg.([]any)
		if len(a) != 2 {
			return nil, fmt.Errorf("Fn::Select %v", arg)
		}
		idx, err := s.Resolve(a[0])
		if err != nil {
			return nil, err
		}
		var i int
		switch n := idx.(type) {
		case float64:
			i = int(n)
		case string:
			i, _ = strconv.Atoi(n)
		}
		list, err := s.Resolve(a[1])
		if err != nil {
			return nil, err
		}
		items, _ := list.([]any)
		if i < 0 || i >= len(items) {
			return nil, fmt.Errorf("Fn::Select %d of %d items", i, len(items))
		}
		return items[i], nil
	case "Fn::If":
		a, _ := arg.([]any)
		if len(a) != 3 {
			return nil, fmt.Errorf("Fn::If %v", arg)
		}
		name, _ := a[0].(string)
		ok, err := s.Condition(name)
		if err != nil {
			return nil, err
		}
		if ok {
			return s.Resolve(a[1])
		}
		return s.Resolve(a[2])
	case "Condition":
		name, _ := arg.(string)
		return s.Condition(name)
	case "Fn::Equals":
		a, _ := arg.([]any)
		if len(a) != 2 {
			return nil, fmt.Errorf("Fn::Equals %v", arg)
		}
		x, err := s.Resolve(a[0])
		if err != nil {
			return nil, err
		}
		y, err := s.Resolve(a[1])
		if err != nil {
			return nil, err
		}
		return fmt.Sprint(x) == fmt.Sprint(y), nil
	case "Fn::Not", "Fn::And", "Fn::Or":
		a, _ := arg.([]any)
		var vals []bool
		for _, e := range a {
			r, err := s.Resolve(e)
			if err != nil {
				return nil, err
			}
			b, ok := r.(bool)
			if !ok {
				return nil, fmt.Errorf("%s of %v", fn, r)
			}
			vals = append(vals, b)
		}
		switch fn {
		case "Fn::Not":
			if len(vals) != 1 {
				return nil, fmt.Errorf("Fn::Not %v", arg)
			}
			return !vals[0], nil
		case "Fn::And":
			for _, b := range vals {
				if !b {
					return false, nil
				}
			}
			return true, nil
		default:
			for _, b := range vals {
				if b {
					return true, nil
				}
			}
			return false, nil
		}
	}
	return nil, fmt.Errorf("%s: an intrinsic function package deploy does not evaluate", fn)
}

// Condition evaluates the template's condition name for the stack.
func (s *Stack) Condition(name string) (bool, error) {
	expr, ok := s.tpl.Conditions[name]
	if !ok {
		return false, fmt.Errorf("no condition %s", name)
	}
	r, err := s.Resolve(expr)
	if err != nil {
		return false, fmt.Errorf("condition %s: %w", name, err)
	}
	b, ok := r.(bool)
	if !ok {
		return false, fmt.Errorf("condition %s is %v, not a boolean", name, r)
	}
	return b, nil
}

// jsonValue decodes a JSON text known to be valid.
func jsonValue(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		panic(err)
	}
	return v
}
