#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_slurm.sh - a sweep on a real Slurm cluster: job arrays, shards, merge.
#
# Usage (from the repository root, as root): tests/test_slurm.sh build/chargesim
#
# Starts a throwaway one-node Slurm cluster on this machine (Debian 12's munge,
# slurmctld and slurmd, installed with apt-get when missing), with every file in a
# temporary directory and nothing in /etc: a munge key and socket, slurm.conf
# (node "localhost" with this machine's CPUs, proctrack/linuxproc, task/affinity,
# select/cons_tres, no accounting, no cgroups), the state and spool directories and
# the logs. Then the 200-variant sweep scenarios/sweeps/twl4030-grid.json runs as
# 4 shards three ways, each merged with `chargesim merge` and compared byte for
# byte with a `-j 1` run of the same sweep:
#   A. `sbatch --wait --array=0-3` of a job script without --shard: each task finds
#      its shard in SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT and its worker count
#      in SLURM_CPUS_PER_TASK; merged here.
#   B. `sbatch --array=0-3` of a job script passing `--shard $SLURM_ARRAY_TASK_ID/4`,
#      merged by a second job with `--dependency=afterok:<array job>` (the commands
#      docs/scaling.md gives).
#   C. `sbatch --wait --array=1-4%2` without --shard nor --cpus-per-task: the task
#      numbers start at 1 (SLURM_ARRAY_TASK_MIN), at most 2 tasks run at a time, and
#      each, bound to the one CPU Slurm gave it, runs one worker.
# And an array with a step (--array=0-6:2) must be refused by every task (exit 2).
# An exit trap cancels the jobs, stops the daemons it started (by their process
# ids) and removes the directory, also on failure or interruption; each wait is
# bounded so that the cluster part gives up after 120 s instead of hanging (stopping
# takes at most 20 s more).
#
# Not run as root (slurmd must be root to start jobs, apt-get to install): prints
# "skipped: ..." (naming the packages when Slurm is missing) and exits 0. Takes about
# 15 s on 2 cores, plus about 15 s for apt-get the first time.
set -u

. "$(dirname "$0")/lib.sh"
SWEEP=scenarios/sweeps/twl4030-grid.json
N=4
# The whole cluster part (start, three arrays, merges, stop) must end within this.
TIME_LIMIT_S=120
# How long the daemons get to come up (munge socket, node idle) and to stop.
START_LIMIT_S=30
STOP_LIMIT_S=10
PACKAGES="munge slurmctld slurmd slurm-client"

tl_init slurm "${1:-build/chargesim}" "$SWEEP"
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_MAX \
	SLURM_ARRAY_TASK_STEP SLURM_ARRAY_JOB_ID SLURM_CPUS_PER_TASK SLURM_JOB_ID SLURM_CONF

skip_all() {
	echo "skipped: $1"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
}

missing_packages() {
	for p in $PACKAGES; do
		case $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) in
		*"install ok installed"*) ;;
		*) printf ' %s' "$p" ;;
		esac
	done
}

# ---- Slurm and munge: install when missing (root only) ----

command -v dpkg-query >/dev/null 2>&1 || skip_all "not a Debian system (no dpkg-query) to install Slurm on"
missing=$(missing_packages)
if [ "$(id -u)" -ne 0 ]; then
	if [ -n "$missing" ]; then
		skip_all "Slurm is not installed (missing:$missing) and installing it needs root"
	fi
	skip_all "slurmd must run as root to start jobs; run this test as root"
fi
if [ -n "$missing" ]; then
	echo "# installing the missing Debian packages:$missing"
	export DEBIAN_FRONTEND=noninteractive
	# A fresh machine may have empty package lists: refresh once and retry.
	# shellcheck disable=SC2086 # one word per package
	if ! apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=120 $missing >"$TMP/apt.log" 2>&1; then
		apt-get update >>"$TMP/apt.log" 2>&1
		# shellcheck disable=SC2086
		apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=120 $missing >>"$TMP/apt.log" 2>&1
	fi
	missing=$(missing_packages)
	if [ -n "$missing" ]; then
		not_ok "apt-get install$missing" "$(tail -n 20 "$TMP/apt.log")"
		tl_finish
		exit 1
	fi
	ok "Slurm and munge installed with apt-get"
fi

# ---- the throwaway cluster ----

DEADLINE=$(($(date +%s) + TIME_LIMIT_S))
# left: seconds until the deadline (at least 1, so that `timeout` gets a valid value).
left() {
	l=$((DEADLINE - $(date +%s)))
	[ $l -gt 0 ] || l=1
	echo $l
}

# Every process this test starts, and everything they start (slurmstepd, the job
# scripts), inherits this variable: the exit trap finds them by it, and by it only.
CHARGESIM_SLURM_TEST=$TMP
export CHARGESIM_SLURM_TEST
daemon_pids=

# our_pids: the processes carrying this test's marker, other than this shell.
our_pids() {
	for e in /proc/[0-9]*/environ; do
		p=${e#/proc/}
		p=${p%/environ}
		[ "$p" = $$ ] && continue
		if { tr '\0' '\n' <"$e"; } 2>/dev/null | grep -q -x -F "CHARGESIM_SLURM_TEST=$TMP"; then
			echo "$p"
		fi
	done
}

# stop_cluster: cancel the jobs, stop the daemons (slurmd, slurmctld, then munged)
# and anything else still carrying the marker. Safe to call twice.
stop_cluster() {
	if [ -n "$daemon_pids" ] && [ -e "$TMP/slurm.conf" ]; then
		timeout 5 scancel --quiet --user=root >/dev/null 2>&1
		i=0
		while [ $i -lt $((STOP_LIMIT_S * 5)) ] &&
			[ -n "$(timeout 5 squeue -h -o %i 2>/dev/null)" ]; do
			sleep 0.2
			i=$((i + 1))
		done
	fi
	for p in $daemon_pids; do
		kill -TERM "$p" 2>/dev/null
	done
	i=0
	while [ $i -lt $((STOP_LIMIT_S * 5)) ]; do
		alive=
		for p in $daemon_pids; do
			kill -0 "$p" 2>/dev/null && alive="$alive $p"
		done
		[ -z "$alive" ] && break
		sleep 0.2
		i=$((i + 1))
	done
	for p in $daemon_pids $(our_pids); do
		kill -KILL "$p" 2>/dev/null
	done
	for p in $daemon_pids; do
		wait "$p" 2>/dev/null
	done
	daemon_pids=
}

cleanup() {
	stop_cluster
	rm -rf "$TMP"
}
trap cleanup EXIT

# free_port P: nothing on this machine uses TCP port P.
free_port() {
	hex=$(printf ':%04X ' "$1")
	! cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | grep -q -F "$hex"
}

# Two free neighbouring ports, starting from one derived from our process id so
# that two runs at once (or a cluster already on 6817/6818) do not collide.
port=$((20000 + ($$ % 20000) * 2))
tries=0
while ! free_port $port || ! free_port $((port + 1)); do
	port=$((port + 2))
	[ $port -lt 60000 ] || port=20000
	tries=$((tries + 1))
	if [ $tries -gt 1000 ]; then
		not_ok "two free TCP ports for slurmctld and slurmd"
		tl_finish
		exit 1
	fi
done
CTLD_PORT=$port
SLURMD_PORT=$((port + 1))

# munged checks that everybody may reach its socket and nobody else may read the key.
chmod 755 "$TMP"
mkdir -p "$TMP/munge" "$TMP/key" "$TMP/state" "$TMP/spool" "$TMP/log" "$TMP/jobs"
chmod 755 "$TMP/munge"
chmod 700 "$TMP/key"
(umask 077 && dd if=/dev/urandom of="$TMP/key/munge.key" bs=1024 count=1 2>/dev/null)
MUNGE_SOCKET=$TMP/munge/munge.socket.2

CPUS=$(nproc)
cat >"$TMP/slurm.conf" <<EOF
# A one-node cluster for tests/test_slurm.sh, every file under $TMP.
ClusterName=chargesimtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldLogFile=$TMP/log/slurmctld.log
SlurmdLogFile=$TMP/log/slurmd.log
PlugStackConfig=$TMP/plugstack.conf
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
# Binds each job to the CPUs it was given (sched_setaffinity, no cgroups needed), as
# real clusters do.
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
# Cancel a job whose dependency can no longer be met (B's merge job when a task
# failed) instead of leaving it pending.
DependencyParameters=kill_invalid_depend
# Start a waiting batch job at the next scheduling pass (about 1 s) rather than up
# to 3 s later.
SchedulerParameters=batch_sched_delay=0
# sbatch --wait polls every 2 s while that is no more than half of MinJobAge (how
# long a finished job stays visible), and every 8 then 32 s otherwise.
MinJobAge=4
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
: >"$TMP/plugstack.conf"
SLURM_CONF=$TMP/slurm.conf
export SLURM_CONF

# logs_evidence: the end of the daemons' logs, for a failed check.
logs_evidence() {
	for f in "$TMP/munged.out" "$TMP/slurmctld.out" "$TMP/slurmd.out" "$TMP/log/slurmctld.log" "$TMP/log/slurmd.log"; do
		[ -s "$f" ] && { echo "== $f"; tail -n 8 "$f"; }
	done
}

# fail_setup WHAT: a daemon did not come up; nothing else can run.
fail_setup() {
	not_ok "$1" "$(logs_evidence)"
	tl_finish
	exit 1
}

t0=$(date +%s)
munged -F --key-file="$TMP/key/munge.key" --socket="$MUNGE_SOCKET" \
	--pid-file="$TMP/munge/munged.pid" --log-file="$TMP/log/munged.log" \
	--seed-file="$TMP/key/munged.seed" >"$TMP/munged.out" 2>&1 &
daemon_pids=$!
i=0
until munge -S "$MUNGE_SOCKET" -n 2>/dev/null | unmunge -S "$MUNGE_SOCKET" >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -lt $((START_LIMIT_S * 5)) ] || fail_setup "munged answers on $MUNGE_SOCKET"
	sleep 0.2
done
ok "munged answers on its own socket"

slurmctld -D -c -f "$SLURM_CONF" >"$TMP/slurmctld.out" 2>&1 &
daemon_pids="$! $daemon_pids"
slurmd -D -N localhost -f "$SLURM_CONF" >"$TMP/slurmd.out" 2>&1 &
daemon_pids="$! $daemon_pids"
i=0
until [ "$(timeout 5 sinfo -h -n localhost -o %T 2>/dev/null)" = idle ]; do
	i=$((i + 1))
	[ $i -lt $((START_LIMIT_S * 5)) ] || fail_setup "slurmctld and slurmd up, node localhost idle (sinfo)"
	sleep 0.2
done
ok "slurmctld and slurmd up on ports $CTLD_PORT/$SLURMD_PORT, node localhost idle with $CPUS CPUs ($(($(date +%s) - t0)) s)"

# run NAME ARGS... (lib.sh's, bounded by the deadline: exit 124 when it runs out)
run() {
	name=$1
	shift
	timeout "$(left)" "$BIN" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	status=$?
}

# ---- the reference: -j 1, outside Slurm ----

run j1 sweep "$SWEEP" -o "$TMP/j1" -j 1 -q
expect_status "reference: the sweep with -j 1" 0
REF=$TMP/j1/results.csv

# The job scripts run chargesim from PATH, as on a cluster after `make install`.
PATH=$(dirname "$BIN"):$PATH
export PATH
SWEEP_ABS=$(pwd)/$SWEEP
# Threads per task for B: 2 where the node has them, else 1.
B_CPUS=2
[ "$CPUS" -ge 2 ] || B_CPUS=1

# A: the shard from the array variables, -j from --cpus-per-task.
mkdir -p "$TMP/a"
cat >"$TMP/jobs/a.sbatch" <<EOF
#!/bin/sh
#SBATCH --job-name=sweep-a
#SBATCH --cpus-per-task=1
#SBATCH --time=00:02:00
#SBATCH --requeue
#SBATCH --output=$TMP/a/slurm-%A_%a.log
exec chargesim sweep $SWEEP_ABS -o $TMP/a/shard-\$SLURM_ARRAY_TASK_ID --resume
EOF
# B: explicit --shard, and a merge job that waits for the whole array.
mkdir -p "$TMP/b"
cat >"$TMP/jobs/b.sbatch" <<EOF
#!/bin/sh
#SBATCH --job-name=sweep-b
#SBATCH --cpus-per-task=$B_CPUS
#SBATCH --time=00:02:00
#SBATCH --output=$TMP/b/slurm-%A_%a.log
exec chargesim sweep $SWEEP_ABS -o $TMP/b/shard-\$SLURM_ARRAY_TASK_ID --shard \$SLURM_ARRAY_TASK_ID/$N
EOF
# C: A's script without --cpus-per-task, into another directory; the array starts at 1.
mkdir -p "$TMP/c"
sed -e "s|$TMP/a/|$TMP/c/|g" -e 's/sweep-a/sweep-c/' -e '/--cpus-per-task/d' "$TMP/jobs/a.sbatch" \
	>"$TMP/jobs/c.sbatch"
# D: an array with a step, which chargesim must refuse.
mkdir -p "$TMP/d"
sed -e "s|$TMP/a/|$TMP/d/|g" -e 's/sweep-a/sweep-d/' "$TMP/jobs/a.sbatch" >"$TMP/jobs/d.sbatch"

# All four are submitted at once (the node runs as many tasks as it has CPUs) and
# waited for together; `sbatch --wait` exits with the highest exit status of the
# array's tasks.
t0=$(date +%s)
(cd "$TMP/jobs" && timeout "$(left)" sbatch --wait --array=0-$((N - 1)) a.sbatch) >"$TMP/a.out" 2>&1 &
pid_a=$!
jobid_b=$(cd "$TMP/jobs" && timeout "$(left)" sbatch --parsable --array=0-$((N - 1)) b.sbatch 2>"$TMP/b.err")
status=$?
name=b
expect_status "B: sbatch --parsable --array=0-$((N - 1)) (job $jobid_b)" 0
(timeout "$(left)" sbatch --wait --dependency=afterok:"$jobid_b" --job-name=merge-b \
	--output="$TMP/b/merge.log" --wrap "chargesim merge $TMP/b/shard-* -o $TMP/b/all") \
	>"$TMP/bmerge.out" 2>&1 &
pid_b=$!
(cd "$TMP/jobs" && timeout "$(left)" sbatch --wait --array=1-$N%2 c.sbatch) >"$TMP/c.out" 2>&1 &
pid_c=$!
(cd "$TMP/jobs" && timeout "$(left)" sbatch --wait --array=0-6:2 d.sbatch) >"$TMP/d.out" 2>&1 &
pid_d=$!
wait $pid_a
status_a=$?
wait $pid_b
status_b=$?
wait $pid_c
status_c=$?
wait $pid_d
status_d=$?
echo "# the four submissions ended after $(($(date +%s) - t0)) s"

# shard_logs DIR: every task's log, for a failed check.
shard_logs() {
	for f in "$1"/slurm-*.log "$1"/merge.log; do
		[ -e "$f" ] && { echo "== $f"; head -n 5 "$f"; }
	done
	logs_evidence
}

# expect_job WHAT STATUS WANT OUTFILE DIR
expect_job() {
	if [ "$2" -eq "$3" ]; then
		ok "$1 (exit $3)"
	else
		not_ok "$1 (exit $2, want $3; 124: timed out)" "$(cat "$4"; shard_logs "$5")"
	fi
}

# expect_logs WHAT DIR PATTERN-WITH-@: each task's log (task number for @) matches.
expect_logs() {
	bad=
	for t in $4; do
		f=
		for g in "$2"/slurm-*_"$t".log; do
			[ -e "$g" ] && f=$g
		done
		pat=$(printf '%s' "$3" | sed "s/@/$((t - $5))/g")
		if [ -z "$f" ] || ! grep -q -e "$pat" "$f"; then
			bad="$bad
task $t: want /$pat/ in: $(cat "$f" 2>/dev/null)"
		fi
	done
	if [ -z "$bad" ]; then
		ok "$1"
	else
		not_ok "$1" "$bad"
	fi
}

# expect_merge WHAT DIR TASKS: merge DIR/shard-T for each task T, compare with -j 1.
expect_merge() {
	dirs=
	for t in $3; do
		dirs="$dirs $2/shard-$t"
	done
	# shellcheck disable=SC2086
	run "merge-$(basename "$2")" merge $dirs -o "$2/all"
	expect_status "$1: chargesim merge of the $N shard directories" 0
	same "$1: merged results.csv byte-identical to -j 1" "$REF" "$2/all/results.csv"
}

TASKS0=$(seq 0 $((N - 1)) | tr '\n' ' ')
TASKS1=$(seq 1 $N | tr '\n' ' ')

expect_job "A: sbatch --wait --array=0-$((N - 1)), shards from the array variables" "$status_a" 0 "$TMP/a.out" "$TMP/a"
expect_logs "A: task I announces shard I/$N from SLURM_ARRAY_TASK_ID/COUNT, 1 worker (--cpus-per-task=1)" \
	"$TMP/a" "shard @/$N (from SLURM_ARRAY_TASK_ID/COUNT): 50 of them; 1 worker\$" "$TASKS0" 0
expect_merge "A" "$TMP/a" "$TASKS0"

expect_job "B: sbatch --wait --dependency=afterok:<array> of chargesim merge" "$status_b" 0 "$TMP/bmerge.out" "$TMP/b"
workers="$B_CPUS worker"
[ "$B_CPUS" -eq 1 ] || workers="${workers}s"
expect_logs "B: task I runs --shard I/$N with $workers (--cpus-per-task=$B_CPUS)" \
	"$TMP/b" "shard @/$N: 50 of them; $workers\$" "$TASKS0" 0
if [ -e "$TMP/b/all/results.csv" ]; then
	same "B: results.csv of the merge job byte-identical to -j 1" "$REF" "$TMP/b/all/results.csv"
else
	not_ok "B: the merge job wrote b/all/results.csv" "$(shard_logs "$TMP/b")"
fi

expect_job "C: sbatch --wait --array=1-$N%2 (SLURM_ARRAY_TASK_MIN=1)" "$status_c" 0 "$TMP/c.out" "$TMP/c"
expect_logs "C: task I announces shard I-1/$N" \
	"$TMP/c" "shard @/$N (from SLURM_ARRAY_TASK_ID/COUNT): 50 of them" "$TASKS1" 1
if [ "$CPUS" -ge 2 ]; then
	expect_logs "C: each task, bound to its one CPU (no --cpus-per-task), runs 1 worker, not $CPUS" \
		"$TMP/c" "; 1 worker\$" "$TASKS1" 1
else
	skip "C: each task runs 1 worker on its one CPU" "this machine has 1 CPU"
fi
expect_merge "C" "$TMP/c" "$TASKS1"

expect_job "D: sbatch --wait --array=0-6:2 is refused by every task" "$status_d" 2 "$TMP/d.out" "$TMP/d"
expect_logs "D: each task names SLURM_ARRAY_TASK_STEP=2" \
	"$TMP/d" "SLURM_ARRAY_TASK_STEP=2: found an array with a step" "0 2 4 6" 0
check "D: no task wrote a shard directory" sh -c "! ls -d '$TMP'/d/shard-* 2>/dev/null"

# ---- stop: nothing of the test may be left running ----

stop_cluster
left_over=$(our_pids)
if [ -z "$left_over" ]; then
	ok "daemons stopped, no process of the test left"
else
	not_ok "daemons stopped, no process of the test left" \
		"$(for p in $left_over; do tr '\0' ' ' <"/proc/$p/cmdline"; echo; done)"
fi

tl_finish
