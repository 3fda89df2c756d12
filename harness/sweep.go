package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/tunelab/tunelab/harness/resultfile"
)

// A Config configures a sweep.
type Config struct {
	Race       RaceParams
	CPU        int           // CPU to pin the worker thread to; -1: no pinning
	SampleTime time.Duration // target duration of one sample
	Events     string        // perf counters to collect, comma-separated
	// Budget bounds the sweep's wall time; it is shared out among the
	// groups in proportion to their contender counts as they start.
	Budget time.Duration
	Seed   uint64 // seeds inputs and the interleaving order
	Start  StartRunner
	// Results receives the samples (benchfmt); if it has a Sync method it
	// is synced after every round.
	Results io.Writer
	Run     resultfile.Run
	Resume  *Resume   // prior results to continue from, or nil
	Log     io.Writer // skips, mismatches, crashes
	// Progress, if set, is told about every sample.
	Progress func(p Progress)
}

// Progress describes the sweep's state after a sample.
type Progress struct {
	Group, Label         string
	GroupIndex, Groups   int
	Samples, LiveArms    int
	Elapsed, GroupBudget time.Duration
	BudgetLeft           time.Duration
	// Contenders counts the contenders of every group; ContendersDone
	// those of the groups finished before this one (the share of the work
	// done, for an estimate of the time left).
	Contenders, ContendersDone int
}

// A GroupResult is the outcome of one group's race.
type GroupResult struct {
	Group  *Group
	Race   *Race
	Events []EventStatus
	// Stop says why measurement ended ("settled", "one arm left",
	// "budget", "interrupted", "finished in resumed file", ...).
	Stop    string
	Elapsed time.Duration
	Err     error // a group-level failure (setup)
	// CoreRatios are the kept samples' core cycles per TSC tick (see
	// clockProbe), for the core-clock estimate.
	CoreRatios []float64
}

// A Report is the outcome of a sweep.
type Report struct {
	Groups      []*GroupResult
	Interrupted bool
	Elapsed     time.Duration
	TSCHz       float64 // the run's TSC frequency (0: unknown)
}

// Saved sums the time racing saved and the time measuring took.
func (r *Report) Saved() (saved, spent time.Duration) {
	for _, g := range r.Groups {
		s, t := g.Race.Saved()
		saved += time.Duration(s)
		spent += time.Duration(t)
	}
	return saved, spent
}

// Sweep measures groups in order. Cancelling ctx (Ctrl-C) finishes the
// sample in flight, writes it, and returns the report so far with
// Interrupted set.
func Sweep(ctx context.Context, cfg *Config, groups []*Group) (*Report, error) {
	rw := newResultWriter(cfg.Results, cfg.Run)
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x5851f42d4c957f2d))
	rep := &Report{TSCHz: cfg.Run.TSCHz}
	b := &budgeter{total: cfg.Budget, start: time.Now()}
	for _, g := range groups {
		b.weight += len(g.Contenders)
	}
	for i, g := range groups {
		if ctx.Err() != nil {
			rep.Interrupted = true
			break
		}
		gs := &groupSweep{cfg: cfg, g: g, rw: rw, rng: rng, budget: b.share(len(g.Contenders), time.Since(b.start)),
			index: i, groups: len(groups), sweepStart: b.start, done: b.seen, total: b.seen + b.weight}
		res, err := gs.run(ctx)
		if err != nil {
			return rep, err
		}
		b.done(len(g.Contenders), gs.floor)
		rep.Groups = append(rep.Groups, res)
		rep.Interrupted = rep.Interrupted || res.Stop == "interrupted"
	}
	rep.Elapsed = time.Since(b.start)
	return rep, nil
}

// A budgeter shares a sweep's budget among its groups. Each group gets the
// fixed cost it is expected to need (verification, calibration and the
// minimum samples, estimated per contender from the groups so far) plus a
// share of what the budget leaves beyond the fixed costs of all remaining
// groups, in proportion to its contenders. Time a group leaves unused
// flows to the later ones.
type budgeter struct {
	total, floorSum time.Duration
	start           time.Time
	weight, seen    int // contenders still to run, contenders done
}

// share returns the budget of the next group, of w contenders, once the
// sweep has run for elapsed.
func (b *budgeter) share(w int, elapsed time.Duration) time.Duration {
	var est time.Duration
	if b.seen > 0 {
		est = b.floorSum / time.Duration(b.seen)
	}
	slack := b.total - elapsed - est*time.Duration(b.weight)
	return est*time.Duration(w) + max(slack, 0)*time.Duration(w)/time.Duration(max(b.weight, 1))
}

func (b *budgeter) done(w int, floor time.Duration) {
	b.weight -= w
	b.seen += w
	b.floorSum += floor
}

// groupSweep is one group's race in progress.
type groupSweep struct {
	cfg        *Config
	g          *Group
	rw         *resultfile.Writer
	rng        *rand.Rand
	runner     Runner
	res        *GroupResult
	events     []string // available events, in sample order
	prepared   map[int]bool
	dropped    map[int]int // consecutive disturbed samples per arm
	noisy      bool        // the group keeps disturbed samples
	budget     time.Duration
	index      int
	groups     int
	sweepStart time.Time
	// done and total count contenders: in the groups before this one,
	// and in all groups (for Progress).
	done, total int
	// floor is the time the group took to verify and prepare and to reach
	// the minimum sample count: its fixed cost.
	floor time.Duration
	// rounds counts the group's rounds in this writing session.
	rounds int
}

// errExcluded marks a contender that crashed or failed verification.
var errExcluded = errors.New("contender excluded")

func (s *groupSweep) run(ctx context.Context) (*GroupResult, error) {
	start := time.Now()
	s.res = &GroupResult{Group: s.g, Race: &Race{Params: s.cfg.Race}}
	s.prepared, s.dropped = map[int]bool{}, map[int]int{}
	defer func() { s.res.Elapsed = time.Since(start) }()
	s.loadResume()
	if s.cfg.Resume != nil && s.cfg.Resume.Done[s.g.Key()] {
		s.res.Stop = "finished in resumed file"
		return s.res, nil
	}
	if err := s.startWorker(); err != nil {
		s.res.Err, s.res.Stop = err, "setup failed"
		s.logf("%s: %v", s.g.Key(), err)
		return s.res, nil
	}
	defer func() { s.runner.Close() }()        // the worker in use at the end
	s.recordEliminated(s.res.Race.Eliminate()) // arms a resumed file's samples already decide
	s.verifyAndPrepare(ctx)
	s.res.Stop = s.race(ctx, start)
	if s.floor == 0 {
		s.floor = time.Since(start)
	}
	s.check()
	if s.res.Stop != "interrupted" {
		if err := s.rw.Quality(s.quality()); err != nil {
			return s.res, err
		}
		if err := s.rw.Done(s.g.Key()); err != nil {
			return s.res, err
		}
	}
	return s.res, s.rw.Sync()
}

// quality sums the group's measurement attempts for its quality line.
func (s *groupSweep) quality() resultfile.Quality {
	q := resultfile.Quality{Group: s.g.Key(), Stop: s.res.Stop}
	for _, a := range s.res.Race.Arms {
		q.Attempts += a.Attempts
		q.Discarded += a.Discarded
		q.KeptDisturbed += a.Kept
	}
	return q
}

// loadResume seeds the arms with samples and exclusions from a resumed file.
func (s *groupSweep) loadResume() {
	for _, c := range s.g.Contenders {
		a := &Arm{Label: c.Label, Keep: c.Variant.External}
		if r := s.cfg.Resume; r != nil {
			a.Values = append(a.Values, r.Samples[s.g.Key()][c.Label]...)
			a.Rounds = append(a.Rounds, r.Rounds[s.g.Key()][c.Label]...)
			if why, ok := r.Excluded[s.g.Key()][c.Label]; ok {
				a.Excluded, a.Reason = true, why
			}
			if why, ok := r.Eliminated[s.g.Key()][c.Label]; ok && !a.Excluded {
				a.Eliminated, a.Reason = true, why
			}
		}
		s.res.Race.Arms = append(s.res.Race.Arms, a)
	}
}

// startWorker starts a worker and sets it up for the group.
func (s *groupSweep) startWorker() error {
	r, err := s.cfg.Start()
	if err != nil {
		return err
	}
	s.runner = r
	labels := make([]string, len(s.g.Contenders))
	for i, c := range s.g.Contenders {
		labels[i] = c.Variant.Name
	}
	resp, err := r.Call(&Request{Op: opSetup, Kernel: s.g.Kernel.Name, Size: s.g.Size, Contenders: labels,
		CPU: s.cfg.CPU, SampleNs: s.cfg.SampleTime.Nanoseconds(), Events: s.cfg.Events, Seed: s.cfg.Seed})
	if err == nil && resp.Error != "" {
		err = errors.New(resp.Error)
	}
	if err != nil {
		r.Close()
		return fmt.Errorf("setting up worker: %w", err)
	}
	if s.res.Events == nil {
		s.res.Events = resp.Events
		for _, e := range resp.Events {
			if e.Available {
				s.events = append(s.events, e.Name)
			} else if s.index == 0 {
				s.logf("event %s not counted: %s", e.Name, e.Reason)
			}
		}
	}
	return nil
}

// call sends a request for contender id; a crash or mismatch excludes it
// (and a crash restarts the worker for the others).
func (s *groupSweep) call(req *Request) (*Response, error) {
	resp, err := s.runner.Call(req)
	var crash *CrashError
	switch {
	case errors.As(err, &crash):
		s.exclude(req.ID, "crashed: "+crash.Error())
		return nil, s.restart()
	case err != nil:
		return nil, err
	case resp.Error != "":
		what := "failed"
		if resp.Mismatch {
			what = "mismatch"
		}
		s.exclude(req.ID, fmt.Sprintf("%s %s: %s", req.Op, what, resp.Error))
		return nil, errExcluded
	}
	return resp, nil
}

// recordEliminated writes one line per arm the race just dropped, with
// its sample count and reason, so that reports never pick an arm the race
// eliminated (and a resumed sweep keeps it eliminated).
func (s *groupSweep) recordEliminated(ids []int) {
	for _, i := range ids {
		a := s.res.Race.Arms[i]
		why := strings.Join(strings.Fields(a.Reason), " ")
		if err := s.rw.Eliminated(s.g.Key(), a.Label, len(a.Values), why); err != nil {
			s.logf("%v", err)
		}
	}
}

func (s *groupSweep) exclude(id int, why string) {
	why = strings.Join(strings.Fields(why), " ") // one line in the result file
	a := s.res.Race.Arms[id]
	a.Excluded, a.Reason = true, why
	s.logf("%s %s: excluded: %s", s.g.Key(), a.Label, why)
	if err := s.rw.Excluded(s.g.Key(), a.Label, why); err != nil {
		s.logf("%v", err)
	}
}

// restart replaces a crashed worker and prepares the live contenders
// that were prepared before again; a contender crashing during that is
// excluded in turn.
func (s *groupSweep) restart() error {
	s.runner.Close()
	if err := s.startWorker(); err != nil {
		for _, i := range s.res.Race.Live() {
			s.exclude(i, "worker restart failed: "+err.Error())
		}
		return err
	}
	was := s.prepared
	s.prepared = map[int]bool{}
	for _, i := range s.res.Race.Live() {
		if !was[i] {
			continue
		}
		if err := s.prepare(i); err != nil {
			return err
		}
	}
	return errExcluded
}

// verifyAndPrepare verifies every live contender, then prepares them;
// cancelling ctx stops it between contenders.
func (s *groupSweep) verifyAndPrepare(ctx context.Context) {
	for _, i := range s.res.Race.Live() {
		if ctx.Err() != nil {
			return
		}
		if _, err := s.call(&Request{Op: opVerify, ID: i}); err != nil && !errors.Is(err, errExcluded) {
			return
		}
	}
	for _, i := range s.res.Race.Live() {
		if ctx.Err() != nil {
			return
		}
		if err := s.prepare(i); err != nil && !errors.Is(err, errExcluded) {
			return
		}
	}
}

func (s *groupSweep) prepare(i int) error {
	if _, err := s.call(&Request{Op: opPrepare, ID: i}); err != nil {
		return err
	}
	s.prepared[i] = true
	return nil
}

// race runs rounds until the race is decided, the budget is spent or ctx
// is cancelled, and returns why it stopped.
func (s *groupSweep) race(ctx context.Context, start time.Time) string {
	r := s.res.Race
	raceStart := time.Now()
	for {
		el := time.Since(start)
		if s.floor == 0 && s.allHaveMin() {
			s.floor = el
		}
		s.recordEliminated(r.Eliminate())
		if done, why := r.Done(); done {
			return why
		}
		if (el > s.budget && s.allHaveMin()) || time.Since(raceStart) > s.hardCap() {
			return "budget"
		}
		if len(r.Live()) == 0 {
			return "no arm left"
		}
		if !s.round(ctx) {
			return "interrupted"
		}
		if err := s.rw.Sync(); err != nil {
			s.logf("syncing results: %v", err)
		}
	}
}

// hardCap bounds the measuring phase of a group even before every arm
// has the minimum sample count: twice its budget plus what the minimum
// samples take when every sample needs all its attempts (at least the
// sample time, or the arm's observed time per sample if an op is slower).
func (s *groupSweep) hardCap() time.Duration {
	var worst time.Duration
	for _, i := range s.res.Race.Live() {
		a := s.res.Race.Arms[i]
		per := maxAttempts * s.cfg.SampleTime
		if n := a.Attempts; n > 0 {
			per = max(per, time.Duration(a.WallNs/int64(n))*maxAttempts)
		}
		worst += per * time.Duration(s.cfg.Race.minSamples())
	}
	return 2*s.budget + time.Second + worst
}

func (s *groupSweep) allHaveMin() bool {
	for _, i := range s.res.Race.Live() {
		if len(s.res.Race.Arms[i].Values) < s.cfg.Race.minSamples() {
			return false
		}
	}
	return true
}

// RoundOrder returns the live arms in a fresh random order.
func RoundOrder(rng *rand.Rand, live []int) []int {
	order := append([]int(nil), live...)
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	return order
}

// roundID identifies round n of a writing session (segment) of a run:
// rounds are numbered from 1 in each segment.
func roundID(segment, n int) int64 { return int64(segment)<<32 | int64(n) }

// round measures one sample of every live arm in random order; it returns
// false if ctx was cancelled (after finishing the sample in flight). The
// round is announced in the result file (a "round" line before its first
// sample), so that reports compare arms pair by pair over the rounds they
// share, as the race does.
func (s *groupSweep) round(ctx context.Context) bool {
	s.rounds++
	id, announced := roundID(max(s.cfg.Run.Segment, 1), s.rounds), false
	for _, i := range RoundOrder(s.rng, s.res.Race.Live()) {
		if ctx.Err() != nil {
			return false
		}
		a := s.res.Race.Arms[i]
		if !a.live() || len(a.Values) >= s.cfg.Race.MaxSamples {
			continue // crashed earlier in this round, or full (resumed)
		}
		resp, err := s.call(&Request{Op: opSample, ID: i})
		if err == nil && resp.Sample != nil && s.account(i, resp.Sample) {
			if !announced {
				announced = true
				if err := s.rw.Round(s.g.Key(), s.rounds); err != nil {
					s.logf("%v", err)
				}
			}
			a.Values = append(a.Values, resp.Sample.NsPerOp)
			a.Rounds = append(a.Rounds, id)
			if r := resp.Sample.CoreRatio; r > 0 {
				s.res.CoreRatios = append(s.res.CoreRatios, r)
			}
			if err := writeSample(s.rw, s.g, a.Label, resp.Sample, s.events); err != nil {
				s.logf("%v", err)
			}
			s.progress(a)
		}
	}
	return ctx.Err() == nil
}

// account adds a sample's cost and disturbance to arm i and reports
// whether the sample is kept.
func (s *groupSweep) account(i int, smp *Sample) bool {
	a := s.res.Race.Arms[i]
	a.WallNs += smp.WallNs
	a.Attempts += smp.Discarded
	a.Discarded += smp.Discarded
	if !smp.Disturbed {
		a.Attempts++ // the one kept
		s.dropped[i] = 0
		if smp.Corrected {
			a.Kept++
		}
		return true
	}
	if !s.keepDisturbed(i) {
		return false
	}
	a.Kept++
	a.Discarded--
	return true
}

// maxDropped is how many samples in a row an arm may lose to disturbance
// (each after maxAttempts tries) before the group keeps disturbed samples,
// so that a busy host slows a sweep down but cannot stall it. The switch
// is per group, not per arm, so that every arm is treated alike and an A/A
// comparison stays symmetric.
const maxDropped = 2

func (s *groupSweep) keepDisturbed(i int) bool {
	if s.noisy {
		return true
	}
	s.dropped[i]++
	if s.dropped[i] <= maxDropped {
		return false
	}
	s.noisy = true
	s.logf("%s: %d attempts in a row of %s disturbed (context switch, migration or time off the CPU): host busy, keeping disturbed samples for this group",
		s.g.Key(), (maxDropped+1)*maxAttempts, s.res.Race.Arms[i].Label)
	return true
}

func (s *groupSweep) progress(a *Arm) {
	if s.cfg.Progress == nil {
		return
	}
	s.cfg.Progress(Progress{Group: s.g.Key(), Label: a.Label, GroupIndex: s.index, Groups: s.groups,
		Samples: len(a.Values), LiveArms: len(s.res.Race.Live()), Elapsed: time.Since(s.sweepStart),
		GroupBudget: s.budget, BudgetLeft: s.cfg.Budget - time.Since(s.sweepStart),
		Contenders: s.total, ContendersDone: s.done})
}

// check re-verifies every measured contender after measurement.
func (s *groupSweep) check() {
	for i, a := range s.res.Race.Arms {
		// Arms decided from a resumed file have no instance here.
		if a.Excluded || !s.prepared[i] {
			continue
		}
		if _, err := s.call(&Request{Op: opCheck, ID: i}); err != nil && !errors.Is(err, errExcluded) {
			return
		}
	}
}

func (s *groupSweep) logf(format string, a ...any) {
	if s.cfg.Log != nil {
		fmt.Fprintf(s.cfg.Log, format+"\n", a...)
	}
}
