# Shared by the bin/ scripts (sourced, not run): selects JDK 25, installs the Debian packages jrdma
# needs when they are missing, and times the stages of a run.

# Debian packages the build, the tests and the demo need: the C libraries and tools jrdma is tested
# against (rdma-core, libibverbs, libibumad/libibmad, infiniband-diags, perftest), the simulated
# fabric (ibsim, umad2sim, OpenSM), and the soft-RoCE VM (qemu, Debian's kernel and busybox).
JRDMA_PACKAGES=(
    maven gcc
    rdma-core libibverbs-dev ibverbs-providers ibverbs-utils libibumad-dev libibmad-dev
    infiniband-diags perftest rdmacm-utils librdmacm-dev
    ibsim-utils libumad2sim0 opensm
    qemu-system-x86 linux-image-amd64 busybox-static kmod cpio iproute2 xz-utils zstd
    chromium chromium-driver
)

JRDMA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Prints "[jrdma] message" on stderr.
say() {
    echo "[jrdma] $*" >&2
}

# Exits with a message naming what to do.
fail() {
    say "ERROR: $*"
    exit 1
}

# Installs whichever of JRDMA_PACKAGES is missing, with apt-get (as root, or through sudo).
ensure_packages() {
    local missing=() pkg
    for pkg in "${JRDMA_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    ((${#missing[@]} == 0)) && return 0
    local sudo=()
    if ((EUID != 0)); then
        command -v sudo >/dev/null || fail "missing Debian packages and not root: apt-get install ${missing[*]}"
        sudo=(sudo)
    fi
    say "installing Debian packages: ${missing[*]}"
    "${sudo[@]}" apt-get update -qq || fail "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null ||
        fail "apt-get install ${missing[*]} failed"
}

# The Prometheus project's own text-format parser, promtool (Debian's prometheus package), which
# the monitor's tests run on its /metrics. Only the binary is unpacked, under .jrdma/tools: the
# package itself would install and start a Prometheus server.
PROMTOOL="$JRDMA_ROOT/.jrdma/tools/promtool"
ensure_promtool() {
    [[ -x "$PROMTOOL" ]] && return 0
    local work
    work=$(mktemp -d)
    if ! (cd "$work" && apt-get download -qq prometheus >/dev/null 2>&1); then
        local sudo=()
        ((EUID != 0)) && sudo=(sudo)
        "${sudo[@]}" apt-get update -qq || fail "apt-get update failed"
        (cd "$work" && apt-get download -qq prometheus >/dev/null) || fail "apt-get download prometheus failed"
    fi
    dpkg-deb -x "$work"/prometheus_*.deb "$work/x" || fail "cannot unpack the prometheus package"
    mkdir -p "$(dirname "$PROMTOOL")"
    cp "$work/x/usr/bin/promtool" "$PROMTOOL"
    rm -rf "$work"
    say "promtool: $("$PROMTOOL" --version 2>&1 | head -n 1)"
}

# Selects a JDK 25 or newer: $JAVA_HOME if it is one, else the first under /usr/lib/jvm.
select_jdk() {
    local candidate
    for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*; do
        [[ -n $candidate && -x $candidate/bin/javac ]] || continue
        local feature
        feature=$("$candidate/bin/java" -XshowSettings:properties -version 2>&1 |
            sed -n 's/^ *java\.specification\.version = //p')
        if [[ ${feature%%.*} =~ ^[0-9]+$ ]] && ((${feature%%.*} >= 25)); then
            export JAVA_HOME=$candidate
            export PATH=$JAVA_HOME/bin:$PATH
            return 0
        fi
    done
    fail "no JDK 25 or newer found (looked at \$JAVA_HOME and /usr/lib/jvm/*): install one, e.g. Eclipse Temurin 25 (temurin-25-jdk), and set JAVA_HOME"
}

# Runs Maven quietly enough to read, in batch mode, with JDK 25.
mvn_run() {
    MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" \
        mvn -B -ntp -f "$JRDMA_ROOT/pom.xml" "$@"
}

# ibtool's jar, the JVM options it runs with (bin/ibtool, its AOT cache and bin/bench-discovery
# alike), and its JDK AOT cache, valid while newer than the jar. The heap is sized for a CLI: a
# 40 MB young generation with survivor spaces large enough that the short-lived garbage of
# discovery dies young, and an old generation that starts small and grows only with what lives
# (an 8,384-node fabric stays near 110 MB resident; the default heap grew to 400 MB).
IBTOOL_JAR="$JRDMA_ROOT/jrdma-tools/target/ibtool.jar"
IBTOOL_JAVA_OPTIONS=(-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xms64m -Xmn40m -XX:SurvivorRatio=3)
IBTOOL_AOT="$JRDMA_ROOT/jrdma-tools/target/ibtool.aot"
# The example programs, the demo and ibtool's AOT training with everything they use, the peers
# included (which ibtool.jar does not ship).
EXAMPLES_JAR="$JRDMA_ROOT/jrdma-examples/target/examples.jar"

# Records ibtool's AOT cache by one training discovery (org.jrdma.examples.demo.AotTraining);
# needs the built jars and select_jdk.
record_ibtool_aot_cache() {
    rm -f "$IBTOOL_AOT"
    java -cp "$EXAMPLES_JAR" org.jrdma.examples.demo.AotTraining "$IBTOOL_AOT" \
        "$JAVA_HOME/bin/java" "${IBTOOL_JAVA_OPTIONS[@]}" -jar "$IBTOOL_JAR"
}

# ibtool's bash completion script and man pages, as the build writes them (jrdma-tools/target/ibtool-docs,
# src/build/IbtoolDocs.java) installed under .jrdma: the script as .jrdma/completion/ibtool, the
# pages turned from AsciiDoc into man(1) files by asciidoctor (Debian's, installed here only: the
# tests read the build's files) in .jrdma/man/man1. Use: source .jrdma/completion/ibtool;
# MANPATH=$PWD/.jrdma/man: man ibtool-perfquery.
install_ibtool_docs() {
    local docs="$JRDMA_ROOT/jrdma-tools/target/ibtool-docs" JRDMA_PACKAGES=(asciidoctor)
    ensure_packages
    rm -rf "$JRDMA_ROOT/.jrdma/completion" "$JRDMA_ROOT/.jrdma/man"
    mkdir -p "$JRDMA_ROOT/.jrdma/completion" "$JRDMA_ROOT/.jrdma/man/man1"
    cp "$docs/ibtool_completion" "$JRDMA_ROOT/.jrdma/completion/ibtool"
    asciidoctor -b manpage -D "$JRDMA_ROOT/.jrdma/man/man1" "$docs"/man/*.adoc
}

# Runs a named stage and prints how long it took: stage NAME COMMAND...
stage() {
    local name=$1 start end status=0
    shift
    say "stage '$name' started"
    start=$(date +%s)
    "$@" || status=$?
    end=$(date +%s)
    say "stage '$name' took $((end - start)) s (exit $status)"
    return "$status"
}
