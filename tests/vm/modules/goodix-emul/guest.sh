# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest helpers for the scenarios that use goodix_emul (tests/vm/scenarios/
# kmod-goodix-*.sh; busybox ash, sourced after /vm/lib.sh).  The image
# carries this file as /vm/goodix-emul.sh, the shared helpers as
# /vm/emul.sh and the evdev tool as /usr/bin/evdev-query:
#   # vm-image: --file tests/vm/modules/emul-core/guest.sh:/vm/emul.sh
#   # vm-image: --file tests/vm/modules/goodix-emul/guest.sh:/vm/goodix-emul.sh
#   # vm-image: --bin @B@/tests/vm/evdev-query:/usr/bin/evdev-query
# On top of /vm/emul.sh: the chip's config over i2c-dev, a config file
# made from it as a vendor tool would (goodix.c's 8-bit checksum rule),
# axis ranges and events of the driver's input device.
EMUL_MODULE=goodix_emul
EMUL_DRIVER_MODULE=goodix_ts
EMUL_DRIVER=Goodix-TS
EMUL_STATE=/sys/kernel/debug/goodix-emul/state
EMUL_PROFILE=qemu-goodix-emul
. /vm/emul.sh

GDX_TOUCH=/sys/kernel/debug/goodix-emul/touch
ABS_MT_POSITION_X=53
ABS_MT_POSITION_Y=54

# The client's address as i2c-dev wants it (0x5d), from its name (0-005d).
gdx_addr() { echo "0x${EMUL_DEV##*-00}"; }

# gdx_abs_max CODE: the maximum of an absolute axis of the input device.
gdx_abs_max() {
	evdev-query "/dev/input/$(emul_event)" abs "$1" | cut -d' ' -f2
}

# gdx_i2c_read ADDR REG LEN: LEN bytes from register REG (16-bit) of the
# chip at ADDR through i2c-dev, as "0x.. 0x.." (the driver must be unbound).
gdx_i2c_read() {
	/usr/sbin/i2ctransfer -y "$EMUL_BUS" w2@"$1" $(($2 >> 8)) $(($2 & 255)) r"$3"
}

# gdx_make_config VERSION XRES YRES < BYTES > HEX: a GT9xx config from the
# bytes of another ("0x.." words), with version byte, X and Y resolution
# (LE16 at 1..4) replaced, the 8-bit checksum at len-2 (two's complement of
# the sum of bytes 0..len-3) recomputed and "config fresh" (len-1) set:
# goodix_check_cfg_8's rule.  Prints plain hex for xxd -r -p.
gdx_make_config() {
	tr ' ' '\n' | awk -v ver="$1" -v x="$2" -v y="$3" '
		/^0x/ { b[n++] = strtonum_hex(substr($0, 3)) }
		function strtonum_hex(h,   i, v, c) {
			v = 0
			for (i = 1; i <= length(h); i++) {
				c = index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
				v = v * 16 + c
			}
			return v
		}
		END {
			if (n < 186) exit 1
			b[0] = ver; b[1] = x % 256; b[2] = int(x / 256)
			b[3] = y % 256; b[4] = int(y / 256)
			s = 0
			for (i = 0; i < n - 2; i++) s += b[i]
			b[n - 2] = (256 - s % 256) % 256
			b[n - 1] = 1
			for (i = 0; i < n; i++) printf "%02x", b[i]
			printf "\n"
		}'
}

# gdx_touch LINES: the chip reports one frame ("ID X Y W" per finger, or "up").
gdx_touch() { printf '%s\n' "$1" >"$GDX_TOUCH"; }

# gdx_events_start COUNT OUT: read COUNT events of the input device into
# OUT in the background (gdx_events_pid), returning once it is open.
gdx_events_start() {
	rm -f /run/gdx-ready
	evdev-query "/dev/input/$(emul_event)" events "$1" 5000 /run/gdx-ready >"$2" 2>&1 &
	gdx_events_pid=$!
	vm_wait 5 "evdev-query open" test -e /run/gdx-ready
}

gdx_events_wait() {
	vm_wait 10 "evdev-query done" eval '! kill -0 $gdx_events_pid 2>/dev/null'
	wait "$gdx_events_pid" 2>/dev/null
}
