#!/bin/sh
# sweep-job.sh runs one job of a fleet sweep: `tunelab sweep` on this
# machine, pinned to the last CPU this container may use, into
# $RESULTS/$POOL-$NODE_NAME-$JOB_COMPLETION_INDEX.txt. If that file exists
# (the job was restarted on the same node), it continues it with --resume;
# tunelab refuses to resume a file of another host or binary. Extra
# arguments go to `tunelab sweep` (e.g. --budget 20m).
set -eu

: "${RESULTS:=/results}"
: "${POOL:=pool}"
: "${NODE_NAME:=$(hostname)}"
: "${JOB_COMPLETION_INDEX:=0}"

# last_cpu prints the highest CPU in this process's affinity list
# ("0-3", "6,7", "2-3,10-11"): under the kubelet's static CPU manager
# policy these are the container's exclusive cores, which need not start
# at 0, so tunelab's default (CPU count - 1) may lie outside them.
last_cpu() {
	sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | tr ',' '\n' | sed 's/.*-//' | sort -n | tail -n 1
}

cpu=$(last_cpu)
out="$RESULTS/$POOL-$NODE_NAME-$JOB_COMPLETION_INDEX.txt"
mkdir -p "$RESULTS"
if [ -s "$out" ]; then
	exec tunelab sweep --cpu "$cpu" --resume "$out" "$@"
fi
exec tunelab sweep --cpu "$cpu" -o "$out" "$@"
