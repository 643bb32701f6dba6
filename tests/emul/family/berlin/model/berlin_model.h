/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A Goodix "Berlin" touch controller behind spi: Berlin-D (GT9916) and
 * Berlin-A (GT9897), modelled from what the host side of the protocol
 * needs and checks -- the kernel's goodix_berlin_core.c / goodix_berlin_spi.c
 * and Goodix's user-space updater (goodix/fwupdate_for_berlin_linux,
 * fwupdate.c) -- not from touchfw's agent.  Freestanding: see em_types.h.
 *
 * Bus (spi mode 0): one transaction per chip-select frame.
 *   read   F1, address BE32, dummy bytes (3 on Berlin-D, 4 on Berlin-A),
 *          then the data from the address on, one byte per clock;
 *   write  F0, address BE32, then the data.
 *   A frame starting with another byte is ignored.  MISO is 0xFF outside
 *   the data of a read.  Side effects of a write (reset, CPU hold, flash
 *   command) happen when the frame ends.
 *
 * Address space, as the sources use it (Berlin-D; Berlin-A in brackets):
 *   0x0002       CPU hold: 01 00 stops the CPU (fwupdate HOLD_CPU_REG_W)
 *   0x2000       4 bytes that change on every read while the CPU runs and
 *                stay still while it is held (fwupdate reads them 3 times)
 *   0xD808       soft reset: 0xFE (fwupdate chip_reset)
 *   0xD040 [0xCC54] watchdog: nonzero after power-up, 0x00 disables it
 *   0xD804 [0xD807] misc clock control (stored, not judged)
 *   0x10000      boot option / device-check scratch, 8 bytes: the kernel
 *                writes 8 x 0xAA and reads them back; 8 x 0x55 makes the
 *                next reset start the program in ISP RAM (fwupdate)
 *   0x10014 [0x1000C] version, 28 bytes: rom_pid[6] rom_vid[3] res
 *                patch_pid[8] patch_vid[4] res sensor_id res[2], then a
 *                LE16 sum of the 26 bytes before it
 *   0x10070 [0x10068] chip info: LE16 length, version part (config id at
 *                +6, which fwupdate reads at 0x10076), features, the
 *                parameter lists and the misc part with touch_data_addr,
 *                then a LE16 byte sum (goodix_berlin_get_ic_info)
 *   0x10308      touch data (touch_data_addr of the chip info)
 *   0x12400 [0x10400] flash command, 16 bytes: status, ack, len (11), cmd
 *                (0xBB write, 0xAA read), fw_type, fw_len LE16, fw_addr
 *                LE32, LE16 byte sum of bytes 2..10 (goodix_flash_package)
 *   0x12410 [0x10410] ISP buffer, up to 4096 data bytes + LE32 sum of the
 *                data's LE16 words (gdix_append_checksum, U16 mode)
 *   0x23800 [0x18400] ISP RAM: where the ISP program (subsystem 0 of a
 *                firmware file) is loaded
 *   0x3E000      (flash) the 4 KiB config (subsystem type 4); config id LE32
 *                at its byte 30 (fwupdate CONFIG_ID_OFFSET)
 *
 * Modes.  After power-up or a reset the ROM boots: with the boot option at
 * 8 x 0x55 and a valid ISP program in ISP RAM it clears the option and runs
 * the ISP (patch_pid of the version then ends in "ISP"); else with a valid
 * application in flash it runs that (APP); else it stays in the ROM, which
 * reports patch_pid "NOCODE" (the empty chip of goodix_fw_version_compare).
 * Only the application fills the chip info and reports touches; in ROM and
 * ISP the chip info reads as zeros, so goodix_berlin_get_ic_info fails and
 * the kernel does not bind an empty chip.
 *
 * ISP flash commands (goodix_send_flash_cmd): 0.2 ms after the command
 * frame the ack byte becomes 0xEE (command sum good) or 0x33 (bad); for a
 * write the packet in the ISP buffer is then checked: its LE32 sum must be
 * the u32 sum of its data's LE16 words, computed as fwupdate does, else
 * status 0x33 (checksum fail; fwupdate retries the packet); a range beyond
 * the flash, or a length over 4096 + 4, is status 0x44; else status 0x22
 * while the flash is written (BERLIN_PROG_NS_PER_KIB), then 0xEE.  A read
 * command copies flash to the ISP buffer.  The flash keeps its content
 * over resets and power loss.
 *
 * Decisions where the sources are silent (the vendor's image and ROM are
 * not public), marked "model:" in berlin_model.c:
 *   - the image layout: an application image starts at flash 0 with a
 *     32-byte descriptor ("GBFW", pid[8], vid[4], length LE32, LE32 sum of
 *     the LE16 words after the descriptor); the ROM boots it only when that
 *     holds.  ISP programs carry the same descriptor with magic "GBIS".
 *     berlin_model_make_app / _make_isp build them (fwgen uses those);
 *   - while the application runs with the CPU not held, ISP RAM is its
 *     working memory: host writes there are lost (why fwupdate holds the
 *     CPU first);
 *   - an enabled watchdog resets a running ISP after BERLIN_WDT_NS (why
 *     fwupdate disables it);
 *   - the bus answers BERLIN_SPI_READY_NS after a reset, the firmware has
 *     filled the version BERLIN_BOOT_NS after it (a CPU held before then
 *     boots when it is let go).
 */
#ifndef BERLIN_MODEL_H
#define BERLIN_MODEL_H

#include "em_spi.h"

#define BERLIN_FLASH_SIZE 0x40000u /* 256 KiB */
#define BERLIN_MEM_SIZE 0x30000u   /* registers and RAM, 0x0 .. 0x2FFFF */
#define BERLIN_CONFIG_ADDR 0x3E000u
#define BERLIN_CONFIG_SIZE 4096u
#define BERLIN_CONFIG_ID_OFFSET 30
#define BERLIN_APP_MAX BERLIN_CONFIG_ADDR /* the application ends below the config */
#define BERLIN_ISP_MAX 0x8000u		  /* 32 KiB of ISP RAM */
#define BERLIN_ISP_BUFFER_MAX 4096u
#define BERLIN_DESC_SIZE 32
#define BERLIN_VERSION_LEN 28
#define BERLIN_TOUCH_DATA_ADDR 0x10308u
#define BERLIN_BOOT_OPTION_ADDR 0x10000u
#define BERLIN_HOLD_CPU_W 0x0002u
#define BERLIN_HOLD_CPU_R 0x2000u
#define BERLIN_SOFT_RESET 0xD808u

#define BERLIN_SPI_READ 0xF1
#define BERLIN_SPI_WRITE 0xF0

#define BERLIN_CMD_WRITE 0xBB
#define BERLIN_CMD_READ 0xAA
#define BERLIN_ACK_PASS 0xEE
#define BERLIN_ACK_FAIL 0x33
#define BERLIN_ST_CHK_PASS 0x22
#define BERLIN_ST_CHK_FAIL 0x33
#define BERLIN_ST_ADDR_ERR 0x44
#define BERLIN_ST_WRITE_ERR 0x55
#define BERLIN_ST_WRITE_OK 0xEE

#define BERLIN_SPI_READY_NS (2 * EM_NSEC_PER_MSEC)
#define BERLIN_BOOT_NS (20 * EM_NSEC_PER_MSEC)
#define BERLIN_ACK_NS (200 * EM_NSEC_PER_USEC)
#define BERLIN_PROG_NS_PER_KIB (2500 * EM_NSEC_PER_USEC)
#define BERLIN_WDT_NS (1000 * EM_NSEC_PER_MSEC)
#define BERLIN_POWER_GLITCH_NS (50 * EM_NSEC_PER_MSEC)

enum berlin_variant {
	BERLIN_D, /* GT9916 */
	BERLIN_A, /* GT9897 */
};

/* Where a variant keeps things (fwupdate's update_info, the kernel's ic data). */
struct berlin_layout {
	em_u32 dummy; /* dummy bytes of a read */
	em_u32 version_addr, ic_info_addr;
	em_u32 isp_ram, flash_cmd, isp_buffer;
	em_u32 watchdog, misctl;
	const char *rom_pid; /* 6 characters */
	const char *isp_pid; /* what fwgen's ISP program reports */
};

enum berlin_mode {
	BERLIN_OFF, /* unpowered (brown-out) */
	BERLIN_ROM, /* no valid application: "NOCODE" */
	BERLIN_ISP, /* the ISP program from RAM */
	BERLIN_APP, /* the application from flash */
};

struct berlin_faults {
	em_u32 ack_fail_at;	   /* the Nth flash command's ack is 0x33 */
	em_u32 checksum_fail_at;   /* the Nth write command reports status 0x33 */
	bool checksum_fail_always; /* every write command reports 0x33 */
	em_u32 write_error_at;	   /* the Nth write command reports status 0x55 */
	em_u32 power_loss_at;	   /* power drops halfway through the Nth write */
	bool bad_version;	   /* the application's version sum is off by one */
};

struct berlin_stats {
	em_u32 reads, writes, frames_ignored;
	em_u32 resets, boots_rom, boots_isp, boots_app;
	em_u32 flash_cmds, flash_writes, checksum_fails, power_losses, watchdog_resets;
	em_u32 lost_writes; /* bytes written to ISP RAM while the application ran */
};

struct berlin_model {
	enum berlin_variant variant;
	struct berlin_layout lay;
	struct berlin_faults faults;
	struct berlin_stats stats;
	enum berlin_mode mode;
	em_u64 now;
	em_u64 ready_at; /* the bus answers from then on */
	em_u64 boot_at;	 /* the firmware fills its blocks then (EM_NEVER: done) */
	em_u64 ack_at, done_at, restore_at, wdt_at;
	bool cpu_held;
	bool boot_frozen; /* the CPU was held before the firmware's boot ended */
	em_u32 cpu_ticks;
	/* the flash command under way */
	bool cmd_ok;
	em_u8 cmd_status;
	/* the current frame */
	bool selected;
	em_u32 pos;
	em_u8 op;
	em_u32 addr;
	em_u32 wlo, whi; /* range written in this frame */
	bool wrote;
	/* application descriptor found at the last boot */
	em_u8 app_pid[8], app_vid[4];
	bool irq;
	em_u8 mem[BERLIN_MEM_SIZE];
	em_u8 flash[BERLIN_FLASH_SIZE];
};

/* Power up with @flash (BERLIN_FLASH_SIZE bytes, or NULL: erased) at @now. */
void berlin_model_init(struct berlin_model *m, enum berlin_variant v, const em_u8 *flash,
		       em_u64 now);
extern const struct em_spi_ops berlin_model_ops;
const struct berlin_layout *berlin_model_layout(enum berlin_variant v);

/* The u32 sum of the LE16 words of @len bytes (fwupdate's U16 checksum). */
em_u32 berlin_model_sum16(const em_u8 *p, em_u32 len);
/* The u16 byte sum (the version's and chip info's checksum). */
em_u16 berlin_model_sum8(const em_u8 *p, em_u32 len);

/* Build an application image of @len bytes (even, 32..BERLIN_APP_MAX)
 * with @pid (up to 8 characters) and @vid into @out; returns @len or 0. */
em_u32 berlin_model_make_app(em_u8 *out, em_u32 len, const char *pid, const em_u8 vid[4],
			     em_u32 seed);
/* An ISP program of @len bytes (even, 32..BERLIN_ISP_MAX) reporting the
 * variant's isp_pid; returns @len or 0. */
em_u32 berlin_model_make_isp(em_u8 *out, em_u32 len, enum berlin_variant v);
/* A 4 KiB config with @config_id at byte 30 and @version at 34. */
void berlin_model_make_config(em_u8 *out, em_u32 config_id, em_u8 version);
/* Is there a valid descriptor (magic "GBFW" or "GBIS") at @p? */
bool berlin_model_desc_ok(const em_u8 *p, em_u32 room, const char *magic, em_u8 pid[8],
			  em_u8 vid[4]);

/* Host-side helpers for tests and boards. */
enum berlin_mode berlin_model_mode(const struct berlin_model *m);
/* A touch frame (APP only): @n points of id, x, y; false otherwise. */
bool berlin_model_touch(struct berlin_model *m, em_u8 n, const em_u16 (*pts)[3]);

#endif /* BERLIN_MODEL_H */
