package testenv

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The child half of TestServerDiesWithTestBinary: start dynalite, print its
// pid, and wait to be killed.
func TestChildStartsDynalite(t *testing.T) {
	if os.Getenv("TESTENV_CHILD") != "1" {
		return // runs only as the child
	}
	Dynalite(t)
	mu.Lock()
	pid := started[0].cmd.Process.Pid
	mu.Unlock()
	fmt.Printf("PID %d\n", pid)
	time.Sleep(time.Minute)
}

// A test binary killed outright (no TestMain cleanup) takes its servers
// with it, thanks to the parent-death signal.
func TestServerDiesWithTestBinary(t *testing.T) {
	if os.Getenv("DYNALITE_ENDPOINT") != "" {
		t.Log("DYNALITE_ENDPOINT is set: no server of ours to watch")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildStartsDynalite$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TESTENV_CHILD=1")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(out)
	pid := 0
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "PID "); ok {
			pid, _ = strconv.Atoi(rest)
			break
		}
	}
	if pid == 0 {
		t.Fatal("child printed no dynalite pid")
	}
	if !alive(pid) {
		t.Fatalf("dynalite %d is not running", pid)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("dynalite %d outlived its killed test binary", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive reports whether pid runs (a zombie waiting to be reaped does not).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}
