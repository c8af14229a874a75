// Package iamwire holds the AWS requests a function makes in the tests to
// what its role in the deployed stack may do. It reads them at the wire,
// whichever client made them: a Guard parses each HTTP request to the
// local servers (DynamoDB's JSON protocol by X-Amz-Target: the operation,
// the table or index, the partition keys; SES v2's REST paths; SSM's JSON
// protocol) into the authorisations IAM would make of it, and evaluates
// them against the function's role policy in the transformed template
// (package deploy). A request IAM would refuse fails the test and is
// answered as AWS answers it, AccessDeniedException, so that a test sees
// what the deployed function would see.
//
// The Lambda binaries under test are processes of their own: each gets a
// Proxy of its own in front of each server (StartProxy). Tests that run
// the service in process tag the context of the work done as a function
// (WithFunction) and send the requests through a Transport.
package iamwire

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/deploy"
)

// Call is one request a function made, and what IAM makes of it.
type Call struct {
	Function  string // the template's logical id
	Service   string // "dynamodb", "ses", "ssm"
	Operation string // the API's operation: "BatchGetItem", "SendEmail"
	Requests  []deploy.Request
}

// Guard holds one function's requests to its role's policies.
type Guard struct {
	Function string
	policies deploy.Policies
	region   string
	account  string
	tables   map[string]tableKeys // physical table name → its keys

	mu    sync.Mutex
	calls []Call
}

// tableKeys are the partition key attributes of a table and of each of
// its indexes: what dynamodb:LeadingKeys is read from.
type tableKeys struct {
	hash    string
	indexes map[string]string
}

// NewGuard is the guard of the template's function id (its logical id in
// the transformed template) in stack. The stack must name the physical
// names the test gives its resources (its table, its configuration set)
// and the region and account the function's requests are signed for.
func NewGuard(tr *deploy.Transformed, stack deploy.Stack, id string) (*Guard, error) {
	s := stack.For(&tr.Template)
	pols, err := s.FunctionPolicies(id)
	if err != nil {
		return nil, err
	}
	g := &Guard{Function: id, policies: pols, region: stack.Region, account: stack.Account, tables: map[string]tableKeys{}}
	for _, tid := range tr.OfType("AWS::DynamoDB::Table") {
		name, err := s.ResolveString(map[string]any{"Ref": tid})
		if err != nil {
			return nil, err
		}
		p, err := deploy.Props[struct {
			KeySchema              []struct{ AttributeName, KeyType string }
			GlobalSecondaryIndexes []struct {
				IndexName string
				KeySchema []struct{ AttributeName, KeyType string }
			}
		}](tr.Resources[tid])
		if err != nil {
			return nil, err
		}
		hashOf := func(ks []struct{ AttributeName, KeyType string }) string {
			for _, k := range ks {
				if k.KeyType == "HASH" {
					return k.AttributeName
				}
			}
			return ""
		}
		tk := tableKeys{hash: hashOf(p.KeySchema), indexes: map[string]string{}}
		for _, ix := range p.GlobalSecondaryIndexes {
			tk.indexes[ix.IndexName] = hashOf(ix.KeySchema)
		}
		g.tables[name] = tk
	}
	return g, nil
}

// Calls lists the calls the guard has seen.
func (g *Guard) Calls() []Call {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.calls)
}

// Denied is a request IAM would refuse.
type Denied struct {
	Call    Call
	Request deploy.Request
	Why     string
}

func (d *Denied) Error() string {
	return fmt.Sprintf("%s is not authorized to perform: %s: %s (its role's policy in the transformed template)", d.Call.Function, d.Request, d.Why)
}

// Check reads the request (its body already read) and authorises each
// of its IAM requests. err is a *Denied for a request IAM would refuse,
// or says why the request could not be read.
func (g *Guard) Check(r *http.Request, body []byte) (Call, error) {
	c, err := g.parse(r, body)
	if err != nil {
		return c, fmt.Errorf("%s: %s %s: %w", g.Function, r.Method, r.URL.Path, err)
	}
	g.mu.Lock()
	g.calls = append(g.calls, c)
	g.mu.Unlock()
	for _, req := range c.Requests {
		ok, why, err := g.policies.Allows(req)
		if err != nil {
			return c, fmt.Errorf("%s: %s: %w", g.Function, req, err)
		}
		if !ok {
			return c, &Denied{Call: c, Request: req, Why: why}
		}
	}
	return c, nil
}

func (g *Guard) arn(service, resource string) string {
	return fmt.Sprintf("arn:aws:%s:%s:%s:%s", service, g.region, g.account, resource)
}

func (g *Guard) parse(r *http.Request, body []byte) (Call, error) {
	c := Call{Function: g.Function}
	target := r.Header.Get("X-Amz-Target")
	switch {
	case strings.HasPrefix(target, "DynamoDB_20120810."):
		c.Service, c.Operation = "dynamodb", strings.TrimPrefix(target, "DynamoDB_20120810.")
		reqs, err := g.dynamoRequests(c.Operation, body)
		c.Requests = reqs
		return c, err
	case strings.HasPrefix(target, "AmazonSSM."):
		c.Service, c.Operation = "ssm", strings.TrimPrefix(target, "AmazonSSM.")
		reqs, err := g.ssmRequests(c.Operation, body)
		c.Requests = reqs
		return c, err
	case strings.HasPrefix(r.URL.Path, "/v2/email/"):
		c.Service = "ses"
		op, reqs, err := g.sesRequests(r.Method, r.URL.Path, body)
		c.Operation, c.Requests = op, reqs
		return c, err
	}
	return c, fmt.Errorf("not a request of an AWS API package iamwire reads (X-Amz-Target %q)", target)
}

// attr is the string form of a DynamoDB attribute value ({"S": "x"}).
type attr map[string]any

func (a attr) String() string {
	for _, t := range []string{"S", "N", "B"} {
		if v, ok := a[t].(string); ok {
			return v
		}
	}
	return fmt.Sprint(map[string]any(a))
}

type item map[string]attr

func (g *Guard) tableARN(table, index string) string {
	arn := table
	if !strings.HasPrefix(table, "arn:") {
		arn = g.arn("dynamodb", "table/"+table)
	}
	if index != "" {
		arn += "/index/" + index
	}
	return arn
}

// hashKey is the partition key attribute of table (or of its index).
func (g *Guard) hashKey(table, index string) (string, error) {
	if i := strings.LastIndex(table, ":table/"); i >= 0 {
		table = table[i+len(":table/"):]
	}
	tk, ok := g.tables[table]
	if !ok {
		return "", fmt.Errorf("table %q is not the template's", table)
	}
	if index == "" {
		return tk.hash, nil
	}
	h, ok := tk.indexes[index]
	if !ok {
		return "", fmt.Errorf("table %q has no index %q in the template", table, index)
	}
	return h, nil
}

// dynamoRequests are the authorisations of a DynamoDB operation: its
// action on each table (or index) it names, with dynamodb:LeadingKeys,
// the partition keys of the items it reads or writes.
func (g *Guard) dynamoRequests(op string, body []byte) ([]deploy.Request, error) {
	var in struct {
		TableName, IndexName      string
		Key, Item                 item
		KeyConditionExpression    string
		ExpressionAttributeNames  map[string]string
		ExpressionAttributeValues item
		KeyConditions             map[string]struct {
			AttributeValueList []attr
			ComparisonOperator string
		}
		RequestItems  map[string]json.RawMessage
		TransactItems []map[string]struct {
			TableName string
			Key, Item item
		}
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	action := "dynamodb:" + op
	leading := func(table, index string, items ...item) (map[string][]string, error) {
		h, err := g.hashKey(table, index)
		if err != nil {
			return nil, err
		}
		var keys []string
		for _, it := range items {
			if v, ok := it[h]; ok {
				keys = append(keys, v.String())
			}
		}
		return map[string][]string{"dynamodb:LeadingKeys": keys}, nil
	}
	one := func(index string, items ...item) ([]deploy.Request, error) {
		ctx, err := leading(in.TableName, index, items...)
		if err != nil {
			return nil, err
		}
		return []deploy.Request{{Action: action, Resource: g.tableARN(in.TableName, index), Context: ctx}}, nil
	}
	switch op {
	case "GetItem", "DeleteItem", "UpdateItem":
		return one("", in.Key)
	case "PutItem":
		return one("", in.Item)
	case "Query":
		h, err := g.hashKey(in.TableName, in.IndexName)
		if err != nil {
			return nil, err
		}
		key, err := queryHashValue(h, in.KeyConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
		if err != nil {
			return nil, err
		}
		if kc, ok := in.KeyConditions[h]; ok && len(kc.AttributeValueList) == 1 {
			key = kc.AttributeValueList[0].String()
		}
		req := deploy.Request{Action: action, Resource: g.tableARN(in.TableName, in.IndexName), Context: map[string][]string{}}
		if key != "" {
			req.Context["dynamodb:LeadingKeys"] = []string{key}
		}
		return []deploy.Request{req}, nil
	case "Scan":
		return []deploy.Request{{Action: action, Resource: g.tableARN(in.TableName, in.IndexName)}}, nil
	case "BatchGetItem", "BatchWriteItem":
		var out []deploy.Request
		for _, table := range slices.Sorted(mapsKeys(in.RequestItems)) {
			var items []item
			if op == "BatchGetItem" {
				var rk struct{ Keys []item }
				if err := json.Unmarshal(in.RequestItems[table], &rk); err != nil {
					return nil, fmt.Errorf("%s %s: %w", op, table, err)
				}
				items = rk.Keys
			} else {
				var ws []struct {
					PutRequest    *struct{ Item item }
					DeleteRequest *struct{ Key item }
				}
				if err := json.Unmarshal(in.RequestItems[table], &ws); err != nil {
					return nil, fmt.Errorf("%s %s: %w", op, table, err)
				}
				for _, w := range ws {
					if w.PutRequest != nil {
						items = append(items, w.PutRequest.Item)
					}
					if w.DeleteRequest != nil {
						items = append(items, w.DeleteRequest.Key)
					}
				}
			}
			ctx, err := leading(table, "", items...)
			if err != nil {
				return nil, err
			}
			out = append(out, deploy.Request{Action: action, Resource: g.tableARN(table, ""), Context: ctx})
		}
		return out, nil
	case "TransactGetItems", "TransactWriteItems":
		// IAM authorises each item's own action.
		var out []deploy.Request
		for _, ti := range in.TransactItems {
			for kind, x := range ti {
				act := map[string]string{"Get": "GetItem", "Put": "PutItem", "Update": "UpdateItem",
					"Delete": "DeleteItem", "ConditionCheck": "ConditionCheckItem"}[kind]
				k := x.Key
				if kind == "Put" {
					k = x.Item
				}
				ctx, err := leading(x.TableName, "", k)
				if err != nil {
					return nil, err
				}
				out = append(out, deploy.Request{Action: "dynamodb:" + act, Resource: g.tableARN(x.TableName, ""), Context: ctx})
			}
		}
		return out, nil
	}
	if in.TableName != "" {
		return []deploy.Request{{Action: action, Resource: g.tableARN(in.TableName, "")}}, nil
	}
	return []deploy.Request{{Action: action, Resource: "*"}}, nil
}

var keyEquality = regexp.MustCompile(`([#:]?[A-Za-z0-9_]+)\s*=\s*([#:]?[A-Za-z0-9_]+)`)

// queryHashValue finds, in a Query's key condition expression, the value
// the partition key attribute h is compared with ("#pk = :pk").
func queryHashValue(h, expr string, names map[string]string, values item) (string, error) {
	name := func(tok string) string {
		if n, ok := names[tok]; ok {
			return n
		}
		return tok
	}
	for _, m := range keyEquality.FindAllStringSubmatch(expr, -1) {
		a, b := m[1], m[2]
		if strings.HasPrefix(a, ":") {
			a, b = b, a
		}
		if name(a) == h && strings.HasPrefix(b, ":") {
			v, ok := values[b]
			if !ok {
				return "", fmt.Errorf("Query: %s has no value", b)
			}
			return v.String(), nil
		}
	}
	if expr != "" {
		return "", fmt.Errorf("Query: the key condition %q compares no value with %s", expr, h)
	}
	return "", nil
}

func (g *Guard) ssmRequests(op string, body []byte) ([]deploy.Request, error) {
	var in struct {
		Name  string
		Names []string
		Path  string
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	param := func(name string) string {
		if strings.HasPrefix(name, "arn:") {
			return name
		}
		if !strings.HasPrefix(name, "/") {
			name = "/" + name
		}
		return g.arn("ssm", "parameter"+name)
	}
	var out []deploy.Request
	for _, n := range append([]string{in.Name, in.Path}, in.Names...) {
		if n != "" {
			out = append(out, deploy.Request{Action: "ssm:" + op, Resource: param(n)})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s names no parameter", op)
	}
	return out, nil
}

// sesRequests reads SES v2's REST requests: the operation, and for
// SendEmail the identity it sends from (the From address's domain, the
// identity this stack verifies, or FromEmailAddressIdentityArn) and the
// configuration set, with SES's condition keys.
func (g *Guard) sesRequests(method, path string, body []byte) (string, []deploy.Request, error) {
	rest := strings.TrimPrefix(path, "/v2/email/")
	switch {
	case method == http.MethodPost && rest == "outbound-emails":
		var in struct {
			FromEmailAddress            string
			FromEmailAddressIdentityArn string
			ConfigurationSetName        string
			Destination                 struct{ ToAddresses, CcAddresses, BccAddresses []string }
		}
		if err := json.Unmarshal(body, &in); err != nil {
			return "SendEmail", nil, fmt.Errorf("SendEmail: %w", err)
		}
		display, addr := "", in.FromEmailAddress
		if i := strings.LastIndexByte(addr, '<'); i >= 0 {
			display, addr = strings.Trim(strings.TrimSpace(addr[:i]), `"`), strings.TrimSuffix(addr[i+1:], ">")
		}
		_, domain, ok := strings.Cut(addr, "@")
		if !ok {
			return "SendEmail", nil, fmt.Errorf("SendEmail: From %q has no domain", in.FromEmailAddress)
		}
		d := in.Destination
		ctx := map[string][]string{
			"ses:FromAddress": {addr}, "ses:Recipients": slices.Concat(d.ToAddresses, d.CcAddresses, d.BccAddresses),
			"ses:ApiVersion": {"2"},
		}
		if display != "" {
			ctx["ses:FromDisplayName"] = []string{display}
		}
		identity := g.arn("ses", "identity/"+domain)
		if in.FromEmailAddressIdentityArn != "" {
			identity = in.FromEmailAddressIdentityArn
		}
		reqs := []deploy.Request{{Action: "ses:SendEmail", Resource: identity, Context: ctx}}
		if in.ConfigurationSetName != "" {
			reqs = append(reqs, deploy.Request{Action: "ses:SendEmail", Resource: g.arn("ses", "configuration-set/"+in.ConfigurationSetName), Context: ctx})
		}
		return "SendEmail", reqs, nil
	case method == http.MethodGet && rest == "account":
		return "GetAccount", []deploy.Request{{Action: "ses:GetAccount", Resource: "*"}}, nil
	case method == http.MethodPut && rest == "suppression/addresses":
		return "PutSuppressedDestination", []deploy.Request{{Action: "ses:PutSuppressedDestination", Resource: "*"}}, nil
	case method == http.MethodGet && strings.HasPrefix(rest, "suppression/addresses/"):
		return "GetSuppressedDestination", []deploy.Request{{Action: "ses:GetSuppressedDestination", Resource: "*"}}, nil
	}
	return "", nil, fmt.Errorf("SES v2 %s %s: an operation package iamwire does not read", method, path)
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// refuse answers a denied request as the service does.
func refuse(w http.ResponseWriter, c Call, d *Denied) {
	msg := fmt.Sprintf("User: arn:aws:sts::%s:assumed-role/%sRole/%s is not authorized to perform: %s on resource: %s because no identity-based policy allows the %s action",
		"123456789012", c.Function, c.Function, d.Request.Action, d.Request.Resource, d.Request.Action)
	switch c.Service {
	case "dynamodb":
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"__type": "com.amazon.coral.service#AccessDeniedException", "Message": msg})
	case "ssm":
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"__type": "AccessDeniedException", "message": msg})
	default:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Amzn-Errortype", "AccessDeniedException")
		w.WriteHeader(http.StatusForbidden)
		_ = json.NewEncoder(w).Encode(map[string]string{"message": msg})
	}
}

// StartProxy serves a reverse proxy to target (a local server's URL) that
// holds every request to g, for the function's endpoint variable
// (AWS_ENDPOINT_URL_DYNAMODB...). A request IAM would refuse fails t and
// is answered AccessDeniedException; one it cannot read fails t and is
// answered 400. The proxy closes when the test ends.
func StartProxy(t testing.TB, g *Guard, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		c, err := g.Check(r, body)
		if d, ok := err.(*Denied); ok {
			t.Errorf("IAM: %v", d)
			refuse(w, c, d)
			return
		}
		if err != nil {
			t.Errorf("IAM: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

type functionKey struct{}

// WithFunction marks ctx as the work of the template's function id: the
// requests made with it are held to that function's policy by a
// Transport.
func WithFunction(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, functionKey{}, id)
}

// FunctionOf is the function ctx was marked as the work of, or "".
func FunctionOf(ctx context.Context) string {
	id, _ := ctx.Value(functionKey{}).(string)
	return id
}

// Transport is an http.RoundTripper for clients used in process: it holds
// each request made with a context marked WithFunction to that
// function's guard, refusing as StartProxy does, and passes the others
// (a test's own setting up and looking) on unchecked, counting them.
type Transport struct {
	T      testing.TB
	Base   http.RoundTripper // http.DefaultTransport if nil
	Guards map[string]*Guard // by function id

	mu       sync.Mutex
	checked  int
	unmarked int
}

// RoundTrip checks the request and passes it on, or answers the refusal.
func (tr *Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	base := tr.Base
	if base == nil {
		base = http.DefaultTransport
	}
	id := FunctionOf(r.Context())
	tr.mu.Lock()
	if id == "" {
		tr.unmarked++
	} else {
		tr.checked++
	}
	tr.mu.Unlock()
	if id == "" {
		return base.RoundTrip(r)
	}
	g, ok := tr.Guards[id]
	if !ok {
		tr.T.Errorf("IAM: requests marked as %s, which has no guard", id)
		return base.RoundTrip(r)
	}
	var body []byte
	if r.Body != nil {
		var err error
		if body, err = io.ReadAll(r.Body); err != nil {
			return nil, err
		}
		r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	c, err := g.Check(r, body)
	if d, ok := err.(*Denied); ok {
		tr.T.Errorf("IAM: %v", d)
		rec := httptest.NewRecorder()
		refuse(rec, c, d)
		resp := rec.Result()
		resp.Request = r
		return resp, nil
	}
	if err != nil {
		tr.T.Errorf("IAM: %v", err)
	}
	return base.RoundTrip(r)
}

// Counts are the requests checked and those passed on unmarked.
func (tr *Transport) Counts() (checked, unmarked int) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.checked, tr.unmarked
}
