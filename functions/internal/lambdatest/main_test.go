//go:build linux

package lambdatest

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/functions/internal/deploy"
	"github.com/pbmgames/pbm/functions/internal/iamwire"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// The Lambda environment the tests give the functions: the region and the
// function role's credentials (any will do for the local servers; SSM's
// stand-in checks the signature made with them).
const (
	region       = "eu-west-1"
	accessKeyID  = "ASIAQLAMBDATEST00001"
	secretKey    = "lambdatest/secret/access/key/0123456789"
	sessionToken = "IQoJb3JpZ2luX2VjEXAMPLEtokenForLambdaTests"
	keysParam    = "/pbm/link-keys"
	apiOrigin    = "https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com"
	mailFrom     = "Play by mail <games@pbm.example>"
)

// function is one of template.yaml's functions: its package and the
// settings Lambda runs it with there.
type function struct {
	id      string // logical id in template.yaml
	pkg     string
	tags    string            // build tags besides lambda.norpc
	timeout int               // seconds
	vars    map[string]string // Environment.Variables, less TABLE_NAME and the endpoints
}

var (
	apiFunction = function{id: "ApiFunction", pkg: "./functions/api", timeout: 10,
		vars: map[string]string{"LINK_KEYS_PARAMETER": keysParam, "BASE_URL": ""}}
	notifyFunction = function{id: "NotifyFunction", pkg: "./functions/notify", timeout: 60,
		vars: map[string]string{"LINK_KEYS_PARAMETER": keysParam, "BASE_URL": apiOrigin, "SES_CONFIGURATION_SET": "pbm-mail"}}
	sweepFunction = function{id: "SweepFunction", pkg: "./functions/sweep", timeout: 240,
		vars: map[string]string{"LINK_KEYS_PARAMETER": keysParam, "BASE_URL": apiOrigin, "SES_CONFIGURATION_SET": "pbm-mail"}}
	bouncesFunction = function{id: "BouncesFunction", pkg: "./functions/bounces", timeout: 10}
	// The hello worlds the functions' cold starts are measured beside
	// (testdata/hello): each loads the SDK's configuration and makes the
	// SDK clients of the function it stands beside, and answers the same
	// kind of event; helloFunction links no SDK at all.
	helloFunction        = function{id: "HelloFunction", pkg: "./functions/internal/lambdatest/testdata/hello", timeout: 3}
	helloAPIFunction     = function{id: "HelloApiFunction", pkg: helloFunction.pkg, tags: "hello_api", timeout: 3}
	helloNotifyFunction  = function{id: "HelloNotifyFunction", pkg: helloFunction.pkg, tags: "hello_notify", timeout: 3}
	helloSweepFunction   = function{id: "HelloSweepFunction", pkg: helloFunction.pkg, tags: "hello_sweep", timeout: 3}
	helloBouncesFunction = function{id: "HelloBouncesFunction", pkg: helloFunction.pkg, tags: "hello_bounces", timeout: 3}
	// helloAPIReadsFunction stands beside the api's seat page a second
	// time: its hello world that also makes the page's requests.
	helloAPIReadsFunction = function{id: "HelloApiReadsFunction", pkg: helloFunction.pkg, tags: "hello_api_reads", timeout: 3,
		vars: map[string]string{"LINK_KEYS_PARAMETER": keysParam}}
	// helloSweepReadsFunction stands beside the sweep a second time: its
	// hello world that also makes the requests every sweep makes.
	helloSweepReadsFunction = function{id: "HelloSweepReadsFunction", pkg: helloFunction.pkg, tags: "hello_sweep_reads", timeout: 3}
	// helloSweepReadFunction makes one read: it is measured beside the
	// sweep's hello world, which makes none.
	helloSweepReadFunction = function{id: "HelloSweepReadFunction", pkg: helloFunction.pkg, tags: "hello_sweep_read", timeout: 3}
)

// world is what one test's functions run against: a table of their own on
// dynalite, aws-ses-v2-local, the SSM server holding the keyring, and the
// test's own view of the same table.
type world struct {
	t     *testing.T
	table string
	db    *dynamodb.Client
	store *dynamostore.Store
	keys  *linksign.Keyring
	ssm   *testenv.Secrets // SSM's stand-in, holding the keyring
	ses   string
	tag   string    // unique to the test, in the mail addresses it uses
	rand  io.Reader // the seeds and ids of the games the test makes itself
	// endpoints of each function: proxies in front of the servers that
	// hold its requests to its role in the deployed stack (iamChecked).
	endpoints map[string]map[string]string
	// untimed: the functions talk to the servers directly, without the
	// IAM check's proxies (TestColdStart times them).
	untimed bool
}

func newWorld(t *testing.T) *world {
	t.Helper()
	db := testenv.DynamoClient(t, testenv.Dynalite(t))
	tag := randomHex(4)
	table := "lambdatest-" + tag
	if err := dynamostore.CreateTable(context.Background(), db, table); err != nil {
		t.Fatalf("create table: %v", err)
	}
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	keyring := fmt.Sprintf(`{"current":"k1","keys":{"k1":%q}}`, base64.StdEncoding.EncodeToString(secret))
	keys, err := linksign.ParseKeyring([]byte(keyring))
	if err != nil {
		t.Fatal(err)
	}
	return &world{
		t: t, table: table, db: db, store: dynamostore.New(db, table), keys: keys,
		ssm:  testenv.NewSecrets(t, roleCredentials, region, map[string]string{keysParam: keyring}),
		ses:  testenv.SESLocal(t),
		tag:  tag,
		rand: testenv.Rand(t.Name()),
	}
}

// env is the environment Lambda gives f's process (provided.al2023: the
// reserved variables, the function's own, and the endpoint overrides that
// point the SDK at the local servers). The emulator or the harness adds
// AWS_LAMBDA_RUNTIME_API.
func (w *world) env(f function, taskRoot string) []string {
	vars := map[string]string{
		"PATH":                            "/usr/local/bin:/usr/bin:/bin",
		"LANG":                            "en_US.UTF-8",
		"TZ":                              ":UTC",
		"LAMBDA_TASK_ROOT":                taskRoot,
		"LAMBDA_RUNTIME_DIR":              "/var/runtime",
		"_HANDLER":                        "bootstrap",
		"AWS_REGION":                      region,
		"AWS_DEFAULT_REGION":              region,
		"AWS_ACCESS_KEY_ID":               accessKeyID,
		"AWS_SECRET_ACCESS_KEY":           secretKey,
		"AWS_SESSION_TOKEN":               sessionToken,
		"AWS_LAMBDA_FUNCTION_NAME":        "pbm-" + f.id + "-LT" + w.tag,
		"AWS_LAMBDA_FUNCTION_VERSION":     "$LATEST",
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "256",
		"AWS_LAMBDA_FUNCTION_TIMEOUT":     strconv.Itoa(f.timeout), // read by the emulator
		"AWS_LAMBDA_INITIALIZATION_TYPE":  "on-demand",
		"AWS_LAMBDA_LOG_FORMAT":           "JSON",
		"AWS_LAMBDA_LOG_GROUP_NAME":       "/aws/lambda/pbm-" + f.id,
		"AWS_LAMBDA_LOG_STREAM_NAME":      time.Now().UTC().Format("2006/01/02") + "/[$LATEST]" + w.tag,
		"AWS_XRAY_CONTEXT_MISSING":        "LOG_ERROR",
		"TABLE_NAME":                      w.table,
		"MAIL_FROM":                       mailFrom, // Globals
	}
	for k, v := range w.iamChecked(f) {
		vars[k] = v
	}
	for k, v := range f.vars {
		vars[k] = v
	}
	out := make([]string, 0, len(vars))
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

// iamChecked is the endpoint variables of f's process: for a function
// of template.yaml, proxies in front of dynalite, aws-ses-v2-local and
// the SSM server that hold each request to what f's role in the deployed
// stack allows (package iamwire: a request IAM would refuse fails the
// test and is answered AccessDeniedException, as in AWS); for the hello
// world, the servers themselves.
func (w *world) iamChecked(f function) map[string]string {
	t := w.t
	t.Helper()
	direct := map[string]string{
		"AWS_ENDPOINT_URL_DYNAMODB": testenv.Dynalite(t),
		"AWS_ENDPOINT_URL_SESV2":    w.ses,
		"AWS_ENDPOINT_URL_SSM":      w.ssm.URL,
	}
	// The hello worlds are no function of the template; and cold starts
	// are timed on the direct path, both sides alike (the proxies would
	// add a hop to the function's keyring read only).
	if strings.HasPrefix(f.id, "Hello") || w.untimed {
		return direct
	}
	if e, ok := w.endpoints[f.id]; ok {
		return e
	}
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := deploy.Transform(root)
	if err != nil {
		t.Fatal(err)
	}
	// The stack as the tests run it: their region and table, the
	// functions' parameters (the keyring's name as f is given it, which
	// the template sets from LinkKeysParameter) and configuration set.
	keys := keysParam
	if v, ok := f.vars["LINK_KEYS_PARAMETER"]; ok {
		keys = v
	}
	stack := deploy.Stack{Name: "pbm", Region: region, Account: "123456789012",
		Parameters: map[string]string{"LinkKeysParameter": keys, "MailFrom": mailFrom},
		Physical:   map[string]string{"Table": w.table, "MailConfigurationSet": "pbm-mail"}}
	g, err := iamwire.NewGuard(tr, stack, f.id)
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]string{}
	for k, target := range direct {
		e[k] = iamwire.StartProxy(t, g, target)
	}
	if w.endpoints == nil {
		w.endpoints = map[string]map[string]string{}
	}
	w.endpoints[f.id] = e
	t.Cleanup(func() { logCalls(t, g) })
	return e
}

// logCalls logs the distinct requests a function made in the test (go
// test -v shows them): what the IAM check saw.
func logCalls(t *testing.T, g *iamwire.Guard) {
	seen := map[string]int{}
	for _, c := range g.Calls() {
		for _, r := range c.Requests {
			seen[c.Operation+": "+r.Action+" on "+r.Resource]++
		}
	}
	for _, k := range slices.Sorted(maps.Keys(seen)) {
		t.Logf("IAM check: %s %s ×%d", g.Function, k, seen[k])
	}
}

// service is the game service on the test's table, with the functions'
// keyring, for setting games up and checking what the functions did. now
// is its clock (time.Now if nil). The games it makes are seeded, the same
// every run; those the functions make are not (their binaries read
// crypto/rand), and the tests assert of them only what holds for every
// seed.
func (w *world) service(now func() time.Time) *service.Service {
	return service.New(service.Config{Games: testGames.Engines(), Store: w.store, Players: w.store, Keys: w.keys, Now: now,
		Log: slog.New(slog.DiscardHandler), Rand: w.rand})
}

// guardItem reads the guard item (a counter of games made) of key, or
// nil.
func (w *world) guardItem(key string) map[string]types.AttributeValue {
	w.t.Helper()
	out, err := w.db.GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName: aws.String(w.table),
		Key: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "GUARD#" + key},
			"sk": &types.AttributeValueMemberS{Value: "GUARD"},
		},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		w.t.Fatal(err)
	}
	return out.Item
}

// gameItem reads a game's item as it is in the table.
func (w *world) gameItem(id string) map[string]types.AttributeValue {
	w.t.Helper()
	out, err := w.db.GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName: aws.String(w.table),
		Key: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "GAME#" + id},
			"sk": &types.AttributeValueMemberS{Value: "GAME"},
		},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		w.t.Fatalf("GetItem of game %s: %v", id, err)
	}
	return out.Item
}

// sesMail is a mail as aws-ses-v2-local keeps it (GET /store).
type sesMail struct {
	From        string `json:"from"`
	Destination struct {
		To []string `json:"to"`
	} `json:"destination"`
	Subject string `json:"subject"`
	Body    struct {
		Text string `json:"text"`
		HTML string `json:"html"`
	} `json:"body"`
}

// mailsTo lists the mails the SES server holds for any address containing
// w.tag (the server is shared by the package's tests).
func (w *world) mailsTo() []sesMail {
	w.t.Helper()
	resp, err := http.Get(w.ses + "/store")
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	var store struct {
		Emails []sesMail `json:"emails"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&store); err != nil {
		w.t.Fatalf("GET /store: %v", err)
	}
	var out []sesMail
	for _, m := range store.Emails {
		if strings.Contains(strings.Join(m.Destination.To, ","), w.tag) {
			out = append(out, m)
		}
	}
	return out
}

// build compiles f's package for the host as the Makefile compiles it for
// Lambda, into the test's temporary directory, and returns the binary.
func build(t *testing.T, f function) string {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "bootstrap")
	cmd := exec.Command("go", "build", "-tags", strings.TrimSpace("lambda.norpc "+f.tags), "-trimpath", "-ldflags", "-s -w", "-o", out, f.pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH)
	t0 := time.Now()
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", f.pkg, err, msg)
	}
	st, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built %s %s: %.1f MB in %v", f.pkg, f.tags, float64(st.Size())/1e6, time.Since(t0).Round(time.Millisecond))
	return out
}

// process is a started child process in its own process group.
type process struct {
	cmd    *exec.Cmd
	exited chan struct{} // closed once it has been waited for
	err    error         // Wait's, set before exited is closed
}

// startProcess starts cmd in a new process group that gets SIGKILL if the
// test binary dies. Linux sends the parent-death signal when the thread
// that started the child ends, so the child is started and waited for on
// one goroutine locked to its thread.
func startProcess(cmd *exec.Cmd) (*process, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p := &process{cmd: cmd, exited: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, <-started
}

// kill ends the process, its group and the processes below it (the
// emulator starts the function in a group of its own), and waits until
// they are all gone. The ones below go first, so that their parent reaps
// them rather than leaving zombies to init.
func (p *process) kill(t *testing.T) {
	t.Helper()
	pid := p.cmd.Process.Pid
	kids := descendants(pid)
	for _, k := range kids {
		_ = syscall.Kill(-k, syscall.SIGKILL)
		_ = syscall.Kill(k, syscall.SIGKILL)
	}
	reaped := time.Now().Add(2 * time.Second)
	for _, k := range kids {
		for exists(k) && time.Now().Before(reaped) {
			time.Sleep(5 * time.Millisecond)
		}
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = syscall.Kill(pid, syscall.SIGKILL)
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		t.Errorf("process %d did not exit after SIGKILL", pid)
	}
	for _, k := range kids {
		if alive(k) {
			t.Errorf("process %d, below %d, is still running", k, pid)
		}
	}
}

// descendants lists the processes below pid, from /proc.
func descendants(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := parentOf(n); ok {
			parent[n] = pp
		}
	}
	var out []int
	frontier := []int{pid}
	for len(frontier) > 0 {
		var next []int
		for c, pp := range parent {
			if slices.Contains(frontier, pp) {
				out = append(out, c)
				next = append(next, c)
			}
		}
		frontier = next
	}
	return out
}

// stat reads a process's parent and state from /proc/<pid>/stat.
func stat(pid int) (ppid int, state byte, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// pid (comm) state ppid …; comm may hold spaces and parentheses.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0, 0, false
	}
	ppid, err = strconv.Atoi(f[1])
	return ppid, f[0][0], err == nil
}

func parentOf(pid int) (int, bool) {
	pp, _, ok := stat(pid)
	return pp, ok
}

// exists tells whether pid exists, running or a zombie not yet reaped.
func exists(pid int) bool {
	_, _, ok := stat(pid)
	return ok
}

// alive tells whether pid runs (a zombie waiting to be reaped does not).
func alive(pid int) bool {
	_, state, ok := stat(pid)
	return ok && state != 'Z' && state != 'X'
}

// freeAddr is a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// tail is a goroutine-safe writer keeping the last max bytes, for the
// output of the processes the tests start.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (w *tail) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	if over := len(w.b) - w.max; over > 0 {
		w.b = w.b[over:]
	}
	return len(p), nil
}

func (w *tail) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.b)
}

// roleCredentials are the function role's credentials Lambda puts in the
// environment.
var roleCredentials = aws.Credentials{AccessKeyID: accessKeyID, SecretAccessKey: secretKey, SessionToken: sessionToken}

func randomUUID() string {
	h := randomHex(16)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// readAll reads r whole, failing the test on error.
func readAll(t *testing.T, r io.Reader) []byte {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var errExited = errors.New("the process exited")
