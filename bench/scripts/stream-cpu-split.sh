#!/bin/bash
# Runs inside the soft-RoCE VM (bin/bench-cm-cpu boots it): where each CPU's time goes (user,
# system, softirq, idle) while C ib_send_bw -R and EndpointPerf stream 4 KiB messages over 1 and 4
# connections, server pinned to CPU 0 and client to CPU 1, as bin/bench-cm pins them. /proc/stat
# is sampled every half second; each run's window is its timed part (perftest's, from its rate;
# EndpointPerf's, from the "in N s" of its stream line), less 0.3 s at each end.
# Usage: stream-cpu-split.sh BENCHMARKS_JAR ROUNDS OUT_DIR
set -u
jar=$1 rounds=$2 out=$3
mkdir -p "$out"
java=$JAVA_HOME/bin/java
opts="--enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -Xbatch -XX:CompileThresholdScaling=0.1"
stamp() { while IFS= read -r l; do echo "$(date +%s.%N) $l"; done; }
( while :; do echo "S $(date +%s.%N) $(grep -E '^cpu[01] ' /proc/stat | tr '\n' ' ')"; sleep 0.5; done ) > "$out/stat.txt" &
sampler=$!
port=18900
for round in $(seq "$rounds"); do
  for q in 1 4; do
    port=$((port + 1))
    taskset -c 0 ib_send_bw -d rxe0 -x 0 -F -R -s 4096 -q $q -n $((60000 / q)) -p $port > /dev/null 2>&1 &
    server=$!
    sleep 2
    taskset -c 1 ib_send_bw -d rxe0 -x 0 -F -R -s 4096 -q $q -n $((60000 / q)) -p $port 10.0.0.1 2>&1 \
      | awk -v q=$q '/^ 4096/ {printf "C q=%d: %s MB/s, 60000 messages\n", q, $4}' | stamp
    wait $server
    port=$((port + 1))
    taskset -c 0 "$java" $opts -cp "$jar" org.jrdma.bench.EndpointPerf --server -a 10.0.0.1 -p $port --connections $q \
      > "$out/server.txt" 2>&1 &
    server=$!
    for i in $(seq 240); do grep -q listening "$out/server.txt" && break; sleep 0.5; done
    taskset -c 1 "$java" $opts -cp "$jar" org.jrdma.bench.EndpointPerf -a 10.0.0.1 -p $port --connections $q \
      --iters 200 --warmup 4000 --bw-iters 40000 2>&1 | grep -E "^stream" | sed "s/^/Java q=$q /" | stamp
    sleep 3
    kill $server 2> /dev/null
    wait $server
  done
done > "$out/events.txt"
kill $sampler
awk '
  FNR == NR { if ($1 == "S") { n++; t[n] = $2; for (i = 3; i <= NF; i += 11) for (j = 1; j <= 8; j++) v[n, $i, j] = $(i + j) } next }
  function near(x,  k, b, d, bd) { b = 1; bd = 1e18; for (k = 1; k <= n; k++) { d = (t[k] - x) ^ 2; if (d < bd) { bd = d; b = k } } return b }
  function share(c, a, b,  j, d, tot) {
    tot = 0; for (j = 1; j <= 8; j++) { d[j] = v[b, c, j] - v[a, c, j]; tot += d[j] }
    if (tot == 0) tot = 1
    return sprintf("user %3.0f%%  system %3.0f%%  softirq %3.0f%%  idle %3.0f%%", 100 * d[1] / tot, 100 * d[3] / tot, 100 * d[7] / tot, 100 * (d[4] + d[5]) / tot)
  }
  {
    match($0, /[0-9.]+ MB\/s/); rate = substr($0, RSTART, RLENGTH - 5)
    if (match($0, /in [0-9.]+ s/)) dur = substr($0, RSTART + 3, RLENGTH - 5); else dur = 60000 * 4096 / (rate * 1e6)
    a = near($1 - dur + 0.3); b = near($1 - 0.3)
    $1 = ""; print substr($0, 2)
    print "    server, CPU 0: " share("cpu0", a, b); print "    client, CPU 1: " share("cpu1", a, b)
  }' "$out/stat.txt" "$out/events.txt"
