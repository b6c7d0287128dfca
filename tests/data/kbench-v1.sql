-- A kbench database at schema version 1 (before job.pct), written by kbench
-- at commit 6746371: seed 004 and samples/lkp/hackbench/hackbench imported,
-- then dumped with sqlite3 .dump.  tests/cli/import_store.sh migrates it.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE variant (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,        -- what is compared: 'A', '3.9.0-mainline_v39+()'
  kernel TEXT,                      -- kernel release when known
  description TEXT,                 -- legend text from the post, or the user's
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
);
INSERT INTO variant VALUES(1,'seeds',NULL,NULL,'2026-12-01T06:02:51.453Z');
INSERT INTO variant VALUES(2,'hackbench',NULL,NULL,'2026-12-01T06:02:51.453Z');
CREATE TABLE machine (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  cpus INTEGER, nodes INTEGER, description TEXT
);
CREATE TABLE source (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL,
  sha256 TEXT NOT NULL UNIQUE,
  size INTEGER NOT NULL,
  format TEXT NOT NULL,             -- parser names that claimed segments
  imported_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
);
INSERT INTO source VALUES(1,'samples/seeds/004_6cdb76245787edd0.txt','35f9812fffd52f1b0f37791362191dbed3b0481bb24e6281c2a7cbcb9bd6705f',3558,'numa_test','2026-12-01T06:02:51.453Z');
INSERT INTO source VALUES(2,'samples/lkp/hackbench/hackbench','ff6b86abe3cb23b7f65e85aedff534ceb88a2068f29636c453437e0a6c807df0',2084,'hackbench','2026-12-01T06:02:51.453Z');
CREATE TABLE run (
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,
  variant_id INTEGER NOT NULL REFERENCES variant(id),
  machine_id INTEGER REFERENCES machine(id),
  benchmark TEXT NOT NULL,
  config TEXT NOT NULL DEFAULT '',  -- canonical sorted 'k=v,k=v'
  iteration INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
  error TEXT,
  line INTEGER                      -- first line of the run in the source
);
INSERT INTO run VALUES(1,1,1,NULL,'numa_test','tasks=4',1,'ok',NULL,37);
INSERT INTO run VALUES(2,2,2,NULL,'hackbench','datasize=100,groups=256,impl=rt-tests,ipc=pipe,loops=30000,mode=process,tasks=10240',1,'ok',NULL,3);
INSERT INTO run VALUES(3,2,2,NULL,'hackbench','datasize=100,groups=256,impl=rt-tests,ipc=pipe,loops=30000,mode=process,tasks=10240',2,'ok',NULL,9);
INSERT INTO run VALUES(4,2,2,NULL,'hackbench','datasize=100,groups=256,impl=rt-tests,ipc=pipe,loops=30000,mode=process,tasks=10240',3,'ok',NULL,14);
INSERT INTO run VALUES(5,2,2,NULL,'hackbench','datasize=100,groups=256,impl=rt-tests,ipc=pipe,loops=30000,mode=process,tasks=10240',4,'ok',NULL,19);
INSERT INTO run VALUES(6,2,2,NULL,'hackbench','datasize=100,groups=256,impl=rt-tests,ipc=pipe,loops=30000,mode=process,tasks=10240',5,'ok',NULL,24);
INSERT INTO run VALUES(7,2,2,NULL,'hackbench','datasize=100,groups=256,impl=rt-tests,ipc=pipe,loops=30000,mode=process,tasks=10240',6,'ok',NULL,29);
INSERT INTO run VALUES(8,2,2,NULL,'hackbench','datasize=100,groups=256,impl=rt-tests,ipc=pipe,loops=30000,mode=process,tasks=10240',7,'ok',NULL,34);
INSERT INTO run VALUES(9,2,2,NULL,'hackbench','datasize=100,groups=256,impl=rt-tests,ipc=pipe,loops=30000,mode=process,tasks=10240',8,'ok',NULL,39);
CREATE TABLE sample (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  metric TEXT NOT NULL,
  value REAL NOT NULL,
  unit TEXT NOT NULL DEFAULT '',
  job INTEGER                       -- NULL for run-level metrics
);
INSERT INTO sample VALUES(1,1,'user',29.5,'s',1);
INSERT INTO sample VALUES(2,1,'user',26.5,'s',2);
INSERT INTO sample VALUES(3,1,'user',29.5,'s',3);
INSERT INTO sample VALUES(4,1,'user',26.600000000000001421,'s',4);
INSERT INTO sample VALUES(5,1,'avg_user',28.0,'s',NULL);
INSERT INTO sample VALUES(6,2,'time',9.5410000000000003694,'s',NULL);
INSERT INTO sample VALUES(7,3,'time',10.018000000000000682,'s',NULL);
INSERT INTO sample VALUES(8,4,'time',12.240999999999999658,'s',NULL);
INSERT INTO sample VALUES(9,5,'time',9.9499999999999992894,'s',NULL);
INSERT INTO sample VALUES(10,6,'time',10.013999999999999346,'s',NULL);
INSERT INTO sample VALUES(11,7,'time',10.496999999999999886,'s',NULL);
INSERT INTO sample VALUES(12,8,'time',9.9239999999999994884,'s',NULL);
INSERT INTO sample VALUES(13,9,'time',9.997999999999999332,'s',NULL);
CREATE TABLE job (
  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  job INTEGER NOT NULL,
  initial_node INTEGER,             -- iSched
  main_node INTEGER,                -- MSched: node with most time
  moved INTEGER NOT NULL DEFAULT 0, -- ended away from its initial node
  marked INTEGER NOT NULL DEFAULT 0, -- the '*' as printed (numa_test omits it at times)
  user_time REAL,
  PRIMARY KEY (run_id, job)
) WITHOUT ROWID;
INSERT INTO job VALUES(1,1,0,0,0,0,29.5);
INSERT INTO job VALUES(1,2,3,3,0,0,26.5);
INSERT INTO job VALUES(1,3,0,0,0,0,29.5);
INSERT INTO job VALUES(1,4,1,1,0,0,26.600000000000001421);
CREATE TABLE placement (
  run_id INTEGER NOT NULL,
  job INTEGER NOT NULL,
  node INTEGER NOT NULL,
  pct REAL NOT NULL,
  PRIMARY KEY (run_id, job, node),
  FOREIGN KEY (run_id, job) REFERENCES job(run_id, job) ON DELETE CASCADE
) WITHOUT ROWID;
INSERT INTO placement VALUES(1,1,0,100.0);
INSERT INTO placement VALUES(1,1,1,0.0);
INSERT INTO placement VALUES(1,1,2,0.0);
INSERT INTO placement VALUES(1,1,3,0.0);
INSERT INTO placement VALUES(1,2,0,0.0);
INSERT INTO placement VALUES(1,2,1,0.0);
INSERT INTO placement VALUES(1,2,2,0.0);
INSERT INTO placement VALUES(1,2,3,100.0);
INSERT INTO placement VALUES(1,3,0,100.0);
INSERT INTO placement VALUES(1,3,1,0.0);
INSERT INTO placement VALUES(1,3,2,0.0);
INSERT INTO placement VALUES(1,3,3,0.0);
INSERT INTO placement VALUES(1,4,0,0.0);
INSERT INTO placement VALUES(1,4,1,100.0);
INSERT INTO placement VALUES(1,4,2,0.0);
INSERT INTO placement VALUES(1,4,3,0.0);
CREATE TABLE summary (
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,
  variant_id INTEGER NOT NULL REFERENCES variant(id),
  machine_id INTEGER REFERENCES machine(id),
  benchmark TEXT NOT NULL,
  config TEXT NOT NULL DEFAULT '',
  metric TEXT NOT NULL,
  mean REAL, sd REAL, n INTEGER, min REAL, max REAL,
  unit TEXT NOT NULL DEFAULT '',
  flags TEXT NOT NULL DEFAULT '',   -- 'footnoted', 'estimated', ...
  line INTEGER
);
CREATE TABLE metric (
  benchmark TEXT NOT NULL DEFAULT '',
  name TEXT NOT NULL,
  unit TEXT NOT NULL DEFAULT '',
  better TEXT NOT NULL CHECK (better IN ('lower', 'higher', 'none')),
  description TEXT,
  PRIMARY KEY (benchmark, name)
) WITHOUT ROWID;
INSERT INTO metric VALUES('','avg_user','s','lower','mean user time of the jobs');
INSERT INTO metric VALUES('','context_switches','','none','context switches');
INSERT INTO metric VALUES('','elapsed','s','lower','wall-clock time');
INSERT INTO metric VALUES('','elapsed_minus_hackbench','s','lower','elapsed time minus hackbench time (E-H)');
INSERT INTO metric VALUES('','exit_status','','none','exit status');
INSERT INTO metric VALUES('','hackbench','s','lower','time of the hackbench disturbance');
INSERT INTO metric VALUES('','involuntary_cs','','none','involuntary context switches');
INSERT INTO metric VALUES('','major_faults','','none','major page faults');
INSERT INTO metric VALUES('','max_rss_kb','KiB','none','peak resident set size');
INSERT INTO metric VALUES('','minor_faults','','none','minor page faults');
INSERT INTO metric VALUES('','percent_cpu','%','none','CPU utilisation');
INSERT INTO metric VALUES('','sleeps','','none','voluntary waits');
INSERT INTO metric VALUES('','sys','s','lower','system CPU time');
INSERT INTO metric VALUES('','system','s','lower','system CPU time');
INSERT INTO metric VALUES('','throughput','KiB/s','higher','messages x bytes x tasks / time');
INSERT INTO metric VALUES('','time','s','lower','benchmark time');
INSERT INTO metric VALUES('','total_sys','s','lower','system time of all jobs');
INSERT INTO metric VALUES('','total_user','s','lower','user time of all jobs');
INSERT INTO metric VALUES('','user','s','lower','user CPU time');
INSERT INTO metric VALUES('','voluntary_cs','','none','voluntary context switches');
INSERT INTO metric VALUES('perf-stat','elapsed','s','lower','seconds time elapsed');
INSERT INTO metric VALUES('perf-stat','sys','s','lower','seconds sys');
INSERT INTO metric VALUES('perf-stat','user','s','lower','seconds user');
CREATE INDEX run_source ON run(source_id);
CREATE INDEX run_bench ON run(benchmark, variant_id);
CREATE INDEX sample_run ON sample(run_id);
CREATE INDEX summary_source ON summary(source_id);
CREATE INDEX summary_bench ON summary(benchmark, variant_id);
CREATE VIEW samples_v AS
  SELECT s.run_id AS run_id, src.path AS source, v.name AS variant, m.name AS machine,
         r.benchmark AS benchmark, r.config AS config, r.iteration AS iteration,
         s.job AS job, s.metric AS metric, s.value AS value, s.unit AS unit
  FROM sample s JOIN run r ON r.id = s.run_id JOIN source src ON src.id = r.source_id
  JOIN variant v ON v.id = r.variant_id LEFT JOIN machine m ON m.id = r.machine_id;
CREATE VIEW runs_v AS
  SELECT r.id AS run_id, src.path AS source, v.name AS variant, m.name AS machine,
         r.benchmark AS benchmark, r.config AS config, r.iteration AS iteration,
         r.status AS status, r.error AS error
  FROM run r JOIN source src ON src.id = r.source_id
  JOIN variant v ON v.id = r.variant_id LEFT JOIN machine m ON m.id = r.machine_id;
CREATE VIEW placement_v AS
  SELECT p.run_id AS run_id, v.name AS variant, r.config AS config, p.job AS job,
         p.node AS node, p.pct AS pct, j.initial_node AS initial_node, j.main_node AS main_node
  FROM placement p JOIN job j ON j.run_id = p.run_id AND j.job = p.job
  JOIN run r ON r.id = p.run_id JOIN variant v ON v.id = r.variant_id;
CREATE VIEW summary_v AS
  SELECT src.path AS source, v.name AS variant, m.name AS machine, s.benchmark AS benchmark,
         s.config AS config, s.metric AS metric, s.mean AS mean, s.sd AS sd, s.n AS n,
         s.min AS min, s.max AS max, s.unit AS unit
  FROM summary s JOIN source src ON src.id = s.source_id
  JOIN variant v ON v.id = s.variant_id LEFT JOIN machine m ON m.id = s.machine_id;
COMMIT;
PRAGMA user_version = 1;
