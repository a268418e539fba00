#!/bin/bash
# Runs tests of the AVX-512 code on a machine without AVX-512: a small Linux
# boots under Bochs's emulated Skylake-X CPU (AVX-512 F, DQ, BW, VL) and runs
# the test binaries there, in the avx512 tier. Bochs computes floating point
# in software: this checks values, never speed.
#
#   tools/emu512/run.sh [test regexp]     (default: the float32 GEMM's tests)
#
# Debian or Ubuntu, as root (it installs Bochs, GRUB's ISO tools and the
# Linux 6.1 sources the first time); the kernel is built once (about ten
# minutes on two cores) and kept in $ODDL_EMU_DIR (default
# ~/.cache/oddl-emu512). Exits non-zero when a test fails or the run does
# not finish.
set -euo pipefail

run=${1:-'TestSgemm'}
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${ODDL_EMU_DIR:-$HOME/.cache/oddl-emu512}
mkdir -p "$dir"

need=()
for p in bochs bochsbios vgabios grub-pc-bin grub-common xorriso mtools cpio \
	linux-source-6.1 flex bison bc libelf-dev libssl-dev make gcc; do
	dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if ((${#need[@]})); then
	apt-get install -y -q "${need[@]}" >"$dir/apt.log"
fi

# The kernel: the smallest configuration with a serial console, an initial
# RAM file system and what the Go runtime asks of the system. Bochs 2.7
# reports a size of the AVX-512 state that Linux's consistency check
# rejects (it then turns AVX off): the check is relaxed to accept a smaller
# one. Its compacted state format (XSAVEC, XSAVES) fails to restore, so the
# kernel is told not to use it (clearcpuid below).
bz="$dir/bzImage"
if [[ ! -s $bz ]]; then
	src="$dir/linux"
	rm -rf "$src" && mkdir -p "$src"
	tar xJf /usr/src/linux-source-6.1.tar.xz -C "$src" --strip-components=1
	(cd "$src" && patch -p1 -s) <<'PATCH'
--- a/arch/x86/kernel/fpu/xstate.c
+++ b/arch/x86/kernel/fpu/xstate.c
@@ -603,9 +603,9 @@
 		}
 	}
 	size = xstate_calculate_size(fpu_kernel_cfg.max_features, compacted);
-	XSTATE_WARN_ON(size != kernel_size,
-		       "size %u != kernel_size %u\n", size, kernel_size);
-	return size == kernel_size;
+	if (size != kernel_size)
+		pr_info("x86/fpu: emulator: size %u != kernel_size %u, accepted\n", size, kernel_size);
+	return size <= kernel_size;
 }
 
 /*
PATCH
	(
		cd "$src"
		make tinyconfig >/dev/null
		for o in 64BIT PRINTK TTY SERIAL_8250 SERIAL_8250_CONSOLE BLK_DEV_INITRD RD_GZIP \
			DEVTMPFS PROC_FS SYSFS BINFMT_ELF BINFMT_SCRIPT FUTEX EPOLL SIGNALFD TIMERFD \
			EVENTFD SHMEM AIO MULTIUSER POSIX_TIMERS FILE_LOCKING TMPFS X86_X2APIC SMP \
			X86_LOCAL_APIC HIGH_RES_TIMERS ADVISE_SYSCALLS MEMBARRIER RSEQ FHANDLE BUG \
			ELF_CORE HPET_TIMER ACPI PCI; do
			./scripts/config --enable "$o"
		done
		./scripts/config --disable X86_INTEL_MEMORY_PROTECTION_KEYS
		make olddefconfig >/dev/null
		make -j"$(nproc)" bzImage >"$dir/kernel-build.log" 2>&1
	)
	cp "$src/arch/x86/boot/bzImage" "$bz"
	rm -rf "$src"
fi

# The system: the init program, the test binaries, the commands.
work="$dir/run"
rm -rf "$work" && mkdir -p "$work/root/tmp" "$work/iso/boot/grub"
cd "$root"
CGO_ENABLED=0 go build -o "$work/root/init" ./tools/emu512/init
CGO_ENABLED=0 go test -c -o "$work/root/kernel.test" ./internal/kernel
cp internal/kernel/*.s "$work/root/" # TestAssemblyVEXOnly reads them
CGO_ENABLED=0 go build -o "$work/root/oddl" ./cmd/oddl
cat >"$work/root/cmds" <<CMDS
/oddl env
/kernel.test -test.short -test.run $run -test.v
CMDS
(cd "$work/root" && find . | cpio -o -H newc 2>/dev/null | gzip -1 >"$work/iso/boot/initrd.gz")
cp "$bz" "$work/iso/boot/vmlinuz"
cat >"$work/iso/boot/grub/grub.cfg" <<'GRUB'
set timeout=0
serial --unit=0 --speed=115200
terminal_output serial
menuentry "emu512" {
  linux /boot/vmlinuz console=ttyS0,115200 nosmp noapic nolapic_timer mitigations=off nokaslr random.trust_cpu=on nopku noxsaves clearcpuid=321,323 tsc=reliable clocksource=tsc rdinit=/init
  initrd /boot/initrd.gz
}
GRUB
grub-mkrescue -o "$work/boot.iso" "$work/iso" >/dev/null 2>&1
cat >"$work/bochsrc" <<BOCHS
megs: 512
cpu: model=corei7_skylake_x, count=1, ips=400000000
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=/usr/share/vgabios/vgabios.bin
ata0-master: type=cdrom, path=$work/boot.iso, status=inserted
boot: cdrom
com1: enabled=1, mode=file, dev=$work/serial.txt
display_library: rfb, options="timeout=0"
log: $work/bochs.log
panic: action=fatal
error: action=report
info: action=ignore
clock: sync=none
BOCHS
echo c >"$work/debugger.rc" # Debian's Bochs starts in its debugger: continue
echo "emu512: booting under Bochs (Skylake-X); the output goes to $work/serial.txt"
timeout "${ODDL_EMU_TIMEOUT:-3600}" bochs -q -f "$work/bochsrc" -rc "$work/debugger.rc" >"$work/bochs.out" 2>&1 || true

out="$work/serial.txt"
grep -E '^(kernel:|--- |=== RUN:|=== EXIT:|PASS|FAIL|ok)' "$out" || true
if ! grep -q '^=== ALL DONE' "$out"; then
	echo "emu512: the run did not finish (see $out)" >&2
	exit 1
fi
if ! grep -q '^kernel: *avx512' "$out"; then
	echo "emu512: the avx512 tier did not run (see $out)" >&2
	exit 1
fi
if grep -q '^=== EXIT: .' "$out" && grep '^=== EXIT:' "$out" | grep -qv '<nil>'; then
	echo "emu512: a command failed (see $out)" >&2
	exit 1
fi
echo "emu512: passed"
