package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// A Runner executes worker protocol requests for one group. The sweep
// starts one per group (and a fresh one after a crash).
type Runner interface {
	// Call sends req and returns the worker's response. A *CrashError
	// means the worker died serving req.
	Call(req *Request) (*Response, error)
	// Close ends the worker.
	Close() error
}

// A CrashError reports a worker that died while serving a request.
type CrashError struct {
	Op     string
	Detail string // exit status and the end of the worker's stderr
}

func (e *CrashError) Error() string {
	return fmt.Sprintf("worker crashed during %s: %s", e.Op, e.Detail)
}

// A StartRunner starts a Runner; the sweep calls it once per group and
// again after each crash.
type StartRunner func() (Runner, error)

// ExecRunner returns a StartRunner that re-executes the current binary
// with args (e.g. "worker") and WorkerEnv set.
func ExecRunner(args ...string) StartRunner {
	return func() (Runner, error) {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("locating tunelab binary for worker: %w", err)
		}
		return startProc(exe, args)
	}
}

// procRunner talks to a worker subprocess.
type procRunner struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan []byte // response lines; closed at EOF
	stderr *tailBuffer
	sample time.Duration // the group's sample time, from setup
}

// setupTimeout bounds setup, verify, prepare and check requests; a sample
// request gets sampleTimeout plus its attempts' share. Variables so tests
// can shorten them.
var (
	setupTimeout  = 2 * time.Minute
	sampleTimeout = 10 * time.Second
)

// timeout returns how long the worker may take to answer req before it
// counts as hung.
func (p *procRunner) timeout(req *Request) time.Duration {
	if req.Timeout > 0 {
		return req.Timeout
	}
	if req.Op == opSample {
		return sampleTimeout + 4*maxAttempts*p.sample
	}
	return setupTimeout
}

// withExecPrefix returns the command that runs exe args under the
// space-separated command prefix (WorkerExecEnv); an empty prefix leaves it.
func withExecPrefix(exe string, args []string, prefix string) (string, []string) {
	p := strings.Fields(prefix)
	if len(p) == 0 {
		return exe, args
	}
	return p[0], append(append(p[1:], exe), args...)
}

func startProc(exe string, args []string) (*procRunner, error) {
	exe, args = withExecPrefix(exe, args, os.Getenv(WorkerExecEnv))
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), WorkerEnv+"=1")
	p := &procRunner{cmd: cmd, stderr: &tailBuffer{max: 4096}}
	cmd.Stderr = p.stderr
	var err error
	if p.in, err = cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("starting worker: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("starting worker: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting worker %s: %w", exe, err)
	}
	p.lines = make(chan []byte)
	go p.readLines(out)
	return p, nil
}

// readLines forwards the worker's stdout line by line.
func (p *procRunner) readLines(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		p.lines <- append([]byte(nil), sc.Bytes()...)
	}
	close(p.lines)
}

func (p *procRunner) Call(req *Request) (*Response, error) {
	line, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encoding worker request: %w", err)
	}
	if _, err := p.in.Write(append(line, '\n')); err != nil {
		return nil, p.crash(req.Op, "")
	}
	if req.Op == opSetup {
		p.sample = time.Duration(req.SampleNs)
	}
	d := p.timeout(req)
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case resp, ok := <-p.lines:
		if !ok {
			return nil, p.crash(req.Op, "")
		}
		var r Response
		if err := decodeLine(resp, &r); err != nil {
			return nil, err
		}
		return &r, nil
	case <-timer.C:
		p.cmd.Process.Kill()
		return nil, p.crash(req.Op, fmt.Sprintf("hung: no answer within %v", d))
	}
}

// crash waits for the dead (or killed) worker and describes its end.
func (p *procRunner) crash(op, why string) error {
	p.in.Close()
	go func() {
		for range p.lines { // let the reader finish
		}
	}()
	err := p.cmd.Wait()
	detail := "exited"
	if err != nil {
		detail = err.Error()
	}
	if why != "" {
		detail = why + " (" + detail + ")"
	}
	if tail := p.stderr.summary(); tail != "" {
		detail += ": " + tail
	}
	return &CrashError{Op: op, Detail: detail}
}

func (p *procRunner) Close() error {
	p.in.Close()
	if err := p.cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("worker exited: %v: %s", err, p.stderr.summary())
		}
		return err
	}
	return nil
}

// tailBuffer keeps the first max bytes written to it (a crash report's
// headline comes first).
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - t.buf.Len(); room > 0 {
		t.buf.Write(b[:min(len(b), room)])
	}
	return len(b), nil
}

// summary returns the worker's first stderr line and the line naming the
// signal, e.g. "unexpected fault address 0x...; [signal SIGSEGV: ...]".
func (t *tailBuffer) summary() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var keep []string
	for _, l := range strings.Split(t.buf.String(), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
		case len(keep) == 0:
			keep = append(keep, l)
		case strings.Contains(l, "signal SIG") || strings.HasPrefix(l, "SIG"):
			return strings.Join(append(keep, l), "; ")
		}
	}
	return strings.Join(keep, "; ")
}
