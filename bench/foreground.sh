#!/bin/bash
# Run a benchmark command in the foreground of a shared Linux machine: its session's autogroup at nice -20,
# every other autogroup at nice 19 while it runs, all back to 0 after (bench/README.md, "On a shared machine").
# Linux's autogroups share the CPU between sessions before nice values apply inside them, so `nice -n -20`
# alone does not lift a benchmark above other sessions' jobs; this does. Needs root (it writes
# /proc/PID/autogroup of other users' processes) and CONFIG_SCHED_AUTOGROUP (/proc/sys/kernel/sched_autogroup_enabled).
# Usage: setsid bench/foreground.sh python bench/run.py --corpus /work/corpus
set -u
if [ ! -w /proc/self/autogroup ]; then
    echo "foreground.sh: /proc/self/autogroup is not writable here; running the command as it is" >&2
    exec "$@"
fi
mine=$(awk '{print $1}' /proc/self/autogroup)
echo -20 > /proc/self/autogroup
for p in /proc/[0-9]*; do
    group=$(awk '{print $1}' "$p/autogroup" 2>/dev/null) || continue
    [ -n "$group" ] && [ "$group" != "$mine" ] && echo 19 > "$p/autogroup" 2>/dev/null
done
"$@"
status=$?
for p in /proc/[0-9]*; do echo 0 > "$p/autogroup" 2>/dev/null; done
exit $status
