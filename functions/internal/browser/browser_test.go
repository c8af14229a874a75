package browser

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/pbmgames/pbm/infra/testenv"
)

// Viewports of the screenshots and of the play.
const (
	desktopWidth  = 1280
	desktopHeight = 900
	phoneWidth    = 360
	phoneHeight   = 740
)

// actionTimeout bounds one navigation, click or script in the browser.
const actionTimeout = 30 * time.Second

// browser is one headless Chromium with one tab, and what the tab loaded.
type browser struct {
	t      *testing.T
	ctx    context.Context
	origin string // the service's; anything else but data: is outside
	net    *netLog
	pages  []pageLoad
}

// pageLoad is one page the tab loaded: the document and the
// sub-resources it asked for.
type pageLoad struct {
	Kind     string // what the test took it for: home, invite, seat, …
	Path     string
	Bytes    int64 // received over the network: headers and bodies
	Requests int
	Outside  []string // requests outside the service
}

// newBrowser starts Debian's Chromium headless, with a fresh profile, and
// opens a tab; the test's end closes both.
func newBrowser(t *testing.T, origin string) *browser {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(testenv.Chromium(t)),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(desktopWidth, desktopHeight),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	n := &netLog{byID: map[network.RequestID]int{}}
	ctx, cancelTab := chromedp.NewContext(actx, chromedp.WithListener(n.event), chromedp.WithErrorf(func(string, ...any) {}))
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	// The first run starts the browser; it gets no timeout, which would
	// end the browser with it.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", testenv.Chromium(t), err)
	}
	b := &browser{t: t, ctx: ctx, origin: origin, net: n}
	b.do(chromedp.EmulateViewport(desktopWidth, desktopHeight))
	return b
}

// do runs steps in the tab, failing the test on an error.
func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("browser: %v (at %s)", err, b.location())
	}
}

// eval evaluates a script in the page and decodes its result.
func eval[T any](b *browser, script string, opts ...chromedp.EvaluateOption) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](script, opts...))
	if err != nil {
		b.t.Fatalf("browser: evaluate %.60q: %v (at %s)", script, err, b.location())
	}
	return v
}

func (b *browser) location() string {
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	l, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		return "?"
	}
	if u, err := url.Parse(l); err == nil {
		return u.Path // the query holds a token
	}
	return l
}

// open navigates to link as a person following it from a mail would.
func (b *browser) open(kind, link string) {
	b.t.Helper()
	b.load(kind, func(ctx context.Context) (*network.Response, error) {
		return chromedp.Run(ctx, chromedp.NavigateResponse(link))
	})
}

// press clicks the button or link sel (inside from, if not nil) and waits
// for the page it leads to.
func (b *browser) press(kind string, sel string, from *chromedp.Node) {
	b.t.Helper()
	var opts []chromedp.QueryOption
	if from != nil {
		opts = append(opts, chromedp.FromNode(from))
	}
	b.load(kind, func(ctx context.Context) (*network.Response, error) {
		return chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(sel), opts...))
	})
}

// load runs a navigation, checks that it ended on a page that says 200,
// and records what the page loaded.
func (b *browser) load(kind string, nav func(context.Context) (*network.Response, error)) {
	b.t.Helper()
	mark := b.net.mark()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	resp, err := nav(ctx)
	if err != nil {
		b.t.Fatalf("browser: loading the %s page: %v (at %s)", kind, err, b.location())
	}
	if resp == nil || resp.Status != 200 {
		msg := eval[string](b, `(document.querySelector(".error,[role=alert]")||document.body).innerText.slice(0,300)`)
		b.t.Fatalf("the %s page %s answered %v: %s", kind, b.location(), statusOf(resp), msg)
	}
	reqs := b.net.since(mark, 2*time.Second)
	p := pageLoad{Kind: kind, Path: b.location(), Requests: len(reqs)}
	for _, r := range reqs {
		if !inside(b.origin, r.url) {
			p.Outside = append(p.Outside, r.url)
		}
		if !strings.HasPrefix(r.url, "data:") {
			p.Bytes += r.bytes
		}
	}
	b.pages = append(b.pages, p)
}

func statusOf(r *network.Response) any {
	if r == nil {
		return "nothing"
	}
	return r.Status
}

// inside tells whether a request stays in the service: its origin, or a
// data: URL.
func inside(origin, raw string) bool {
	if strings.HasPrefix(raw, "data:") {
		return true
	}
	u, err := url.Parse(raw)
	return err == nil && u.Scheme+"://"+u.Host == origin
}

// count is the number of elements sel matches now.
func (b *browser) count(sel string) int {
	b.t.Helper()
	return eval[int](b, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
}

// nodes are the elements sel matches, at least one.
func (b *browser) nodes(sel string) []*chromedp.Node {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	ns, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSSAll(sel)))
	if err != nil {
		b.t.Fatalf("browser: %s: %v (at %s)", sel, err, b.location())
	}
	return ns
}

// screenshot writes a PNG of the whole page as it looks width pixels
// wide, then puts the tab back to the desktop size.
func (b *browser) screenshot(name string, width int64) string {
	b.t.Helper()
	h := int64(desktopHeight)
	var opts []chromedp.EmulateViewportOption
	if width < desktopWidth {
		h, opts = phoneHeight, append(opts, chromedp.EmulateMobile)
	}
	b.do(chromedp.EmulateViewport(width, h, opts...))
	full := eval[int64](b, `Math.ceil(document.documentElement.getBoundingClientRect().height)`)
	b.do(chromedp.EmulateViewport(width, max(h, full), opts...))
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	b.do(chromedp.EmulateViewport(desktopWidth, desktopHeight))
	path := filepath.Join(artifactsDir(b.t), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot %s (%d×%d px)", path, width, max(h, full))
	return path
}

// netLog keeps every request the tab's pages make, from the DevTools
// network events, in the order they were sent.
type netLog struct {
	mu   sync.Mutex
	reqs []*request
	byID map[network.RequestID]int // the request's latest hop in reqs
}

type request struct {
	url   string
	bytes int64
	done  bool
}

// event takes the tab's events in order (chromedp.WithListener): it must
// be quick and send no command.
func (n *netLog) event(ev any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if i, ok := n.byID[ev.RequestID]; ok && ev.RedirectResponse != nil {
			// The same request id goes on after a redirect: the
			// redirect's own response closes the previous hop.
			n.reqs[i].bytes, n.reqs[i].done = int64(ev.RedirectResponse.EncodedDataLength), true
		}
		n.byID[ev.RequestID] = len(n.reqs)
		n.reqs = append(n.reqs, &request{url: ev.Request.URL})
	case *network.EventLoadingFinished:
		if i, ok := n.byID[ev.RequestID]; ok {
			n.reqs[i].bytes, n.reqs[i].done = int64(ev.EncodedDataLength), true
		}
	case *network.EventLoadingFailed:
		if i, ok := n.byID[ev.RequestID]; ok {
			n.reqs[i].done = true
		}
	}
}

// urls are the URLs of every request so far.
func (n *netLog) urls() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for _, r := range n.reqs {
		out = append(out, r.url)
	}
	return out
}

func (n *netLog) mark() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.reqs)
}

// since returns the requests after mark once they have all finished, or
// as they are after wait.
func (n *netLog) since(mark int, wait time.Duration) []request {
	deadline := time.Now().Add(wait)
	for {
		n.mu.Lock()
		var out []request
		pending := false
		for _, r := range n.reqs[mark:] {
			out = append(out, *r)
			pending = pending || !r.done
		}
		n.mu.Unlock()
		if !pending || time.Now().After(deadline) {
			return out
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// heaviest is the heaviest page of each kind, in the order the kinds came.
func heaviest(pages []pageLoad) []pageLoad {
	var out []pageLoad
	for _, p := range pages {
		i := slices.IndexFunc(out, func(q pageLoad) bool { return q.Kind == p.Kind })
		switch {
		case i < 0:
			out = append(out, p)
		case p.Bytes > out[i].Bytes:
			out[i] = p
		}
	}
	return out
}
