#!/bin/bash
# Runs inside the soft-RoCE VM (bin/bench-cm-ab boots it): an A/B of two builds of the endpoints.
# One EndpointPerf pair per build (server pinned to CPU 0, client to CPU 1, as bin/bench-cm pins
# them) is started and warmed up, then stopped with SIGSTOP; each round runs C ib_send_bw -R
# (4 KiB, over each count of CONNECTIONS, by default 1 and 4), then each build's pair in turn,
# the first going first in odd rounds and second in even ones (woken with SIGCONT, driven through
# RunGate's protocol: one echo run and a stream over each count of connections), the other stopped.
# The script waits for a pair's lines by reading them (tail -f, woken by inotify), never by
# polling the output file: a poll every half second spawned grep and sleep, which under the VM's
# emulation took about a tenth of the server's CPU during the Java runs and none during C's.
# Usage: stream-ab.sh JAR_A,JAR_B ROUNDS OUT_DIR [CONNECTIONS, e.g. 1,4,16]   (prints one line per figure)
set -u
jars="${1//,/ }" rounds=$2 out=$3 connections=${4:-1,4}
counts=(${connections//,/ })
mkdir -p "$out"
java=$JAVA_HOME/bin/java
opts="--enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -Xbatch -XX:CompileThresholdScaling=0.1"
messages=40000
# the gates are named pipes in the VM's own /tmp: a pipe on the 9p share reads as ended at once
gates=$(mktemp -d /tmp/stream-ab.XXXXXX)
port=19100 n=0
declare -A server client gate lines
tails=()
# reads the pair's output lines from descriptor $1 until one starts with $2
await_line() {
  local line
  while IFS= read -r -u "$1" line; do [[ $line == "$2"* ]] && return 0; done
  return 1
}
for jar in $jars; do
  n=$((n + 1)); port=$((port + 1)); tag=$(basename "$(dirname "$jar")")
  mkfifo "$gates/go-$tag"
  taskset -c 0 "$java" $opts -cp "$jar" org.jrdma.bench.EndpointPerf --server -a 10.0.0.1 -p $port \
    --connections "$connections" > "$out/server-$tag.txt" 2>&1 &
  server[$tag]=$!
  for i in $(seq 240); do grep -q listening "$out/server-$tag.txt" && break; sleep 0.5; done
  taskset -c 1 "$java" $opts -cp "$jar" org.jrdma.bench.EndpointPerf -a 10.0.0.1 -p $port --connections "$connections" \
    --iters 300 --warmup 6000 --bw-iters $messages --runs "$rounds" < "$gates/go-$tag" > "$out/client-$tag.txt" 2>&1 &
  client[$tag]=$!
  eval "exec $((10 + n))> \"$gates/go-$tag\""
  gate[$tag]=$((10 + n))
  # (a named pipe, not a process substitution: the VM has no /dev/fd)
  mkfifo "$gates/lines-$tag"
  tail -n +1 -f "$out/client-$tag.txt" > "$gates/lines-$tag" &
  tails+=($!)
  eval "exec $((20 + n))< \"$gates/lines-$tag\""
  lines[$tag]=$((20 + n))
  await_line "${lines[$tag]}" "ready for run 1" || { echo "$tag: the Java pair did not start"; cat "$out/client-$tag.txt"; exit 1; }
  kill -STOP "${server[$tag]}" "${client[$tag]}"
done
cport=19200
for r in $(seq "$rounds"); do
  for q in "${counts[@]}"; do
    cport=$((cport + 1))
    taskset -c 0 ib_send_bw -d rxe0 -x 0 -F -R -s 4096 -q $q -n $((messages / q)) -p $cport > /dev/null 2>&1 &
    s=$!
    sleep 2
    taskset -c 1 ib_send_bw -d rxe0 -x 0 -F -R -s 4096 -q $q -n $((messages / q)) -p $cport 10.0.0.1 2>&1 |
      awk -v q=$q -v r=$r '/^ 4096/ {printf "round %d C stream %d: %s MB/s\n", r, q, $4}'
    wait $s
  done
  # the builds take turns going first after C, so that an advantage of going first (or second)
  # cannot pass as a difference of the builds
  order=$jars
  ((r % 2 == 0)) && order=$(printf '%s\n' $jars | tac | tr '\n' ' ')
  for jar in $order; do
    tag=$(basename "$(dirname "$jar")")
    kill -CONT "${server[$tag]}" "${client[$tag]}"
    echo go >&"${gate[$tag]}"
    await_line "${lines[$tag]}" "java alloc"
    kill -STOP "${server[$tag]}" "${client[$tag]}"
    grep -E "^echo|^stream|^java alloc" "$out/client-$tag.txt" | tail -n $((${#counts[@]} + 2)) | sed "s/^/round $r $tag /"
  done
done
for jar in $jars; do
  tag=$(basename "$(dirname "$jar")")
  kill -CONT "${server[$tag]}" "${client[$tag]}"
done
for jar in $jars; do
  tag=$(basename "$(dirname "$jar")")
  wait "${client[$tag]}"
  kill "${server[$tag]}" 2> /dev/null
  wait "${server[$tag]}"
done
kill "${tails[@]}" 2> /dev/null
