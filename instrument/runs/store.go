// Package runs is mkvet's performance database, SCALA's in miniature (seed
// 001 §5): an SQLite file (.mkvet/runs.db by default) holding the programs
// measured (a content hash of their sources and a user label, SCALA's
// version attribute), their runs with the parameters and process count,
// each rank's per-node records, and the models fitted to them. It exports
// to JSON Lines and to Extra-P's JSON Lines and text formats, and imports
// Extra-P measurement files as another source of timings.
package runs

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite", pure Go
)

// DefaultPath is where mkvet keeps its runs unless told otherwise.
const DefaultPath = ".mkvet/runs.db"

// Store is an open runs database.
type Store struct {
	db   *sql.DB
	path string
}

const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS programs (
	id INTEGER PRIMARY KEY,
	hash TEXT NOT NULL UNIQUE,
	label TEXT NOT NULL DEFAULT '',
	files TEXT NOT NULL DEFAULT '',
	created TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
	id INTEGER PRIMARY KEY,
	program INTEGER NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
	source TEXT NOT NULL,
	procs INTEGER NOT NULL,
	rep INTEGER NOT NULL DEFAULT 0,
	status TEXT NOT NULL,
	error TEXT NOT NULL DEFAULT '',
	seconds REAL NOT NULL DEFAULT 0,
	wall REAL NOT NULL DEFAULT 0,
	overhead REAL NOT NULL DEFAULT 0,
	sched REAL NOT NULL DEFAULT 0,
	probe REAL NOT NULL DEFAULT 0,
	started TEXT NOT NULL,
	command TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS params (
	run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	name TEXT NOT NULL,
	value REAL NOT NULL,
	PRIMARY KEY (run, name));
CREATE TABLE IF NOT EXISTS records (
	run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	node TEXT NOT NULL,
	rank INTEGER NOT NULL,
	count INTEGER NOT NULL DEFAULT 0,
	iters INTEGER NOT NULL DEFAULT 0,
	timed INTEGER NOT NULL DEFAULT 0,
	seconds REAL NOT NULL DEFAULT 0,
	inclusive REAL NOT NULL DEFAULT 0,
	msgs INTEGER NOT NULL DEFAULT 0,
	bytes INTEGER NOT NULL DEFAULT 0,
	recv_msgs INTEGER NOT NULL DEFAULT 0,
	recv_bytes INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (run, node, rank));
CREATE TABLE IF NOT EXISTS models (
	program INTEGER NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
	node TEXT NOT NULL,
	model TEXT NOT NULL,
	created TEXT NOT NULL,
	PRIMARY KEY (program, node));
CREATE TABLE IF NOT EXISTS traces (
	id INTEGER PRIMARY KEY,
	run INTEGER REFERENCES runs(id) ON DELETE SET NULL,
	path TEXT NOT NULL,
	sha256 TEXT NOT NULL,
	source TEXT NOT NULL,
	procs INTEGER NOT NULL,
	events INTEGER NOT NULL,
	seconds REAL NOT NULL,
	added TEXT NOT NULL);
INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', '2');
`

// Open opens (creating when needed) the database at path.
func Open(path string) (*Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	var v string
	if err := db.QueryRow(`SELECT value FROM meta WHERE key = 'schema'`).Scan(&v); err == nil && v == "1" {
		// Schema 1 had no speed probe: add the column (0, unknown, for the
		// runs already there).
		if _, err := db.Exec(`ALTER TABLE runs ADD COLUMN probe REAL NOT NULL DEFAULT 0;
			UPDATE meta SET value = '2' WHERE key = 'schema'`); err != nil {
			db.Close()
			return nil, fmt.Errorf("%s: upgrading the runs database: %w", path, err)
		}
		v = "2"
	}
	if v != "2" {
		db.Close()
		return nil, fmt.Errorf("%s: not a runs database of this mkvet (schema %q)", path, v)
	}
	return &Store{db: db, path: path}, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Path returns the database's file name.
func (s *Store) Path() string { return s.path }

// Program is one version of a measured program: the hash of its sources'
// contents and a label the user gave it.
type Program struct {
	ID      int64
	Hash    string
	Label   string
	Files   []string
	Created time.Time
}

// Name returns the label, or the start of the hash.
func (p *Program) Name() string {
	if p.Label != "" {
		return p.Label
	}
	return p.Hash[:min(12, len(p.Hash))]
}

// HashFiles returns the content hash of a program's sources: SHA-256 over
// each file's base name and contents, in order.
func HashFiles(files []string) (string, error) {
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.Base(f), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// Program returns the program with the given hash, adding it when new. A
// non-empty label replaces the stored one.
func (s *Store) Program(hash, label string, files []string) (*Program, error) {
	if hash == "" {
		return nil, errors.New("runs: empty program hash")
	}
	_, err := s.db.Exec(`INSERT INTO programs (hash, label, files, created) VALUES (?, ?, ?, ?)
		ON CONFLICT(hash) DO UPDATE SET label = CASE WHEN excluded.label != '' THEN excluded.label ELSE label END`,
		hash, label, strings.Join(files, "\n"), now())
	if err != nil {
		return nil, err
	}
	return s.scanProgram(s.db.QueryRow(`SELECT id, hash, label, files, created FROM programs WHERE hash = ?`, hash))
}

func (s *Store) scanProgram(row interface{ Scan(...any) error }) (*Program, error) {
	var p Program
	var files, created string
	if err := row.Scan(&p.ID, &p.Hash, &p.Label, &files, &created); err != nil {
		return nil, err
	}
	if files != "" {
		p.Files = strings.Split(files, "\n")
	}
	p.Created = parseTime(created)
	return &p, nil
}

// Programs lists the stored programs, oldest first.
func (s *Store) Programs() ([]*Program, error) {
	rows, err := s.db.Query(`SELECT id, hash, label, files, created FROM programs ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Program
	for rows.Next() {
		p, err := s.scanProgram(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// FindProgram finds a program by ID, label or hash prefix; the newest of
// several with one label wins.
func (s *Store) FindProgram(ref string) (*Program, error) {
	ps, err := s.Programs()
	if err != nil {
		return nil, err
	}
	var found *Program
	for _, p := range ps {
		if strconv.FormatInt(p.ID, 10) == ref || p.Label == ref || (len(ref) >= 4 && strings.HasPrefix(p.Hash, ref)) {
			found = p
		}
	}
	if found == nil {
		return nil, fmt.Errorf("no program %q in %s", ref, s.path)
	}
	return found, nil
}

// Run is one execution: a point (sizes and P), its outcome and, for
// successful runs, its records.
type Run struct {
	ID      int64
	Program int64
	// Source is where the run came from: "mkvet" (an instrumented run),
	// "extrap" (an imported Extra-P measurement), "jsonl" (an import of an
	// export).
	Source string
	P      int
	Rep    int
	Params map[string]float64
	// Status is "ok" or "failed"; Error says why a run failed.
	Status string
	Error  string
	// Seconds is the program time of the slowest rank; Wall the launcher's
	// elapsed time; Overhead the probes' estimated share of Seconds; Sched
	// the smallest share of its time a rank spent on a processor (below 1
	// on a loaded machine; 0 when unknown); Probe the slowest rank's speed
	// probe (instrument.SpeedProbe; 0 when unknown).
	Seconds, Wall, Overhead, Sched, Probe float64
	Started                               time.Time
	Command                               string
}

// Run statuses.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
)

// Record is one node's figures on one rank of a run (see
// instrument.Record).
type Record struct {
	Node                             string
	Rank                             int
	Count, Iters, Timed              int64
	Seconds, Inclusive               float64
	Msgs, Bytes, RecvMsgs, RecvBytes int64
}

// AddRun stores a run and its records in one transaction and returns its ID.
func (s *Store) AddRun(r *Run, recs []Record) (int64, error) {
	if r.Status == "" {
		r.Status = StatusOK
	}
	if r.Started.IsZero() {
		r.Started = time.Now()
	}
	tx, err := s.db.Begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	res, err := tx.Exec(`INSERT INTO runs (program, source, procs, rep, status, error, seconds, wall, overhead, sched, probe, started, command)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.Program, r.Source, r.P, r.Rep, r.Status, r.Error,
		r.Seconds, r.Wall, r.Overhead, r.Sched, r.Probe, r.Started.UTC().Format(time.RFC3339Nano), r.Command)
	if err != nil {
		return 0, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	for _, k := range sortedKeys(r.Params) {
		if _, err := tx.Exec(`INSERT INTO params (run, name, value) VALUES (?, ?, ?)`, id, k, r.Params[k]); err != nil {
			return 0, err
		}
	}
	st, err := tx.Prepare(`INSERT INTO records (run, node, rank, count, iters, timed, seconds, inclusive, msgs, bytes, recv_msgs, recv_bytes)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(run, node, rank) DO UPDATE SET count = count + excluded.count, iters = iters + excluded.iters,
		timed = timed + excluded.timed, seconds = seconds + excluded.seconds, inclusive = inclusive + excluded.inclusive,
		msgs = msgs + excluded.msgs, bytes = bytes + excluded.bytes, recv_msgs = recv_msgs + excluded.recv_msgs,
		recv_bytes = recv_bytes + excluded.recv_bytes`)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	for _, x := range recs {
		if _, err := st.Exec(id, x.Node, x.Rank, x.Count, x.Iters, x.Timed, x.Seconds, x.Inclusive,
			x.Msgs, x.Bytes, x.RecvMsgs, x.RecvBytes); err != nil {
			return 0, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	r.ID = id
	return id, nil
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Runs returns the runs of a program (all programs when program is 0),
// oldest first, with their parameters.
func (s *Store) Runs(program int64) ([]*Run, error) {
	q := `SELECT id, program, source, procs, rep, status, error, seconds, wall, overhead, sched, probe, started, command FROM runs`
	var args []any
	if program != 0 {
		q += ` WHERE program = ?`
		args = append(args, program)
	}
	rows, err := s.db.Query(q+` ORDER BY id`, args...)
	if err != nil {
		return nil, err
	}
	var out []*Run
	byID := map[int64]*Run{}
	for rows.Next() {
		var r Run
		var started string
		if err := rows.Scan(&r.ID, &r.Program, &r.Source, &r.P, &r.Rep, &r.Status, &r.Error, &r.Seconds, &r.Wall,
			&r.Overhead, &r.Sched, &r.Probe, &started, &r.Command); err != nil {
			rows.Close()
			return nil, err
		}
		r.Started = parseTime(started)
		r.Params = map[string]float64{}
		out = append(out, &r)
		byID[r.ID] = &r
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	prows, err := s.db.Query(`SELECT run, name, value FROM params`)
	if err != nil {
		return nil, err
	}
	defer prows.Close()
	for prows.Next() {
		var id int64
		var name string
		var v float64
		if err := prows.Scan(&id, &name, &v); err != nil {
			return nil, err
		}
		if r := byID[id]; r != nil {
			r.Params[name] = v
		}
	}
	return out, prows.Err()
}

// GetRun returns one run.
func (s *Store) GetRun(id int64) (*Run, error) {
	rs, err := s.Runs(0)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		if r.ID == id {
			return r, nil
		}
	}
	return nil, fmt.Errorf("no run %d in %s", id, s.path)
}

// Records returns a run's records ordered by node and rank.
func (s *Store) Records(run int64) ([]Record, error) {
	rows, err := s.db.Query(`SELECT node, rank, count, iters, timed, seconds, inclusive, msgs, bytes, recv_msgs, recv_bytes
		FROM records WHERE run = ? ORDER BY node, rank`, run)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Record
	for rows.Next() {
		var x Record
		if err := rows.Scan(&x.Node, &x.Rank, &x.Count, &x.Iters, &x.Timed, &x.Seconds, &x.Inclusive,
			&x.Msgs, &x.Bytes, &x.RecvMsgs, &x.RecvBytes); err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, rows.Err()
}

// SaveModels replaces a program's fitted models (node -> model JSON).
func (s *Store) SaveModels(program int64, models map[string]json.RawMessage) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`DELETE FROM models WHERE program = ?`, program); err != nil {
		return err
	}
	t := now()
	for _, node := range sortedKeys(models) {
		if _, err := tx.Exec(`INSERT INTO models (program, node, model, created) VALUES (?, ?, ?, ?)`,
			program, node, string(models[node]), t); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Models returns a program's fitted models (node -> model JSON).
func (s *Store) Models(program int64) (map[string]json.RawMessage, error) {
	rows, err := s.db.Query(`SELECT node, model FROM models WHERE program = ?`, program)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]json.RawMessage{}
	for rows.Next() {
		var node, m string
		if err := rows.Scan(&node, &m); err != nil {
			return nil, err
		}
		out[node] = json.RawMessage(m)
	}
	return out, rows.Err()
}

// WriteTable writes runs as an aligned text table.
func WriteTable(w io.Writer, rs []*Run, progs map[int64]*Program) {
	fmt.Fprintf(w, "%5s  %-14s  %-7s  %3s  %3s  %-28s  %12s  %9s  %6s  %s\n", "run", "program", "source", "P", "rep", "params",
		"seconds", "overhead", "sched", "status")
	for _, r := range rs {
		name := strconv.FormatInt(r.Program, 10)
		if p := progs[r.Program]; p != nil {
			name = p.Name()
		}
		var ps []string
		for _, k := range sortedKeys(r.Params) {
			ps = append(ps, k+"="+strconv.FormatFloat(r.Params[k], 'f', -1, 64))
		}
		status := r.Status
		if r.Error != "" {
			status += ": " + firstLine(r.Error)
		}
		fmt.Fprintf(w, "%5d  %-14s  %-7s  %3d  %3d  %-28s  %12.6g  %8.2f%%  %6.2f  %s\n", r.ID, name, r.Source, r.P, r.Rep,
			strings.Join(ps, " "), r.Seconds, 100*r.Overhead, r.Sched, status)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// TraceRef is an event trace kept by reference: the database holds where
// the trace file is, its hash (so a changed or replaced file is noticed),
// and its summary; the events stay in the file.
type TraceRef struct {
	ID     int64
	Run    int64 // the run it belongs to; 0 when none
	Path   string
	SHA256 string
	Source string // "measured" or "predicted"
	P      int
	Events int64
	// Seconds is the trace's completion time.
	Seconds float64
	Added   time.Time
}

// AddTrace records a trace file by reference and returns its ID.
func (s *Store) AddTrace(t *TraceRef) (int64, error) {
	if t.Added.IsZero() {
		t.Added = time.Now()
	}
	var run any
	if t.Run > 0 {
		run = t.Run
	}
	res, err := s.db.Exec(`INSERT INTO traces (run, path, sha256, source, procs, events, seconds, added) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		run, t.Path, t.SHA256, t.Source, t.P, t.Events, t.Seconds, t.Added.UTC().Format(time.RFC3339Nano))
	if err != nil {
		return 0, err
	}
	t.ID, err = res.LastInsertId()
	return t.ID, err
}

// Traces lists the traces recorded, oldest first.
func (s *Store) Traces() ([]*TraceRef, error) {
	rows, err := s.db.Query(`SELECT id, COALESCE(run, 0), path, sha256, source, procs, events, seconds, added FROM traces ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*TraceRef
	for rows.Next() {
		t := &TraceRef{}
		var added string
		if err := rows.Scan(&t.ID, &t.Run, &t.Path, &t.SHA256, &t.Source, &t.P, &t.Events, &t.Seconds, &added); err != nil {
			return nil, err
		}
		t.Added = parseTime(added)
		out = append(out, t)
	}
	return out, rows.Err()
}
