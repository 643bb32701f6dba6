# SPDX-License-Identifier: GPL-2.0-or-later
# vm-build-module: mxt-emul
# vm-timeout: 300
# vm-kernels: none
# vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
# vm-image: --file tests/vm/modules/mxt-emul/guest.sh:/vm/mxt-emul.sh
# vm-image: --bin @B@/touchfw:/usr/local/bin/touchfw
# vm-image: --bin @B@/touchfw-agent:/usr/local/libexec/touchfw/touchfw-agent
# vm-image: --file @B@/61-touchfw.rules:/usr/lib/udev/rules.d/61-touchfw.rules
# vm-image: --dir @B@/firmware-db:/usr/local/share/touchfw/firmware-db
# vm-image: --file @B@/keys/build-demo.pub:/usr/local/etc/touchfw/keys/build-demo.pub
# vm-image: --dtb tests/vm/modules/mxt-emul/boards/qemu-mxt-emul-driver.dts:/vm/boards/driver.dtb
#
# "kmod-touchfw-soak" (busybox init), issue 15 item 19 in short, with the
# real atmel_mxt_ts and real bind uevents: SOAK_ROUNDS chips (mxt_emul
# loads, each a new boot for /run/touchfw, /var/lib/touchfw kept), each
# outdated (1.0.AA, through update_fw) or without an image (flashed in its
# bootloader with the driver bound), with a fault or interruption drawn
# from a seeded $RANDOM: none, a frame refused twice, power lost after a
# random frame, a slow chip, the run stopped with SIGTERM or the driver
# unbound a random time after the bind.  After each: the chip is in its
# application or its bootloader, nothing is staged, firmware_class.path is
# restored, the attempt count is within max_attempts, no blob failure was
# recorded (none of these is the chip rejecting the blob); then the
# driver's next bind (and `touchfw run --force` past the attempt limit)
# must bring the chip to 2.1.AB.  Prints its counts.
. /vm/mxt-emul.sh

SEED=19
ROUNDS=8
RANDOM=$SEED
LOADER=/vm/no-firmware-here
FAILED=/var/lib/touchfw/failed

vm_require "modules and debugfs" emul_setup
emul_touchfw_dirs
emul_udev_debug
emul_use_profile driver
printf %s "$LOADER" >/sys/module/firmware_class/parameters/path
vm_log "soak: seed $SEED, $ROUNDS chips"

failures() { cat "$FAILED"/* 2>/dev/null | sed -n 's/^failures=//p' | awk '{ n += $1 } END { print n + 0 }'; }
attempts() { sed -n 's/^count=//p' "$TOUCHFW_STATE/$EMUL_DEV.attempts" 2>/dev/null || echo 0; }
idle() { udevadm settle --timeout=60; vm_wait 90 "touchfw to finish" eval '! pidof touchfw-agent touchfw >/dev/null'; }
bound() { [ -n "$(emul_driver)" ] || echo "$EMUL_DEV" >"/sys/bus/i2c/drivers/$EMUL_DRIVER/bind"; }

n_ok=0 n_interrupted=0 n_recovered=0 n_forced=0 binds=0 bad=0
for i in $(seq 1 $ROUNDS); do
	f=$((RANDOM % 6))
	start=$((RANDOM % 2))
	k=$((RANDOM % 180 + 1))
	d=$((RANDOM % 25 + 5)) # tenths of a second after the bind
	case $start in 0) params="fw_version=1.0.AA" ;; 1) params="state=noimage" ;; esac
	case $f in
	0) what=none ;;
	1) what="frame $k refused twice"; params="$params crc_fail_frame=$k crc_fail_times=2" ;;
	2) what="power lost after frame $k"; params="$params power_loss_after=$k" ;;
	3) what="slow chip (x2)"; params="$params slow_factor=2" ;;
	4) what="SIGTERM at +0.$d s" ;;
	5) what="unbind at +0.$d s" ;;
	esac
	[ "$d" -ge 10 ] && what=$(echo "$what" | sed "s/+0\.$d/+$((d / 10)).$((d % 10))/")
	rm -rf "${TOUCHFW_STATE:?}"/* # a new boot
	f0=$(failures)
	emul_monitor_start
	vm_require "round $i: mxt_emul loads ($params)" emul_load $params
	case $f in
	4) sleep "$((d / 10)).$((d % 10))"; kill -TERM $(pidof touchfw-agent) 2>/dev/null ;;
	5) sleep "$((d / 10)).$((d % 10))"; echo "$EMUL_DEV" >"/sys/bus/i2c/drivers/$EMUL_DRIVER/unbind" ;;
	esac
	idle
	r1=$(emul_result_field result)
	bound
	idle
	mode=$(emul_state mode)
	staged=$(ls "$TOUCHFW_STATE/firmware" 2>/dev/null)
	a=$(attempts)
	ok=1
	case $mode in app | bootloader) ;; *) ok=0 ;; esac
	[ -z "$staged" ] || ok=0
	[ "$(cat /sys/module/firmware_class/parameters/path)" = "$LOADER" ] || ok=0
	[ "$a" -le 3 ] || ok=0
	[ "$(failures)" = "$f0" ] || ok=0
	# Recoverable: the driver's next bind, then --force past the limit.
	if [ "$mode" != app ] || [ "$(emul_state fw_version)" != 2.1.AB ]; then
		emul_rebind
		idle
		if [ "$(emul_state mode)" != app ] || [ "$(emul_state fw_version)" != 2.1.AB ]; then
			"$TOUCHFW" run --force "$EMUL_DEV" >/dev/null 2>&1
			n_forced=$((n_forced + 1))
			idle
		fi
		if [ "$(emul_state mode)" = app ] && [ "$(emul_state fw_version)" = 2.1.AB ]; then
			n_recovered=$((n_recovered + 1))
		else
			ok=0
		fi
	fi
	[ "$r1" = ok ] && n_ok=$((n_ok + 1))
	[ "$r1" = interrupted ] || [ "$f" -ge 4 ] || [ "$f" = 2 ] && n_interrupted=$((n_interrupted + 1))
	emul_monitor_stop
	binds=$((binds + $(emul_bind_count)))
	vm_log "soak: round $i: $params, $what: first result ${r1:-none}, mode $mode, attempts $a, failures $(failures), now $(emul_state mode) $(emul_state fw_version)"
	vm_check "round $i ($what): chip app or bootloader, nothing staged, loader path restored, attempts <= 3, no blob failure, recovered to 2.1.AB" test "$ok" = 1
	[ "$ok" = 1 ] || bad=$((bad + 1))
	vm_require "round $i: mxt_emul unloads" eval 'idle && emul_unload'
done
vm_log "soak: seed $SEED: $ROUNDS chips, $binds binds, $n_ok first runs ok, $n_interrupted interrupted, $n_recovered recovered by the next bind or --force ($n_forced forced), $bad rounds broke an invariant"
vm_figure soak_binds "$binds"
vm_check "no oops, no warning (taint D, W; kernel log)" vm_no_oops
