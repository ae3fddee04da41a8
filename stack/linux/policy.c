// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/linux/policy.c - each real Linux driver compiled into this build becomes the
 * policy "linux/<file>". Its parameters are the driver's module parameters (typed and
 * documented from its module_param / MODULE_PARM_DESC lines) plus the layer's "of",
 * "userspace" and "dyndbg" (docs/linux-drivers.md, section 3). Probing the policy
 * loads the module: parameters set, init run (the driver binds to the board's device
 * and probes; a failed probe is the policy's error); removing it runs the module's exit.
 *
 * A driver file's static variables exist once per process as they exist once per
 * kernel: every probe starts them from their first state (statics_reset), and a probe
 * while another run has the driver loaded is refused with -EBUSY (docs/linux-drivers.md
 * section 5; sweep variants run in worker processes, run/sweep_runner.c).
 */
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <linux/kernel_types.h>
#include <linux/of.h>
#include <linux/power_supply.h>
#include <linux/usb/phy.h>
#include <linux/workqueue.h>
#include <chargesim/kernel.h>
#include <chargesim/linux_module.h>
#include <chargesim/policy.h>

#define KPARAM_SLOT 8   /* bytes per module parameter in the policy's parameter struct */

/* User space's one write after each plug. */
struct lx_userspace {
	char *path;            /* class/power_supply/<name>/<attribute>; NULL: none */
	char *value;
	sim_time_t after_plug;
};

/* The parameter struct's fixed part, after the module parameters' slots. */
struct lx_tail {
	char *of;
	struct lx_userspace us;
	bool dyndbg;
};

/* A board's defaults for a driver: its kernel command line and user space. */
struct lx_board_defaults {
	const char *file;
	const char *cmdline;   /* "param=value ..." */
	struct {
		const char *path, *value;
		sim_time_t after_plug;
	} us;
	const char *why;
};

/*
 * The board each driver is simulated on by default. twl4030_charger: the GTA04 /
 * Nokia N900 setting the twl4030 port (stack/policies/twl4030.c) models - allow_usb=1
 * on the kernel command line, and user space raising the USB input limit to the
 * driver's 1.7 A cap through its input_current_limit file 1 s after each plug.
 */
static const struct lx_board_defaults board_defaults[] = {
	{ "twl4030_charger", "allow_usb=1",
	  { "class/power_supply/twl4030_usb/input_current_limit", "1700000", 1 * SIM_S },
	  "as the twl4030 port's defaults" },
};

struct lx_policy {
	struct cs_policy_desc desc;
	const struct cs_linux_module *mod;
	const struct cs_modinfo **kparams;
	int n_kparams;
	size_t tail_off;
	const struct lx_board_defaults *defaults;
	int loaded;               /* a run has it loaded, from probe to remove (atomic) */
	const struct cs_linux_statics *statics;
	char *first_data;         /* its initialised statics before its first run */
	const struct cs_kfile *const *files;   /* what it was compiled from */
};

struct lx_run {
	struct lx_policy *lp;
	struct cs_board *board;
	const void *params;
	struct notifier_block phy_nb;
	struct delayed_work us_work;
	bool loaded;
};

static const struct cs_policy_desc **all_policies;
static struct lx_policy *lx_policies;
static int n_lx_policies;
static int any_loaded;   /* cs_linux_driver_loaded() (atomic) */

/* A module record of this build of the driver (not of its KERNEL_EDITED twin). */
static bool same_module(const struct cs_modinfo *mi, const struct cs_linux_module *mod)
{
	return strcmp(mi->modname, mod->modname) == 0 && g_strcmp0(mi->variant, mod->variant) == 0;
}

static const struct lx_tail *tail_of(const struct lx_policy *lp, const void *params)
{
	return (const struct lx_tail *)(const void *)((const char *)params + lp->tail_off);
}

/* ---- module parameters <-> policy parameters ---- */

static void kparam_range(enum cs_kparam_type t, double *lo, double *hi)
{
	switch (t) {
	case CS_KPARAM_byte: *lo = 0; *hi = 255; break;
	case CS_KPARAM_short: *lo = -32768; *hi = 32767; break;
	case CS_KPARAM_ushort: *lo = 0; *hi = 65535; break;
	case CS_KPARAM_uint:
	case CS_KPARAM_ulong:
	case CS_KPARAM_hexint: *lo = 0; *hi = 1e9; break;
	default: *lo = -1e9; *hi = 1e9; break;
	}
}

/* The variable's value as the slot holds it (bool, int or char *). */
static void kparam_to_slot(const struct cs_modinfo *mi, const void *var, void *slot)
{
	switch (mi->type) {
	case CS_KPARAM_bool: *(bool *)slot = *(const bool *)var; break;
	case CS_KPARAM_invbool: *(bool *)slot = !*(const bool *)var; break;
	case CS_KPARAM_byte: *(int *)slot = *(const unsigned char *)var; break;
	case CS_KPARAM_short: *(int *)slot = *(const short *)var; break;
	case CS_KPARAM_ushort: *(int *)slot = *(const unsigned short *)var; break;
	case CS_KPARAM_int: *(int *)slot = *(const int *)var; break;
	case CS_KPARAM_uint:
	case CS_KPARAM_hexint: *(int *)slot = (int)*(const unsigned int *)var; break;
	case CS_KPARAM_long: *(int *)slot = (int)*(const long *)var; break;
	case CS_KPARAM_ulong: *(int *)slot = (int)*(const unsigned long *)var; break;
	case CS_KPARAM_charp: {
		const char *s = *(char *const *)var;

		*(char **)slot = s ? g_strdup(s) : NULL;
		break;
	}
	}
}

static void kparam_from_slot(const struct cs_modinfo *mi, const void *slot)
{
	void *var = mi->arg;

	switch (mi->type) {
	case CS_KPARAM_bool: *(bool *)var = *(const bool *)slot; break;
	case CS_KPARAM_invbool: *(bool *)var = !*(const bool *)slot; break;
	case CS_KPARAM_byte: *(unsigned char *)var = (unsigned char)*(const int *)slot; break;
	case CS_KPARAM_short: *(short *)var = (short)*(const int *)slot; break;
	case CS_KPARAM_ushort: *(unsigned short *)var = (unsigned short)*(const int *)slot; break;
	case CS_KPARAM_int: *(int *)var = *(const int *)slot; break;
	case CS_KPARAM_uint:
	case CS_KPARAM_hexint: *(unsigned int *)var = (unsigned int)*(const int *)slot; break;
	case CS_KPARAM_long: *(long *)var = *(const int *)slot; break;
	case CS_KPARAM_ulong: *(unsigned long *)var = (unsigned long)*(const int *)slot; break;
	case CS_KPARAM_charp: *(char **)var = *(char *const *)slot; break;
	}
}

/* Apply "name=value" words to the defaults of the parameter struct. */
static void apply_cmdline(const struct lx_policy *lp, const char *cmdline, void *params)
{
	g_auto(GStrv) words = g_strsplit(cmdline, " ", -1);

	for (int w = 0; words[w]; w++) {
		char *eq = strchr(words[w], '=');

		if (!eq)
			continue;
		*eq = '\0';
		for (int i = 0; i < lp->n_kparams; i++) {
			void *slot = (char *)params + (size_t)i * KPARAM_SLOT;
			const struct cs_modinfo *mi = lp->kparams[i];

			if (strcmp(mi->name, words[w]) != 0)
				continue;
			if (mi->type == CS_KPARAM_bool || mi->type == CS_KPARAM_invbool) {
				bool v = strchr("1yYtT", eq[1]) != NULL;

				*(bool *)slot = mi->type == CS_KPARAM_bool ? v : !v;
			} else if (mi->type == CS_KPARAM_charp) {
				g_free(*(char **)slot);
				*(char **)slot = g_strdup(eq + 1);
			} else {
				*(int *)slot = atoi(eq + 1);
			}
		}
	}
}

static struct lx_policy *policy_of_desc(const struct cs_policy_desc *d)
{
	return container_of(d, struct lx_policy, desc);
}

/* ---- the userspace write ---- */

static void us_work(struct work_struct *work)
{
	struct lx_run *r = container_of(to_delayed_work(work), struct lx_run, us_work);
	const struct lx_userspace *us = &tail_of(r->lp, r->params)->us;
	g_autofree char *msg = NULL;

	cs_stack_event("userspace_write", "path", us->path);
	if (cs_sysfs_write(us->path, us->value ? us->value : "", &msg) < 0)
		cs_printk("warn", "userspace", "%s", msg);
}

static int us_phy_notify(struct notifier_block *nb, unsigned long event, void *data)
{
	struct lx_run *r = container_of(nb, struct lx_run, phy_nb);
	const struct lx_userspace *us = &tail_of(r->lp, r->params)->us;

	(void)data;
	if (event == USB_EVENT_VBUS)
		mod_delayed_work(system_wq, &r->us_work,
				 msecs_to_jiffies((unsigned int)(us->after_plug / SIM_MS)));
	else if (event == USB_EVENT_NONE)
		cancel_delayed_work(&r->us_work);
	return NOTIFY_DONE;
}

/* ---- probe / remove ---- */

static void run_unload(struct lx_run *r)
{
	struct lx_policy *lp = r->lp;

	if (r->phy_nb.notifier_call)
		usb_unregister_notifier(r->board->phy, &r->phy_nb);
	cancel_delayed_work_sync(&r->us_work);
	if (r->loaded) {
		for (const struct cs_modinfo *mi = cs_modinfo_first(); mi; mi = mi->next)
			if (mi->kind == CS_MODINFO_EXIT && same_module(mi, lp->mod))
				mi->exit();
	}
	/* the module parameters, with every other static, go back to their first state
	 * when the driver is next probed (statics_reset) */
	if (cs_kernel()->dyndbg == lp->mod->modname)
		cs_kernel()->dyndbg = NULL;
	g_atomic_int_set(&lp->loaded, 0);
	g_free(r);
}

/* Byte by byte and outside AddressSanitizer's view: the sections hold the redzones
 * it puts between a driver's variables (make asan), which it forbids touching. from
 * NULL: zeros. */
static void __attribute__((no_sanitize_address)) copy_bytes(volatile char *to,
							     const volatile char *from, size_t n)
{
	for (size_t i = 0; i < n; i++)
		to[i] = from ? from[i] : 0;
}

/* The driver's static variables as a fresh process has them: kept before its first run,
 * put back before every other (the caller holds lp->loaded). */
static void statics_reset(struct lx_policy *lp)
{
	const struct cs_linux_statics *s = lp->statics;
	size_t n = s->data ? (size_t)(s->data_end - s->data) : 0;

	if (!lp->first_data) {
		lp->first_data = g_malloc(n + 1);
		copy_bytes(lp->first_data, s->data, n);
		return;
	}
	copy_bytes(s->data, lp->first_data, n);
	if (s->bss)
		copy_bytes(s->bss, NULL, (size_t)(s->bss_end - s->bss));
}

static int lx_probe(const struct cs_policy_desc *d, struct cs_board *board, void *params,
		    void **priv)
{
	struct lx_policy *lp = policy_of_desc(d);
	const struct lx_tail *t = tail_of(lp, params);
	struct cs_kernel *k = cs_kernel();
	struct lx_run *r;
	int ret;

	if (!g_atomic_int_compare_and_exchange(&lp->loaded, 0, 1)) {
		cs_printk("err", NULL, "%s: another run in this process has the driver loaded, and its static variables exist once per process: run one after the other, or in processes of their own as sweeps do",
			  d->name);
		return -EBUSY;
	}
	g_atomic_int_set(&any_loaded, 1);
	statics_reset(lp);
	r = g_new0(struct lx_run, 1);
	r->lp = lp;
	r->board = board;
	r->params = params;
	INIT_DELAYED_WORK(&r->us_work, us_work);
	for (int i = 0; i < lp->n_kparams; i++)
		kparam_from_slot(lp->kparams[i], (const char *)params + (size_t)i * KPARAM_SLOT);
	if (t->dyndbg)
		k->dyndbg = lp->mod->modname;
	if (!k->linux_dut) {
		cs_printk("err", NULL, "%s: the simulated board has no device for this driver", d->name);
		ret = -ENODEV;
		goto fail;
	}
	if (t->of && *t->of) {
		g_autofree char *msg = NULL;

		if (!k->linux_dut->of_node) {
			cs_printk("err", NULL, "%s: policy.params.of: the driver's device has no device-tree node",
				  d->name);
			ret = -EINVAL;
			goto fail;
		}
		ret = cs_of_apply_dts(k->linux_dut->of_node, t->of, &msg);
		if (ret) {
			cs_printk("err", NULL, "%s: policy.params.of: %s", d->name, msg);
			goto fail;
		}
	}
	g_free(k->first_err);
	k->first_err = NULL;
	cs_stack_event("module_init", "module", lp->mod->modname);
	ret = lp->mod->init ? lp->mod->init() : 0;
	r->loaded = true;
	if (ret == 0 && k->probe_failure.drv)
		ret = k->probe_failure.err;
	if (ret == 0 && !k->linux_dut->driver) {
		cs_printk("err", dev_name(k->linux_dut), "no driver of %s matched this device",
			  lp->mod->file);
		ret = -ENODEV;
	}
	if (ret)
		goto fail;
	if (t->us.path && *t->us.path && board->phy) {
		r->phy_nb.notifier_call = us_phy_notify;
		usb_register_notifier(board->phy, &r->phy_nb);
	}
	*priv = r;
	return 0;
fail:
	run_unload(r);
	return ret < 0 ? ret : -EINVAL;
}

static void lx_remove(void *priv)
{
	run_unload(priv);
}

/* A `set` event on policy.params: what user space can change on a loaded driver. A
 * module parameter writable in sysfs (/sys/module/<module>/parameters/<name>, mode
 * with a write bit) takes its new value as such a write would; "userspace" is read at
 * each plug; dynamic debug is switched. Parameters read only at probe (read-only
 * module parameters, "of") are refused when the scenario is loaded
 * (PARAM_F_PROBE_ONLY). */
static void lx_params_changed(void *priv)
{
	struct lx_run *r = priv;
	const struct lx_policy *lp = r->lp;
	const struct lx_tail *t = tail_of(lp, r->params);
	struct cs_kernel *k = cs_kernel();

	for (int i = 0; i < lp->n_kparams; i++)
		if (lp->kparams[i]->perm & 0222)
			kparam_from_slot(lp->kparams[i], (const char *)r->params + (size_t)i * KPARAM_SLOT);
	if (t->dyndbg)
		k->dyndbg = lp->mod->modname;
	else if (k->dyndbg == lp->mod->modname)
		k->dyndbg = NULL;
	cs_stack_event("module_params", "module", lp->mod->modname);
}

static void lx_params_default(const struct cs_policy_desc *d, void *params)
{
	const struct lx_policy *lp = policy_of_desc(d);
	struct lx_tail *t = (struct lx_tail *)(void *)((char *)params + lp->tail_off);

	for (int i = 0; i < lp->n_kparams; i++)
		kparam_to_slot(lp->kparams[i], lp->kparams[i]->dflt, (char *)params + (size_t)i * KPARAM_SLOT);
	if (lp->defaults) {
		apply_cmdline(lp, lp->defaults->cmdline, params);
		t->us.path = g_strdup(lp->defaults->us.path);
		t->us.value = g_strdup(lp->defaults->us.value);
		t->us.after_plug = lp->defaults->us.after_plug;
	}
}

/* ---- building the descriptors ---- */

static const struct param_desc userspace_desc[] = {
	{ "path", PARAM_STR, .off = offsetof(struct lx_userspace, path),
	  .doc = "sysfs file user space writes, class/power_supply/<supply>/<attribute> (\"\": none)" },
	{ "value", PARAM_STR, .off = offsetof(struct lx_userspace, value),
	  .doc = "what it writes (as `echo VALUE >` would)" },
	{ "after_plug", PARAM_TIME, .off = offsetof(struct lx_userspace, after_plug), .min = 0,
	  .max = 86400, .doc = "how long after each plug (the PHY's VBUS event)" },
	PARAM_END,
};

static int cmp_kparam(const void *a, const void *b)
{
	const struct cs_modinfo *x = *(const struct cs_modinfo *const *)a;
	const struct cs_modinfo *y = *(const struct cs_modinfo *const *)b;

	return x->line - y->line;
}

static void build_policy(struct lx_policy *lp, const struct cs_linux_module *mod)
{
	GPtrArray *kp = g_ptr_array_new();
	struct param_desc *table;
	const char *description = NULL;
	g_autofree char *file_id = NULL;
	int n = 0;

	lp->mod = mod;
	for (const struct cs_modinfo *mi = cs_modinfo_first(); mi; mi = mi->next) {
		if (!same_module(mi, mod))
			continue;
		if (mi->kind == CS_MODINFO_PARAM)
			g_ptr_array_add(kp, (gpointer)mi);
		else if (mi->kind == CS_MODINFO_DESCRIPTION)
			description = mi->text;
	}
	g_ptr_array_sort(kp, cmp_kparam);
	lp->n_kparams = (int)kp->len;
	lp->kparams = (const struct cs_modinfo **)g_ptr_array_free(kp, FALSE);
	lp->tail_off = (size_t)lp->n_kparams * KPARAM_SLOT;
	table = g_new0(struct param_desc, (gsize)lp->n_kparams + 4);
	for (int i = 0; i < lp->n_kparams; i++) {
		const struct cs_modinfo *mi = lp->kparams[i];
		struct param_desc *d = &table[n++];
		const char *doc = NULL;

		for (const struct cs_modinfo *m = cs_modinfo_first(); m; m = m->next)
			if (m->kind == CS_MODINFO_PARM_DESC && same_module(m, mod) &&
			    strcmp(m->name, mi->name) == 0)
				doc = m->text;
		d->key = mi->name;
		d->off = (size_t)i * KPARAM_SLOT;
		d->doc = g_strconcat("module parameter: ", doc ? doc : "(no description)", NULL);
		if (!(mi->perm & 0222))
			d->flags |= PARAM_F_PROBE_ONLY;   /* not writable in /sys/module */
		if (mi->type == CS_KPARAM_bool || mi->type == CS_KPARAM_invbool) {
			d->kind = PARAM_BOOL;
		} else if (mi->type == CS_KPARAM_charp) {
			d->kind = PARAM_STR;
		} else {
			d->kind = PARAM_INT;
			kparam_range(mi->type, &d->min, &d->max);
		}
	}
	table[n++] = (struct param_desc){
		"of", PARAM_STR, .off = lp->tail_off + offsetof(struct lx_tail, of),
		.flags = PARAM_F_PROBE_ONLY,
		.doc = "properties of the driver's device-tree node, .dts syntax: \"ti,charge-current = <2000000>; ti,use-ilim-pin; /delete-property/ ti,boost-voltage;\"" };
	table[n++] = (struct param_desc){
		"userspace", PARAM_OBJECT, .off = lp->tail_off + offsetof(struct lx_tail, us),
		.sub = userspace_desc, .doc = "one sysfs write user space makes after each plug" };
	table[n++] = (struct param_desc){
		"dyndbg", PARAM_BOOL, .off = lp->tail_off + offsetof(struct lx_tail, dyndbg),
		.doc = "dynamic debug for the module: its dev_dbg() messages are logged" };
	for (size_t i = 0; i < ARRAY_SIZE(board_defaults); i++)
		if (strcmp(board_defaults[i].file, mod->file) == 0)
			lp->defaults = &board_defaults[i];
	/* which bytes this build compiled: the driver file comes first */
	if (lp->files && lp->files[0])
		file_id = g_strdup_printf("; this build's file: %s, sha256 %.16s", lp->files[0]->status,
					  lp->files[0]->sha256);
	lp->desc = (struct cs_policy_desc){
		.abi = CS_POLICY_ABI,
		.name = g_strconcat("linux/", mod->file, mod->variant ? "@" : "", mod->variant, NULL),
		.summary = g_strconcat("the real driver: Linux 6.12 drivers/power/supply/", mod->file,
				       ".c", mod->variant ? " as KERNEL_EDITED has it" : "",
				       " (", description ? description : "no description", ")",
				       lp->defaults ? "; board defaults " : "",
				       lp->defaults ? lp->defaults->why : "",
				       file_id ? file_id : "", NULL),
		.params = table,
		.params_size = lp->tail_off + sizeof(struct lx_tail),
		.params_default = lx_params_default,
		.probe = lx_probe,
		.remove = lx_remove,
		.params_changed = lx_params_changed,
	};
}

static gpointer build_all(gpointer data)
{
	int n_builtin = 0, n_mod = 0;

	(void)data;
	while (cs_builtin_policies[n_builtin])
		n_builtin++;
	while (cs_linux_modules[n_mod])
		n_mod++;
	lx_policies = g_new0(struct lx_policy, (gsize)n_mod);
	all_policies = g_new0(const struct cs_policy_desc *, (gsize)(n_builtin + n_mod) + 1);
	n_lx_policies = n_mod;
	for (int i = 0; i < n_builtin; i++)
		all_policies[i] = cs_builtin_policies[i];
	for (int i = 0; i < n_mod; i++) {
		lx_policies[i].files = cs_linux_module_files[i];
		build_policy(&lx_policies[i], cs_linux_modules[i]);
		lx_policies[i].statics = &cs_linux_statics[i];
		all_policies[n_builtin + i] = &lx_policies[i].desc;
	}
	return NULL;
}

const struct cs_policy_desc *const *cs_policies(void)
{
	static GOnce once = G_ONCE_INIT;

	g_once(&once, build_all, NULL);
	return all_policies;
}

bool cs_linux_driver_loaded(void)
{
	return g_atomic_int_get(&any_loaded);
}

const struct cs_kfile *const *cs_linux_policy_files(const char *name)
{
	/* every real driver's name starts so: another policy's run builds no list */
	if (!name || strncmp(name, "linux/", 6) != 0)
		return NULL;
	cs_policies();   /* builds the list once */
	for (int i = 0; name && i < n_lx_policies; i++)
		if (strcmp(lx_policies[i].desc.name, name) == 0)
			return lx_policies[i].files;
	return NULL;
}
