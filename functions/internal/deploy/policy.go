package deploy

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Request is one authorisation IAM makes of a request: an action on a
// resource with the request's condition keys. An API call may need
// several (BatchGetItem: one for each table it reads).
type Request struct {
	Action   string              // "dynamodb:BatchGetItem"
	Resource string              // an ARN
	Context  map[string][]string // condition keys present: "dynamodb:LeadingKeys": the partition keys
}

func (r Request) String() string {
	s := r.Action + " on " + r.Resource
	if len(r.Context) > 0 {
		keys := make([]string, 0, len(r.Context))
		for k := range r.Context {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			s += fmt.Sprintf(" %s=%q", k, r.Context[k])
		}
	}
	return s
}

// Policy is an identity-based policy: a role's inline policy, or a
// managed policy attached to it.
type Policy struct {
	Name       string
	Statements []Statement
}

// Statement is one statement of a policy, its string-or-list elements as
// lists.
type Statement struct {
	Sid         string
	Effect      string
	Action      []string
	NotAction   []string
	Resource    []string
	NotResource []string
	// Condition: operator ("ForAllValues:StringLike") → key → values.
	Condition map[string]map[string][]string
}

// ParsePolicy reads a policy document (resolved: no intrinsic functions
// left) as IAM reads it.
func ParsePolicy(name string, doc any) (Policy, error) {
	b, err := json.Marshal(doc)
	if err != nil {
		return Policy{}, err
	}
	var raw struct {
		Statement json.RawMessage
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return Policy{}, fmt.Errorf("policy %s: %w", name, err)
	}
	var list []map[string]any
	if err := json.Unmarshal(raw.Statement, &list); err != nil {
		var one map[string]any
		if err := json.Unmarshal(raw.Statement, &one); err != nil {
			return Policy{}, fmt.Errorf("policy %s: Statement: %w", name, err)
		}
		list = []map[string]any{one}
	}
	p := Policy{Name: name}
	for i, m := range list {
		st := Statement{Condition: map[string]map[string][]string{}}
		st.Sid, _ = m["Sid"].(string)
		st.Effect, _ = m["Effect"].(string)
		var errs []error
		st.Action, errs = strs(m["Action"], errs)
		st.NotAction, errs = strs(m["NotAction"], errs)
		st.Resource, errs = strs(m["Resource"], errs)
		st.NotResource, errs = strs(m["NotResource"], errs)
		cond, _ := m["Condition"].(map[string]any)
		for op, kv := range cond {
			keys, ok := kv.(map[string]any)
			if !ok {
				errs = append(errs, fmt.Errorf("condition %s is not an object", op))
				continue
			}
			st.Condition[op] = map[string][]string{}
			for k, v := range keys {
				st.Condition[op][k], errs = strs(v, errs)
			}
		}
		if _, ok := m["Principal"]; ok {
			errs = append(errs, fmt.Errorf("a Principal in an identity-based policy"))
		}
		if st.Effect != "Allow" && st.Effect != "Deny" {
			errs = append(errs, fmt.Errorf("Effect %q", st.Effect))
		}
		if len(errs) > 0 {
			return Policy{}, fmt.Errorf("policy %s, statement %d (%s): %v", name, i, st.Sid, errs)
		}
		p.Statements = append(p.Statements, st)
	}
	return p, nil
}

// strs reads a string-or-list element (numbers and booleans as IAM reads
// them, as strings).
func strs(v any, errs []error) ([]string, []error) {
	switch v := v.(type) {
	case nil:
		return nil, errs
	case string:
		return []string{v}, errs
	case bool, float64:
		return []string{fmt.Sprint(v)}, errs
	case []any:
		var out []string
		for _, e := range v {
			var one []string
			one, errs = strs(e, errs)
			out = append(out, one...)
		}
		return out, errs
	}
	return nil, append(errs, fmt.Errorf("%v is not a string or a list of strings", v))
}

// Policies are all the identity-based policies of a role.
type Policies []Policy

// Allows evaluates the request as IAM evaluates a role's identity-based
// policies alone (no permissions boundary, session or resource policy):
// an explicit Deny wins, then an Allow, and anything else is implicitly
// denied. why names the statement that decided, or says none allowed it.
func (ps Policies) Allows(r Request) (allowed bool, why string, err error) {
	var allowedBy string
	for _, p := range ps {
		for i, st := range p.Statements {
			ok, err := st.matches(r)
			if err != nil {
				return false, "", fmt.Errorf("policy %s, statement %d (%s): %w", p.Name, i, st.Sid, err)
			}
			if !ok {
				continue
			}
			name := fmt.Sprintf("%s statement %q", p.Name, st.Sid)
			if st.Sid == "" {
				name = fmt.Sprintf("%s statement %d", p.Name, i)
			}
			if st.Effect == "Deny" {
				return false, "explicitly denied by " + name, nil
			}
			if allowedBy == "" {
				allowedBy = name
			}
		}
	}
	if allowedBy != "" {
		return true, "allowed by " + allowedBy, nil
	}
	return false, "no identity-based policy allows " + r.Action + " on that resource with those keys", nil
}

func (st Statement) matches(r Request) (bool, error) {
	actionMatch := func(pats []string) bool {
		return slices.ContainsFunc(pats, func(p string) bool { return globMatch(strings.ToLower(p), strings.ToLower(r.Action)) })
	}
	switch {
	case st.Action != nil && !actionMatch(st.Action):
		return false, nil
	case st.NotAction != nil && actionMatch(st.NotAction):
		return false, nil
	case st.Action == nil && st.NotAction == nil:
		return false, fmt.Errorf("no Action or NotAction")
	}
	resourceMatch := func(pats []string) bool {
		return slices.ContainsFunc(pats, func(p string) bool { return arnMatch(p, r.Resource) })
	}
	switch {
	case st.Resource != nil && !resourceMatch(st.Resource):
		return false, nil
	case st.NotResource != nil && resourceMatch(st.NotResource):
		return false, nil
	case st.Resource == nil && st.NotResource == nil:
		return false, fmt.Errorf("no Resource or NotResource")
	}
	for op, keys := range st.Condition {
		for key, values := range keys {
			ok, err := conditionHolds(op, values, r.Context[key], hasKey(r.Context, key))
			if err != nil {
				return false, fmt.Errorf("%s %s: %w", op, key, err)
			}
			if !ok {
				return false, nil
			}
		}
	}
	return true, nil
}

func hasKey(ctx map[string][]string, key string) bool {
	for k := range ctx {
		// Condition key names are case-insensitive.
		if strings.EqualFold(k, key) {
			return true
		}
	}
	return false
}

// conditionHolds evaluates one condition operator on one key: the
// policy's values against the request's (present tells whether the key
// is in the request at all).
func conditionHolds(op string, policy, request []string, present bool) (bool, error) {
	set := ""
	if s, rest, ok := strings.Cut(op, ":"); ok {
		set, op = s, rest
	}
	ifExists := false
	if base, ok := strings.CutSuffix(op, "IfExists"); ok {
		op, ifExists = base, true
	}
	if op == "Null" {
		if len(policy) != 1 {
			return false, fmt.Errorf("Null takes one value")
		}
		return (policy[0] == "true") == !present, nil
	}
	match, negated, err := operator(op)
	if err != nil {
		return false, err
	}
	one := func(v string) bool { // a request value against the policy's values
		return slices.ContainsFunc(policy, func(p string) bool { return match(p, v) })
	}
	switch set {
	case "ForAllValues":
		// Every value of the request's matches one of the policy's; a key
		// absent or empty holds vacuously (as IAM evaluates it).
		for _, v := range request {
			if one(v) == negated {
				return false, nil
			}
		}
		return true, nil
	case "ForAnyValue":
		for _, v := range request {
			if one(v) != negated {
				return true, nil
			}
		}
		return false, nil
	case "":
		if !present {
			return ifExists || negated, nil
		}
		if len(request) != 1 {
			return false, fmt.Errorf("a single-valued operator on %d values", len(request))
		}
		return one(request[0]) != negated, nil
	}
	return false, fmt.Errorf("set operator %s", set)
}

// operator is a condition operator's test of a policy value against a
// request value, and whether it is the negation (…Not…) of that test.
func operator(op string) (match func(policy, request string) bool, negated bool, err error) {
	equal := func(p, r string) bool { return p == r }
	fold := strings.EqualFold
	like := func(p, r string) bool { return globMatch(p, r) }
	switch op {
	case "StringEquals":
		return equal, false, nil
	case "StringNotEquals":
		return equal, true, nil
	case "StringEqualsIgnoreCase":
		return fold, false, nil
	case "StringNotEqualsIgnoreCase":
		return fold, true, nil
	case "StringLike":
		return like, false, nil
	case "StringNotLike":
		return like, true, nil
	case "ArnEquals", "ArnLike":
		return arnMatch, false, nil
	case "ArnNotEquals", "ArnNotLike":
		return arnMatch, true, nil
	case "Bool":
		return fold, false, nil
	}
	return nil, false, fmt.Errorf("condition operator %s: not evaluated by package deploy", op)
}

// arnMatch matches an ARN against a pattern as IAM does: segment by
// segment (arn:partition:service:region:account:resource), each with the
// wildcards * and ?, which do not cross a segment's colons; the resource
// part is the rest.
func arnMatch(pattern, arn string) bool {
	if pattern == "*" {
		return true
	}
	p := strings.SplitN(pattern, ":", 6)
	a := strings.SplitN(arn, ":", 6)
	if len(p) != 6 || len(a) != 6 {
		return globMatch(pattern, arn)
	}
	for i := range p {
		if !globMatch(p[i], a[i]) {
			return false
		}
	}
	return true
}

// globMatch matches s against pattern, where * is any run of characters
// and ? one character.
func globMatch(pattern, s string) bool {
	// Iterative matching with backtracking to the last star.
	p, i, star, mark := 0, 0, -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == s[i]):
			p++
			i++
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}
