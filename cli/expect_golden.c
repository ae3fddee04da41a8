/*
 * cli/expect_golden.c - golden-trace expectations (filled in with sim/csvtrace.h).
 */
#include "cli/expect.h"
#include "sim/scenario.h"

bool expect_check_golden(const cJSON *item, const char *path, const char *golden_path,
			 const char *trace_path, GArray *out, GError **err)
{
	(void)item;
	(void)golden_path;
	(void)trace_path;
	(void)out;
	g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
		    "%s: golden traces are not supported yet", path);
	return false;
}
