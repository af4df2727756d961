#!/bin/bash
# Runs inside the soft-RoCE VM (bin/bench-cm-echo boots it): where the endpoint echo's gap to C
# lies, layer by layer, in one boot. Each round times the 64-byte round trip (the median) of
#   C      ib_send_lat -R (twice its typical latency, as bin/bench-cm counts it),
#   verbs  org.jrdma.examples.SendLat -R: the same ping-pong in Java on jrdma's verbs (the same
#          libibverbs calls: a receive polled, a receive and a send posted, the send's completion
#          polled), fresh JVMs each round,
#   ADAPTIVE and BUSY  EndpointPerf's echo through the endpoint API in each polling mode, one pair
#          each, warmed up once and stopped (SIGSTOP) while the others run,
# each pair pinned as bin/bench-cm pins them (server CPU 0, client CPU 1), and prints the medians.
# verbs/C is what the JVM costs with no endpoint layer; ADAPTIVE/verbs what the layer adds.
# Usage: echo-layers.sh BENCHMARKS_JAR ROUNDS OUT_DIR [ROUND_TRIPS, default 5000]
set -u
jar=$1 rounds=$2 out=$3 n=${4:-5000}
mkdir -p "$out"
java=$JAVA_HOME/bin/java
opts="--enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -Xbatch -XX:CompileThresholdScaling=0.1"
# the gates are named pipes in the VM's own /tmp: a pipe on the 9p share reads as ended at once
gates=$(mktemp -d /tmp/echo-layers.XXXXXX)
port=19100 k=0
declare -A server client gate lines
tails=()
# reads the pair's output lines from descriptor $1 until one starts with $2
await_line() { local line; while IFS= read -r -u "$1" line; do [[ $line == "$2"* ]] && return 0; done; return 1; }
modes="ADAPTIVE BUSY"
for mode in $modes; do
  k=$((k + 1)); port=$((port + 1))
  mkfifo "$gates/go-$mode" "$gates/lines-$mode"
  taskset -c 0 "$java" $opts -cp "$jar" org.jrdma.bench.EndpointPerf --server -a 10.0.0.1 -p $port --connections 1 \
    --polling $mode > "$out/server-$mode.txt" 2>&1 &
  server[$mode]=$!
  for i in $(seq 240); do grep -q listening "$out/server-$mode.txt" && break; sleep 0.5; done
  taskset -c 1 "$java" $opts -cp "$jar" org.jrdma.bench.EndpointPerf -a 10.0.0.1 -p $port --connections 1 \
    --polling $mode --iters $n --warmup 20000 --bw-iters 40 --runs "$rounds" < "$gates/go-$mode" > "$out/client-$mode.txt" 2>&1 &
  client[$mode]=$!
  eval "exec $((10 + k))> \"$gates/go-$mode\""; gate[$mode]=$((10 + k))
  # (a named pipe, not a process substitution: the VM has no /dev/fd)
  tail -n +1 -f "$out/client-$mode.txt" > "$gates/lines-$mode" &
  tails+=($!)
  eval "exec $((20 + k))< \"$gates/lines-$mode\""; lines[$mode]=$((20 + k))
  await_line "${lines[$mode]}" "ready for run 1" || { echo "$mode: the Java pair did not start"; cat "$out/client-$mode.txt"; exit 1; }
  kill -STOP "${server[$mode]}" "${client[$mode]}"
done
cport=19200
for r in $(seq "$rounds"); do
  cport=$((cport + 1))
  taskset -c 0 ib_send_lat -d rxe0 -x 0 -F -R -s 64 -n $n -p $cport > /dev/null 2>&1 &
  s=$!; sleep 2
  taskset -c 1 ib_send_lat -d rxe0 -x 0 -F -R -s 64 -n $n -p $cport 10.0.0.1 2>&1 |
    awk -v r=$r '/^ 64 / {printf "round %d C %.2f\n", r, 2 * $5}'
  wait $s
  cport=$((cport + 1))
  taskset -c 0 "$java" $opts -cp "$jar" org.jrdma.examples.SendLat -d rxe0 -x 0 -F -R -s 64 -n $n -p $cport > /dev/null 2>&1 &
  s=$!; sleep 8
  taskset -c 1 "$java" $opts -cp "$jar" org.jrdma.examples.SendLat -d rxe0 -x 0 -F -R -s 64 -n $n -p $cport 10.0.0.1 2>&1 |
    awk -v r=$r '/^ 64 / {printf "round %d verbs %.2f\n", r, 2 * $5}'
  wait $s
  for mode in $modes; do
    kill -CONT "${server[$mode]}" "${client[$mode]}"
    echo go >&"${gate[$mode]}"
    await_line "${lines[$mode]}" "java alloc"
    kill -STOP "${server[$mode]}" "${client[$mode]}"
    grep -E "^echo" "$out/client-$mode.txt" | tail -n 1 | awk -v r=$r -v m=$mode '{for (i = 1; i < NF; i++) if ($i == "typical") printf "round %d %s %s\n", r, m, $(i + 1)}'
  done
done | tee "$out/rounds.txt"
for mode in $modes; do kill -CONT "${server[$mode]}" "${client[$mode]}"; done
for mode in $modes; do wait "${client[$mode]}"; kill "${server[$mode]}" 2> /dev/null; wait "${server[$mode]}"; done
kill "${tails[@]}" 2> /dev/null
awk '{ v[$3, ++c[$3]] = $4 }
  function median(k,  n, i, j, t, a) { n = c[k]; for (i = 1; i <= n; i++) a[i] = v[k, i]
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  END { printf "medians of %d rounds, 64-byte round trip, usec: C %.2f, verbs (SendLat) %.2f, ADAPTIVE %.2f, BUSY %.2f\n", c["C"], median("C"), median("verbs"), median("ADAPTIVE"), median("BUSY")
    printf "verbs/C %.3f (the JVM, no endpoint layer); ADAPTIVE/verbs %.3f (the endpoint layer); ADAPTIVE/C %.3f\n", median("verbs") / median("C"), median("ADAPTIVE") / median("verbs"), median("ADAPTIVE") / median("C") }' "$out/rounds.txt"
