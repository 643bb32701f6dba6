// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The maXTouch update path where its drivers differ (family/update-path.h):
 * the configuration file.  atmel_mxt_ts applies maxtouch.cfg at every
 * probe (mxt_probe -> request_firmware_nowait), so a configuration is
 * staged and the driver rebound.  mchp_spi_ts requests it only when
 * update_cfg is written (mxt_update_cfg_store) and registers no input
 * device again after it: stage, write update_cfg and follow the driver
 * until it reports the configuration's CRC, then rebind.
 */
#include "mxt.h"

#include <errno.h>
#include <string.h>

#include "exitcode.h"
#include "family/update-path.h"

#define MXT_CFG_FILE "maxtouch.cfg"
#define MXT_CFG_ATTR "update_cfg"
#define MXT_CFG_ATTR_VALUE "1"

/* mchp_spi_ts requests maxtouch.cfg only in mxt_update_cfg_store(). */
static const char *const cfg_through_update_cfg[] = { "mchp_spi_ts", NULL };

static bool cfg_through_attr(const char *driver)
{
	for (const char *const *d = cfg_through_update_cfg; *d; d++)
		if (!strcmp(*d, driver))
			return true;
	return false;
}

int mxt_cfg_file_name(char *buf, size_t size, struct tf_err *err)
{
	if (tf_snprintf(buf, size, "%s", MXT_CFG_FILE))
		return tf_err_set(err, ENAMETOOLONG, "file name %s too long", MXT_CFG_FILE);
	return 0;
}

static int mxt_config_through_driver(const struct tf_flow_services *sv, struct tf_update *u,
				     bool check_only)
{
	char name[TF_FW_NAME_MAX];
	struct tf_err err = { 0 };

	if (mxt_cfg_file_name(name, sizeof(name), &err) < 0)
		return sv->finish(u, err.code == EOPNOTSUPP ? TF_EXIT_UNSUPPORTED : TF_EXIT_IO,
				  "%s", err.msg);
	if (check_only)
		return 0;
	if (cfg_through_attr(u->c->dev.driver))
		return sv->config_write_attr_and_follow(u, name, MXT_CFG_ATTR,
							MXT_CFG_ATTR_VALUE);
	return sv->config_stage_and_rebind(u, name);
}

static bool mxt_config_at_probe(const struct tf_ctx *c)
{
	return !cfg_through_attr(c->dev.driver);
}

const struct tf_update_path mxt_update_path = {
	.config_through_driver = mxt_config_through_driver,
	.config_at_probe = mxt_config_at_probe,
};
