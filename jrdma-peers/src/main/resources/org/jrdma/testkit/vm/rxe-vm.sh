#!/usr/bin/env bash
# rxe-vm: run a shell command inside a throwaway virtual machine that has a working soft-RoCE
# (rdma_rxe) device named rxe0.
#
# The host kernel has no RDMA modules, so this boots Debian's kernel (package linux-image-amd64)
# under qemu in software emulation (TCG). A small initramfs (busybox plus the virtio and 9p
# modules) mounts the host root read-only over 9p and chroots into it; from there the host's own
# modprobe loads veth, crc32_generic, rdma_rxe, ib_uverbs and ib_umad from /lib/modules/<kernel>,
# a veth pair is created (veth0 10.0.0.1/24 <-> veth1, only inside the VM; the VM has no network
# card) and rxe0 is bound to veth0. Then COMMAND runs as root under bash, and the VM powers off.
# As ssh does, rxe-vm joins COMMAND's words with spaces and bash parses the line again inside:
# `-- bash -c "a; b"` runs `bash -c a` and then `b`; pass `-- "a; b"` or a script's path instead.
#
# Usage: rxe-vm [--timeout SECONDS] [--share DIR] [--module NAME]... -- COMMAND...
#        rxe-vm --check
#
#   --timeout SECONDS  kill the VM and exit 124 if it has not finished by then (default 300)
#   --share DIR        also mount host folder DIR writable inside the VM, at the same path
#   --module NAME      load one more kernel module inside the VM before COMMAND (repeatable)
#   --check            print what is missing to run a VM (exit 125), or "ok" (exit 0)
#
# Inside the VM: the whole host file system is visible read-only at the same paths; /tmp shows the
# host's /tmp with writes going to a tmpfs overlay; /run and /dev/shm are empty tmpfs; the working folder is the caller's (when visible), else /tmp;
# environment PATH, HOME=/tmp, LANG, and JAVA_HOME (the caller's, else the Temurin 25 JDK) with
# $JAVA_HOME/bin first on PATH.
#
# Output: COMMAND's stdout and stderr (merged) on stdout; exit status: COMMAND's. When the VM
# itself fails this prints "rxe-vm: ..." on stderr with the tail of the VM console and exits 125
# (infrastructure failure, e.g. something not installed) or 124 (timeout). Nothing else is ever
# written to stderr but the note of a boot tried again (below). The initramfs is cached in ${XDG_CACHE_HOME:-$HOME/.cache}/jrdma/vm/<kernel>/.
#
# A boot that has not reached the chroot within BOOT_DEADLINE seconds (RXE_VM_BOOT_DEADLINE, default
# 150; a boot takes about 8 s, 30 s on a loaded host) is killed and tried once more, with a note on
# stderr: qemu's emulation has been seen to hang at boot with nothing on the console, and without
# this the whole --timeout was lost to it.

set -euo pipefail

readonly EXIT_TIMEOUT=124
readonly EXIT_INFRA=125
readonly DEFAULT_JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
# Modules needed before the host root can be mounted; loaded from the initramfs with busybox insmod.
readonly BOOT_MODULES=(virtio_pci 9pnet_virtio 9p overlay)
# Modules for soft-RoCE; loaded inside the VM by the host's modprobe.
readonly RXE_MODULES=(veth crc32_generic rdma_rxe ib_uverbs ib_umad)
# Host files used inside the VM (through the read-only host root): glob pattern and Debian package.
readonly VM_TOOLS=(
    "/bin/bash:bash"
    "/usr/sbin/modprobe:kmod"
    "/usr/sbin/ip:iproute2"
    "/usr/bin/rdma:iproute2"
    "/usr/lib/*/libibverbs/librxe-*.so:ibverbs-providers"
    "/usr/bin/ibv_devices:ibverbs-utils"
    "/usr/lib/*/librdmacm.so.1:librdmacm1"
    "/usr/bin/rping:rdmacm-utils"
    "/usr/bin/ucmatose:rdmacm-utils"
    "/usr/bin/udaddy:rdmacm-utils"
    "/usr/bin/mckey:rdmacm-utils"
)

timeout_seconds=300
boot_deadline=${RXE_VM_BOOT_DEADLINE:-150}
share=""
extra_modules=()
command_line=""
work=""
qemu_pid=""
qemu_status=""

# --- messages ------------------------------------------------------------------------------------

# Prints an infrastructure failure on stderr and exits 125.
die() {
    echo "rxe-vm: $*" >&2
    exit "$EXIT_INFRA"
}

# Prints a problem with the arguments and the usage on stderr, and exits 125.
usage() {
    echo "rxe-vm: $1" >&2
    sed -n '/^# Usage:/,/^#   --check/s/^# \{0,1\}//p' "$0" >&2
    exit "$EXIT_INFRA"
}

# --- prerequisites -------------------------------------------------------------------------------

# Prints the version of the newest /boot/vmlinuz-* that has a matching /lib/modules dir.
find_kernel_version() {
    local kernel version best=""
    for kernel in /boot/vmlinuz-*; do
        [[ -f $kernel ]] || continue
        version=${kernel#/boot/vmlinuz-}
        [[ -f /lib/modules/$version/modules.dep ]] || continue
        best=$(printf '%s\n%s\n' "$best" "$version" | sed '/^$/d' | sort -V | tail -n 1)
    done
    printf '%s' "$best"
}

# Prints the path of a statically linked busybox, or nothing.
find_static_busybox() {
    local candidate
    for candidate in /bin/busybox /usr/bin/busybox; do
        if [[ -x $candidate ]] && ! ldd "$candidate" >/dev/null 2>&1; then
            printf '%s' "$candidate"
            return
        fi
    done
}

# Prints what is missing to run a VM (one problem per line), or nothing when all is there.
missing_prerequisites() {
    local version tool module
    command -v qemu-system-x86_64 >/dev/null ||
        echo "no qemu-system-x86_64: apt-get install qemu-system-x86"
    for tool in cpio modprobe timeout sha256sum; do
        command -v "$tool" >/dev/null || echo "no $tool on the host: apt-get install cpio kmod coreutils"
    done
    [[ -n $(find_static_busybox) ]] ||
        echo "no statically linked /bin/busybox: apt-get install busybox-static"
    version=$(find_kernel_version)
    if [[ -z $version ]]; then
        echo "no /boot/vmlinuz-* with a matching /lib/modules/<version>: apt-get install linux-image-amd64"
    else
        for module in "${BOOT_MODULES[@]}" "${RXE_MODULES[@]}" "${extra_modules[@]}"; do
            modprobe -S "$version" --show-depends "$module" >/dev/null 2>&1 ||
                echo "kernel module $module not found in /lib/modules/$version"
        done
    fi
    for tool in "${VM_TOOLS[@]}"; do
        compgen -G "${tool%%:*}" >/dev/null || echo "no ${tool%%:*}: apt-get install ${tool##*:}"
    done
}

# --- initramfs -----------------------------------------------------------------------------------

# The initramfs /init (busybox sh, PID 1): mounts the host root, chroots into it for stage 2
# (written per run into the work share), then powers off.
init_script() {
    cat <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys

halt_vm() {
    sync
    poweroff -f
    echo o >/proc/sysrq-trigger
    sleep 60
}
fail() {
    echo "rxe-vm-init: FAILED: $*"
    halt_vm
}

echo "rxe-vm-init: loading the boot modules"
for module in /modules/*.ko; do
    insmod "$module" || fail "insmod $module"
done
echo "rxe-vm-init: mounting the host root"

p9='trans=virtio,version=9p2000.L,msize=524288'
mkdir -p /newroot
mount -t 9p -o "ro,$p9,cache=loose" hostroot /newroot || fail "mount of the host root over 9p"
mount -t proc proc /newroot/proc
mount -t sysfs sysfs /newroot/sys
mount -t devtmpfs devtmpfs /newroot/dev
mkdir -p /newroot/dev/pts /newroot/dev/shm
mount -t devpts devpts /newroot/dev/pts
mount -t tmpfs -o mode=1777 tmpfs /newroot/dev/shm
# /tmp: the host's /tmp stays visible (a checkout or test classes may live there), writes go to a tmpfs.
mkdir -p /scratch
mount -t tmpfs -o mode=755 tmpfs /scratch
mkdir -p /scratch/upper /scratch/work
chmod 1777 /scratch/upper
mount -t overlay -o lowerdir=/newroot/tmp,upperdir=/scratch/upper,workdir=/scratch/work overlay /newroot/tmp ||
    fail "overlay mount of /tmp"
mount -t tmpfs -o mode=755 tmpfs /newroot/run
mkdir -p /newroot/run/rxe-vm
mount -t 9p -o "$p9" work /newroot/run/rxe-vm || fail "mount of the work share over 9p"
if [ -f /newroot/run/rxe-vm/share-path ]; then
    share=$(cat /newroot/run/rxe-vm/share-path)
    mkdir -p "/newroot$share"
    mount -t 9p -o "$p9" share "/newroot$share" || fail "mount of the share $share over 9p"
fi

echo "rxe-vm-init: entering the host root"
chroot /newroot /bin/bash /run/rxe-vm/stage2.sh
echo "rxe-vm-init: done"
halt_vm
EOF
}

# Copies a module into the initramfs staging dir, decompressed (busybox insmod may not read .xz).
stage_module() {
    local source=$1 target=$2
    case $source in
        *.ko.xz) xz -dc "$source" >"$target" ;;
        *.ko.zst) zstd -qdc "$source" >"$target" ;;
        *.ko.gz) gzip -dc "$source" >"$target" ;;
        *) cp "$source" "$target" ;;
    esac
}

# Prints the module files for BOOT_MODULES in load order (dependencies first, no duplicates).
boot_module_files() {
    local version=$1
    modprobe -a -S "$version" --show-depends "${BOOT_MODULES[@]}" |
        awk '$1 == "insmod" && !seen[$2]++ { print $2 }'
}

# Prints the path of an up-to-date initramfs for this kernel version, building it if needed.
ensure_initramfs() {
    local version=$1 busybox dir key staging index=10 file
    busybox=$(find_static_busybox)
    dir="${XDG_CACHE_HOME:-${HOME:-${TMPDIR:-/tmp}}/.cache}/jrdma/vm/$version"
    mkdir -p "$dir" || die "cannot create the cache folder $dir"
    # The key changes when the init script, busybox or a module changes.
    key=$({
        init_script
        boot_module_files "$version" | xargs stat -L -c '%n %s %Y'
        stat -L -c '%n %s %Y' "$busybox"
    } | sha256sum | cut -d' ' -f1)
    if [[ -f $dir/initramfs.cpio && $(cat "$dir/initramfs.key" 2>/dev/null) == "$key" ]]; then
        printf '%s' "$dir/initramfs.cpio"
        return
    fi
    staging=$(mktemp -d "$dir/staging.XXXXXX")
    mkdir -p "$staging"/{bin,dev,proc,sys,modules,newroot}
    cp "$busybox" "$staging/bin/busybox"
    init_script >"$staging/init"
    chmod 755 "$staging/init"
    while read -r file; do
        stage_module "$file" "$staging/modules/$index-$(basename "${file%%.ko*}").ko"
        index=$((index + 1))
    done < <(boot_module_files "$version")
    (cd "$staging" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$staging.cpio"
    rm -rf "$staging"
    # Replace atomically so that concurrent runs never see a half-written file.
    mv -f "$staging.cpio" "$dir/initramfs.cpio"
    echo "$key" >"$dir/initramfs.key"
    printf '%s' "$dir/initramfs.cpio"
}

# --- the run inside the VM -----------------------------------------------------------------------

# Stage 2, run by the host's bash chrooted into the host root: sets up rxe0 and runs the command.
stage2_script() {
    cat <<'EOF'
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
w=/run/rxe-vm
source "$w/config"
: >"$w/booted"
log() { echo "rxe-vm-stage2: $*"; }
setup_failed() { echo "$*" >"$w/setup-error"; log "FAILED: $*"; exit 1; }

for module in "${modules[@]}"; do
    modprobe "$module" 2>>"$w/setup-log" || setup_failed "modprobe $module failed: $(tail -n 3 "$w/setup-log")"
done
ip link set lo up || setup_failed "ip link set lo up"
ip link add veth0 type veth peer name veth1 || setup_failed "ip link add veth0 type veth"
ip addr add 10.0.0.1/24 dev veth0 || setup_failed "ip addr add 10.0.0.1/24 dev veth0"
ip link set veth0 up && ip link set veth1 up || setup_failed "ip link set veth0/veth1 up"
rdma link add rxe0 type rxe netdev veth0 2>>"$w/setup-log" ||
    setup_failed "rdma link add rxe0 type rxe netdev veth0: $(tail -n 3 "$w/setup-log")"
for _ in $(seq 100); do
    grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null && break
    sleep 0.1
done
grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state ||
    setup_failed "rxe0 port 1 not ACTIVE: $(cat /sys/class/infiniband/rxe0/ports/1/state 2>&1)"
log "rxe0 is up"

# The command starts pinned to CPU 0: qemu's multi-threaded TCG does not reliably show one virtual
# CPU the code another has just patched, which HotSpot does as it compiles, and a JVM whose threads
# move between CPUs sometimes dies of SIGILL or SIGSEGV in fresh code. A program that wants the
# other CPU (the examples' server/client pairs) pins its child there with taskset itself.
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)
cd "$directory" 2>/dev/null || cd /tmp
"${pin[@]}" env -i PATH="$path" HOME=/tmp USER=root LOGNAME=root TERM=dumb LANG=C.UTF-8 \
    ${java_home:+JAVA_HOME="$java_home"} /bin/bash -c "$command_line" </dev/null >"$w/output" 2>&1
echo $? >"$w/status"
log "command exited with status $(cat "$w/status")"
EOF
}

# Writes the per-run files into the work dir: stage2.sh, config and (with --share) share-path.
write_run_files() {
    local java_home=${JAVA_HOME:-}
    [[ -n $java_home && -d $java_home ]] || java_home=$DEFAULT_JAVA_HOME
    [[ -d $java_home ]] || java_home=""
    stage2_script >"$work/stage2.sh"
    {
        printf 'modules=(%s)\n' "$(printf '%q ' "${RXE_MODULES[@]}" "${extra_modules[@]}")"
        printf 'command_line=%q\n' "$command_line"
        printf 'directory=%q\n' "$PWD"
        printf 'java_home=%q\n' "$java_home"
        printf 'path=%q\n' "${java_home:+$java_home/bin:}/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    } >"$work/config"
    [[ -z $share ]] || printf '%s' "$share" >"$work/share-path"
}

# Prints the last lines of the VM console and of qemu's own messages, for failure reports.
console_tail() {
    echo "--- last lines of the VM console ---"
    tail -n 40 "$work/console.log" 2>/dev/null | tr -d '\r' || true
    if [[ -s $work/qemu.log ]]; then
        echo "--- qemu messages ---"
        tail -n 10 "$work/qemu.log"
    fi
    echo "---"
}

# Boots the VM once and waits until it powers off, the time left runs out, or (with a deadline)
# stage 2 has not started by then; sets qemu_status (124 when the time ran out, "hung" when
# the boot did not reach stage 2 in time).
boot_vm_once() {
    local version=$1 initramfs=$2 seconds=$3 deadline=$4 waited=0
    local -a shares=(
        -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
        -virtfs "local,path=$work,mount_tag=work,security_model=none,multidevs=remap"
    )
    [[ -z $share ]] || shares+=(-virtfs "local,path=$share,mount_tag=share,security_model=none,multidevs=remap")
    rm -f "$work/booted" "$work/console.log"
    # A fixed, conservative CPU model: with -cpu max, HotSpot inside the VM picks up instructions
    # (AVX and later) that TCG emulates imperfectly and the JVM can die of SIGILL in JIT code.
    # mitigations=off: TCG does not execute speculatively, so the guest kernel's Meltdown and
    # Spectre defences for the Nehalem model protect nothing here, and they cost dearly: with page
    # table isolation every system call switches CR3, which empties TCG's software TLB, and the
    # process then refills it page by page (a soft-RoCE ping-pong took about three times longer).
    # In the background, so that the trap on TERM/INT can stop it at once.
    timeout --kill-after=5 "$seconds" qemu-system-x86_64 \
        -nodefaults -no-user-config -accel tcg -cpu Nehalem -smp 2 -m 2G -mem-prealloc \
        -kernel "/boot/vmlinuz-$version" -initrd "$initramfs" \
        -append "console=ttyS0 panic=-1 quiet mitigations=off" \
        -display none -monitor none -serial "file:$work/console.log" -nic none -no-reboot \
        "${shares[@]}" </dev/null >"$work/qemu.log" 2>&1 &
    qemu_pid=$!
    qemu_status=0
    if ((deadline > 0)); then
        while [[ ! -e $work/booted ]] && kill -0 "$qemu_pid" 2>/dev/null; do
            if ((waited >= deadline)); then
                kill "$qemu_pid" 2>/dev/null || true
                wait "$qemu_pid" 2>/dev/null || true
                qemu_pid=""
                qemu_status=hung
                return
            fi
            sleep 1
            waited=$((waited + 1))
        done
    fi
    wait "$qemu_pid" || qemu_status=$?
    qemu_pid=""
}

# Boots the VM and waits at most timeout_seconds in all; a boot that hangs before stage 2 is
# killed and tried once more in the time left; sets qemu_status (124 on timeout).
boot_vm() {
    local version=$1 initramfs=$2 started=$SECONDS left
    boot_vm_once "$version" "$initramfs" "$timeout_seconds" "$boot_deadline"
    if [[ $qemu_status == hung ]]; then
        echo "rxe-vm: the VM had not booted after $boot_deadline s; booting it again" >&2
        console_tail >&2
        left=$((timeout_seconds - (SECONDS - started)))
        ((left > 0)) || left=1
        boot_vm_once "$version" "$initramfs" "$left" 0
    fi
}

cleanup() {
    [[ -z $qemu_pid ]] || kill "$qemu_pid" 2>/dev/null || true
    [[ -z $work ]] || rm -rf "$work"
}

# --- main ----------------------------------------------------------------------------------------

parse_arguments() {
    local check=false
    while (($# > 0)); do
        case $1 in
            --timeout) timeout_seconds=${2:?--timeout needs SECONDS}; shift 2 ;;
            --share) share=${2:?--share needs DIR}; shift 2 ;;
            --module) extra_modules+=("${2:?--module needs NAME}"); shift 2 ;;
            --check) check=true; shift ;;
            --) shift; break ;;
            *) usage "unknown argument: $1" ;;
        esac
    done
    if $check; then
        local missing
        missing=$(missing_prerequisites)
        [[ -z $missing ]] || die "$missing"
        echo ok
        exit 0
    fi
    (($# > 0)) || usage "no COMMAND given"
    command_line="$*"
    [[ $timeout_seconds =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive whole number of seconds"
    if [[ -n $share ]]; then
        [[ -d $share ]] || die "--share $share is not a directory"
        share=$(cd "$share" && pwd -P)
    fi
}

main() {
    parse_arguments "$@"
    local missing version initramfs status
    missing=$(missing_prerequisites)
    [[ -z $missing ]] || die "$missing"
    version=$(find_kernel_version)
    initramfs=$(ensure_initramfs "$version")

    trap cleanup EXIT
    trap 'exit 143' TERM
    trap 'exit 130' INT
    work=$(mktemp -d "${TMPDIR:-/tmp}/rxe-vm.XXXXXX")
    write_run_files

    boot_vm "$version" "$initramfs"
    if [[ $qemu_status == "$EXIT_TIMEOUT" ]]; then
        cat "$work/output" 2>/dev/null || true
        echo "rxe-vm: the VM did not finish within $timeout_seconds s; killed it" >&2
        console_tail >&2
        exit "$EXIT_TIMEOUT"
    fi
    if [[ ! -f $work/status ]]; then
        if [[ -f $work/setup-error ]]; then
            echo "rxe-vm: soft-RoCE setup failed inside the VM: $(cat "$work/setup-error")" >&2
        else
            echo "rxe-vm: the VM stopped (qemu exit status $qemu_status) without running the command" >&2
        fi
        console_tail >&2
        exit "$EXIT_INFRA"
    fi
    cat "$work/output"
    status=$(cat "$work/status")
    exit "$status"
}

main "$@"
